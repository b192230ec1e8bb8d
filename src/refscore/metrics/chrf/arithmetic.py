"""sacreBLEU 2.6's own arithmetic for resampled chrF scores: what :class:`~refscore.metrics.chrf.CHRF` declares
(its ``peer_arithmetic``, read by :meth:`~refscore.protocol.Metric.arithmetic`) for bootstrap intervals, paired
tests and the compat layer.

sacreBLEU scores a bootstrap resample from ``np.array(stats, dtype='float32')[idxs].sum(0)`` with
``CHRF._compute_f_score``: under NumPy 2 a Python float meeting a ``np.float32`` stays float32, so the precisions,
recalls and F-score are float32 values. Approximate-randomization trials sum exact int64 statistics and score them
in double. Everything is on sacreBLEU's 0–100 scale (:attr:`Arithmetic.scale` 100).

>>> from refscore.metrics.chrf import CHRF
>>> arithmetic = chrf_arithmetic(CHRF(char_order=1, word_order=0))
>>> arithmetic.scale, arithmetic.resampled(np.array([[4, 4, 4]], dtype=np.float32)).tolist()
(100.0, [[100.0]])
"""
from __future__ import annotations

import numpy as np

from refscore._metric_facts import Arithmetic
from refscore.metrics.chrf.metric import CHRF, EPSILON, f_scores_percent

__all__ = ["chrf_arithmetic"]


def chrf_arithmetic(metric: CHRF) -> Arithmetic:
    """sacreBLEU's ``CHRF._compute_f_score``: exact and on float32 resample sums."""
    return Arithmetic(100.0, lambda totals: f_scores_percent(totals, metric.config)[:, None],
                      lambda sums: _chrf_resampled(metric, sums))


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
