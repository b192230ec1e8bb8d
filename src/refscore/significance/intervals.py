"""Bootstrap confidence intervals of any metric, computed from its per-segment statistics.

Corpus-level metrics (BLEU, chrF, TER, GLEU) resample segment statistics and recompute the corpus formula;
document-averaged metrics (ROUGE, BERTScore) resample per-document scores — the same code path, because their
statistics carry a ``documents`` count column and their formula is ``sum / documents``. All resamples are summed at
once (multiplicity matrix @ statistics, int64-exact) and scored by one vectorised ``scores_from_totals`` call.

With the same seed and sample count the resamples are sacreBLEU 2.6's (``--confidence``, ``SACREBLEU_SEED``), and the
interval follows its ``estimate_ci``: sorted resampled scores, ``lower = n // 40``, ``upper = n - lower - 1``,
reported as ``score (μ = mean ± half-width)``.

>>> import numpy as np
>>> mean, lower, upper = summarize_samples(np.arange(1000.0)[:, None], confidence=0.95)
>>> float(mean[0]), float(lower[0]), float(upper[0])
(499.5, 25.0, 974.0)
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from refscore._checks import check_confidence, check_count, check_num_threads, check_seed
from refscore.metrics.base import Metric, Signature
from refscore.significance._sampling import (bootstrap_indices, interval_indices, make_rng, resampled_totals,
                                             seed_label)
from refscore.stats import Statistics
from refscore.errors import InputError


@dataclasses.dataclass(frozen=True)
class Interval:
    """One score with its bootstrap estimate, on the metric's 0–1 scale.

    ``ci`` is sacreBLEU's ``±`` value: half the width of the central interval.
    """

    name: str
    score: float
    mean: float
    lower: float
    upper: float
    confidence: float

    @property
    def ci(self) -> float:
        return 0.5 * (self.upper - self.lower)

    def format(self, digits: int = 2) -> str:
        """sacreBLEU's form on the 0–100 scale: ``35.21 (μ = 35.20 ± 0.78)``."""
        return f"{100 * self.score:.{digits}f} (μ = {100 * self.mean:.{digits}f} ± {100 * self.ci:.{digits}f})"

    def to_dict(self) -> dict[str, float]:
        return {"score": self.score, "mean": self.mean, "ci": self.ci, "lower": self.lower, "upper": self.upper,
                "confidence": self.confidence}


