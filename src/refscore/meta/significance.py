"""Is metric B's agreement with humans really better than metric A's? PERM-BOTH permutation tests, Williams'
test, bootstrap intervals of a correlation, and the WMT significance clusters.

PERM-BOTH (Deutsch et al. 2021) is mt-metrics-eval's ``stats.PermutationSigDiff``: both metrics' scores are
z-normalised over the rated cells; each resample swaps the two metrics' scores in a random half of the cells
(a fair coin per cell) and recomputes both correlations; the p-value of "metric2 correlates better than metric1"
is the share of resamples whose difference is >= the observed one. Resampling stops early at a block boundary
(every ``block_size`` resamples) when the p-value is < ``early_min`` or > ``early_max`` (the reference's defaults).

Two resamplers draw the coins:

- ``"reference"``: the draws of ``stats.py`` after ``np.random.seed(seed)`` (a ``numpy.random.RandomState(seed)``,
  so numpy's global generator is left alone): p-values, differences and resampled correlations equal to the
  reference run bit for bit (correlations to 1e-12).
- ``"fast"`` (default): coins from ``numpy.random.default_rng(seed)`` as packed random bits; the same test, with
  p-values that agree with the reference's in distribution (tested with a two-sample Kolmogorov-Smirnov test).
"""
from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from refscore.checks import check_choice, check_confidence, check_resamples
from refscore.errors import InputError
from refscore.meta._resample import Resampler, Statistic, correlations_of, make_resampler, statistic_of
from refscore.meta._rows import Rows, magnitude_divisor, pair, rows_of, scipy_stats
from refscore.meta.correlations import check_systems, pearson
from refscore.progress import timed_bar
from refscore.significance.sampling import interval_indices

__all__ = ["CorrelationInterval", "PermBothResult", "bootstrap_interval", "perm_both", "perm_both_matrix",
           "significance_clusters", "williams"]


@dataclasses.dataclass(frozen=True)
class PermBothResult:
    """``p_value`` of "metric2 correlates better than metric1", ``delta`` = corr(metric2) - corr(metric1), the
    number of resamples run and the resampled ``(corr2, corr1)`` pairs (``samples``, shape ``(resamples, 2)``)."""

    p_value: float
    delta: float
    resamples: int
    samples: np.ndarray


@dataclasses.dataclass(frozen=True)
class CorrelationInterval:
    """A correlation with its bootstrap percentile interval."""

    value: float
    lower: float
    upper: float
    confidence: float
    resamples: int

    def format(self, digits: int = 3) -> str:
        return f"{self.value:.{digits}f} [{self.lower:.{digits}f}, {self.upper:.{digits}f}]"


def _zscore(values: np.ndarray) -> np.ndarray:
    """``scipy.stats.zscore``, of values of extreme magnitude scaled first (its variance of 1e200s overflows)."""
    return scipy_stats().zscore(values / magnitude_divisor(values))


def _filtered(human: object, metric1: object, metric2: object, grouping: str, statistic: str
              ) -> tuple[Rows, np.ndarray, np.ndarray, np.ndarray]:
    h, m1 = pair(human, metric1)
    _, m2 = pair(human, metric2)
    rows = rows_of(h, m1, grouping)
    if statistic == "kendall_ties_opt":
        # z-normalised over every cell, rated or not, in the packed (system by system) order, as the reference does
        # (and permuted in that order: its cells are the packed matrix, marked by a 2-D ``cells`` of its shape)
        return rows, np.ones(h.shape, dtype=bool), _zscore(m1.ravel()), _zscore(m2.ravel())
    a = _zscore(rows.metric[rows.valid])
    b = _zscore(rows_of(h, m2, grouping).metric[rows.valid])
    return rows, rows.valid, a, b


def perm_both(human: object, metric1: object, metric2: object, statistic: str = "pearson", grouping: str = "none",
              *, k: int = 1000, seed: int | None = None, resampler: str = "fast", block_size: int = 1000,
              early_min: float = 0.02, early_max: float = 0.5, progress: bool | None = None,
              **options: object) -> PermBothResult:
    """PERM-BOTH test of "metric2 agrees with the humans better than metric1" (``stats.PermutationSigDiff(corr1,
    corr2, ...)``). ``statistic``: ``"pearson"``, ``"spearman"``, ``"kendall"`` (``variant=``, ``epsilon=``),
    ``"kendall_like"`` or ``"kendall_ties_opt"`` (``variant=``, ``sample_rate=``, default 1.0).

    >>> human = [-0.0, -1.0, -5.0, -2.0, -0.5, -9.0, -3.0, -4.0]
    >>> good, weak = [0.9, 0.7, 0.2, 0.6, 0.8, 0.1, 0.5, 0.3], [0.5, 0.9, 0.3, 0.2, 0.4, 0.6, 0.7, 0.1]
    >>> result = perm_both(human, weak, good, k=200, seed=1)
    >>> result.p_value < 0.05 < perm_both(human, good, weak, k=200, seed=1).p_value
    True
    """
    draw = make_resampler(resampler, seed)
    rows, cells, a, b = _filtered(human, metric1, metric2, grouping, statistic)
    check_resamples(k, "k", bytes_each=perm_both_bytes(a.size, draw.kind),
                    what="PERM-BOTH resamples (their coins and correlations)")
    compute = statistic_of(statistic, rows, cells, draw, grouping=grouping, **options)  # type: ignore[arg-type]  # checked
    return _perm_both_run(compute, a, b, draw, k, block_size, early_min, early_max, progress=progress)


