"""Bootstrap confidence intervals of any metric, computed from its per-segment statistics.

Corpus-level metrics (BLEU, chrF, TER, GLEU) resample segment statistics and recompute the corpus formula;
document-averaged metrics (ROUGE, BERTScore) resample per-document scores — the same code path, because their
statistics carry a ``documents`` count column and their formula is ``sum / documents``. Resamples are drawn, summed
and scored in chunks of bounded size (:func:`refscore.significance.sampling.run_chunks`).

With the same seed and sample count the resamples are sacreBLEU 2.6's (``--confidence``, ``SACREBLEU_SEED``). For
BLEU, chrF and TER the replicates, mean and half-width are computed with sacreBLEU's own arithmetic
(:mod:`refscore.significance._arithmetic`: float32 resample sums, ``statistics.mean``), so they are sacreBLEU's
``corpus_score(n_bootstrap=n)`` values divided by 100; other metrics use exact sums scored in float64. The interval
ends are the sorted replicates at ``lower = n // 40`` and ``upper = n - lower - 1`` (95%), reported as
``score (μ = mean ± half-width)``.

>>> import numpy as np
>>> mean, lower, upper, half_width = summarize_samples(np.arange(1000.0)[:, None], 0.95)[0]
>>> mean, lower, upper, half_width
(499.5, 25.0, 974.0, 474.5)
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

from refscore.checks import check_confidence, check_count, check_num_threads, check_seed
from refscore.protocol import Metric, Signature, Statistics
from refscore.significance._arithmetic import Arithmetic, arithmetic_of, corpus_score_summary, paired_summary
from refscore.significance.sampling import (Float32Sums, bootstrap_draw, chunk_rows, interval_indices, make_rng,
                                            resampled_totals, run_chunks, seed_label)
from refscore.errors import InputError
from refscore.wording import fixed


@dataclasses.dataclass(frozen=True)
class Interval:
    """One score with its bootstrap estimate, on the metric's 0–1 scale.

    ``ci`` is sacreBLEU's ``±`` value: half the width of the central interval (for BLEU, chrF and TER computed on
    sacreBLEU's scale, as sacreBLEU does, then divided by 100).
    """

    name: str
    score: float
    mean: float
    lower: float
    upper: float
    confidence: float
    ci: float = dataclasses.field(default=float("nan"))

    def __post_init__(self) -> None:
        if self.ci != self.ci:  # not given: half the width
            object.__setattr__(self, "ci", 0.5 * (self.upper - self.lower))

    def format(self, digits: int = 2, scale: float = 100.0) -> str:
        """sacreBLEU's form on the 0–100 scale (×``scale``: 1 prints scores from outside as given), never
        ``-0.00``: ``35.21 (μ = 35.20 ± 0.78)``."""
        return (f"{fixed(scale * self.score, digits)} (μ = {fixed(scale * self.mean, digits)} ± "
                f"{fixed(scale * self.ci, digits)})")

    def to_dict(self) -> dict[str, float]:
        return {"score": self.score, "mean": self.mean, "ci": self.ci, "lower": self.lower, "upper": self.upper,
                "confidence": self.confidence}


def summarize_samples(samples: np.ndarray, confidence: float, *, corpus_score_rule: bool = False
                      ) -> list[tuple[float, float, float, float]]:
    """``(mean, lower, upper, half_width)`` of each column of resampled scores ``(n, n_scores)``, on their scale.

    ``corpus_score_rule``: sacreBLEU's ``Score.estimate_ci`` (``statistics.mean``, used by ``corpus_score`` and
    ``--confidence``); otherwise its ``significance.estimate_ci`` (``np.sort(scores).mean()``, paired tests).
    """
    lower_index, upper_index = interval_indices(len(samples), confidence)
    summary = corpus_score_summary if corpus_score_rule else paired_summary
    return [summary(np.ascontiguousarray(samples[:, i]), lower_index, upper_index) for i in range(samples.shape[1])]


def resample_scores(metric: Metric, blocks: list[np.ndarray], draw: Any, n: int, *, num_threads: int | None,
                    progress: bool | None, description: str = "bootstrap") -> list[np.ndarray]:
    """Scores of each statistics block (``(N, k)``, one per system) under the next ``n`` bootstrap resamples of
    ``draw``: one ``(n, n_scores)`` array per block, on the metric's arithmetic scale (:func:`arithmetic_of`)."""
    arithmetic = arithmetic_of(metric)
    width = blocks[0].shape[1]
    data = np.concatenate(blocks, axis=1) if len(blocks) > 1 else blocks[0]
    sums: Float32Sums | Callable[[np.ndarray], np.ndarray]   # exact float32 sums, else a gather of the rows
    if arithmetic.resampled is not None:
        sums, score = Float32Sums(data), arithmetic.resampled
        gathered = 1 if sums.exact else data.shape[1]
    else:
        sums, score, gathered = (lambda indices: resampled_totals(data, indices)), metric.scores_from_totals, 1

    def work(indices: np.ndarray) -> list[np.ndarray]:
        totals = sums(indices)
        return [score(totals[:, i * width:(i + 1) * width]) for i in range(len(blocks))]

    chunks = run_chunks(draw, n, chunk_rows(data.shape[0], gathered), work, num_threads=num_threads,
                        progress=progress, description=description, unit="resample")
    return [np.concatenate([chunk[i] for chunk in chunks]) for i in range(len(blocks))]


