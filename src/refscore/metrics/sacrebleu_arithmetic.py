"""sacreBLEU 2.6's own arithmetic for resampled BLEU, chrF and TER scores: the arithmetic these metrics declare
(their ``peer_arithmetic`` entries, read by :meth:`~refscore.protocol.Metric.arithmetic`) for bootstrap intervals,
paired tests and the compat layer.

sacreBLEU scores a bootstrap resample from ``np.array(stats, dtype='float32')[idxs].sum(0)`` with the metric's
scalar ``_compute_score_from_stats``. Under NumPy 2 a Python float meeting a ``np.float32`` stays float32, so
BLEU's precisions, chrF's precisions/recalls/F-score and TER's ratio are float32 values; BLEU then takes
``math.log``/``math.exp`` (the C library's) in double. Approximate-randomization trials sum exact int64 (or float64)
statistics and score them in double. Everything is on sacreBLEU's 0–100 scale (:attr:`Arithmetic.scale` 100).

>>> from refscore.metrics.ter import TER
>>> arithmetic = ter_arithmetic(TER())
>>> arithmetic.scale, arithmetic.resampled(np.array([[1, 3]], dtype=np.float32)).dtype
(100.0, dtype('float32'))
"""
from __future__ import annotations

import numpy as np

from refscore._core._bleu import bleu_scores
from refscore._metric_facts import Arithmetic
from refscore.metrics.bleu import BLEU, bleu_from_counts
from refscore.metrics.chrf import CHRF, EPSILON, f_scores_percent


def bleu_arithmetic(metric: BLEU) -> Arithmetic:
    """sacreBLEU's ``BLEU._compute_score_from_stats``: exact and on float32 resample sums."""
    return Arithmetic(100.0, lambda totals: _bleu_exact(metric, totals), lambda sums: _bleu_resampled(metric, sums))


def chrf_arithmetic(metric: CHRF) -> Arithmetic:
    """sacreBLEU's ``CHRF._compute_f_score``: exact and on float32 resample sums."""
    return Arithmetic(100.0, lambda totals: f_scores_percent(totals, metric.config)[:, None],
                      lambda sums: _chrf_resampled(metric, sums))


def ter_arithmetic(metric: object) -> Arithmetic:
    """sacreBLEU's ``TER._compute_score_from_stats``: exact and on float32 resample sums."""
    return Arithmetic(100.0, _ter_exact, _ter_resampled)


# -- BLEU ----------------------------------------------------------------------------------------------------------
def _bleu_exact(metric: BLEU, totals: np.ndarray) -> np.ndarray:
    config, order = metric.config, metric.config.max_order
    return bleu_from_counts(totals[:, 2:2 + order], totals[:, 2 + order:], totals[:, 0], totals[:, 1],
                            smooth_method=config.smooth_method, smooth_value=config.smooth_value,
                            effective_order=config.effective_order).score[:, None]


def _bleu_resampled(metric: BLEU, sums: np.ndarray) -> np.ndarray:
    """sacreBLEU's ``compute_bleu`` on float32 sums: float32 precisions, then C ``log``/``exp`` in double.

    The float32 precisions ``p`` go to the compiled formula as ``p / 100`` matches out of 100 (no smoothing): it
    computes ``100. * p / 100.``, which is ``p`` exactly (``p`` has 24 significant bits and 100 five, so the product
    is exact in double and so is the quotient), then sacreBLEU's ``log``/``exp`` statements.
    """
    config, order = metric.config, metric.config.max_order
    correct, total = sums[:, 2:2 + order], sums[:, 2 + order:]
    precisions = bleu_from_counts(correct, total, sums[:, 0], sums[:, 1], smooth_method=config.smooth_method,
                                  smooth_value=config.smooth_value, effective_order=config.effective_order,
                                  dtype=np.float32).precisions
    smoothed_total = total.astype(np.float32)
    if config.smooth_method == "add-k":
        smoothed_total[:, 1:] += np.float32(config.resolved_smooth_value)
    stopped = np.logical_or.accumulate(smoothed_total == 0, axis=1)   # sacreBLEU's `break`
    hundreds = np.where(stopped, 0.0, 100.0)
    lengths = sums[:, :2].astype(np.float64)
    score, _, _ = bleu_scores(np.ascontiguousarray(precisions), hundreds, lengths[:, 0].copy(),
                              lengths[:, 1].copy(), "none", 0.0, config.effective_order)
    return score[:, None]