def perm_both_bytes(cells: int, kind: str) -> int:
    """Memory of one PERM-BOTH resample: its two correlations and count (kept for ``samples``), and for the fast
    resampler its coins drawn at once (a byte a cell, and 8 once as weights); the reference's come in blocks."""
    return 24 + (9 * cells if kind != "reference" else 0)


def _perm_both_run(compute: Statistic, a: np.ndarray, b: np.ndarray, draw: Resampler,
                   k: int, block_size: int, early_min: float, early_max: float,
                   masks: np.ndarray | None = None, progress: bool | None = None) -> PermBothResult:
    original = compute(np.stack([b, a]))  # corr(metric2), corr(metric1), in the reference's order of draws
    delta = original[0] - original[1]
    samples: list[np.ndarray] = []
    above, done = 0, 0
    start, bar = time.perf_counter(), None
    try:
        while done < k:
            size = min(block_size, k - done)
            above += _perm_both_block(compute, a, b, draw, size, original, delta, samples,
                                      None if masks is None else masks[done:done + size])
            done += size
            if done % block_size == 0 and not early_min <= above / done <= early_max:
                break
            if bar is None:   # the first block times the run (one that goes on)
                bar = timed_bar(k, done, time.perf_counter() - start, f"PERM-BOTH {compute.name}, k={k:,}",
                                progress, unit="resamples")
            else:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    return PermBothResult(above / done, float(delta), done, np.concatenate(samples))


def _perm_both_block(compute: Statistic, a: np.ndarray, b: np.ndarray, draw: Resampler, size: int,
                     original: np.ndarray, delta: float, samples: list[np.ndarray], masks: np.ndarray | None) -> int:
    """One block of ``size`` resamples, appended to ``samples``: how many differ by at least ``delta``."""
    kept, first, second = correlations_of(compute, size, a, b, draw, masks)
    # a resample that keeps every cell (or swaps every cell) is the original: exactly its correlations
    keep_all, swap_all = kept == a.size, kept == 0
    first[keep_all], second[keep_all] = original[1], original[0]
    first[swap_all], second[swap_all] = original[0], original[1]
    samples.append(np.stack([second, first], axis=1))
    return int(np.count_nonzero(second - first >= delta))


def perm_both_matrix(human: object, metrics: Mapping[str, object], statistic: str = "pearson",
                     grouping: str = "none", *, k: int = 1000, seed: int | None = None, resampler: str = "fast",
                     progress: bool | None = None, **options: object) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Every pair of ``metrics`` compared as the WMT metrics tasks do (mt-metrics-eval's ``ComputeSigMatrix``):
    metrics sorted by decreasing correlation (stably), then ``p[i, j]`` (i < j) = the p-value of "metric i
    correlates better than metric j". Returns the sorted names, their correlations and the p-value matrix
    (NaN on and below the diagonal). The ``"reference"`` resampler runs the pairs in that order on one stream; the
    ``"fast"`` one draws one set of coins shared by all pairs (each pair's test is the same test)."""
    names = list(metrics)
    if len(names) < 2:
        raise InputError(f"perm_both_matrix needs at least two metrics, got {len(names)}")
    draw = make_resampler(resampler, seed)
    prepared = {name: _filtered(human, metrics[name], metrics[name], grouping, statistic) for name in names}
    rows, cells = prepared[names[0]][:2]
    check_resamples(k, "k", bytes_each=perm_both_bytes(prepared[names[0]][2].size, draw.kind) * len(names),
                    what=f"PERM-BOTH resamples of {len(names)} metrics (their coins and correlations)")
    compute = statistic_of(statistic, rows, cells, draw, grouping=grouping, **options)  # type: ignore[arg-type]  # checked
    values = {name: float(compute(prepared[name][2][None, :])[0]) for name in names}
    order = sorted(names, key=lambda name: -values[name])
    masks = None if draw.kind == "reference" else draw.masks(k, prepared[names[0]][2].size)
    p = np.full((len(order), len(order)), np.nan)
    pairs = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))]
    start, bar = time.perf_counter(), None
    try:
        for i, j in pairs:
            # the first pair times the matrix: one bar (or, off a terminal, one LongRunWarning) for all its pairs
            result = _perm_both_run(compute, prepared[order[j]][2], prepared[order[i]][2], draw, k, 1000, 0.02, 0.5,
                                    masks, progress if bar is None else False)
            p[i, j] = result.p_value
            if bar is None and len(pairs) > 1:
                bar = timed_bar(len(pairs), 1, time.perf_counter() - start,
                                f"PERM-BOTH {statistic}, {len(pairs)} pairs of metrics x k={k:,}", progress,
                                unit="pairs")
            elif bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return order, np.array([values[name] for name in order]), p


