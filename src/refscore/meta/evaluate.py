"""One call from human judgments and metrics to the table of a meta-evaluation: system- and segment-level
correlations with bootstrap intervals, and each metric's significance cluster (rank 1: tied with the best).

System scores: the human score of a system is the mean of its rated segments; a metric's is its corpus score
(BLEU's corpus BLEU, the mean for averaged metrics and scores from outside). Metrics whose lower scores are better
(``higher_is_better = False``: TER, MetricX) are negated, so that every correlation is positive when the metric
agrees with the humans. Soft pairwise accuracy uses the items that every system has a rating for. Intervals
resample items (all systems' scores of a segment move together); at the system
level each resample recomputes the system scores (a corpus metric's from its summed statistics). Clusters come from
PERM-BOTH p-values between every pair of metrics (:func:`refscore.meta.perm_both_matrix`) by the WMT greedy rule
(:func:`refscore.meta.significance_clusters`).
"""
from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError
from refscore.meta import correlations as corr
from refscore.checks import check_resamples
from refscore.meta._bootstrap import segment_replicates, system_replicates
from refscore.meta._rows import as_matrix, magnitude_divisor
from refscore.meta._ties import equals_constant
from refscore.meta.significance import perm_both_bytes, perm_both_matrix, significance_clusters
from refscore.progress import timed_map
from refscore.protocol import Metric
from refscore.significance.sampling import interval_indices

#: (statistic, grouping, options) reported by default at each level.
SYSTEM_STATISTICS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("pearson", "none", {}), ("spearman", "none", {}), ("kendall", "none", {"variant": "b"}),
    ("pairwise_accuracy", "none", {}), ("soft_pairwise_accuracy", "none", {}))
SEGMENT_STATISTICS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("pearson", "none", {}), ("pearson", "item", {}), ("kendall", "item", {"variant": "b"}),
    ("kendall_ties_opt", "item", {"variant": "acc23"}))
#: Statistics of a system vector that intervals and clusters are not computed for (their own resampling).
_NOT_RESAMPLED = ("soft_pairwise_accuracy",)
#: A metric's system score: its corpus score over all segments (the default, WMT's and mt-metrics-eval's), or, by
#: name only, the mean of its sentence scores over the segments the human score rates.
SYSTEM_SCORES = ("corpus", "rated_mean")


