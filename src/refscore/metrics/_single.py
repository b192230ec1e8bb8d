"""The per-call fast path of the single-sentence entry points (``Metric.sentence_score`` of BLEU, chrF, TER and
the functions and drop-ins built on it): one hypothesis that is a plain ``str`` and references that are a ``str``
or a non-empty list / tuple of ``str`` go straight to the kernel, without the batch machinery (validation of a
batch, a :class:`~refscore.protocol.Statistics` table, the statistics checks). Anything else returns None from
:func:`single_text` and takes the batch path, with its checks and error messages; both paths give the same
numbers bit for bit (tests/test_single_call_fast_path.py).

>>> single_text("a b", "a c"), single_text("a b", ("x", "y")), single_text(["a"], "a"), single_text("a", [])
(['a c'], ['x', 'y'], None, None)
>>> one_segment_offsets(2).tolist()
[0, 2]

:class:`SentenceResults` is the slim equivalent of :meth:`Metric.new_score` for these calls: the metric's result
class with the fields ``new_score`` stamps from the metric (name, signature, direction, printed scale), filled
from one dict made once per reference count, without the statistics table and its checks.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from refscore.protocol import Metric, Score

__all__ = ["SentenceResults", "one_segment_offsets", "single_text"]

_OFFSETS: dict[int, np.ndarray] = {}


def single_text(hypothesis: Any, references: Any) -> list[str] | None:
    """The references of one text pair as a list, or None when the pair is not plain ``str`` text (token ids,
    ``str`` subclasses, other containers, an empty list, a wrong item: the batch path checks and reports those)."""
    if type(hypothesis) is not str:
        return None
    kind = type(references)
    if kind is str:
        return [references]
    if (kind is list or kind is tuple) and references:
        for reference in references:
            if type(reference) is not str:
                return None
        return list(references)
    return None


def one_segment_offsets(nrefs: int) -> np.ndarray:
    """The read-only int64 ``ref_offsets`` ``[0, nrefs]`` of one segment, made once per reference count."""
    offsets = _OFFSETS.get(nrefs)
    if offsets is None:
        offsets = np.array([0, nrefs], dtype=np.int64)
        offsets.setflags(write=False)
        _OFFSETS[nrefs] = offsets
    return offsets


class SentenceResults:
    """Results of one metric's sentence calls, built as :meth:`Metric.new_score` builds them (the same fields,
    equal results) from the score and the named values: every other field comes from one dict per reference
    count, made from the metric the first time. A result class whose fields need more than their defaults (a
    ``__post_init__`` of its own, a required or factory-made field besides ``values``) is built by calling it.

    >>> import refscore
    >>> results = SentenceResults(refscore.BLEU())
    >>> made = results.make(0.5, 1, {"bp": 1.0})
    >>> made.metric, made.score, made.values, made.higher_is_better, made.signature.startswith("nrefs:1|")
    ('bleu', 0.5, {'bp': 1.0}, True, True)
    """

    __slots__ = ("_cls", "_fields", "_metric", "_plain")

    def __init__(self, metric: Metric) -> None:
        cls: type[Score] = metric.score_class
        self._metric, self._cls = metric, cls
        self._fields: dict[int, dict[str, Any]] = {}
        fields = dataclasses.fields(cls)
        self._plain = cls.__post_init__ is Score.__post_init__ and all(
            field.name in ("metric", "score", "signature", "values") or field.default is not dataclasses.MISSING
            for field in fields)

    def _template(self, nrefs: int) -> dict[str, Any]:
        metric = self._metric
        template = {field.name: field.default for field in dataclasses.fields(self._cls)
                    if field.default is not dataclasses.MISSING}
        template.update(metric=metric.name, signature=metric.signature_text(nrefs),
                        higher_is_better=bool(metric.higher_is_better), display_scale=float(metric.display_scale))
        self._fields[nrefs] = template
        return template

    def make(self, score: float, nrefs: int, values: dict[str, Any]) -> Any:
        """The result of ``score`` with the non-empty named ``values``, for ``nrefs`` references."""
        template = self._fields.get(nrefs) or self._template(nrefs)
        if not self._plain:
            return self._cls(**{**template, "score": score, "values": values})
        result = object.__new__(self._cls)
        fields = template.copy()
        fields["score"] = score
        fields["values"] = values
        object.__setattr__(result, "__dict__", fields)   # a frozen dataclass: its __init__ sets them the same way
        return result
