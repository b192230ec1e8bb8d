"""Tie calibration for Kendall's tau (Deutsch et al. 2023, "Ties Matter"), vectorised from mt-metrics-eval's
``tau_optimization.tau_optimization``.

Every pair of rated cells of a row is listed in the reference's order (row by row, ``i < j``); with
``sample_rate < 1`` a pair is kept when a uniform draw is ``<= sample_rate`` (one draw per pair, in that order, as
the reference's ``np.random.random()`` calls). Pairs are sorted by their metric difference (stably); turning the
pairs into metric ties one by one, in that order, changes one row's tau at a time. The threshold of each distinct
difference (and 0.0, no new ties) gets the average tau after all pairs up to it are ties; the first maximum wins.
"""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np

from refscore.errors import InputError
from refscore.meta._rows import ConstantScoresWarning, Rows


def equals_constant(tau: float, constant: float) -> bool:
    """Whether a calibrated ``tau`` is a constant metric's value (equal up to the float order of the sums).

    >>> equals_constant(0.48, 0.48 + 1e-16), equals_constant(0.48, 0.47), equals_constant(math.nan, math.nan)
    (True, False, False)
    """
    return math.isclose(tau, constant, rel_tol=1e-12, abs_tol=1e-15)


@dataclasses.dataclass(frozen=True)
class TiesResult:
    """The calibrated tau, its tie threshold and the curve it was chosen from (thresholds ascending).

    ``constant`` is the tau of a constant metric (every pair a metric tie: the curve's last point, which every
    metric reaches at its largest threshold); a calibrated tau equal to it (``equals_constant``) says the
    calibration found nothing better than calling every pair a tie.

    >>> from refscore.meta.correlations import kendall_ties_opt
    >>> result = kendall_ties_opt([[0.0, 0.0, -1.0]], [[0.5, 0.625, 0.25]], grouping="sys")
    >>> result.tau, result.threshold, round(result.constant, 4), result.equals_constant
    (1.0, 0.125, 0.3333, False)
    """

    tau: float
    threshold: float
    thresholds: np.ndarray
    taus: np.ndarray

    def __float__(self) -> float:
        return self.tau

    @property
    def constant(self) -> float:
        """The tau of a constant metric on the same human scores (every pair of metric scores tied)."""
        return float(self.taus[-1])

    @property
    def equals_constant(self) -> bool:
        return equals_constant(self.tau, self.constant)


def _pairs(rows: Rows, metric: np.ndarray, sample_rate: float,
           random: np.random.RandomState | np.random.Generator | None) -> tuple[np.ndarray, ...]:
    h, _, valid = rows
    length = h.shape[-1]
    first, second = np.triu_indices(length, 1)
    use = valid[:, first] & valid[:, second]
    row_of, pair_of = np.nonzero(use)
    if sample_rate < 1.0:
        assert random is not None
        draws = random.random_sample(row_of.size) if isinstance(random, np.random.RandomState) \
            else random.random(row_of.size)
        keep = draws <= sample_rate
        row_of, pair_of = row_of[keep], pair_of[keep]
    i, j = first[pair_of], second[pair_of]
    return row_of, h[row_of, i], h[row_of, j], metric[row_of, i], metric[row_of, j]


def optimize_ties(rows: Rows, variant: str, sample_rate: float,
                  random: np.random.RandomState | np.random.Generator | None, metric: np.ndarray | None = None,
                  exact_order: bool = True) -> TiesResult:
    """Calibrate the tie threshold over ``rows`` (``metric`` overrides the rows' metric scores, for resamples).

    With several rows, ``exact_order`` sums the rows' taus in the reference's float order (one Python step per
    pair), so that equal taus at different thresholds tie as they do there and the same threshold wins; otherwise
    the running sum is vectorised (equal to 1e-15, the threshold may differ among taus equal in exact arithmetic).
    """
    if variant not in ("23", "acc23"):
        raise InputError(f"tie calibration supports the variants '23' and 'acc23', got {variant!r}")
    if not 0 < sample_rate <= 1:
        raise InputError(f"sample_rate must be in (0, 1], got {sample_rate!r}")
    row_of, h1, h2, m1, m2 = _pairs(rows, rows.metric if metric is None else metric, sample_rate, random)
    if row_of.size == 0:
        warnings.warn("tie-calibrated Kendall is undefined (NaN): no pair of rated scores", ConstantScoresWarning,
                      stacklevel=3)
        nan = float("nan")
        return TiesResult(nan, nan, np.array([0.0]), np.array([nan]))
    human_tie, metric_tie = h1 == h2, m1 == m2
    agree = ~human_tie & ~metric_tie & ((h1 > h2) == (m1 > m2))
    if variant == "acc23":  # numerator: concordant + tied in both
        before = (agree | (human_tie & metric_tie)).astype(np.int64)
        after = human_tie.astype(np.int64)
    else:  # concordant + both - discordant - human-only - metric-only
        before = np.where(agree | (human_tie & metric_tie), 1, -1)
        after = np.where(human_tie, 1, -1)
    per_row = np.bincount(row_of)  # row_of ascends: pairs are listed row by row
    present = np.flatnonzero(per_row)
    row_index = (np.cumsum(per_row > 0) - 1)[row_of]
    pairs_per_row = per_row[present]
    numerators = np.bincount(row_index, weights=before).astype(np.int64)
    diff = np.abs(m1 - m2)
    order = np.argsort(diff, kind="stable")
    change = (after - before)[order]
    num_rows = present.size
    if exact_order and num_rows > 1:
        taus = _reference_running_taus(numerators, pairs_per_row, row_index[order], change) / num_rows
    elif (pairs_per_row == pairs_per_row[0]).all():  # one denominator: exact integer sums
        running = np.concatenate(([numerators.sum()], numerators.sum() + np.cumsum(change)))
        taus = running / pairs_per_row[0] / num_rows
    else:
        start = float(sum(n / p for n, p in zip(numerators.tolist(), pairs_per_row.tolist())))
        steps = change / pairs_per_row[row_index[order]]
        taus = np.concatenate(([start], start + np.cumsum(steps))) / num_rows
    thresholds = np.concatenate(([0.0], diff[order]))
    last_of_run = np.r_[thresholds[1:] != thresholds[:-1], True]
    thresholds, taus = thresholds[last_of_run], taus[last_of_run]
    best = int(np.nanargmax(taus))
    return TiesResult(float(taus[best]), float(thresholds[best]), thresholds, taus)


def _reference_running_taus(numerators: np.ndarray, pairs_per_row: np.ndarray, rows: np.ndarray,
                            change: np.ndarray) -> np.ndarray:
    """The reference's running total of row taus: start from the sum of the rows' taus (in row order), then for
    each pair subtract its row's tau before the pair becomes a tie and add the tau after (in that float order)."""
    by_row = np.argsort(rows, kind="stable")
    steps = np.empty_like(change)
    cumulative = np.cumsum(change[by_row])
    starts = np.r_[0, np.flatnonzero(np.diff(rows[by_row])) + 1]
    offsets = np.repeat(cumulative[starts] - change[by_row][starts], np.diff(np.r_[starts, rows.size]))
    steps[by_row] = cumulative - offsets  # each row's numerator change up to and including the pair
    after = numerators[rows] + steps
    before_taus = ((after - change) / pairs_per_row[rows]).tolist()
    after_taus = (after / pairs_per_row[rows]).tolist()
    total = sum((numerators / pairs_per_row).tolist())
    running = [total]
    for old, new in zip(before_taus, after_taus):
        total -= old
        total += new
        running.append(total)
    return np.array(running)
