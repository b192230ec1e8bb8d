"""Hugging Face ``evaluate.load("chrf")``: the metric script's arguments, checks and output dict, on refscore.

>>> from refscore.compat import evaluate
>>> chrf = evaluate.load("chrf")
>>> chrf.compute(predictions=["The cat sat."], references=[["The cat sat on the mat."]])["score"]
49.26069433771915
"""
from __future__ import annotations

from typing import Any

from refscore.compat._sacrebleu_chrf import CHRF
from refscore.errors import InputError, InputTypeError


class ChrF:
    """The HF ``chrf`` metric: ``compute(predictions, references, char_order=6, word_order=0, beta=2,
    lowercase=False, whitespace=False, eps_smoothing=False)`` -> ``{"score", "char_order", "word_order",
    "beta"}`` (score on the 0–100 scale). ``references[i]`` is a string or a list of strings; as in HF, every
    prediction needs the same number of references."""

    name = "chrf"

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # HF's config_name, cache_dir... do not apply
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Queue one example for the next ``compute()`` (HF's ``add``)."""
        self._predictions.append(prediction)
        self._references.append(reference)

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Queue a batch for the next ``compute()`` (HF's ``add_batch``)."""
        if predictions is None or references is None:
            raise InputError("chrf needs both predictions=[...] and references=[...]")
        for name, value in (("predictions", predictions), ("references", references)):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise InputTypeError(f"chrf: {name} must be a list with one entry per example, got "
                                     f"{type(value).__name__}")
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(self, *, predictions: Any = None, references: Any = None, char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, lowercase: bool = False,
                whitespace: bool = False, eps_smoothing: bool = False) -> dict[str, Any]:
        """The chrF of the given batch plus everything queued by ``add``/``add_batch`` (then cleared)."""
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        predictions, references = self._predictions, self._references
        self._predictions, self._references = [], []
        if not predictions:
            raise InputError("chrf.compute needs predictions=[...] and references=[...] (or add_batch first)")
        per_prediction = [[ref] if isinstance(ref, str) else ref for ref in references]
        counts = {len(refs) for refs in per_prediction if hasattr(refs, "__len__")}
        if len(counts) > 1:
            raise InputError("ChrF, as implemented by sacrebleu, requires the same number of references for each "
                             f"prediction (got counts {sorted(counts)})")
        metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        output = metric._corpus_score_per_segment(predictions, per_prediction)
        return {"score": output.score, "char_order": output.char_order, "word_order": output.word_order,
                "beta": output.beta}
