"""Hugging Face ``evaluate.load("exact_match")`` on refscore's :class:`~refscore.metrics.exact_match.ExactMatch`:
evaluate 0.4.6's arguments and its output, ``{"exact_match": np.float64}`` on the 0–1 scale.

>>> from refscore.compat import evaluate
>>> exact_match = evaluate.load("exact_match")
>>> refs, preds = ["the cat", "theater", "YELLING", "agent007"], ["cat?", "theater", "yelling", "agent"]
>>> float(exact_match.compute(references=refs, predictions=preds, regexes_to_ignore=["the ", "yell", "YELL"],
...                           ignore_case=True, ignore_punctuation=True)["exact_match"])
0.75
"""
from __future__ import annotations

from typing import Any

import numpy as np

from refscore.compat._evaluate_base import EvaluateModule
from refscore.errors import InputTypeError
from refscore.metrics.exact_match import ExactMatch as ExactMatchMetric


def check_texts(values: list[Any], argument: str, owner: str) -> None:
    """evaluate's features take one string per example; anything else is refused here with its position."""
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise InputTypeError(f"{owner}: {argument}[{index}] must be a str (one text per example), got "
                                 f"{type(value).__name__}")


class ExactMatch(EvaluateModule):
    """``compute(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False,
    ignore_numbers=False)`` -> ``{"exact_match": rate}``; one reference string per prediction, as in evaluate."""

    name = "exact_match"
    input_layouts = ({"predictions": "string", "references": "string"},)

    def _compute(self, predictions: list[Any], references: list[Any], regexes_to_ignore: Any = None,
                 ignore_case: bool = False, ignore_punctuation: bool = False,
                 ignore_numbers: bool = False) -> dict[str, Any]:
        check_texts(predictions, "predictions", self.name)
        check_texts(references, "references", self.name)
        # evaluate loops `for s in regexes_to_ignore`: a lone string is its characters there, and here
        patterns = () if regexes_to_ignore is None else tuple(regexes_to_ignore)
        metric = ExactMatchMetric(regexes_to_ignore=patterns, ignore_case=ignore_case,
                                  ignore_punctuation=ignore_punctuation, ignore_numbers=ignore_numbers)
        return {"exact_match": np.mean(np.array(metric.matches(predictions, references, numpy_widths=True), dtype=bool))}
