"""Texts as the edit-distance kernels read them: one uint32 array of dense symbols and int64 offsets.

Characters are code points (a lone surrogate included, as Python and RapidFuzz index it); words are
``str.split()``'s, numbered in order of first appearance; token ids are numbered densely. Equal symbols get
equal numbers within one call, which is all an edit distance compares.

>>> symbols, offsets, alphabet = text_symbols(["abca", "", "cb"], "characters")
>>> symbols.tolist(), offsets.tolist(), alphabet
([0, 1, 2, 0, 2, 1], [0, 4, 4, 6], 3)
>>> text_symbols(["the cat", "a cat"], "words")[0].tolist()
[0, 1, 2, 1]
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._core._edit_distance import char_symbols
from refscore._core._tokenize import encode_words

UNITS = ("characters", "words")


def _offsets(lengths: Sequence[int]) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    if len(lengths):
        np.cumsum(lengths, out=offsets[1:])
    return offsets


def text_symbols(texts: Sequence[Any], unit: str, num_threads: int | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """``(symbols, offsets, alphabet)`` of ``texts`` (strings, or int64 token-id arrays) in ``unit``."""
    if texts and not isinstance(texts[0], str):   # token ids: each id one symbol, whatever the unit
        offsets = _offsets([len(ids) for ids in texts])
        if offsets[-1] == 0:
            return np.zeros(0, dtype=np.uint32), offsets, 0
        _, inverse = np.unique(np.concatenate([np.asarray(ids, dtype=np.int64) for ids in texts]),
                               return_inverse=True)
        symbols = inverse.astype(np.uint32)
        return symbols, offsets, int(symbols.max()) + 1
    if unit == "characters":
        # the strings' own code points (a lone surrogate is one, as Python's len() and RapidFuzz count it)
        return char_symbols(list(texts))
    # the compiled tokenizer "none": str.split()'s words (every Python whitespace), ids by first appearance
    symbols, offsets = encode_words(list(texts), tokenizer="none", num_threads=num_threads)
    return symbols, offsets.astype(np.int64, copy=False), int(symbols.max()) + 1 if len(symbols) else 0
