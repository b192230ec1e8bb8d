"""How sure a check's numbers are: the pass rate's Wilson score interval and the mean score's bootstrap interval.

The mean of per-case scores is itself a refscore metric, :class:`CaseMean`: its statistics are one row per case
(the case's score and a ``documents`` count of 1), so :func:`refscore.significance.bootstrap_ci_from_statistics`
gives the mean's interval and :func:`refscore.significance.paired_test_from_statistics` compares a run with a
baseline run of the same cases, exactly as for any other metric.

>>> low, high = wilson_interval(18, 20)
>>> round(low, 3), round(high, 3)
(0.699, 0.972)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, ClassVar

import numpy as np

from refscore.errors import InputError
from refscore.metrics.base import Metric, Score, Signature
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics
from refscore.stats import Statistics
from refscore.testing.checks import Check


def wilson_interval(passed: int, total: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a pass rate ``passed / total`` (better than the normal approximation near 0
    and 1 and for few cases); ``(0.0, 1.0)`` when there are no cases."""
    if total == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = passed / total
    denominator = 1 + z * z / total
    centre = (rate + z * z / (2 * total)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / denominator
    # at 0 and at total passes the bound is exactly 0 or 1; the formula leaves rounding residue there
    low = 0.0 if passed == 0 else max(0.0, centre - half)
    high = 1.0 if passed == total else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class CaseMeanConfig:
    """What a :class:`CaseMean` averages: the check's name, its metric and the metric's configuration hash."""

    check: str
    metric: str
    metric_config_hash: str


class CaseMean(Metric):
    """The mean of a check's per-case scores, as a document-averaged refscore metric.

    >>> mean = CaseMean(Check("chrf"))
    >>> stats = mean.from_scores([0.25, 0.75])
    >>> mean.score_from_statistics(stats).score
    0.5
    """

    name: ClassVar[str] = "case_mean"
    config_class: ClassVar[type] = CaseMeanConfig
    document_averaged: ClassVar[bool] = True
    columns: ClassVar[tuple[str, ...]] = ("score", "documents")

    def __init__(self, check: Check) -> None:
        metric = check.metric
        super().__init__(CaseMeanConfig(check.name, metric.name, metric.config_hash))
        self.check = check
        self.higher_is_better = check.higher_is_better    # type: ignore[misc]  # per instance: TER is lower-better

    @property
    def score_names(self) -> tuple[str, ...]:
        return (self.check.name,)

    def from_scores(self, scores: Any, nrefs: int = 1) -> Statistics:
        """Statistics of per-case scores already computed (one row per case)."""
        values = np.asarray(scores, dtype=np.float64).reshape(-1)
        return self._new_statistics(self.columns, np.column_stack([values, np.ones_like(values)]), nrefs)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        scores, stats = self.check.scores(hypotheses, references, num_threads=num_threads)
        return self.from_scores(scores, stats.nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, 1:2]
        return np.divide(totals[:, :1], documents, out=np.zeros_like(documents), where=documents > 0)

    def score_from_statistics(self, stats: Statistics) -> Score:
        self.check_statistics(stats)
        mean = float(self.scores_from_totals(stats.totals())[0, 0])
        return Score(metric=self.check.name, score=mean, signature=self.signature_text(stats.nrefs),
                     higher_is_better=self.check.higher_is_better)

    def signature(self, nrefs: int = 1) -> Signature:
        config = self.config
        return Signature({"check": config.check, "metric": config.metric, "config": config.metric_config_hash,
                          "agg": "case-mean", "nrefs": "var" if nrefs == -1 else str(nrefs)})


@dataclass(frozen=True)
class CheckSummary:
    """Per check: cases, passed cases, the pass rate with its Wilson interval, the mean with its bootstrap
    interval (both at ``confidence``)."""

    check: str
    cases: int
    passed: int
    pass_rate: float
    pass_rate_interval: tuple[float, float]
    mean: float
    mean_interval: tuple[float, float]
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "cases": self.cases, "passed": self.passed, "pass_rate": self.pass_rate,
                "pass_rate_interval": list(self.pass_rate_interval), "mean": self.mean,
                "mean_interval": list(self.mean_interval), "confidence": self.confidence}


def summarize(check: Check, stats: Statistics, passed: np.ndarray, *, confidence: float, n_bootstrap: int,
              seed: int | None) -> CheckSummary:
    """The :class:`CheckSummary` of one check from its :class:`CaseMean` statistics and pass flags."""
    total, n_passed = len(passed), int(np.count_nonzero(passed))
    mean_metric = CaseMean(check)
    mean = float(mean_metric.score_from_statistics(stats).score) if total else math.nan
    if total:
        ci = bootstrap_ci_from_statistics(mean_metric, stats, n=n_bootstrap, confidence=confidence, seed=seed)
        mean_interval = (float(ci.lower), float(ci.upper))
    else:
        mean_interval = (math.nan, math.nan)
    return CheckSummary(check.name, total, n_passed, n_passed / total if total else math.nan,
                        wilson_interval(n_passed, total, confidence), mean, mean_interval, confidence)


@dataclass(frozen=True)
class Comparison:
    """A check's mean now and in the baseline run, the two-sided paired-bootstrap p-value and whether the run is
    worse in the metric's direction."""

    check: str
    baseline_mean: float
    mean: float
    p_value: float
    worse: bool


def compare_with_baseline(check: Check, stats: Statistics, baseline_scores: Any, *, n_bootstrap: int,
                          seed: int | None) -> Comparison:
    """Paired bootstrap of this run's per-case scores against the baseline's scores of the same cases."""
    mean_metric = CaseMean(check)
    baseline = mean_metric.from_scores(baseline_scores, stats.nrefs)
    if len(baseline) != len(stats):
        raise InputError(f"check {check.name!r}: the baseline has {len(baseline)} cases, this run {len(stats)}")
    result = paired_test_from_statistics(mean_metric, [("baseline", baseline), ("current", stats)], test="bs",
                                         n=n_bootstrap, seed=seed)
    before = result.result("baseline", check.name).score
    now = result.result("current", check.name)
    worse = now.score < before if check.higher_is_better else now.score > before
    return Comparison(check.name, before, now.score, float(now.p_value), worse)


__all__ = ["CaseMean", "CaseMeanConfig", "CheckSummary", "Comparison", "compare_with_baseline", "summarize",
           "wilson_interval"]
