"""refscore metrics as lighteval metrics: ``LightevalTaskConfig(..., metrics=[sample_metric("chrf"),
corpus_metric("chrf", word_order=2)])``.

- :func:`sample_metric`: a ``SampleLevelMetric`` whose per-sample value is the metric's **sentence** score of
  the model's first completion (``ModelResponse.final_text[0]``) against every gold of the doc
  (``Doc.get_golds()``), with the metric's sentence-level defaults (BLEU: effective order, as
  ``sacrebleu.sentence_bleu``), aggregated by the mean (lighteval's stderr: the mean's);
- :func:`corpus_metric`: a ``CorpusLevelMetric`` whose per-sample step keeps the sample's statistics row and whose
  corpus step sums them through the metric's corpus formula (BLEU, chrF, TER: ``sacrebleu.corpus_*`` / 100).

References are always each doc's own golds: lighteval hands the corpus step one entry per sample, and each entry
is scored against its own references, so the orientation sacreBLEU wants (streams: ``[ref_id][sample_id]``)
never arises. That is lighteval #1112, where ``CorpusLevelTranslationMetric`` passes the per-sample lists to
sacreBLEU as streams and chrF / TER score only the first hypothesis against every gold pooled. The corpus step
also takes lighteval's own ``GenerativeCorpusMetricInput`` items (``golds``, ``preds``), so
``corpus_metric(...).corpus_level_fn`` can replace ``CorpusLevelTranslationMetric`` as it is. Scores are on
refscore's 0-1 scale (lighteval's translation metrics print sacreBLEU's ×100). Needs the ``lighteval`` extra.

>>> from refscore.integrations import lighteval as rl
>>> rl.corpus_value("chrf", [("GOOD", ["GOOD"]), ("PRED2", ["REF2"])], word_order=2) == (
...     __import__("refscore").CHRF(word_order=2).corpus_score(["GOOD", "PRED2"], [["GOOD"], ["REF2"]]).score)
True
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.lazy import require
from refscore.metrics import REGISTRY, get_metric_class
from refscore.protocol import Metric, Statistics
from refscore import reward

__all__ = ["corpus_metric", "corpus_value", "metrics", "sample_metric"]

_FEATURE = "refscore.integrations.lighteval"


def _prediction(model_response: Any) -> str:
    texts = list(getattr(model_response, "final_text", None) or [])
    if not texts:
        return ""   # no generation: scored as the empty string (a defined score)
    text = texts[0]
    if not isinstance(text, str):
        raise InputTypeError(f"{_FEATURE}: model_response.final_text[0] must be a string, got {type(text).__name__}")
    return text


def _golds(doc: Any) -> list[str]:
    golds = [gold for gold in doc.get_golds()]
    if not golds:
        raise InputError(f"{_FEATURE}: doc {getattr(doc, 'id', '?')!r} has no gold (doc.get_golds() is empty); give "
                         f"the doc choices and a gold_index")
    for position, gold in enumerate(golds):
        if not isinstance(gold, str):
            raise InputTypeError(f"{_FEATURE}: gold {position} of doc {getattr(doc, 'id', '?')!r} must be a string, "
                                 f"got {type(gold).__name__}")
    return golds


def _row(metric: Metric, prediction: str, golds: Sequence[str]) -> dict[str, Any]:
    """One sample's statistics row, what the corpus step sums (plain Python: lighteval may save or copy it)."""
    stats = metric.statistics([prediction], [list(golds)], num_threads=1)
    return {"row": stats.data[0].tolist(), "nrefs": stats.nrefs}


def _entry_row(metric: Metric, item: Any, position: int) -> dict[str, Any]:
    """A corpus-step entry: a row from :func:`corpus_metric`'s sample step, or lighteval's own
    ``GenerativeCorpusMetricInput`` (its ``golds`` are that sample's references, whatever their number)."""
    if isinstance(item, dict) and "row" in item:
        return item
    golds, preds = getattr(item, "golds", None), getattr(item, "preds", None)
    if golds is None or preds is None:
        raise InputTypeError(f"{_FEATURE}: corpus item {position} is neither a refscore statistics row nor a "
                             f"lighteval GenerativeCorpusMetricInput (golds, preds); got {type(item).__name__}")
    preds = [preds] if isinstance(preds, str) else list(preds)
    return _row(metric, preds[0] if preds else "", [golds] if isinstance(golds, str) else list(golds))


def _corpus(metric: Metric, items: Sequence[Any], score: str | None) -> float:
    if not items:
        raise InputError(f"{_FEATURE}: the corpus step got no samples")
    entries = [_entry_row(metric, item, position) for position, item in enumerate(items)]
    rows = [entry["row"] for entry in entries]
    integral = all(float(x).is_integer() for row in rows for x in row)
    probe = metric.statistics(["a"], [["a"]], num_threads=1)
    data = np.asarray(rows, dtype=np.int64 if integral else np.float64).reshape(len(rows), len(probe.columns))
    nrefs = {int(entry["nrefs"]) for entry in entries}
    stats: Statistics = metric.new_statistics(probe.columns, data, nrefs.pop() if len(nrefs) == 1 else -1)
    if score is None:
        return float(metric.score_from_statistics(stats).score)
    return float(metric.scores_from_totals(stats.totals()[None, :])[0, metric.score_names.index(score)])


