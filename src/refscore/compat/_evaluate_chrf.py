"""Hugging Face ``evaluate.load("chrf")``: the metric script's arguments, checks and output dict, on refscore.

>>> from refscore.compat import evaluate
>>> chrf = evaluate.load("chrf")
>>> chrf.compute(predictions=["The cat sat."], references=[["The cat sat on the mat."]])["score"]
49.26069433771915
"""
from __future__ import annotations

from typing import Any

from refscore.compat._evaluate_base import EvaluateModule, same_count_references
from refscore.compat._sacrebleu_chrf import CHRF


class ChrF(EvaluateModule):
    """The HF ``chrf`` metric: ``compute(predictions, references, char_order=6, word_order=0, beta=2,
    lowercase=False, whitespace=False, eps_smoothing=False)`` -> ``{"score", "char_order", "word_order",
    "beta"}`` (score on the 0–100 scale). ``references[i]`` is a string or a list of strings; as in HF, every
    prediction needs the same number of references."""

    name = "chrf"

    def _compute(self, predictions: list[Any], references: list[Any], char_order: int = CHRF.CHAR_ORDER,
                 word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False) -> dict[str, Any]:
        per_prediction = same_count_references(references, "ChrF, as implemented by sacrebleu,")
        metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        output = metric._corpus_score_per_segment(predictions, per_prediction)
        return {"score": output.score, "char_order": output.char_order, "word_order": output.word_order,
                "beta": output.beta}
