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
"""
from __future__ import annotations

from typing import Any

import numpy as np

from refscore._core._ngrams import bleu_text_statistics

__all__ = ["bleu_text_one", "one_segment_offsets", "single_text"]

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


def bleu_text_one(hypothesis: str, references: list[str], tokenize: str, lowercase: bool, max_order: int) -> list[int]:
    """The BLEU statistics row of one text segment (``bleu_text_statistics`` of it, one thread), as ints.

    >>> bleu_text_one("a b c", ["a b d"], "none", False, 2)
    [3, 3, 2, 1, 3, 2]
    """
    return bleu_text_statistics([hypothesis], references, one_segment_offsets(len(references)), tokenize, lowercase,
                                max_order, num_threads=1)[0].tolist()
