"""Score matrices cut into the rows that a correlation is computed over (the WMT grouping modes), and Kendall's
pair counts for each row.

A segment-level input is a ``(systems, items)`` matrix; missing human ratings are ``NaN``. The grouping decides the
rows, in the order of mt-metrics-eval's ``_Reshape`` (its packed vectors are system blocks of items):

- ``"none"``: one row, the matrix flattened system by system;
- ``"sys"``: one row per system;
- ``"item"``: one row per item (the matrix transposed).

Rows are padded to one length; ``valid`` marks the cells with a human rating.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping
from types import ModuleType
from typing import NamedTuple

import numpy as np

from refscore.errors import InputError, RefscoreWarning
from refscore.lazy import require

GROUPINGS = ("none", "item", "sys")

#: Magnitudes beyond which (or below whose inverse) scores are scaled before sums of products (squares of 1e154
#: overflow; a sum of many squares sooner).
SAFE_MAGNITUDE = 1e100
#: Largest pair matrix (rows x length x length cells) built at once; longer rows are counted in row chunks.
_PAIR_CELLS = 4_000_000
#: Row length from which Kendall's counts come from sorting rather than pair matrices (the two cost about the
#: same near 200 cells: pair matrices grow with the square of the length).
_SORT_LENGTH = 200


def scipy_stats() -> ModuleType:
    """``scipy.stats``, of the ``meta`` extra: imported when a statistic needs it, so that ``import refscore.meta``
    and ``refscore check --calibrate`` work without it (its ranks, tau-b and t distribution are the ones
    mt-metrics-eval computes with)."""
    return require("scipy.stats", "meta-evaluation (refscore meta-eval, refscore report --judgments, "
                   "refscore.meta's correlations)", "meta")


class ConstantScoresWarning(RefscoreWarning):
    """A correlation is undefined because the human or the metric scores are constant in every row: it is NaN."""


class Rows(NamedTuple):
    human: np.ndarray   # (rows, length), NaN where not rated
    metric: np.ndarray  # (..., rows, length)
    valid: np.ndarray   # (rows, length) bool


def as_matrix(values: object, name: str, *, allow_missing: bool) -> np.ndarray:
    """A float matrix (1-D input becomes one row); ``None`` becomes NaN where missing ratings are allowed. A
    mapping system -> scores is a matrix with one row per system, in the mapping's order."""
    if isinstance(values, Mapping):
        lengths = {system: len(row) for system, row in values.items()}
        if len(set(lengths.values())) > 1:
            counts = ", ".join(f"{system!r}: {count}" for system, count in lengths.items())
            raise InputError(f"{name}: the systems have scores for different numbers of segments ({counts}); give "
                             "every system the same segments, None where a rating is missing")
        values = list(values.values())
    try:
        array = np.array(values, dtype=float)
    except (TypeError, ValueError):
        if not allow_missing:
            raise InputError(f"{name} must hold numbers, got a value that is not one") from None
        array = np.array([[np.nan if v is None else v for v in row] for row in np.atleast_2d(
            np.array(values, dtype=object))], dtype=float)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2:
        raise InputError(f"{name} must be a vector (system level) or a (systems, items) matrix, "
                         f"got {array.ndim} dimensions")
    if not allow_missing and not np.isfinite(array).all():
        where = np.argwhere(~np.isfinite(array))[0]
        raise InputError(f"{name} must be finite numbers: position {tuple(int(i) for i in where)} is "
                         f"{array[tuple(where)]!r}; only human ratings may be missing (None)")
    if allow_missing and np.isinf(array).any():
        raise InputError(f"{name} must not hold infinities (a missing rating is None or NaN)")
    return array


def check_grouping(grouping: str) -> str:
    if grouping not in GROUPINGS:
        raise InputError(f"grouping must be one of {', '.join(GROUPINGS)}, got {grouping!r}")
    return grouping


