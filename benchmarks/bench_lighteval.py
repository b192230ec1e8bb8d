"""lighteval's translation metrics against refscore.integrations.lighteval's on the same outputs, each run the way
lighteval's pipeline runs a ``CorpusLevelMetric``: per document ``metric.compute_sample(doc=, model_response=)``,
then the corpus aggregation over the per-document results. WMT22 en-de, one system, the first ``--segments``
segments, one gold each.

- BLEU: lighteval's ``Metrics.bleu`` (``GenerativePreparator`` + ``CorpusLevelTranslationMetric("bleu")``, which
  transposes the golds into sacreBLEU's streams) against ``corpus_metric("bleu")``: the same number is expected
  (lighteval's on sacreBLEU's 0-100 scale, divided here). Its corpus step calls ``nltk.download("punkt_tab")`` on
  every call; that is made a no-op here so that no network time is counted.
- chrF, chrF++, TER: lighteval's ``CorpusLevelTranslationMetric`` hands the per-document gold lists to sacreBLEU as
  reference *streams* (lighteval #1112), so its number is the first hypothesis scored against every gold, not the
  corpus score. The row's peer is therefore sacreBLEU's ``corpus_*`` in the right orientation, after lighteval's
  own per-document step (what lighteval would cost with the orientation fixed); lighteval's printed value is shown
  beside it.
- sentence chrF averaged (lighteval has no sample-level chrF): a ``SampleLevelMetric`` calling
  ``sacrebleu.sentence_chrf`` against ``sample_metric("chrf")``.

Printed per row: the best wall time over ``--repeat`` runs for refscore and the peer, the ratio, refscore's value,
the peer's, and whether they agree to 1e-9 (lighteval's own value for the #1112 rows). Needs lighteval, which pins
nltk 3.9.1 and so lives in a venv of its own (.ci/constraints-lighteval.txt):

    python benchmarks/bench_lighteval.py [--segments 2000] [--repeat 3]
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import nltk
import numpy as np
import sacrebleu
from lighteval.metrics.metrics import Metrics
from lighteval.metrics.metrics_corpus import CorpusLevelTranslationMetric
from lighteval.metrics.sample_preparator import GenerativePreparator
from lighteval.metrics.utils.metric_utils import CorpusLevelMetric, SampleLevelMetric
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.models.model_output import ModelResponse
from lighteval.tasks.requests import Doc, SamplingMethod

from _timing import best_time
from bench_bleu import one_system  # the sibling script (benchmarks/ is on sys.path)
from refscore.integrations import lighteval as rl

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
nltk.download = lambda *args, **kwargs: True   # lighteval's BLEU asks for punkt_tab on every corpus call


class _SentenceChrf(SampleLevelComputation):
    """What a lighteval user writes for sentence chrF today: sacreBLEU's, per document, on lighteval's 0-100 scale
    divided to refscore's 0-1."""

    def compute(self, doc: Doc, model_response: ModelResponse, **kwargs: Any) -> float:
        return sacrebleu.sentence_chrf(model_response.final_text[0], doc.get_golds()).score / 100


def _run(metric: Any, docs: list[Doc], responses: list[ModelResponse]) -> float:
    """lighteval's pipeline for one metric: the per-document step, then the corpus aggregation."""
    rows = [metric.compute_sample(doc=doc, model_response=response)[metric.metric_name]
            for doc, response in zip(docs, responses)]
    return float(metric.get_corpus_aggregations()[metric.metric_name](rows))


def _fixed_orientation(name: str, peer: Callable[..., Any]) -> CorpusLevelMetric:
    """lighteval's per-document step with the corpus step sacreBLEU's in the right orientation."""
    def corpus(items: list[Any]) -> float:
        return peer([item.preds[0] for item in items], [[item.golds[0] for item in items]]).score / 100
    return CorpusLevelMetric(metric_name=name, sample_level_fn=GenerativePreparator(),
                             category=SamplingMethod.GENERATIVE, corpus_level_fn=corpus, higher_is_better=True)


def main() -> None:
    args, outputs, references = one_system(__doc__.split("\n\n")[0])
    docs = [Doc(query="", choices=[reference], gold_index=0, task_name="wmt22|en-de") for reference in references]
    responses = [ModelResponse(text=[output]) for output in outputs]
    print(f"{len(docs)} documents (WMT22 en-de, one system); best of {args.repeat}; scores on the 0-1 scale")
    print(f"{'metric':26} {'refscore ms':>11} {'peer ms':>9} {'ratio':>7} {'refscore':>9} {'peer':>9} "
          f"{'agree':>6} {'lighteval':>9}")
    sentence_chrf = SampleLevelMetric(metric_name="chrf_sentence", sample_level_fn=_SentenceChrf(),
                                      category=SamplingMethod.GENERATIVE, corpus_level_fn=np.mean,
                                      higher_is_better=True)
    rows = (("BLEU", rl.corpus_metric("bleu"), Metrics.bleu.value, 100, None),
            ("chrF", rl.corpus_metric("chrf"), _fixed_orientation("chrf", sacrebleu.corpus_chrf), 1, "chrf"),
            ("chrF++", rl.corpus_metric("chrf", word_order=2),
             _fixed_orientation("chrf++", lambda h, r: sacrebleu.CHRF(word_order=2).corpus_score(h, r)), 1,
             "chrf++"),
            ("TER", rl.corpus_metric("ter"), _fixed_orientation("ter", sacrebleu.corpus_ter), 1, "ter"),
            ("sentence chrF, mean", rl.sample_metric("chrf"), sentence_chrf, 1, None))
    for label, ours, peer, scale, lighteval_name in rows:
        own_wall, _, own = best_time(lambda: _run(ours, docs, responses), args.repeat)
        peer_wall, _, theirs = best_time(lambda: _run(peer, docs, responses) / scale, args.repeat)
        shipped = ""
        if lighteval_name is not None:   # lighteval's own corpus step, as it ships (#1112)
            items = [GenerativePreparator.prepare(doc=doc, model_response=response)
                     for doc, response in zip(docs, responses)]
            shipped = f"{CorpusLevelTranslationMetric(lighteval_name).compute_corpus(items) / 100:9.4f}"
        print(f"{label:26} {1e3 * own_wall:11.1f} {1e3 * peer_wall:9.1f} {peer_wall / own_wall:6.1f}x "
              f"{own:9.4f} {theirs:9.4f} {str(abs(own - theirs) <= 1e-9):>6} {shipped:>9}")


if __name__ == "__main__":
    main()