def significance_clusters(p_values: np.ndarray, alpha: float = 0.05) -> list[int]:
    """Ranks (1 = tied with the best) of metrics sorted by decreasing correlation, from the p-values of
    :func:`perm_both_matrix`, by the WMT metrics tasks' greedy rule (mt-metrics-eval's ``AssignRanks``): walking down
    the sorted list, a metric starts a new rank when some metric of the current rank (from the rank's first metric
    up to it) is significantly better than it (p <= alpha); otherwise it joins the current rank.

    >>> significance_clusters(np.array([[np.nan, 0.3, 0.01], [np.nan, np.nan, 0.2], [np.nan] * 3]))
    [1, 1, 2]
    """
    p = np.asarray(p_values, dtype=float)
    ranks, rank, start = [], 1, 0
    for i in range(p.shape[0]):
        if np.any(p[start:i, i] <= alpha):
            rank, start = rank + 1, i
        ranks.append(rank)
    return ranks


def williams(human: Sequence[float], metric1: Sequence[float], metric2: Sequence[float],
             one_sided: bool = True) -> float:
    """Williams' test (Graham & Baldwin 2014) of a difference between two dependent Pearson correlations at the
    system level (``stats.WilliamsSigDiff`` with Pearson): the p-value that the better one is not better."""
    h, m1 = pair(human, metric1)
    _, m2 = pair(human, metric2)
    if h.shape[0] != 1 or np.isnan(h).any():
        raise InputError("williams takes one human score per system (a vector without missing values)")
    n = h.shape[1]
    check_systems(n, "Williams' test")
    if n < 4:
        raise InputError(f"Williams' test needs at least 4 systems (n - 3 degrees of freedom), got {n}")
    r12, r13, r23 = pearson(h, m1), pearson(h, m2), pearson(m1, m2)
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    rbar = (r12 + r13) / 2
    t_num = (r12 - r13) * np.sqrt((n - 1) * (1 + r23))
    t_den = np.sqrt(2 * (n - 1) / (n - 3) * k + rbar**2 * (1 - r23) ** 3)
    p = float(scipy_stats().t.sf(np.abs(t_num / t_den), n - 3))
    return p if one_sided else 2 * p


def bootstrap_interval(human: object, metric: object, statistic: str = "pearson", grouping: str = "none", *,
                       over: str = "items", n: int = 1000, confidence: float = 0.95, seed: int | None = None,
                       **options: object) -> CorrelationInterval:
    """A percentile bootstrap interval of a correlation. ``over="items"`` resamples items (columns: all systems'
    scores of an item move together), ``over="segments"`` resamples the rated cells one by one (grouping
    ``"none"`` only). Resamples come from ``numpy.random.default_rng(seed)``: ``integers(0, count, (n, count))``;
    each is the correlation of the resampled matrix, computed as for the point value. The ends are the sorted
    replicates at ``floor(n * (1 - confidence) / 2)`` and ``n - 1 -`` that (sacreBLEU's rule)."""
    check_choice(over, "over", ("items", "segments"))
    check_confidence(confidence)
    h, m = pair(human, metric)
    check_resamples(n, "n", bytes_each=8 * h.size + 8, what="bootstrap resamples (their picks and replicates)")
    rows = rows_of(h, m, grouping)
    draw = make_resampler("fast", seed)
    value = _statistic(statistic, h, m, grouping, draw, options)
    if over == "segments":
        if grouping != "none":
            raise InputError('over="segments" resamples single cells: use it with grouping="none"')
        rated = np.flatnonzero(rows.valid.ravel())
        picks = draw.random.integers(0, rated.size, (n, rated.size))  # type: ignore[union-attr]  # has a generator
        replicates = np.array([_statistic(statistic, h.reshape(1, -1)[:, rated[p]], m.reshape(1, -1)[:, rated[p]],
                                          "none", draw, options) for p in picks])
    else:
        picks = draw.random.integers(0, h.shape[1], (n, h.shape[1]))  # type: ignore[union-attr]  # has a generator
        replicates = np.array([_statistic(statistic, h[:, p], m[:, p], grouping, draw, options) for p in picks])
    ordered = np.sort(replicates[~np.isnan(replicates)])
    if ordered.size == 0:
        return CorrelationInterval(value, float("nan"), float("nan"), confidence, n)
    lower, upper = interval_indices(ordered.size, confidence)
    return CorrelationInterval(value, float(ordered[lower]), float(ordered[upper]), confidence, n)


def _statistic(statistic: str, h: np.ndarray, m: np.ndarray, grouping: str, draw: Resampler,
               options: Mapping[str, object]) -> float:
    rows = rows_of(h, m, grouping)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if statistic == "kendall_ties_opt":
            cells, vector = np.ones(h.shape, dtype=bool), m.ravel()
        else:
            cells, vector = rows.valid, rows.metric[rows.valid]
        compute = statistic_of(statistic, rows, cells, draw, empty=float("nan"), grouping=grouping, **options)
        return float(compute(vector[None, :])[0])
