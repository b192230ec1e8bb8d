"""Tokens of the rouge-score flavor: rouge-score's tokenizer for one text (the tokenizer registry's
``"rouge-score"``, :func:`refscore.text.rouge_words.rouge_score_tokens`), and dense token ids of pre-tokenized
texts (the other tokenizers are in :mod:`~refscore.metrics.rouge.words`).

>>> tokenize("U.S. state-of-the-art running", stemmer=True)
['u', 's', 'state', 'of', 'the', 'art', 'run']
>>> ids, offsets, vocabulary = intern_tokens([["a", "b"], ["b"]], {})
>>> ids.tolist(), offsets.tolist()
([0, 1, 1], [0, 2, 3])
"""
from __future__ import annotations

import collections
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._offsets import offsets_from_lengths
from refscore.text.rouge_words import rouge_score_tokens as tokenize

__all__ = ["intern_tokens", "tokenize"]


def intern_tokens(sequences: Sequence[Sequence[Any] | np.ndarray], vocabulary: dict[Any, int]
                  ) -> tuple[np.ndarray, np.ndarray, dict[Any, int]]:
    """Dense uint32 ids of the tokens of many sequences (shared ``vocabulary``, extended in place) and the int64
    offsets."""
    offsets = offsets_from_lengths(map(len, sequences))
    # A dict whose missing keys get the next id, filled by map() in C (numpy arrays as Python scalars, as .item()).
    ids_of = collections.defaultdict(None, vocabulary)
    ids_of.default_factory = ids_of.__len__
    flat = itertools.chain.from_iterable(s.tolist() if isinstance(s, np.ndarray) else s for s in sequences)
    ids = np.fromiter(map(ids_of.__getitem__, flat), dtype=np.uint32, count=int(offsets[-1]))
    vocabulary.update(ids_of)
    return ids, offsets, vocabulary
