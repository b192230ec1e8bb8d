"""The Hugging Face ``evaluate`` module protocol shared by refscore's ``evaluate.load(...)`` objects: ``add``,
``add_batch`` and ``compute(predictions=..., references=..., **options)`` (queued examples are scored with the
given batch, then cleared). Subclasses implement ``_compute(predictions, references, **options)``."""
from __future__ import annotations

from typing import Any

from refscore.errors import InputError, InputTypeError


class EvaluateModule:
    """Base of the HF-compatible metric objects; ``name`` is the HF metric name (used in error messages)."""

    name = "metric"

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
            raise InputError(f"{self.name} needs both predictions=[...] and references=[...]")
        for name, value in (("predictions", predictions), ("references", references)):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise InputTypeError(f"{self.name}: {name} must be a list with one entry per example, got "
                                     f"{type(value).__name__}")
        if len(predictions) != len(references):
            raise InputError(f"{self.name}: {len(predictions)} predictions but {len(references)} references; give "
                             f"one reference entry (a string or a list of strings) per prediction")
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(self, *, predictions: Any = None, references: Any = None, **options: Any) -> dict[str, Any]:
        """The metric on the given batch plus everything queued by ``add``/``add_batch`` (then cleared)."""
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        predictions, references = self._predictions, self._references
        self._predictions, self._references = [], []
        if not predictions:
            raise InputError(f"{self.name}.compute needs predictions=[...] and references=[...] (or add_batch "
                             f"first)")
        return self._compute(predictions, references, **options)

    def _compute(self, predictions: list[Any], references: list[Any], **options: Any) -> dict[str, Any]:
        raise NotImplementedError


def same_count_references(references: list[Any], owner: str) -> list[Any]:
    """HF's sacreBLEU-based scripts: a string reference becomes ``[reference]`` and every prediction must have the
    same number of references (``owner`` names the metric as HF's message does)."""
    per_prediction = [[ref] if isinstance(ref, str) else ref for ref in references]
    counts = {len(refs) for refs in per_prediction if hasattr(refs, "__len__")}
    if len(counts) > 1:
        raise InputError(f"{owner} requires the same number of references for each prediction (got counts "
                         f"{sorted(counts)}); give every prediction the same number of references")
    return per_prediction
