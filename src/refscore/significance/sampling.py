"""Random resampling in bounded chunks, and the sums of statistics under it.

Every test and interval in :mod:`refscore.significance` reduces to one operation: for many weight vectors ``w``
(bootstrap multiplicities, or 0/1 swap masks of approximate randomization), compute ``w @ data`` — the summed
statistics of a resampled corpus — and score them. The random draws replicate sacreBLEU 2.6's calls exactly
(``np.random.default_rng(seed)``, then ``rng.choice(N, size=(n, N), replace=True)`` or
``rng.integers(2, size=(n, N), dtype=bool)``), drawn chunk by chunk from the same stream (:func:`run_chunks`), so
the same seed selects the same resamples while memory stays bounded.

>>> draw = bootstrap_draw(make_rng(12345), n_segments=3)
>>> plan = np.concatenate(run_chunks(draw, 5, 2, lambda chunk: chunk, num_threads=1, progress=False,
...                                  description="demo", unit="resample"))
>>> bool(np.array_equal(plan, make_rng(12345).choice(3, size=(5, 3), replace=True)))
True
>>> data = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int64)
>>> bool(np.all(resampled_totals(data, plan) == data[plan].sum(axis=1)))
True
"""
from __future__ import annotations

import math
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from fractions import Fraction
from typing import Any, Callable, TypeVar

import numpy as np

from refscore.progress import progress_bar

T = TypeVar("T")

__all__ = ["Float32Sums", "bootstrap_draw", "chunk_rows", "interval_indices", "make_rng", "mask_draw",
           "masked_totals", "multiplicities", "resampled_totals", "run_chunks", "seed_label", "swapped_totals"]

#: Magnitudes below which every integer (and so every partial sum of integers) is exact in float32 / float64.
_FLOAT32_EXACT_LIMIT = 2 ** 24
_FLOAT64_EXACT_LIMIT = 2 ** 53
#: Drawn entries (indices, mask bits) and gathered statistics per chunk of resamples: bounds the memory of a run.
_CHUNK_ELEMENTS = 2 ** 20


def seed_label(seed: int | None) -> str:
    """The seed as written in signatures (sacreBLEU writes ``none`` for an unseeded generator)."""
    return "none" if seed is None else str(seed)


def make_rng(seed: int | None) -> np.random.Generator:
    """``np.random.default_rng(seed)``: the generator sacreBLEU 2.6 uses (seed 0 stays seed 0 here)."""
    return np.random.default_rng(seed)


def bootstrap_draw(rng: np.random.Generator, n_segments: int) -> Callable[[int], np.ndarray]:
    """Draws the next ``rows`` bootstrap resamples, ``(rows, N)`` segment indices, from sacreBLEU's stream.

    sacreBLEU draws ``rng.choice(N, size=(n, N), replace=True)`` at once; numpy's bounded integers take 32-bit halves
    from the generator's own buffer, so consecutive draws of ``rows`` resamples give the same indices.
    """
    return lambda rows: rng.choice(n_segments, size=(rows, n_segments), replace=True)


def mask_draw(rng: np.random.Generator, n_segments: int) -> Callable[[int], np.ndarray]:
    """Draws the next ``rows`` approximate-randomization masks (True: the segment keeps its system).

    sacreBLEU draws ``rng.integers(2, size=(n, N), dtype=bool)`` at once; numpy takes one 32-bit word per 32 booleans
    and drops a word's unused bits at the end of a call, so chunks must hold a multiple of 32 masks
    (:func:`chunk_rows` with ``multiple=32``) except the last.
    """
    return lambda rows: rng.integers(2, size=(rows, n_segments), dtype=bool)


