"""jiwer 4.0's ``jiwer.measures``: ``wer``, ``mer``, ``wil``, ``wip``, ``cer`` of one or more sentence pairs
(the totals' measures; no alignment objects are built for them).

>>> wer("the cat sat", "the cat sit"), cer("abc", "abd")
(0.3333333333333333, 0.3333333333333333)
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from refscore.compat.jiwer.process import _process_characters, _process_words, _Transform
from refscore.compat.jiwer.transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wil", "wip", "cer"]


class _Measure(Protocol):
    """jiwer's signature of every measure."""

    def __call__(self, reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = ...,
                 hypothesis_transform: _Transform = ...) -> float: ...


def _measure(name: str, process: Callable[..., Any], default: _Transform, doc: str) -> _Measure:
    """jiwer's function ``name``: the field ``name`` of ``process``'s totals (no alignment objects built), with
    jiwer's arguments and ``default`` transforms; one definition for the five measures."""
    def measure(reference: Any = None, hypothesis: Any = None, reference_transform: _Transform = default,
                hypothesis_transform: _Transform = default) -> float:
        return getattr(process(reference, hypothesis, reference_transform, hypothesis_transform, False), name)

    measure.__name__ = measure.__qualname__ = name
    measure.__doc__ = doc
    return measure


wer = _measure("wer", _process_words, wer_default, """Word error rate: (S + D + I) / (H + S + D) over all pairs.

    >>> wer(["a b", "c"], ["a x", "c"])
    0.3333333333333333
    """)
mer = _measure("mer", _process_words, wer_default, """Match error rate: (S + D + I) / (H + S + D + I).

    >>> mer("a b", "a b c")
    0.3333333333333333
    """)
wip = _measure("wip", _process_words, wer_default, """Word information preserved: (H / reference words) * (H /
    hypothesis words).

    >>> wip("a b", "a c")
    0.25
    """)
wil = _measure("wil", _process_words, wer_default, """Word information lost: 1 - WIP.

    >>> wil("a b", "a c")
    0.75
    """)
cer = _measure("cer", _process_characters, cer_default, """Character error rate (spaces count, the ends stripped).

    >>> cer("kitten", "sitting")
    0.5
    """)
