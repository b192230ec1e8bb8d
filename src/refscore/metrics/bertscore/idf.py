"""Token weights: bert-score's IDF ``log((M+1)/(df+1))`` over reference token-id sets, or uniform weights with the
CLS and SEP tokens at 0 (``idf=False``), or a user-supplied ``{token_id: weight}`` mapping.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError

__all__ = ["TokenWeights"]


class TokenWeights:
    """A dense token-id -> weight table with a default for ids beyond it (float64, cast to float32 on use).

    >>> weights = TokenWeights.from_sequences([np.array([1, 5, 2]), np.array([1, 3, 2])])
    >>> [round(float(w), 4) for w in weights(np.array([1, 5, 7]))]  # 1 in both refs, 5 in one, 7 in none
    [0.0, 0.4055, 1.0986]
    """

    def __init__(self, table: np.ndarray, default: float | None, description: str) -> None:
        self.table = np.ascontiguousarray(table, dtype=np.float64)
        self.default = default
        self.description = description

    @classmethod
    def uniform(cls, special_ids: Sequence[int | None]) -> TokenWeights:
        """Weight 1 for every token except the CLS and SEP ids (0), as bert-score's ``idf=False``."""
        ids = [i for i in special_ids if i is not None]
        table = np.ones(max(ids, default=-1) + 1)
        table[ids] = 0.0
        return cls(table, 1.0, "no")

    @classmethod
    def from_sequences(cls, sequences: Sequence[np.ndarray]) -> TokenWeights:
        """IDF from reference token ids: ``M = len(sequences)`` (duplicates count), ``df`` = number of sequences
        containing the id; ids never seen get ``log(M + 1)``."""
        count = len(sequences)
        if count == 0:
            raise InputError("IDF needs at least one reference sentence")
        unique = [np.unique(ids) for ids in sequences]
        size = max((int(u[-1]) + 1 for u in unique if len(u)), default=0)
        document_frequency = np.zeros(size, dtype=np.int64)
        for ids in unique:
            document_frequency[ids] += 1
        table = np.log((count + 1) / (document_frequency + 1.0))
        return cls(table, math.log(count + 1), f"idf:{count}sents")

    @classmethod
    def from_mapping(cls, mapping: Mapping[Any, Any]) -> TokenWeights:
        """A precomputed ``{token_id: weight}`` dict (bert-score's ``idf=dict``); a ``defaultdict`` supplies the
        weight of unlisted ids, a plain dict must list every id that occurs."""
        keys = list(mapping.keys())
        for key in keys:
            if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or key < 0:
                raise InputTypeError(f"idf dict keys must be non-negative token ids (int), got {key!r}")
        table = np.full(max((int(k) for k in keys), default=-1) + 1, np.nan)
        for key in keys:
            table[int(key)] = float(mapping[key])
        factory = getattr(mapping, "default_factory", None)
        default = float(factory()) if factory is not None else None
        if default is not None:
            table[np.isnan(table)] = default
        return cls(table, default, "idf:dict")

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        """float32 weights of a token-id sequence."""
        inside = ids < len(self.table)
        out = np.empty(len(ids), dtype=np.float64)
        out[inside] = self.table[ids[inside]]
        if self.default is not None:
            out[~inside] = self.default
        missing = ~inside if self.default is None else np.zeros(len(ids), dtype=bool)
        missing |= np.isnan(out)
        if missing.any():
            raise InputError(f"the idf dict has no weight for token id {int(ids[np.argmax(missing)])}; give a weight "
                             f"for every token id (or a collections.defaultdict with a default), or pass idf=True / a "
                             f"list of sentences to compute IDF")
        return out.astype(np.float32)

    def of_sequences(self, sequences: Sequence[np.ndarray]) -> list[np.ndarray]:
        """float32 weights of each token-id sequence, looked up in one pass over all of them.

        >>> [w.tolist() for w in TokenWeights.uniform([0, 2]).of_sequences([np.array([0, 7, 2]), np.array([0, 2])])]
        [[0.0, 1.0, 0.0], [0.0, 0.0]]
        """
        if len(sequences) == 0:
            return []
        weights = self(np.concatenate(sequences))
        return np.split(weights, np.cumsum([len(ids) for ids in sequences])[:-1])

    def fingerprint(self) -> str:
        """A short hash of the weights (goes into signatures and metric config hashes)."""
        digest = hashlib.sha256(self.table.tobytes())
        digest.update(repr(self.default).encode())
        return digest.hexdigest()[:12]