@dataclasses.dataclass(frozen=True)
class MetricScores:
    """A metric's scores on the judgments' (systems, items) grid: per segment, per system, and the system scores
    of item resamples (``resample``: ``(k, items)`` multiplicities -> ``(k, systems)``)."""

    name: str
    segments: np.ndarray
    systems: np.ndarray
    resample: Callable[[np.ndarray], np.ndarray]
    #: -1.0 where the scores are negated (a lower-is-better metric), so that ``sign * systems`` is its own scale.
    sign: float = 1.0

    def rated_mean(self, human: object) -> MetricScores:
        """These scores with the system score ``"rated_mean"``: each system's mean segment score over the cells
        ``human`` rates (not WMT's system score; :data:`SYSTEM_SCORES`).

        >>> scores = MetricScores.from_segments("m", [[1.0, 3.0], [2.0, 4.0]])
        >>> scores.systems.tolist(), scores.rated_mean([[0.0, None], [1.0, 1.0]]).systems.tolist()
        ([2.0, 3.0], [1.0, 3.0])
        """
        rated = ~np.isnan(as_matrix(human, "human", allow_missing=True))
        scale = magnitude_divisor(self.segments)
        values = np.where(rated, self.segments / scale, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            systems = values.sum(1) / rated.sum(1) * scale
        return dataclasses.replace(self, systems=systems,
                                   resample=lambda counts: (counts @ values.T) / (counts @ rated.T) * scale)

    def system_scores(self, human: object, system_score: str = "corpus") -> MetricScores:
        """These scores with the system scores named ``system_score`` (:data:`SYSTEM_SCORES`) against ``human``."""
        if system_score not in SYSTEM_SCORES:
            raise InputError(f"system_score must be one of {', '.join(map(repr, SYSTEM_SCORES))}, got "
                             f"{system_score!r}")
        return self if system_score == "corpus" else self.rated_mean(human)

    @classmethod
    def from_segments(cls, name: str, segments: object) -> MetricScores:
        """Scores given per segment; a system's score is the mean of its segments'."""
        matrix = as_matrix(segments, f"metric {name!r}", allow_missing=False)
        scale = magnitude_divisor(matrix)   # a sum of 1e308-sized scores overflows, their mean does not
        scaled = matrix / scale
        return cls(name, matrix, scaled.mean(1) * scale,
                   lambda counts: counts @ scaled.T / counts.sum(1, keepdims=True) * scale)

    @classmethod
    def from_metric(cls, metric: Metric, judgments: Any, *, num_threads: int | None = None,
                    sentence_metric: Metric | None = None) -> MetricScores:
        """A refscore metric (built-in, plug-in or :func:`refscore.external_scores`) over ``judgments``
        (:class:`refscore.meta.inputs.Judgments`); lower-is-better metrics are negated. System scores are
        ``metric``'s corpus scores, segment scores those of ``sentence_metric`` (default:
        :meth:`~refscore.protocol.Metric.sentence_metric`, the metric with its sentence-level defaults: BLEU's
        effective order, as ``sacrebleu.sentence_bleu``)."""
        sentence = metric.sentence_metric() if sentence_metric is None else sentence_metric
        tables = _tables(metric, judgments, num_threads)
        sentence_tables = tables if sentence is metric else _tables(sentence, judgments, num_threads)
        sign = 1.0 if metric.higher_is_better else -1.0
        segments = sign * np.vstack([sentence.scores_from_totals(t)[:, 0] for t in sentence_tables])
        systems = sign * np.array([metric.scores_from_totals(t.sum(0)[None, :])[0, 0] for t in tables])

        def resample(counts: np.ndarray) -> np.ndarray:
            return sign * np.stack([metric.scores_from_totals(counts @ t)[:, 0] for t in tables], axis=1)

        return cls(metric.name, segments, systems, resample, sign)


def _tables(metric: Metric, judgments: Any, num_threads: int | None) -> list[np.ndarray]:
    """Each system's per-segment statistics of ``metric`` (scores from outside joined by segment id)."""
    return [np.asarray(metric.system_statistics(system, judgments.hypotheses[system], judgments.references[system],
                                                judgments.segment_ids, num_threads=num_threads).data,
                       dtype=np.float64) for system in judgments.systems]


def signatures(metric: Metric, judgments: Any, sentence_metric: Metric | None = None) -> dict[str, str]:
    """The signatures of a metric's system-level (corpus) and segment-level scores over ``judgments``.

    >>> from refscore.metrics import get_metric_class
    >>> from refscore.meta.inputs import Judgments
    >>> data = Judgments(["A"], ["1"], {"A": ["a cat"]}, {"A": [["a cat"]]}, {})
    >>> signatures(get_metric_class("bleu")(), data)["segment"].split("|")[2]
    'eff:yes'
    """
    sentence = metric.sentence_metric() if sentence_metric is None else sentence_metric
    nrefs = max((len(refs) for system in judgments.systems for refs in judgments.references[system]), default=1)
    return {"system": metric.signature_text(nrefs), "segment": sentence.signature_text(nrefs)}


@dataclasses.dataclass(frozen=True)
class Entry:
    """One number of the table: a metric's ``statistic`` at a ``level``, its interval and significance rank."""

    metric: str
    level: str
    statistic: str
    grouping: str
    value: float
    lower: float
    upper: float
    rank: int | None
    #: The tie-calibrated Kendall's threshold and a constant metric's value on the same ratings (else None).
    threshold: float | None = None
    constant: float | None = None

    @property
    def label(self) -> str:
        return self.statistic if self.level == "system" or self.grouping == "none" else \
            f"{self.statistic} ({self.grouping})"

    @property
    def equals_constant(self) -> bool | None:
        """Whether a tie-calibrated value is a constant metric's (None for the other statistics)."""
        return None if self.constant is None else equals_constant(self.value, self.constant)


def human_system_scores(human: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """Mean rating of each system (over its rated items, each counted ``counts`` times)."""
    rated = ~np.isnan(human)
    values = np.where(rated, human, 0.0)
    scale = magnitude_divisor(values)   # a sum of 1e308-sized ratings overflows, their mean does not
    if counts is None:
        counts = np.ones((1, human.shape[1]))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts @ (values / scale).T) / (counts @ rated.T) * scale


def _system_value(statistic: str, human: np.ndarray, metric: np.ndarray, options: Mapping[str, Any],
                  human_segments: np.ndarray | None = None, metric_segments: np.ndarray | None = None) -> float:
    if statistic == "pairwise_accuracy":
        return corr.pairwise_accuracy(human, metric)
    if statistic == "soft_pairwise_accuracy":  # on the items every system has a rating for
        complete = ~np.isnan(human_segments).any(0)  # type: ignore[arg-type]  # given for this statistic
        return corr.soft_pairwise_accuracy(human_segments[:, complete],  # type: ignore[index]  # given
                                           metric_segments[:, complete])  # type: ignore[index]  # given
    return corr._correlation(statistic, human, metric, "none", **options)


def _segment_value(statistic: str, human: np.ndarray, metric: np.ndarray, grouping: str,
                   options: Mapping[str, Any]) -> float:
    if statistic == "kendall_ties_opt":
        return corr.kendall_ties_opt(human, metric, grouping, **options).tau
    return corr._correlation(statistic, human, metric, grouping, **options)


def _interval(replicates: Sequence[float] | np.ndarray, confidence: float) -> tuple[float, float]:
    values = np.asarray(replicates, dtype=np.float64)
    ordered = np.sort(values[~np.isnan(values)])
    if ordered.size == 0:
        return float("nan"), float("nan")
    lower, upper = interval_indices(ordered.size, confidence)
    return float(ordered[lower]), float(ordered[upper])


def meta_evaluate(human: object, metrics: Sequence[MetricScores], *, levels: Sequence[str] = ("system", "segment"),
                  system_statistics: Sequence[tuple[str, str, dict[str, Any]]] = SYSTEM_STATISTICS,
                  segment_statistics: Sequence[tuple[str, str, dict[str, Any]]] = SEGMENT_STATISTICS,
                  n_bootstrap: int = 1000, k: int = 1000, alpha: float = 0.05, confidence: float = 0.95,
                  seed: int | None = 12345, resampler: str = "fast", resample_ties: bool = False,
                  progress: bool | None = None, system_score: str = "corpus") -> list[Entry]:
    """The meta-evaluation table of ``metrics`` against the ``(systems, items)`` human ratings (NaN: missing).
    ``n_bootstrap=0`` skips intervals, ``k=0`` skips clusters. Intervals and clusters are seeded by ``seed``.
    Resample counts whose memory exceeds the memory budget are refused before any work; long ones show a bar
    (``progress``: None = on a terminal) with their estimated time (:func:`refscore.progress.timed_bar`).
    The tie-calibrated Kendall re-calibrates on every resample, so it gets intervals and clusters only with
    ``resample_ties=True``. ``system_score`` (:data:`SYSTEM_SCORES`): a metric's system score is its corpus score
    over all segments (``"corpus"``, WMT's), or the mean of its segment scores over the rated ones
    (``"rated_mean"``, only when asked for by that name)."""
    h = as_matrix(human, "human", allow_missing=True)
    if not metrics:
        raise InputError("meta_evaluate needs at least one metric")
    for scores in metrics:
        if scores.segments.shape != h.shape:
            raise InputError(f"metric {scores.name!r} has scores for {scores.segments.shape} (systems, items), the "
                             f"human ratings are {h.shape}")
    metrics = [scores.system_scores(h, system_score) for scores in metrics]
    # the resampled item counts (and, per segment statistic, their picks) and system scores of every metric
    if n_bootstrap:   # the resampled item counts (and their picks) and every metric's resampled system scores
        check_resamples(n_bootstrap, "n_bootstrap", bytes_each=16 * h.shape[1] + 8 * h.shape[0] * (len(metrics) + 1),
                        what="bootstrap resamples of items (n_bootstrap: the command line's --bootstrap)")
    if k and len(metrics) > 1:   # refused now, not after the intervals: the segment level's cells are the most
        cells = h.size if "segment" in levels else h.shape[0]
        check_resamples(k, "k", bytes_each=perm_both_bytes(cells, resampler) * len(metrics),
                        what=f"PERM-BOTH resamples of {len(metrics)} metrics (their coins and correlations)")
    entries: list[Entry] = []
    rng = np.random.default_rng(seed)
    counts = np.stack([np.bincount(rng.integers(0, h.shape[1], h.shape[1]), minlength=h.shape[1])
                       for _ in range(n_bootstrap)]) if n_bootstrap else np.zeros((0, h.shape[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if "system" in levels:
            corr.check_systems(h.shape[0], "meta-evaluation")
            entries += _system_entries(h, metrics, system_statistics, counts, k, alpha, confidence, seed, resampler,
                                       progress)
        if "segment" in levels:
            entries += _segment_entries(h, metrics, segment_statistics, counts, k, alpha, confidence, seed,
                                        resampler, resample_ties, progress)
    return entries


def _ranks(values: Mapping[str, float], p_values: np.ndarray | None, order: list[str], alpha: float
           ) -> dict[str, int | None]:
    if p_values is None:
        return {name: None for name in values}
    return dict(zip(order, significance_clusters(p_values, alpha)))


def _system_entries(h: np.ndarray, metrics: Sequence[MetricScores], statistics: Sequence[tuple[str, str, dict]],
                    counts: np.ndarray, k: int, alpha: float, confidence: float, seed: int | None,
                    resampler: str, progress: bool | None) -> list[Entry]:
    gold = human_system_scores(h)[0]
    gold_resampled = human_system_scores(h, counts)
    metric_resampled = {m.name: m.resample(counts) for m in metrics} if len(counts) else {}
    entries = []
    for statistic, _, options in statistics:
        values = {m.name: _system_value(statistic, gold, m.systems, options, h, m.segments) for m in metrics}
        order, p = list(values), None
        if k and len(metrics) > 1 and statistic not in _NOT_RESAMPLED and statistic != "pairwise_accuracy":
            order, _, p = perm_both_matrix(gold, {m.name: m.systems for m in metrics}, statistic, k=k, seed=seed,
                                           resampler=resampler, progress=progress, **options)
        ranks = _ranks(values, p, order, alpha)
        for m in metrics:
            lower = upper = float("nan")
            if len(counts) and statistic not in _NOT_RESAMPLED:
                batched = system_replicates(statistic, gold_resampled, metric_resampled[m.name], options)
                replicates: Sequence[float] | np.ndarray = batched if batched is not None else []
                if batched is None:   # no batched form: one resample at a time
                    replicates = timed_map(lambda pair: _system_value(statistic, pair[0], pair[1], options),
                                           list(zip(gold_resampled, metric_resampled[m.name])),
                                           f"bootstrap of system {statistic}, {m.name}", progress)
                lower, upper = _interval(replicates, confidence)
            entries.append(Entry(m.name, "system", statistic, "none", values[m.name], lower, upper, ranks[m.name]))
    return entries


def _segment_entries(h: np.ndarray, metrics: Sequence[MetricScores], statistics: Sequence[tuple[str, str, dict]],
                     counts: np.ndarray, k: int, alpha: float, confidence: float, seed: int | None,
                     resampler: str, resample_ties: bool, progress: bool | None) -> list[Entry]:
    entries = []
    for statistic, grouping, options in statistics:
        ties = {m.name: corr.kendall_ties_opt(h, m.segments, grouping, **options) for m in metrics} \
            if statistic == "kendall_ties_opt" else {}   # their thresholds and a constant metric's value are shown
        values = {m.name: ties[m.name].tau if ties else _segment_value(statistic, h, m.segments, grouping, options)
                  for m in metrics}
        order, p = list(values), None
        resampled = resample_ties or statistic != "kendall_ties_opt"
        if k and len(metrics) > 1 and resampled:
            order, _, p = perm_both_matrix(h, {m.name: m.segments for m in metrics}, statistic, grouping, k=k,
                                           seed=seed, resampler=resampler, progress=progress, **options)
        ranks = _ranks(values, p, order, alpha)
        for m in metrics:
            lower = upper = float("nan")
            if len(counts) and resampled:
                description = f"bootstrap of segment {statistic} ({grouping}), {m.name}"
                batched = segment_replicates(statistic, h, m.segments, grouping, options, counts, description,
                                             progress)
                replicates: Sequence[float] | np.ndarray = batched if batched is not None else []
                if batched is None:   # no batched form: one resample at a time
                    picks = [np.repeat(np.arange(h.shape[1]), c) for c in counts]
                    replicates = timed_map(lambda i: _segment_value(statistic, h[:, i], m.segments[:, i],
                                                                    grouping, options), picks, description, progress)
                lower, upper = _interval(replicates, confidence)
            calibrated = ties.get(m.name)
            entries.append(Entry(m.name, "segment", statistic, grouping, values[m.name], lower, upper,
                                 ranks[m.name], None if calibrated is None else calibrated.threshold,
                                 None if calibrated is None else calibrated.constant))
    return entries
