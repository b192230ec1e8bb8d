"""Short explanations of one case's score: what the output lacks compared with the expected output.

Each metric explains its own scores (:meth:`~refscore.protocol.Metric.explain_case`, beside each metric, e.g.
:mod:`refscore.metrics.bleu.explain`); a check asks the metric it runs, with the options it runs it with. Scores
computed elsewhere (a ``file:PATH`` check)
cannot be explained from the text: their explanation names the file and line the score was read from.

>>> from refscore.testing.checks import Check
>>> print(explain(Check("rougeL"), "the cat sat", ["the black cat sat"]))
ROUGE-L F 0.857 (recall 0.750, precision 1.000); reference words outside the longest common subsequence: 'black'
"""
from __future__ import annotations

from collections.abc import Sequence

from refscore.testing.checks import Check


def explain(check: Check, output: str, references: str | Sequence[str], case_id: str | None = None) -> str:
    """The explanation of one case's score under ``check``; a check on outside scores says where the case's score
    was read (the row whose id is ``case_id``)."""
    refs = [references] if isinstance(references, str) else list(references)
    return check.metric.explain_segment(output, refs, check.system, case_id)


__all__ = ["explain"]
