"""Correlations between human judgments and metric scores, at the system and the segment level, equal to
mt-metrics-eval's ``stats.py`` (Google's implementation of the WMT metrics tasks' statistics).

Every function takes ``human`` and ``metric`` scores of one shape: a vector (system level: one score per system)
or a ``(systems, items)`` matrix (segment level), and a ``grouping`` (see :mod:`refscore.meta._rows`): ``"none"``
correlates all cells at once, ``"sys"`` correlates each system's row and averages, ``"item"`` correlates each
item's column and averages. Missing human ratings are ``None`` or ``NaN``; their cells are left out, as
mt-metrics-eval's ``filter_gold_nones`` does. Rows with fewer than two ratings, or constant scores, are left out of
the average; when no row is left the result is NaN with a :class:`ConstantScoresWarning` (mt-metrics-eval returns 0).

>>> human = [[-1.0, 0.0, -5.0], [-2.0, -0.5, -9.0], [0.0, -1.0, -3.0]]
>>> metric = [[0.61, 0.72, 0.30], [0.55, 0.70, 0.20], [0.64, 0.60, 0.41]]
>>> round(pearson(human, metric), 4), round(pearson(human, metric, grouping="item"), 4)
(0.9552, 0.9639)
>>> kendall(human, metric, grouping="sys", variant="acc23")
1.0
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from refscore.errors import InputError
from refscore.meta._rows import (ConstantScoresWarning, Rows, average, distinct_counts, kendall_counts, long_rows,
                                 pair, pearson_rows, ranks, rows_of, scipy_kendall)
from refscore.meta._ties import TiesResult, optimize_ties

__all__ = ["ConstantScoresWarning", "KENDALL_VARIANTS", "TiesResult", "kendall", "kendall_like",
           "kendall_ties_opt", "pairwise_accuracy", "pearson", "row_values", "soft_pairwise_accuracy", "spearman"]

KENDALL_VARIANTS = ("b", "c", "23", "acc23")


def _rows(human: object, metric: object, grouping: str) -> Rows:
    h, m = pair(human, metric)
    return rows_of(h, m, grouping)


def row_values(statistic: str, rows: Rows, **options: object) -> tuple[np.ndarray, np.ndarray | None]:
    """Each row's value of ``statistic`` (``metric`` may carry leading resample axes) and the averaging weights
    (None: a plain mean). The one dispatch that correlations, intervals and significance tests share."""
    h, m, valid = rows
    if statistic == "pearson":
        return pearson_rows(h, m, valid), None
    if statistic == "spearman":
        return pearson_rows(ranks(h, valid), ranks(m, np.broadcast_to(valid, m.shape)), valid), None
    if statistic == "kendall":
        variant = str(options.get("variant", "b"))
        epsilon = float(options.get("epsilon", 0.0))  # type: ignore[arg-type]  # checked options
        if variant not in KENDALL_VARIANTS:
            raise InputError(f"variant must be one of {', '.join(KENDALL_VARIANTS)}, got {variant!r}")
        if epsilon < 0 or (epsilon > 0 and variant == "c"):
            raise InputError(f"epsilon must be >= 0 (and 0 for tau-c), got {epsilon!r}")
        if variant in ("b", "c") and long_rows(h, epsilon):   # scipy's own tau: mt-metrics-eval's numbers, faster
            return scipy_kendall(h, m, valid, variant), None
        return _tau(kendall_counts(h, m, valid, epsilon), variant, h, m, valid), None
    if statistic == "kendall_like":
        return _kendall_like(h, m, valid, float(options.get("threshold", 25.0)))  # type: ignore[arg-type]  # checked options
    raise InputError(f"unknown statistic {statistic!r}")


def _tau(counts: Sequence[np.ndarray], variant: str, h: np.ndarray, m: np.ndarray, valid: np.ndarray) -> np.ndarray:
    con, dis, metric_only, human_only, both = (np.asarray(c, dtype=np.float64) for c in counts)
    total = con + dis + metric_only + human_only + both
    metric_ties, human_ties = metric_only + both, human_only + both
    size = valid.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = (con - dis) / np.sqrt(total - metric_ties) / np.sqrt(total - human_ties)
        elif variant == "c":
            classes = np.minimum(distinct_counts(m, valid), distinct_counts(np.broadcast_to(h, m.shape), valid))
            tau = 2 * (con - dis) / (size**2 * (classes - 1) / classes)
        elif variant == "23":
            tau = (con + both - dis - metric_only - human_only) / total
        else:
            tau = (con + both) / total
    undefined = (size < 2) | (total == 0)
    if variant in ("b", "c"):
        undefined = undefined | (metric_ties == total) | (human_ties == total)
    return np.where(undefined, np.nan, tau)


def _kendall_like(h: np.ndarray, m: np.ndarray, valid: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """WMT20's Kendall-like tau: pairs whose human difference is >= threshold; a metric tie is discordant."""
    dh = h[..., :, None] - h[..., None, :]
    dm = m[..., :, None] - m[..., None, :]
    length = h.shape[-1]
    use = valid[:, :, None] & valid[:, None, :] & np.triu(np.ones((length, length), dtype=bool), 1)
    counted = use & (np.abs(np.nan_to_num(dh)) >= threshold)
    con = (counted & (((dh > 0) & (dm > 0)) | ((dh < 0) & (dm < 0)))).sum((-1, -2))
    pairs = counted.sum((-1, -2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, (2 * con - pairs) / pairs, 0.0), np.broadcast_to(pairs, con.shape)


def _correlation(statistic: str, human: object, metric: object, grouping: str, **options: object) -> float:
    values, weights = row_values(statistic, _rows(human, metric, grouping), **options)
    return average(values, weights, what=f"{statistic} ({grouping} grouping)")


def pearson(human: object, metric: object, grouping: str = "none") -> float:
    """Pearson's r (``stats.Correlation.Pearson``)."""
    return _correlation("pearson", human, metric, grouping)


def spearman(human: object, metric: object, grouping: str = "none") -> float:
    """Spearman's rho (``stats.Correlation.Spearman``)."""
    return _correlation("spearman", human, metric, grouping)


def kendall(human: object, metric: object, grouping: str = "none", variant: str = "b", epsilon: float = 0.0) -> float:
    """Kendall's tau: ``variant`` ``"b"`` or ``"c"`` (scipy's, as ``stats.Correlation.Kendall``), ``"23"`` or
    ``"acc23"`` (Deutsch et al. 2023, as ``stats.KendallVariants``); metric differences <= ``epsilon`` are ties."""
    return _correlation("kendall", human, metric, grouping, variant=variant, epsilon=epsilon)


def kendall_like(human: object, metric: object, grouping: str = "item", threshold: float = 25.0) -> float:
    """WMT20's "Kendall-like" tau over pairs whose human scores differ by >= ``threshold``, averaged over rows
    weighted by their number of such pairs (``stats.Correlation.KendallLike``)."""
    return _correlation("kendall_like", human, metric, grouping, threshold=threshold)


def pairwise_accuracy(human: object, metric: object) -> float:
    """System-level pairwise accuracy: the share of system pairs that the metric orders as the humans do (a tie
    agrees with a tie), ``stats.Agreement``'s ratio. Needs at least three systems."""
    h, m = pair(human, metric)
    if h.shape[0] != 1:
        raise InputError("pairwise_accuracy takes one score per system (vectors), got a matrix")
    check_systems(h.shape[1], "pairwise accuracy")
    return _correlation("kendall", h, m, "none", variant="acc23")


def check_systems(count: int, what: str) -> None:
    """System-level statistics need at least three systems (two give a correlation of +-1 or nothing)."""
    if count < 3:
        raise InputError(f"{what} at the system level needs at least 3 systems, got {count}")


def kendall_ties_opt(human: object, metric: object, grouping: str = "none", variant: str = "acc23",
                     sample_rate: float = 1.0, seed: int | None = None) -> TiesResult:
    """Kendall's tau with ties calibrated (``stats.KendallWithTiesOpt``, Deutsch et al. 2023): the metric
    difference below which two scores count as tied is chosen to maximise the ``"23"`` or ``"acc23"`` tau, averaged
    over rows. With ``sample_rate < 1`` a random share of the pairs is used, drawn as mt-metrics-eval does after
    ``np.random.seed(seed)``; the default uses every pair and needs no seed."""
    h, m = pair(human, metric)
    random = np.random.RandomState(seed) if sample_rate < 1 else None
    return optimize_ties(rows_of(h, m, grouping), variant, sample_rate, random)


def soft_pairwise_accuracy(human: object, metric: object, num_permutations: int = 1000) -> float:
    """Soft pairwise accuracy (Thompson et al. 2024: 1 - pairwise confidence error), ``stats.PairwiseConfidence
    Error``: for every system pair, the p-value of "system i is better" from a paired permutation test on the
    human segment scores and on the metric's; the result is 1 - the mean absolute difference of the two. Takes
    ``(systems, items)`` matrices; the permutations are mt-metrics-eval's (numpy ``default_rng(4)``, float32)."""
    h, m = pair(human, metric)
    check_systems(h.shape[0], "soft pairwise accuracy")
    rated = ~np.isnan(h)
    counts = rated.sum(1)
    if (counts != counts[0]).any():
        raise InputError(f"soft pairwise accuracy needs the same number of ratings per system, got {counts.tolist()}"
                         " (align the systems on common items)")
    h_rated = h[rated].reshape(h.shape[0], -1)
    m_rated = m[rated].reshape(h.shape[0], -1)
    human_p = _pairwise_p_values(h_rated, num_permutations)
    metric_p = _pairwise_p_values(m_rated, num_permutations)
    upper = np.triu_indices(h.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_p - metric_p)[upper]))


def _pairwise_p_values(segments: np.ndarray, num_permutations: int) -> np.ndarray:
    """p-values of "system i > system j" by a paired permutation test on summed segment scores, with the draws and
    float32 arithmetic of mt-metrics-eval's ``pce.compute_pairwise_p_values`` (seed 4)."""
    signs = np.random.default_rng(4).random(size=(num_permutations, segments.shape[1]), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    scores = segments.astype(np.float32)
    totals = np.sum(scores, axis=1)
    partial = np.matmul(signs, scores.T)
    null = partial[:, :, None] - partial[:, None, :]
    return np.sum(null >= (totals[:, None] - totals[None, :]), axis=0) / num_permutations
