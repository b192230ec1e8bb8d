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

from refscore.protocol import Metric, Score, Signature, Statistics, nrefs_text
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics
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
    """What a :class:`CaseMean` averages: per check its name, metric and the metric's configuration hash."""

    checks: tuple[tuple[str, str, str], ...]


class CaseMean(Metric):
    """The means of several checks' per-case scores, as one document-averaged refscore metric (one score per
    check, so a single bootstrap draw serves them all).

    >>> mean = CaseMean([Check("chrf"), Check("ter")])
    >>> stats = mean.from_scores([[0.25, 0.75], [0.5, 0.0]])
    >>> mean.scores_from_totals(stats.totals()).tolist()
    [[0.5, 0.25]]
    """

    name: ClassVar[str] = "case_mean"
    config_class: ClassVar[type] = CaseMeanConfig

    def __init__(self, checks: list[Check]) -> None:
        super().__init__(CaseMeanConfig(tuple((c.name, c.metric.name, c.metric.config_hash) for c in checks)))
        self.checks = list(checks)
        self.higher_is_better = checks[0].higher_is_better  # type: ignore[misc]  # the first check's direction
        self.columns = (*(check.name for check in checks), "documents")

    @property
    def score_names(self) -> tuple[str, ...]:
        return tuple(check.name for check in self.checks)

    def from_scores(self, scores: Any, nrefs: int = 1) -> Statistics:
        """Statistics of per-case scores already computed: ``scores[k]`` holds check ``k``'s score of every case."""
        values = np.asarray(scores, dtype=np.float64).reshape(len(self.checks), -1)
        return self._new_statistics(self.columns, np.column_stack([*values, np.ones(values.shape[1])]), nrefs)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        results = [check.scores(hypotheses, references, num_threads=num_threads) for check in self.checks]
        nrefs = {stats.nrefs for _, stats in results}
        return self.from_scores([scores for scores, _ in results], nrefs.pop() if len(nrefs) == 1 else -1)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, -1:]
        return np.divide(totals[:, :-1], documents, out=np.zeros_like(totals[:, :-1]), where=documents > 0)

    def score_from_statistics(self, stats: Statistics) -> Score:
        """The first check's mean (all means: :meth:`scores_from_totals`)."""
        self.check_statistics(stats)
        mean = float(self.scores_from_totals(stats.totals())[0, 0])
        return Score(metric=self.checks[0].name, score=mean, signature=self.signature_text(stats.nrefs))

    def signature(self, nrefs: int = 1) -> Signature:
        checks = ",".join(f"{name}={metric}#{config_hash}" for name, metric, config_hash in self.config.checks)
        return Signature({"checks": checks, "agg": "case-mean", "nrefs": nrefs_text(nrefs)})


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


def summarize(checks: list[Check], scores: list[np.ndarray], passed: list[np.ndarray], nrefs: int, *,
              confidence: float, n_bootstrap: int, seed: int | None,
              num_threads: int | None = None) -> dict[str, CheckSummary]:
    """Per check its :class:`CheckSummary`; the means' intervals come from one bootstrap of all checks."""
    mean_metric = CaseMean(checks)
    stats = mean_metric.from_scores(scores, nrefs)
    ci = bootstrap_ci_from_statistics(mean_metric, stats, n=n_bootstrap, confidence=confidence, seed=seed,
                                      num_threads=num_threads)
    summaries = {}
    for check, flags in zip(checks, passed):
        total, n_passed = len(flags), int(np.count_nonzero(flags))
        interval = ci.intervals[check.name]
        summaries[check.name] = CheckSummary(check.name, total, n_passed, n_passed / total,
                                             wilson_interval(n_passed, total, confidence), interval.score,
                                             (interval.lower, interval.upper), confidence)
    return summaries


@dataclass(frozen=True)
class Comparison:
    """A check's mean now and in the baseline run, the two-sided paired-bootstrap p-value and whether the run is
    worse in the metric's direction."""

    check: str
    baseline_mean: float
    mean: float
    p_value: float
    worse: bool


def compare_with_baseline(checks: list[Check], scores: list[np.ndarray], baseline_scores: list[np.ndarray],
                          nrefs: int, *, n_bootstrap: int, seed: int | None,
                          num_threads: int | None = None) -> dict[str, Comparison]:
    """Per check, a paired bootstrap of this run's per-case scores against the baseline's scores of the same cases
    (one draw of resamples for all checks)."""
    mean_metric = CaseMean(checks)
    current = mean_metric.from_scores(scores, nrefs)
    baseline = mean_metric.from_scores(baseline_scores, nrefs)
    result = paired_test_from_statistics(mean_metric, [("baseline", baseline), ("current", current)], test="bs",
                                         n=n_bootstrap, seed=seed, num_threads=num_threads)
    comparisons = {}
    for check in checks:
        before = result.result("baseline", check.name).score
        now = result.result("current", check.name)
        worse = now.score < before if check.higher_is_better else now.score > before
        comparisons[check.name] = Comparison(check.name, before, now.score, float(now.p_value), worse)  # type: ignore[arg-type]  # a test sets it
    return comparisons


__all__ = ["CaseMean", "CaseMeanConfig", "CheckSummary", "Comparison", "compare_with_baseline", "summarize",
           "wilson_interval"]
