"""The one builder of the flat layout the kernels read: items back to back, item ``i`` at
``flat[offsets[i]:offsets[i + 1]]`` (``offsets``: int64, ``len(items) + 1`` entries, starting at 0).

>>> offsets_from_lengths([2, 0, 3]).tolist()
[0, 2, 2, 5]
>>> flat, offsets = concatenate([[7, 8], [], [9]], np.uint32)
>>> flat.tolist(), offsets.tolist()
([7, 8, 9], [0, 2, 2, 3])
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["concatenate", "offsets_from_lengths"]


def offsets_from_lengths(lengths: Iterable[int] | np.ndarray) -> np.ndarray:
    """int64 offsets ``[0, l0, l0 + l1, ...]`` of items of the given lengths."""
    counts = lengths if isinstance(lengths, np.ndarray) else np.fromiter(lengths, dtype=np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def concatenate(items: Sequence[Any], dtype: npt.DTypeLike) -> tuple[np.ndarray, np.ndarray]:
    """``(flat, offsets)``: the items (arrays or sequences of numbers) back to back as one contiguous array."""
    offsets = offsets_from_lengths(np.fromiter(map(len, items), dtype=np.int64, count=len(items)))
    if not items or offsets[-1] == 0:
        return np.zeros(0, dtype=dtype), offsets
    flat = np.concatenate([np.asarray(item) for item in items])
    return np.ascontiguousarray(flat, dtype=dtype), offsets
