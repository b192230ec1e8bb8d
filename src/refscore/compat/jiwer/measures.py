"""jiwer 4.0's ``jiwer.measures``: ``wer``, ``mer``, ``wil``, ``wip``, ``cer`` of one or more sentence pairs
(the totals' measures; no alignment objects are built for them).

>>> wer("the cat sat", "the cat sit"), cer("abc", "abd")
(0.3333333333333333, 0.3333333333333333)
"""
from __future__ import annotations

from typing import Any

from refscore.compat.jiwer.process import _process_characters, _process_words, _Transform
from refscore.compat.jiwer.transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wil", "wip", "cer"]


def wer(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = wer_default,
        hypothesis_transform: _Transform = wer_default) -> float:
    """Word error rate: (S + D + I) / (H + S + D) over all pairs.

    >>> wer(["a b", "c"], ["a x", "c"])
    0.3333333333333333
    """
    return _process_words(reference, hypothesis, reference_transform, hypothesis_transform, False).wer


def mer(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = wer_default,
        hypothesis_transform: _Transform = wer_default) -> float:
    """Match error rate: (S + D + I) / (H + S + D + I).

    >>> mer("a b", "a b c")
    0.3333333333333333
    """
    return _process_words(reference, hypothesis, reference_transform, hypothesis_transform, False).mer


def wip(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = wer_default,
        hypothesis_transform: _Transform = wer_default) -> float:
    """Word information preserved: (H / reference words) * (H / hypothesis words).

    >>> wip("a b", "a c")
    0.25
    """
    return _process_words(reference, hypothesis, reference_transform, hypothesis_transform, False).wip


def wil(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = wer_default,
        hypothesis_transform: _Transform = wer_default) -> float:
    """Word information lost: 1 - WIP.

    >>> wil("a b", "a c")
    0.75
    """
    return _process_words(reference, hypothesis, reference_transform, hypothesis_transform, False).wil


def cer(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = cer_default,
        hypothesis_transform: _Transform = cer_default) -> float:
    """Character error rate (spaces count, the ends stripped).

    >>> cer("kitten", "sitting")
    0.5
    """
    return _process_characters(reference, hypothesis, reference_transform, hypothesis_transform, False).cer