def corpus_value(name: str, pairs: Sequence[tuple[str, Sequence[str]]], *, score: str | None = None,
                 **options: Any) -> float:
    """What :func:`corpus_metric`'s two steps give for ``(prediction, golds)`` pairs, without lighteval."""
    metric = get_metric_class(name)(**options)
    return _corpus(metric, [_row(metric, prediction, golds) for prediction, golds in pairs], score)


def _check_score(metric: Metric, score: str | None) -> None:
    if score is not None and score not in metric.score_names:
        raise InputError(f"{_FEATURE}: score {score!r} is not one of {metric.name}'s scores: "
                         f"{', '.join(metric.score_names)}")


@functools.lru_cache(maxsize=1)
def _classes() -> dict[str, type]:
    """lighteval's computation classes, subclassed on first use (importing lighteval is the expensive step)."""
    metrics_sample = require("lighteval.metrics.metrics_sample", _FEATURE, "lighteval")
    metrics_corpus = require("lighteval.metrics.metrics_corpus", _FEATURE, "lighteval")
    preparator = require("lighteval.metrics.sample_preparator", _FEATURE, "lighteval")

    class RefscoreSentence(metrics_sample.SampleLevelComputation):  # type: ignore[name-defined]  # lighteval, imported lazily
        """The sentence score of the first completion against the doc's golds."""

        def __init__(self, name: str, score: str | None = None, **options: Any) -> None:
            self.name, self.score, self.options = name, score, options
            self.reward = reward(name, score=score, **options)  # type: ignore[operator]  # the facade's function

        def compute(self, doc: Any, model_response: Any, **kwargs: Any) -> float:
            return float(self.reward([_prediction(model_response)], [_golds(doc)])[0])

    class RefscoreStatistics(preparator.Preparator):  # type: ignore[name-defined]  # lighteval, imported lazily
        """The statistics row of the first completion against the doc's golds."""

        def __init__(self, metric: Metric) -> None:
            self.metric = metric

        def prepare(self, doc: Any, model_response: Any, **kwargs: Any) -> dict[str, Any]:
            return _row(self.metric, _prediction(model_response), _golds(doc))

    class RefscoreCorpus(metrics_corpus.CorpusLevelComputation):  # type: ignore[name-defined]  # lighteval, imported lazily
        """The corpus score of the summed rows (or of lighteval's GenerativeCorpusMetricInput items)."""

        def __init__(self, metric: Metric, score: str | None = None) -> None:
            self.metric, self.score = metric, score

        def compute_corpus(self, items: list[Any]) -> float:
            return _corpus(self.metric, items, self.score)

    classes: dict[str, type] = {"RefscoreSentence": RefscoreSentence, "RefscoreStatistics": RefscoreStatistics,
                                "RefscoreCorpus": RefscoreCorpus}
    for cls in classes.values():   # importable by name (pickle): the module's __getattr__ gives them
        cls.__module__, cls.__qualname__ = __name__, cls.__name__
    return classes


def _lighteval() -> tuple[Any, Any]:
    metric_utils = require("lighteval.metrics.utils.metric_utils", _FEATURE, "lighteval")
    requests = require("lighteval.tasks.requests", _FEATURE, "lighteval")
    return metric_utils, requests.SamplingMethod


def sample_metric(name: str, *, score: str | None = None, metric_name: str | None = None, **options: Any) -> Any:
    """A lighteval ``SampleLevelMetric`` of the refscore metric ``name`` (sentence scores, their mean); its
    ``metric_name`` defaults to ``refscore_NAME``."""
    metric_utils, sampling = _lighteval()
    computation = _classes()["RefscoreSentence"](name, score=score, **options)
    return metric_utils.SampleLevelMetric(
        metric_name=metric_name or f"refscore_{name}",
        higher_is_better=bool(computation.reward.metric.higher_is_better),
        category=sampling.GENERATIVE, sample_level_fn=computation, corpus_level_fn=np.mean)


def corpus_metric(name: str, *, score: str | None = None, metric_name: str | None = None, **options: Any) -> Any:
    """A lighteval ``CorpusLevelMetric`` of the refscore metric ``name`` with its corpus defaults and ``options``
    (statistics rows per sample, summed by the corpus step); ``metric_name`` defaults to ``refscore_NAME_corpus``."""
    metric_utils, sampling = _lighteval()
    metric = get_metric_class(name)(**options)
    _check_score(metric, score)
    classes = _classes()
    return metric_utils.CorpusLevelMetric(
        metric_name=metric_name or f"refscore_{name}_corpus", higher_is_better=bool(metric.higher_is_better),
        category=sampling.GENERATIVE, sample_level_fn=classes["RefscoreStatistics"](metric),
        corpus_level_fn=classes["RefscoreCorpus"](metric, score))


def metrics() -> dict[str, Any]:
    """Both lighteval metrics of every registered refscore metric with its defaults, by ``metric_name``."""
    built: dict[str, Any] = {}
    for name in REGISTRY:
        for item in (sample_metric(name), corpus_metric(name)):
            built[item.metric_name] = item
    return built


def __getattr__(name: str) -> Any:
    """``RefscoreSentence``, ``RefscoreStatistics``, ``RefscoreCorpus``: the classes, defined when first read."""
    if name in ("RefscoreSentence", "RefscoreStatistics", "RefscoreCorpus"):
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