def summarize_samples(samples: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, lower and upper end of each column of resampled scores ``(n, n_scores)`` (sacreBLEU's estimate_ci)."""
    ordered = np.sort(samples, axis=0)
    lower_index, upper_index = interval_indices(len(ordered), confidence)
    # mean of each contiguous sorted column: numpy's pairwise sum, as sacreBLEU's ``np.sort(scores).mean()``
    means = np.ascontiguousarray(ordered.T).mean(axis=1)
    return means, ordered[lower_index], ordered[upper_index]


def resampling_signature(base: Signature, **fields: str) -> Signature:
    """``base`` with resampling fields (``bs``, ``ar``, ``seed``) inserted after ``nrefs``, as sacreBLEU orders them.

    The short form writes ``seed`` as ``rs`` (sacreBLEU's abbreviation).
    """
    entries = [(k, v) for k, v in base.fields.items() if k != "refscore"]
    position = next((i + 1 for i, (k, _) in enumerate(entries) if k == "nrefs"), 0)
    entries[position:position] = list(fields.items())
    return Signature(dict(entries), short_names={**base.short_names, "seed": "rs"})


@dataclasses.dataclass(frozen=True)
class BootstrapCI:
    """Bootstrap confidence intervals of one metric on one system.

    ``intervals`` has one :class:`Interval` per headline score of the metric (``metric.score_names``); the
    attributes ``score``, ``mean``, ``lower``, ``upper`` and ``ci`` are those of the first one. ``samples`` holds the
    resampled scores, ``(n, len(score_names))``.
    """

    metric: str
    intervals: dict[str, Interval]
    n: int
    seed: int | None
    confidence: float
    signature: Signature
    samples: np.ndarray = dataclasses.field(repr=False)

    @property
    def headline(self) -> Interval:
        return next(iter(self.intervals.values()))

    score = property(lambda self: self.headline.score, doc="Full-corpus headline score (0–1).")
    mean = property(lambda self: self.headline.mean, doc="Mean of the resampled headline scores.")
    lower = property(lambda self: self.headline.lower, doc="Lower end of the headline interval.")
    upper = property(lambda self: self.headline.upper, doc="Upper end of the headline interval.")
    ci = property(lambda self: self.headline.ci, doc="Half-width of the headline interval (sacreBLEU's ±).")

    def format(self, digits: int = 2) -> str:
        """One line per score: ``BLEU = 35.21 (μ = 35.20 ± 0.78)``."""
        return "\n".join(f"{name.upper()} = {interval.format(digits)}" for name, interval in self.intervals.items())

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "n": self.n, "seed": self.seed, "confidence": self.confidence,
                "signature": str(self.signature),
                "intervals": {name: interval.to_dict() for name, interval in self.intervals.items()}}


def resolve_metric(metric: Metric | str) -> Metric:
    if isinstance(metric, str):
        from refscore.metrics import get_metric_class

        return get_metric_class(metric)()
    if not isinstance(metric, Metric):
        raise InputError(f"metric must be a refscore Metric or a metric name, got {type(metric).__name__}")
    return metric


def full_scores(metric: Metric, stats: Statistics) -> np.ndarray:
    """The headline scores of the whole corpus, ``(len(score_names),)``."""
    return metric.scores_from_totals(stats.totals()[None, :])[0]


def check_nonempty(stats: Statistics, name: str) -> None:
    if len(stats) == 0:
        raise InputError(f"{name} has no segments; resampling needs at least one segment")


def interval_from_indices(metric: Metric, stats: Statistics, indices: np.ndarray, confidence: float,
                          num_threads: int | None = None) -> tuple[dict[str, Interval], np.ndarray]:
    """Intervals of ``stats`` over the resamples given by an index matrix (shared by paired tests)."""
    samples = metric.scores_from_totals(resampled_totals(stats.data, indices, num_threads))
    means, lowers, uppers = summarize_samples(samples, confidence)
    scores = full_scores(metric, stats)
    intervals = {name: Interval(name, float(scores[i]), float(means[i]), float(lowers[i]), float(uppers[i]),
                                confidence) for i, name in enumerate(metric.score_names)}
    return intervals, samples


def bootstrap_ci_from_statistics(metric: Metric | str, stats: Statistics, *, n: int = 1000,
                                 confidence: float = 0.95, seed: int | None = 12345,
                                 num_threads: int | None = None) -> BootstrapCI:
    """Bootstrap confidence interval from statistics already computed (``metric.statistics(...)``).

    ``seed`` (default 12345, sacreBLEU's) makes the result reproducible and goes into the signature; ``None``
    draws fresh randomness. Seed 0 is a real seed (sacreBLEU's CLI would treat it as unseeded).
    """
    num_threads = check_num_threads(num_threads)
    metric = resolve_metric(metric)
    metric.check_statistics(stats)
    n = check_count(n, "n")
    confidence = check_confidence(confidence)
    seed = check_seed(seed)
    check_nonempty(stats, "statistics")
    indices = bootstrap_indices(make_rng(seed), len(stats), n)
    intervals, samples = interval_from_indices(metric, stats, indices, confidence, num_threads)
    signature = resampling_signature(metric.signature(stats.nrefs), bs=str(n), seed=seed_label(seed))
    return BootstrapCI(metric.name, intervals, n, seed, confidence, signature, samples)


def bootstrap_ci(metric: Metric | str, hypotheses: Any, references: Any, *, n: int = 1000,
                 confidence: float = 0.95, seed: int | None = 12345,
                 num_threads: int | None = None) -> BootstrapCI:
    """Bootstrap confidence interval of ``metric`` on one system (sacreBLEU's ``--confidence``).

    ``metric`` is a :class:`~refscore.metrics.base.Metric` or a registered name (default options);
    ``references[i]`` is the reference (or list of references) of segment ``i``.

    >>> ci = bootstrap_ci("chrf", ["the cat sat on mat", "a dog barked"], ["the cat sat on the mat", "a dog barked"],
    ...                   n=200, seed=1)
    >>> ci.lower <= ci.mean <= ci.upper, ci.format().startswith("CHRF = ")
    (True, True)
    """
    metric = resolve_metric(metric)
    stats = metric.statistics(hypotheses, references, num_threads=num_threads)
    return bootstrap_ci_from_statistics(metric, stats, n=n, confidence=confidence, seed=seed,
                                        num_threads=num_threads)
