"""Random resampling plans and the exact, vectorised sums of statistics under them.

Every test and interval in :mod:`refscore.significance` reduces to one operation: for many weight vectors ``w``
(bootstrap multiplicities, or 0/1 swap masks of approximate randomization), compute ``w @ data`` — the summed
statistics of a resampled corpus — and hand all of them at once to the metric's ``scores_from_totals``.
The random draws replicate sacreBLEU 2.6's calls exactly (``np.random.default_rng(seed)``, then
``rng.choice(N, size=(n, N), replace=True)`` or ``rng.integers(2, size=(n, N), dtype=bool)``), so the same seed
selects the same resamples.

>>> rng = make_rng(12345)
>>> plan = bootstrap_indices(rng, n_segments=3, n_samples=2)
>>> plan.shape
(2, 3)
>>> data = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int64)
>>> bool(np.all(resampled_totals(data, plan, num_threads=1) == data[plan].sum(axis=1)))
True
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Callable

import numpy as np

#: Magnitudes below which every integer (and so every partial sum of integers) is exact in float32 / float64.
_FLOAT32_EXACT_LIMIT = 2 ** 24
_FLOAT64_EXACT_LIMIT = 2 ** 53
#: Resamples per chunk are chosen so that one chunk's dense weight matrix stays near this many bytes.
_CHUNK_BYTES = 16 * 2 ** 20


def seed_label(seed: int | None) -> str:
    """The seed as written in signatures (sacreBLEU writes ``none`` for an unseeded generator)."""
    return "none" if seed is None else str(seed)


def make_rng(seed: int | None) -> np.random.Generator:
    """``np.random.default_rng(seed)``: the generator sacreBLEU 2.6 uses (seed 0 stays seed 0 here)."""
    return np.random.default_rng(seed)


def bootstrap_indices(rng: np.random.Generator, n_segments: int, n_samples: int) -> np.ndarray:
    """Segment indices of ``n_samples`` bootstrap resamples, exactly sacreBLEU's draw: shape ``(n_samples, N)``."""
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def swap_masks(rng: np.random.Generator, n_segments: int, n_trials: int) -> np.ndarray:
    """Approximate-randomization masks (True: the segment keeps its system), exactly sacreBLEU's draw."""
    return rng.integers(2, size=(n_trials, n_segments), dtype=bool)


def _chunks(n_rows: int, n_segments: int) -> list[slice]:
    rows = max(1, _CHUNK_BYTES // (8 * max(1, n_segments)))
    return [slice(start, min(start + rows, n_rows)) for start in range(0, n_rows, rows)]


def _map_chunks(function: Callable[[slice], np.ndarray], n_rows: int, n_segments: int,
                num_threads: int | None) -> np.ndarray:
    """Apply ``function`` to row chunks (in a thread pool when ``num_threads`` > 1) and stack the results."""
    from refscore._core import resolve_num_threads

    chunks = _chunks(n_rows, n_segments)
    threads = min(resolve_num_threads(num_threads), len(chunks))
    if threads <= 1:
        parts = [function(chunk) for chunk in chunks]
    else:  # numpy releases the GIL in bincount and matrix products
        with ThreadPoolExecutor(max_workers=threads) as pool:
            parts = list(pool.map(function, chunks))
    return np.concatenate(parts) if parts else np.zeros((0, 0))


def _exact_product(weights: np.ndarray, data: np.ndarray) -> np.ndarray:
    """``weights @ data`` for non-negative weights whose rows sum to at most N (multiplicities, 0/1 masks).

    Integer data give int64-exact results: every partial sum is an integer bounded by N * max|data|, so a float32
    BLAS product is exact below 2**24, a float64 one below 2**53, and an int64 product is used beyond. Float data
    (per-document scores) are summed in float64.
    """
    if data.dtype.kind == "f":
        return weights.astype(np.float64) @ data
    bound = weights.shape[1] * (float(np.abs(data).max()) if data.size else 0.0)
    for limit, dtype in ((_FLOAT32_EXACT_LIMIT, np.float32), (_FLOAT64_EXACT_LIMIT, np.float64)):
        if bound < limit:
            return np.rint(weights.astype(dtype) @ data.astype(dtype)).astype(np.int64)
    return weights.astype(np.int64) @ data.astype(np.int64)


def multiplicities(indices: np.ndarray, n_segments: int) -> np.ndarray:
    """How often each segment occurs in each resample: ``(n_samples, N)`` int64 from an index matrix."""
    n_rows = indices.shape[0]
    flat = (indices + (np.arange(n_rows, dtype=np.int64) * n_segments)[:, None]).ravel()
    return np.bincount(flat, minlength=n_rows * n_segments).reshape(n_rows, n_segments)


def resampled_totals(data: np.ndarray, indices: np.ndarray, num_threads: int | None = None) -> np.ndarray:
    """Column sums of ``data`` (``(N, k)``) over each bootstrap resample in ``indices``: ``(n_samples, k)``.

    Integer statistics stay exact (int64 result); float statistics (per-document scores) are summed in float64.
    Several systems are resampled in one pass by stacking their statistics side by side.
    """
    n_segments = data.shape[0]

    def chunk_totals(rows: slice) -> np.ndarray:
        return _exact_product(multiplicities(indices[rows], n_segments), data)

    return _map_chunks(chunk_totals, indices.shape[0], n_segments, num_threads).reshape(-1, data.shape[1])


def masked_totals(data: np.ndarray, masks: np.ndarray, num_threads: int | None = None) -> np.ndarray:
    """``masks @ data`` for boolean masks ``(n_trials, N)``, exact like :func:`resampled_totals`: ``(n_trials, k)``."""
    def chunk_totals(rows: slice) -> np.ndarray:
        return _exact_product(masks[rows], data)

    return _map_chunks(chunk_totals, masks.shape[0], data.shape[0], num_threads).reshape(-1, data.shape[1])


def swapped_totals(first: np.ndarray, second: np.ndarray, masks: np.ndarray,
                   num_threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Totals of the two pseudo-systems of each approximate-randomization trial.

    Pseudo-system A takes ``first``'s row where the mask is True and ``second``'s elsewhere; B the opposite
    (sacreBLEU: ``shuf_a = pos_sel @ bl_stats + neg_sel @ sys_stats``). Computed as
    ``sum(second) + masks @ (first - second)`` and ``sum(first) + sum(second) - A``. ``second`` may hold several
    systems side by side (``first`` is then tiled to match).
    """
    reps = second.shape[1] // first.shape[1]
    first = np.tile(first, (1, reps)) if reps > 1 else first
    totals_a = second.sum(axis=0) + masked_totals(first - second, masks, num_threads)
    totals_b = first.sum(axis=0) + second.sum(axis=0) - totals_a
    return totals_a, totals_b


def interval_indices(n_samples: int, confidence: float) -> tuple[int, int]:
    """Positions of the interval ends in the sorted resampled scores.

    sacreBLEU: ``lower = n // 40``, ``upper = n - lower - 1`` for 95%; in general ``lower = floor(n * (1 - c) / 2)``
    computed in exact rational arithmetic (so 0.95 gives exactly ``n // 40``).
    """
    alpha = 1 - Fraction(confidence).limit_denominator(10 ** 12)
    lower = math.floor(n_samples * alpha / 2)
    return lower, n_samples - lower - 1
