"""MLflow 3 scorers on the same outputs: refscore.integrations.mlflow's against what an MLflow user writes today,
each called the way ``mlflow.genai.evaluate`` calls a scorer (``scorer(outputs=..., expectations=...)`` per row), on
``--segments`` WMT22 en-de outputs (one system) with their references as ``expected_response``.

MLflow's own ``mlflow.metrics.bleu()`` / ``rougeL()`` load HF evaluate's metric modules from the Hub on first use,
so they do not run offline (the script says so when they fail); the peer is therefore an MLflow ``@scorer`` calling
sacreBLEU's sentence function, with a ``Feedback`` as refscore's returns. refscore's feedback also carries its
explanation of the score as the rationale (the peer's has none): the row "no rationale" times the same call on the
scorer's own ``reward`` without it, to show that part's cost.

Per row of the table: the best wall time over ``--repeat`` runs for refscore and the peer, the ratio, and the share
of rows whose values agree to 1e-9.

    python benchmarks/bench_integrations_mlflow.py [--segments 2000] [--repeat 3]
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
import sacrebleu
from mlflow.entities import Feedback
from mlflow.genai.scorers import scorer

from _timing import best_time
from bench_bleu import one_system  # the sibling script (benchmarks/ is on sys.path)
import refscore
from refscore.integrations import mlflow as rm

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def sacrebleu_scorer(name: str, sentence: Callable[..., Any]) -> Any:
    """What an MLflow user writes today: sacreBLEU's sentence score per row, on the 0-1 scale."""
    def score_row(outputs: str, expectations: dict[str, Any]) -> Feedback:
        return Feedback(value=sentence(outputs, [expectations["expected_response"]]).score / 100)
    return scorer(score_row, name=f"sacrebleu_{name}")


def _values(function: Any, outputs: list[str], references: list[str]) -> np.ndarray:
    return np.array([function(outputs=output, expectations={"expected_response": reference}).value
                     for output, reference in zip(outputs, references)])


def _mlflow_builtin(outputs: list[str], references: list[str]) -> str:
    """MLflow's own BLEU, where it can run: it fetches HF evaluate's module from the Hub."""
    try:
        import mlflow.metrics
        import pandas as pd

        result = mlflow.metrics.bleu().eval_fn(pd.Series(outputs[:5]), pd.Series(references[:5]))
    except Exception as error:   # noqa: BLE001  # whatever the offline failure is, it is reported, not raised
        return f"unavailable here ({type(error).__name__})"
    return "ran" if result is not None else "unavailable here (evaluate's 'bleu' module could not be loaded)"


def main() -> None:
    args, outputs, references = one_system(__doc__.split("\n\n")[0])
    print(f"{len(outputs)} rows (WMT22 en-de); best of {args.repeat}; mlflow.metrics.bleu(): "
          f"{_mlflow_builtin(outputs, references)}")
    print(f"{'scorer':30} {'refscore ms':>11} {'peer ms':>9} {'ratio':>7} {'agree':>7}")
    rows = (("BLEU", rm.scorer("bleu"), sacrebleu_scorer("bleu", sacrebleu.sentence_bleu)),
            ("chrF", rm.scorer("chrf"), sacrebleu_scorer("chrf", sacrebleu.sentence_chrf)),
            ("TER", rm.scorer("ter"), sacrebleu_scorer("ter", sacrebleu.sentence_ter)))
    for label, ours, theirs in rows:
        own_wall, _, own = best_time(lambda: _values(ours, outputs, references), args.repeat)
        peer_wall, _, peer = best_time(lambda: _values(theirs, outputs, references), args.repeat)
        agree = float(np.mean(np.abs(own - peer) <= 1e-9))
        print(f"{label:30} {1e3 * own_wall:11.1f} {1e3 * peer_wall:9.1f} {peer_wall / own_wall:6.1f}x "
              f"{100 * agree:6.1f}%")
    reward = refscore.reward("chrf", num_threads=1)
    bare = scorer(lambda outputs, expectations: Feedback(value=float(reward([outputs], [[
        expectations["expected_response"]]])[0])), name="refscore_chrf_bare")
    own_wall, _, _ = best_time(lambda: _values(bare, outputs, references), args.repeat)
    peer = sacrebleu_scorer("chrf", sacrebleu.sentence_chrf)
    peer_wall, _, _ = best_time(lambda: _values(peer, outputs, references), args.repeat)
    print(f"{'chrF, no rationale':30} {1e3 * own_wall:11.1f} {1e3 * peer_wall:9.1f} {peer_wall / own_wall:6.1f}x")


if __name__ == "__main__":
    main()
