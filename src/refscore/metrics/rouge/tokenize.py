"""Tokens of the rouge-score flavor: the character classes of the Unicode tokenizer, rouge-score's tokenizer
for one text, and dense token ids of pre-tokenized texts.

>>> tokenize("U.S. state-of-the-art running", stemmer=True)
['u', 's', 'state', 'of', 'the', 'art', 'run']
>>> ids, offsets, vocabulary = intern_tokens([["a", "b"], ["b"]], {})
>>> ids.tolist(), offsets.tolist()
([0, 1, 1], [0, 2, 3])
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._core import _rouge
from refscore._offsets import offsets_from_lengths

_CJK_RANGES = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0xFF66, 0xFF9D), (0x20000, 0x3134F))

#: The empty code point table passed to the kernels by the ASCII tokenizer (read-only, shared).
NO_CODE_POINTS = np.zeros(0, dtype=np.uint32)
NO_CLASSES = np.zeros(0, dtype=np.uint8)
NO_CODE_POINTS.setflags(write=False)
NO_CLASSES.setflags(write=False)


def unicode_classes(code_points: np.ndarray) -> np.ndarray:
    """Classes of non-ASCII code points for the Unicode tokenizer: letters, marks and digits are word characters;
    CJK ideographs, kana and the prolonged-sound mark are single-character tokens; the rest separates."""
    classes = np.zeros(len(code_points), dtype=np.uint8)
    for k, cp in enumerate(code_points.tolist()):
        category = unicodedata.category(chr(cp))[0]
        if category in "LNM":
            single = category != "M" and any(lo <= cp <= hi for lo, hi in _CJK_RANGES)
            classes[k] = _rouge.CLASS_SINGLE if single else _rouge.CLASS_WORD
    return classes


def unicode_table(texts: list[str], tokenizer: str) -> tuple[np.ndarray, np.ndarray]:
    """The distinct non-ASCII code points of ``texts`` (as the kernels lowercase them) and their classes (empty
    unless ``tokenizer="unicode"``)."""
    if tokenizer != "unicode":
        return NO_CODE_POINTS, NO_CLASSES
    keys = _rouge.distinct_code_points(texts)
    return keys, unicode_classes(keys)


def tokenize(text: str, *, stemmer: bool = False) -> list[str]:
    """rouge-score's default tokenizer on one text: lowercase, ASCII ``[a-z0-9]`` runs, NLTK Porter stemming of
    tokens longer than 3 characters with ``stemmer``."""
    return _rouge.tokenize_texts([text], _rouge.TOKENIZERS["rouge-score"], stemmer, NO_CODE_POINTS, NO_CLASSES)[0]


def intern_tokens(sequences: Sequence[Sequence[Any]], vocabulary: dict[Any, int]
                  ) -> tuple[np.ndarray, np.ndarray, dict[Any, int]]:
    """Dense uint32 ids of the tokens of many sequences (shared ``vocabulary``, extended in place) and the int64
    offsets."""
    offsets = offsets_from_lengths(map(len, sequences))
    ids = np.fromiter((vocabulary.setdefault(token.item() if isinstance(token, np.generic) else token,
                                             len(vocabulary))
                       for sequence in sequences for token in sequence), dtype=np.uint32, count=int(offsets[-1]))
    return ids, offsets, vocabulary
