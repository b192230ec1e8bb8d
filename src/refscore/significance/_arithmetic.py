"""Resampled scores' arithmetic, shared by the native API and compat: each metric declares its own
(:meth:`~refscore.protocol.Metric.arithmetic`).

BLEU, chrF and TER declare sacreBLEU 2.6's (:mod:`refscore.metrics.bleu.arithmetic`,
:mod:`refscore.metrics.chrf.arithmetic`, :func:`refscore.metrics.ter.ter_arithmetic`: float32 resample sums, 0–100
scale); the native API divides the final mean, ends and half-width by 100 once, so its values are exactly
sacreBLEU's / 100. Metrics without a sacreBLEU counterpart (ROUGE, BERTScore, GLEU, user metrics) keep refscore's
own arithmetic: exact int64 sums scored in float64 on the 0–1 scale (:attr:`Arithmetic.peer` is False).

>>> from refscore.metrics import get_metric_class
>>> arithmetic = arithmetic_of(get_metric_class("ter")())
>>> arithmetic.scale, arithmetic.resampled(np.array([[1, 3]], dtype=np.float32)).dtype
(100.0, dtype('float32'))
"""
from __future__ import annotations

import statistics

import numpy as np

from refscore._metric_facts import Arithmetic
from refscore.protocol import Metric


def arithmetic_of(metric: Metric) -> Arithmetic:
    """The arithmetic ``metric`` declares: sacreBLEU's for refscore's BLEU, chrF and TER; refscore's own for every
    other metric."""
    return metric.arithmetic()


# -- summaries -----------------------------------------------------------------------------------------------------
def corpus_score_summary(values: np.ndarray, lower_index: int, upper_index: int) -> tuple[float, float, float, float]:
    """sacreBLEU's ``Score.estimate_ci`` (``corpus_score(n_bootstrap=...)``, ``--confidence``) of one column:
    ``(mean, lower, upper, half_width)`` with ``statistics.mean`` of the values as sacreBLEU holds them."""
    ordered = np.sort(values)
    held = list(ordered) if ordered.dtype == np.float32 else ordered.tolist()
    lower, upper = ordered[lower_index], ordered[upper_index]
    return float(statistics.mean(held)), float(lower), float(upper), float(0.5 * (upper - lower))


def paired_summary(values: np.ndarray, lower_index: int, upper_index: int) -> tuple[float, float, float, float]:
    """sacreBLEU's ``significance.estimate_ci`` (paired tests) of one column: ``np.sort(scores).mean()``."""
    ordered = np.sort(values)
    lower, upper = ordered[lower_index], ordered[upper_index]
    return float(ordered.mean()), float(lower), float(upper), float(0.5 * (upper - lower))