def chunk_rows(n_segments: int, width: int = 1, multiple: int = 1) -> int:
    """Resamples per chunk: at most ``_CHUNK_ELEMENTS`` drawn entries and ``_CHUNK_ELEMENTS`` gathered statistics
    (``width`` columns) per chunk, a multiple of ``multiple``; so memory does not grow with the resample count."""
    rows = _CHUNK_ELEMENTS // max(1, n_segments * max(1, width))
    return max(multiple, rows // multiple * multiple)


def run_chunks(draw: Callable[[int], np.ndarray], n_rows: int, rows: int, work: Callable[[np.ndarray], T], *,
               num_threads: int | None, progress: bool | None, description: str, unit: str) -> list[T]:
    """``[work(draw(r)) for each chunk of r <= rows rows]``: the draws in order in this thread (the random stream
    is sacreBLEU's), the work in up to ``num_threads`` threads with at most that many chunks in flight.

    Each chunk takes well under a second, so Ctrl-C (``KeyboardInterrupt``) surfaces between chunks. A progress bar
    (:func:`refscore.progress.progress_bar`) starts after the first chunk, with the run's duration estimated from it.
    """
    from refscore._core import resolve_num_threads

    sizes = [min(rows, n_rows - start) for start in range(0, n_rows, rows)]
    threads = min(resolve_num_threads(num_threads), len(sizes))
    started = time.perf_counter()
    state: dict[str, Any] = {"bar": None, "done": 0}

    def finished(result: T, size: int) -> T:
        state["done"] += size
        if state["bar"] is None:
            expected = (time.perf_counter() - started) * n_rows / state["done"]
            bar = state["bar"] = progress_bar(n_rows, description, progress, expected, unit)
            bar.update(state["done"])
        else:
            state["bar"].update(size)
        return result

    results: list[T] = []
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
    pending: deque[tuple[Future[T], int]] = deque()
    try:
        for size in sizes:
            chunk = draw(size)
            if pool is None:
                results.append(finished(work(chunk), size))
                continue
            pending.append((pool.submit(work, chunk), size))   # numpy and the core release the GIL
            if len(pending) >= threads:
                future, done = pending.popleft()
                results.append(finished(future.result(), done))
        while pending:
            future, done = pending.popleft()
            results.append(finished(future.result(), done))
    finally:
        for future, _ in pending:
            future.cancel()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if state["bar"] is not None:
            state["bar"].close()
    return results


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


def resampled_totals(data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Column sums of ``data`` (``(N, k)``) over each bootstrap resample in ``indices``: ``(n_samples, k)``.

    Integer statistics stay exact (int64 result); float statistics (per-document scores) are summed in float64.
    Several systems are resampled in one pass by stacking their statistics side by side.
    """
    return _exact_product(multiplicities(indices, data.shape[0]), data).reshape(-1, data.shape[1])


class Float32Sums:
    """sacreBLEU's resample sums ``np.array(stats, dtype='float32')[idxs].sum(0)``, for index chunks.

    numpy adds the rows of a float32 ``(N, k)`` array one after the other. When every statistic is a whole number
    and ``N * max|x| < 2**24``, every partial sum is exact in float32, so the int64-exact sums cast to float32 are
    sacreBLEU's (fast path); otherwise (fractional TER lengths, huge corpora) the rows are gathered and summed
    as sacreBLEU does.

    >>> sums = Float32Sums(np.array([[1, 2], [3, 4]]))
    >>> sums(np.array([[0, 0], [1, 0]])).tolist()
    [[2.0, 4.0], [4.0, 6.0]]
    """

    def __init__(self, data: np.ndarray) -> None:
        self.data = data
        self.data32 = np.asarray(data, dtype=np.float32)
        whole = data.dtype.kind in "iu" or bool(np.all(np.rint(data) == data))
        bound = data.shape[0] * (float(np.abs(data).max()) if data.size else 0.0)
        self.exact = whole and bound < _FLOAT32_EXACT_LIMIT
        self.counts = np.rint(data).astype(np.int64) if self.exact else None

    def __call__(self, indices: np.ndarray) -> np.ndarray:
        if self.counts is not None:
            return resampled_totals(self.counts, indices).astype(np.float32)
        return self.data32[indices].sum(axis=1)


def masked_totals(data: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``masks @ data`` for boolean masks ``(n_trials, N)``, exact like :func:`resampled_totals`: ``(n_trials, k)``."""
    return _exact_product(masks, data).reshape(-1, data.shape[1])


def swapped_totals(first: np.ndarray, second: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Totals of the two pseudo-systems of each approximate-randomization trial.

    Pseudo-system A takes ``first``'s row where the mask is True and ``second``'s elsewhere; B the opposite
    (sacreBLEU: ``shuf_a = pos_sel @ bl_stats + neg_sel @ sys_stats``). ``second`` may hold several systems side by
    side (``first`` is then tiled to match). Integer statistics: computed exactly as
    ``sum(second) + masks @ (first - second)`` (equal to sacreBLEU's int64 products); float statistics: sacreBLEU's
    own float64 expression.
    """
    reps = second.shape[1] // first.shape[1]
    first = np.tile(first, (1, reps)) if reps > 1 else first
    if first.dtype.kind == "f" or second.dtype.kind == "f":
        flipped = ~masks
        return masks @ first + flipped @ second, flipped @ first + masks @ second
    totals_a = second.sum(axis=0) + masked_totals(first - second, masks)
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
