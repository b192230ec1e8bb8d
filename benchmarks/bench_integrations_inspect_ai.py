"""inspect_ai scorers on the same outputs: inspect_ai's own scorers against refscore.integrations.inspect_ai's, each
called the way an eval calls it (``await scorer(state, target)`` per sample), then the scorer's metrics over the
sample scores, on ``--segments`` WMT22 en-de outputs (one system) with their references as targets.

- ``f1()`` (inspect_ai's token F1) vs ``refscore/squad`` (``score="f1"``: SQuAD's F1) and ``exact()`` vs
  ``refscore/exact_match``: the same-named measures, compared sample by sample (agreement, largest difference);
- chrF: inspect_ai has none, so a hand-written scorer calling ``sacrebleu.sentence_chrf`` vs ``refscore/chrf``, and
  the corpus chrF (``sacrebleu.corpus_chrf``) vs ``refscore/chrf_corpus`` with its ``corpus_score`` metric.

Per row: the best wall time of scoring every sample over ``--repeat`` runs, the peer's, the ratio, the share of
samples whose values agree to 1e-9 and the largest difference.

    python benchmarks/bench_integrations_inspect_ai.py [--segments 2000] [--repeat 3]
"""
from __future__ import annotations

import asyncio
import logging

import numpy as np
import sacrebleu
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import SampleScore, Score, Target, exact, f1, mean, scorer
from inspect_ai.solver import TaskState

from _timing import best_time
from bench_bleu import one_system  # the sibling script (benchmarks/ is on sys.path)
from refscore.integrations import inspect_ai as ri

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


@scorer(metrics=[mean()])
def sacrebleu_chrf():
    """What an inspect_ai user writes for chrF today: sacreBLEU's sentence chrF per sample."""
    async def score(state, target):
        return Score(value=sacrebleu.sentence_chrf(state.output.completion, list(target.target)).score / 100)
    return score


def _states(outputs: list[str], references: list[str]) -> list[tuple[TaskState, Target]]:
    return [(TaskState(model="mockllm/model", sample_id=i, epoch=1, input="", messages=[],
                       output=ModelOutput.from_content(model="mockllm/model", content=output)), Target([reference]))
            for i, (output, reference) in enumerate(zip(outputs, references))]


def _score_all(scorer_fn, pairs) -> list[Score]:
    async def run() -> list[Score]:
        return [await scorer_fn(state, target) for state, target in pairs]
    return asyncio.run(run())


def main() -> None:
    args, outputs, references = one_system(__doc__.split("\n\n")[0])
    pairs = _states(outputs, references)
    print(f"{len(pairs)} samples (WMT22 en-de); best of {args.repeat}")
    print(f"{'measure':34} {'refscore ms':>11} {'inspect/peer ms':>15} {'ratio':>7} {'agree':>7} {'max diff':>9}")
    rows = (("F1: f1() vs refscore/squad", ri.scorer("squad", score="f1"), f1()),
            ("exact: exact() vs refscore/exact_match", ri.scorer("exact_match"), exact()),
            ("chrF: sacreBLEU scorer vs refscore/chrf", ri.scorer("chrf"), sacrebleu_chrf()))
    for label, ours, theirs in rows:
        own_wall, _, own = best_time(lambda: _score_all(ours, pairs), args.repeat)
        peer_wall, _, peer = best_time(lambda: _score_all(theirs, pairs), args.repeat)
        a = np.array([s.as_float() for s in own])
        b = np.array([s.as_float() if not isinstance(s.value, str) else float(s.value == "C") for s in peer])
        agree = float(np.mean(np.abs(a - b) <= 1e-9))
        print(f"{label:34} {1e3 * own_wall:11.1f} {1e3 * peer_wall:15.1f} {peer_wall / own_wall:6.1f}x "
              f"{100 * agree:6.1f}% {np.max(np.abs(a - b)):9.2e}")
    corpus = ri.scorer("chrf", corpus=True)
    metric = ri.corpus_score()
    own_wall, _, value = best_time(
        lambda: metric([SampleScore(score=s, sample_id=i) for i, s in enumerate(_score_all(corpus, pairs))]),
        args.repeat)
    peer_wall, _, peer_value = best_time(lambda: sacrebleu.corpus_chrf(outputs, [references]).score / 100,
                                         args.repeat)
    print(f"{'corpus chrF: sacreBLEU vs _corpus':34} {1e3 * own_wall:11.1f} {1e3 * peer_wall:15.1f} "
          f"{peer_wall / own_wall:6.1f}x {'':>7} {abs(value - peer_value):9.2e}")


if __name__ == "__main__":
    main()
