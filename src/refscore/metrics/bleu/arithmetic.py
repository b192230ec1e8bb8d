"""sacreBLEU 2.6's own arithmetic for resampled BLEU scores: what :class:`~refscore.metrics.bleu.BLEU` declares
(its ``peer_arithmetic``, read by :meth:`~refscore.protocol.Metric.arithmetic`) for bootstrap intervals, paired
tests and the compat layer.

sacreBLEU scores a bootstrap resample from ``np.array(stats, dtype='float32')[idxs].sum(0)`` with
``BLEU._compute_score_from_stats``: under NumPy 2 a Python float meeting a ``np.float32`` stays float32, so the
precisions are float32 values, and ``math.log``/``math.exp`` (the C library's) then run in double.
Approximate-randomization trials sum exact int64 statistics and score them in double. Everything is on sacreBLEU's
0–100 scale (:attr:`Arithmetic.scale` 100).

>>> from refscore.metrics.bleu import BLEU
>>> arithmetic = bleu_arithmetic(BLEU())
>>> sums = np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]], dtype=np.float32)   # a perfect match, summed in float32
>>> arithmetic.scale, round(float(arithmetic.resampled(sums)[0, 0]), 9)
(100.0, 100.0)
"""
from __future__ import annotations

import numpy as np

from refscore._core._bleu import bleu_scores
from refscore._metric_facts import Arithmetic
from refscore.metrics.bleu.formula import bleu_from_counts
from refscore.metrics.bleu.metric import BLEU

__all__ = ["bleu_arithmetic"]


def bleu_arithmetic(metric: BLEU) -> Arithmetic:
    """sacreBLEU's ``BLEU._compute_score_from_stats``: exact and on float32 resample sums."""
    return Arithmetic(100.0, lambda totals: _bleu_exact(metric, totals), lambda sums: _bleu_resampled(metric, sums))


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