def pair(human: object, metric: object) -> tuple[np.ndarray, np.ndarray]:
    """The human and metric matrices, checked to have one shape."""
    if isinstance(human, Mapping) and isinstance(metric, Mapping):
        if set(human) != set(metric):
            only_human, only_metric = sorted(set(human) - set(metric)), sorted(set(metric) - set(human))
            raise InputError(f"human and metric scores must name the same systems: only human {only_human}, "
                             f"only metric {only_metric}")
        metric = {system: metric[system] for system in human}
    h = as_matrix(human, "human", allow_missing=True)
    m = as_matrix(metric, "metric", allow_missing=False)
    if h.shape != m.shape:
        raise InputError(f"human and metric scores must have one shape, got {h.shape} and {m.shape}")
    return h, m


def rows_of(human: np.ndarray, metric: np.ndarray, grouping: str) -> Rows:
    """Cut ``(systems, items)`` matrices into rows; ``metric`` may carry leading (resample) axes."""
    check_grouping(grouping)
    if grouping == "none":
        h = human.reshape(1, -1)
        m = metric.reshape(*metric.shape[:-2], 1, -1)
    elif grouping == "sys":
        h, m = human, metric
    else:
        h, m = human.T, np.swapaxes(metric, -1, -2)
    return Rows(h, m, ~np.isnan(h))


def average(values: np.ndarray, weights: np.ndarray | None = None, *, what: str) -> float:
    """The mean over rows whose value is defined (mt-metrics-eval's macro average); NaN with a
    :class:`ConstantScoresWarning` when no row has one (mt-metrics-eval returns 0 there)."""
    defined = ~np.isnan(values)
    if weights is not None:
        defined &= weights > 0
    if not defined.any():
        warnings.warn(f"{what} is undefined (NaN): the human or the metric scores are constant, or fewer than two "
                      "rated scores, in every row", ConstantScoresWarning, stacklevel=3)
        return float("nan")
    if weights is None:
        return float(np.average(values[defined]))
    return float(np.sum(weights[defined] * values[defined]) / np.sum(weights[defined]))