# -- chrF ----------------------------------------------------------------------------------------------------------
def _chrf_resampled(metric: CHRF, sums: np.ndarray) -> np.ndarray:
    """sacreBLEU's ``_compute_f_score`` on float32 sums: vectorised in float32 where every order has hypothesis and
    reference n-grams (the usual case), and sacreBLEU's statements on ``np.float32`` scalars for the other rows."""
    config = metric.config
    sums = np.asarray(sums, dtype=np.float32)
    n_hyp, n_ref, n_match = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
    usual = np.all((n_hyp > 0) & (n_ref > 0), axis=1) & (not config.eps_smoothing)
    factor = np.float32(config.beta ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions, recalls = n_match / n_hyp, n_match / n_ref
        avg_prec, avg_rec = precisions[:, 0].copy(), recalls[:, 0].copy()
        for i in range(1, config.order):   # sacreBLEU adds order by order
            avg_prec += precisions[:, i]
            avg_rec += recalls[:, i]
        avg_prec /= np.float32(config.order)
        avg_rec /= np.float32(config.order)
        score = (np.float32(1 + config.beta ** 2) * avg_prec) * avg_rec
        score /= (factor * avg_prec) + avg_rec
        score = np.float32(100) * score
    usual &= (avg_prec + avg_rec) != 0
    if np.all(usual):
        return score[:, None]
    values = [value if fast else _chrf_scalar(row, config.order, config.beta ** 2, config.eps_smoothing)
              for value, fast, row in zip(score.tolist(), usual.tolist(), sums)]
    scalars = [np.float32(v) if fast else v for v, fast in zip(values, usual.tolist())]
    return np.array(scalars)[:, None]


def _chrf_scalar(stats: np.ndarray, order: int, factor: int | float, eps_smoothing: bool) -> np.float32 | float:
    """sacreBLEU's ``CHRF._compute_f_score`` statement for statement, on the ``np.float32`` scalars of one row."""
    score, effective_order, avg_prec, avg_rec = 0.0, 0, 0.0, 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPSILON
        rec = n_match / n_ref if n_ref > 0 else EPSILON
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPSILON
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / order
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= ((factor * avg_prec) + avg_rec)
        return 100 * score
    return 0.0


# -- TER -----------------------------------------------------------------------------------------------------------
def _ter_ratios(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    edits, ref_length = totals[:, 0], totals[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / ref_length
    return ratio, ref_length > 0


def _ter_exact(totals: np.ndarray) -> np.ndarray:
    """sacreBLEU: ``100 * (edits / ref_length)``; 100 with edits but no reference words, else 0."""
    totals = np.asarray(totals, dtype=np.float64)
    ratio, has_reference = _ter_ratios(totals)
    return np.where(has_reference, 100 * ratio, np.where(totals[:, 0] > 0, 100.0, 0.0))[:, None]


def _ter_resampled(sums: np.ndarray) -> np.ndarray:
    """The same on float32 sums: ``np.float32`` division and product; the two constants are Python floats."""
    sums = np.asarray(sums, dtype=np.float32)
    ratio, has_reference = _ter_ratios(sums)
    percent = np.float32(100) * ratio
    if np.all(has_reference):
        return percent[:, None]
    return np.where(has_reference, percent.astype(np.float64), np.where(sums[:, 0] > 0, 100.0, 0.0))[:, None]