def make_intervals(metric: Metric, arithmetic: Arithmetic, scores: np.ndarray,
                   summaries: list[tuple[float, float, float, float]], confidence: float) -> dict[str, Interval]:
    """One :class:`Interval` per score name, on the 0–1 scale (summaries divided by the arithmetic's scale once)."""
    scale = arithmetic.scale
    return {name: Interval(name, float(scores[i]), mean / scale, lower / scale, upper / scale, confidence,
                           half_width / scale)
            for i, (name, (mean, lower, upper, half_width)) in enumerate(zip(metric.score_names, summaries))}


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
    #: The factor :meth:`format` prints by: the metric's ``display_scale`` (100; scores from outside: as given).
    scale: float = 100.0

    @property
    def headline(self) -> Interval:
        return next(iter(self.intervals.values()))

    score = property(lambda self: self.headline.score, doc="Full-corpus headline score (0–1).")
    mean = property(lambda self: self.headline.mean, doc="Mean of the resampled headline scores.")
    lower = property(lambda self: self.headline.lower, doc="Lower end of the headline interval.")
    upper = property(lambda self: self.headline.upper, doc="Upper end of the headline interval.")
    ci = property(lambda self: self.headline.ci, doc="Half-width of the headline interval (sacreBLEU's ±).")

    def format(self, digits: int = 2) -> str:
        """One line per score, ×:attr:`scale`: ``BLEU = 35.21 (μ = 35.20 ± 0.78)``."""
        return "\n".join(f"{name.upper()} = {interval.format(digits, self.scale)}"
                         for name, interval in self.intervals.items())

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


def bootstrap_ci_from_statistics(metric: Metric | str, stats: Statistics, *, n: int = 1000,
                                 confidence: float = 0.95, seed: int | None = 12345,
                                 num_threads: int | None = None, progress: bool | None = None) -> BootstrapCI:
    """Bootstrap confidence interval from statistics already computed (``metric.statistics(...)``).

    ``seed`` (default 12345, sacreBLEU's) makes the result reproducible and goes into the signature; ``None``
    draws fresh randomness. Seed 0 is a real seed (sacreBLEU's CLI would treat it as unseeded). ``progress``:
    a bar on stderr (None: only on a terminal for runs expected to take more than about 2 s).
    """
    num_threads = check_num_threads(num_threads)
    metric = resolve_metric(metric)
    metric.check_statistics(stats)
    n = check_count(n, "n")
    confidence = check_confidence(confidence)
    seed = check_seed(seed)
    check_nonempty(stats, "statistics")
    arithmetic = arithmetic_of(metric)
    samples = resample_scores(metric, [stats.data], bootstrap_draw(make_rng(seed), len(stats)), n,
                              num_threads=num_threads, progress=progress)[0]
    summaries = summarize_samples(samples, confidence, corpus_score_rule=arithmetic.peer)
    intervals = make_intervals(metric, arithmetic, full_scores(metric, stats), summaries, confidence)
    samples = samples.astype(np.float64) / arithmetic.scale
    signature = resampling_signature(metric.signature(stats.nrefs), bs=str(n), seed=seed_label(seed))
    return BootstrapCI(metric.name, intervals, n, seed, confidence, signature, samples, float(metric.display_scale))


def bootstrap_ci(metric: Metric | str, hypotheses: Any, references: Any, *, n: int = 1000,
                 confidence: float = 0.95, seed: int | None = 12345,
                 num_threads: int | None = None, progress: bool | None = None) -> BootstrapCI:
    """Bootstrap confidence interval of ``metric`` on one system (sacreBLEU's ``--confidence``).

    ``metric`` is a :class:`~refscore.protocol.Metric` or a registered name (default options);
    ``references[i]`` is the reference (or list of references) of segment ``i``. For BLEU, chrF and TER the
    mean, ends and half-width are sacreBLEU's ``corpus_score(..., n_bootstrap=n)`` values divided by 100.

    >>> ci = bootstrap_ci("chrf", ["the cat sat on mat", "a dog barked"], ["the cat sat on the mat", "a dog barked"],
    ...                   n=200, seed=1)
    >>> ci.lower <= ci.mean <= ci.upper, ci.format().startswith("CHRF = ")
    (True, True)
    """
    metric = resolve_metric(metric)
    stats = metric.statistics(hypotheses, references, num_threads=num_threads)
    return bootstrap_ci_from_statistics(metric, stats, n=n, confidence=confidence, seed=seed,
                                        num_threads=num_threads, progress=progress)