def constant_rows(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Rows (last axis) whose valid values are all equal to the row's first valid value."""
    valid = np.broadcast_to(valid, np.broadcast_shapes(valid.shape, values.shape))
    values = np.broadcast_to(values, valid.shape)
    first = np.take_along_axis(values, np.argmax(valid, axis=-1)[..., None], axis=-1)
    return np.all((values == first) | ~valid, axis=-1)


def magnitude_divisor(values: np.ndarray, valid: np.ndarray | None = None, axis: int | None = None) -> np.ndarray:
    """What to divide ``values`` by (per row along ``axis``, kept as a length-1 axis) before sums of products: the
    largest magnitude of the valid cells where it is above ``SAFE_MAGNITUDE`` (a square overflows from ~1e154) or
    below its inverse (a square underflows), else exactly 1, so that ordinary scores keep every bit. Pearson's r and
    means are unchanged by a positive scale.

    >>> magnitude_divisor(np.array([1e200, -3e250, 2.0])).item(), magnitude_divisor(np.array([0.5, -2.0])).item()
    (3e+250, 1.0)
    """
    cells = np.abs(values) if valid is None else np.where(valid, np.abs(values), 0.0)
    largest = np.max(np.where(np.isfinite(cells), cells, 0.0), axis=axis, keepdims=axis is not None, initial=0.0)
    extreme = (largest > SAFE_MAGNITUDE) | ((largest > 0) & (largest < 1 / SAFE_MAGNITUDE))
    return np.where(extreme, largest, 1.0)


def pearson_rows(h: np.ndarray, m: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Pearson's r of each row over its valid cells; NaN for rows with fewer than 2 cells or a constant side.
    Extreme magnitudes are scaled first (:func:`magnitude_divisor`): r of 1e200-sized scores is scipy's, not 0."""
    valid = np.broadcast_to(valid, m.shape)
    count = valid.sum(-1)
    h_valid = valid[(0,) * (valid.ndim - h.ndim)]
    h = h / magnitude_divisor(h, h_valid, axis=-1)
    m = m / magnitude_divisor(m, valid, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        hc = np.where(valid, h - (np.where(valid, h, 0).sum(-1) / count)[..., None], 0.0)
        mc = np.where(valid, m - (np.where(valid, m, 0).sum(-1) / count)[..., None], 0.0)
        r = (hc * mc).sum(-1) / (np.sqrt((hc * hc).sum(-1)) * np.sqrt((mc * mc).sum(-1)))
    r = np.clip(r, -1.0, 1.0)
    undefined = (count < 2) | constant_rows(h, valid[(0,) * (valid.ndim - h.ndim)]) | constant_rows(m, valid)
    return np.where(undefined, np.nan, r)


def ranks(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Average ranks (1-based) of the valid cells of each row, as scipy.stats.rankdata gives them."""
    padded = np.where(valid, values, np.inf)  # +inf pads rank after every valid value and change none of theirs
    return scipy_stats().rankdata(padded, axis=-1)


class KendallCounts(NamedTuple):
    concordant: np.ndarray
    discordant: np.ndarray
    metric_ties: np.ndarray  # tied in the metric only
    human_ties: np.ndarray   # tied in the human scores only
    both_ties: np.ndarray

    @property
    def pairs(self) -> np.ndarray:
        return self.concordant + self.discordant + self.metric_ties + self.human_ties + self.both_ties


def _pair_signs(h: np.ndarray, m: np.ndarray, valid: np.ndarray, epsilon: float) -> tuple[np.ndarray, ...]:
    dh = h[..., :, None] - h[..., None, :]
    dm = m[..., :, None] - m[..., None, :]
    length = h.shape[-1]
    use = valid[..., :, None] & valid[..., None, :] & np.triu(np.ones((length, length), dtype=bool), 1)
    human_tie = dh == 0
    metric_tie = np.abs(dm) <= epsilon if epsilon > 0 else dm == 0
    con = use & ~human_tie & ~metric_tie & ((dh > 0) == (dm > 0))
    dis = use & ~human_tie & ~metric_tie & ((dh > 0) != (dm > 0))
    return (con.sum((-1, -2)), dis.sum((-1, -2)), (use & metric_tie & ~human_tie).sum((-1, -2)),
            (use & human_tie & ~metric_tie).sum((-1, -2)), (use & human_tie & metric_tie).sum((-1, -2)))


def _run_pairs(changes: np.ndarray) -> int:
    """Tied pairs of a sorted sequence, given where consecutive values differ (``changes[i]``: i and i + 1)."""
    bounds = np.flatnonzero(np.r_[True, changes, True])
    runs = np.diff(bounds)
    return int((runs * (runs - 1) // 2).sum())


def _tie_counts(h: np.ndarray, m: np.ndarray) -> tuple[int, int, int]:
    """Pairs tied in the metric, in the human scores and in both, from one sort by (human, metric) and one of the
    metric (``np.unique`` of stacked columns sorts a structured view, several times slower)."""
    order = np.lexsort((m, h))
    hs, ms = h[order], m[order]
    human_change = hs[1:] != hs[:-1]
    both = _run_pairs(human_change | (ms[1:] != ms[:-1]))
    metric_sorted = np.sort(m)
    return _run_pairs(metric_sorted[1:] != metric_sorted[:-1]), _run_pairs(human_change), both


def _row_counts_sorted(h: np.ndarray, m: np.ndarray) -> tuple[int, ...]:
    """Counts of one long row in O(n log n): ties from sorted values, concordant - discordant from scipy's tau-b
    (exact after rounding: its error is far below 0.5 for any count below 2**50)."""
    n = h.size
    total = n * (n - 1) // 2
    metric_tie, human_tie, both = _tie_counts(h, m)
    if metric_tie == total or human_tie == total:
        difference = 0
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tau_b = scipy_stats().kendalltau(h, m).statistic
        difference = int(round(tau_b * np.sqrt(float(total - metric_tie)) * np.sqrt(float(total - human_tie))))
    untied = total - metric_tie - human_tie + both
    con = (untied + difference) // 2
    return con, untied - con, metric_tie - both, human_tie - both, both


def long_rows(h: np.ndarray, epsilon: float = 0.0) -> bool:
    """Whether :func:`kendall_counts` counts the rows of ``h`` one by one after sorting, in O(n log n), rather
    than by pair matrices: rows longer than ``_SORT_LENGTH`` (where sorting is faster) or too many pair cells. A
    metric tie within ``epsilon`` > 0 needs the pair matrices."""
    rows, length = h.shape[-2], h.shape[-1]
    if epsilon > 0:
        return length * length > _PAIR_CELLS
    return length > _SORT_LENGTH or rows * length * length > _PAIR_CELLS


def scipy_kendall(h: np.ndarray, m: np.ndarray, valid: np.ndarray, variant: str) -> np.ndarray:
    """Kendall's tau-b or tau-c of each row (last axis) over its valid cells, by ``scipy.stats.kendalltau(human,
    metric)`` as mt-metrics-eval's ``Correlation.Kendall`` calls it: the same numbers bit for bit, and for long rows
    faster than counting pairs (NaN for rows with fewer than two cells or constant scores)."""
    h_b, valid_b = np.broadcast_to(h, m.shape), np.broadcast_to(valid, m.shape)
    tau = np.full(m.shape[:-1], np.nan)
    kendalltau = scipy_stats().kendalltau
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for index in np.ndindex(*m.shape[:-1]):
            keep = valid_b[index]
            if np.count_nonzero(keep) >= 2:
                tau[index] = kendalltau(h_b[index][keep], m[index][keep], variant=variant).statistic
    return tau


def kendall_counts(h: np.ndarray, m: np.ndarray, valid: np.ndarray, epsilon: float = 0.0) -> KendallCounts:
    """Concordant, discordant and tied pairs of each row (last axis), over pairs of valid cells. A metric
    difference whose absolute value is <= ``epsilon`` counts as a metric tie. ``h`` and ``valid`` may carry the
    leading axes of ``m`` (resamples of the human scores) or not."""
    rows, length = h.shape[-2], h.shape[-1]
    lead = m.shape[:-2]
    if not long_rows(h, epsilon):
        h_b = np.broadcast_to(h, m.shape)
        valid_b = np.broadcast_to(valid, m.shape)
        step = max(1, _PAIR_CELLS // (length * length))
        flat = [array.reshape(-1, length) for array in (h_b, m, valid_b)]
        parts = [_pair_signs(flat[0][i:i + step], flat[1][i:i + step], flat[2][i:i + step], epsilon)
                 for i in range(0, flat[0].shape[0], step)]
        return KendallCounts(*(np.concatenate([p[j] for p in parts]).reshape(*lead, rows).astype(np.int64)
                               for j in range(5)))
    if epsilon > 0:
        raise InputError(f"epsilon > 0 needs rows of at most {int(np.sqrt(_PAIR_CELLS))} scores, got {length}")
    out = np.zeros((*lead, rows, 5), dtype=np.int64)
    h_b, valid_b = np.broadcast_to(h, m.shape), np.broadcast_to(valid, m.shape)
    for index in np.ndindex(*lead, rows):
        keep = valid_b[index]
        out[index] = _row_counts_sorted(h_b[index][keep], m[index][keep])
    return KendallCounts(*np.moveaxis(out, -1, 0))


def distinct_counts(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The number of distinct valid values of each row (tau-c's classes)."""
    flat_values = values.reshape(-1, values.shape[-1])
    flat_valid = np.broadcast_to(valid, values.shape).reshape(-1, values.shape[-1])
    return np.array([np.unique(v[k]).size for v, k in zip(flat_values, flat_valid)]).reshape(values.shape[:-1])
