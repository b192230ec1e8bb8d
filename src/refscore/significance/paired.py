"""Paired significance tests between a baseline and any number of systems on the same references.

Both tests follow sacreBLEU 2.6 (``significance.py``) definition for definition and draw for draw, so with the same
seed and counts they give sacreBLEU's p-values, bootstrap means and intervals:

* **Paired bootstrap resampling** (Koehn 2004; Moses ``bootstrap-hypothesis-difference-significance.pl``):
  ``indices = default_rng(seed).choice(N, size=(n, N))``, shared by the baseline and every system;
  ``p = (#{|Δ*| - mean|Δ*| > |Δ|} + 1) / (n + 1)`` with ``Δ`` the full-corpus score difference and ``Δ*`` the
  per-resample ones. Every system also gets its bootstrap mean and interval from the same resamples.
* **Approximate randomization** (Riezler & Maxwell 2005; multeval): ``masks = default_rng(seed).integers(2, size=(n,
  N), dtype=bool)``; each trial swaps the segment statistics of the two systems where the mask is False;
  ``p = (#{|score(A*) - score(B*)| > |Δ|} + 1) / (n + 1)``. Optional bootstrap intervals (``confidence_n``) use
  the resamples sacreBLEU draws for ``n_ar_confidence``.

For BLEU, chrF and TER the resampled scores, means, half-widths and p-values use sacreBLEU's own arithmetic
(:mod:`refscore.significance._arithmetic`: float32 resample sums and float32 scores as under NumPy 2, double
precision trials), so they are sacreBLEU's values; other metrics use exact sums scored in float64. Differences from
sacreBLEU, both deliberate: seed 0 is a real seed (sacreBLEU's ``PairedTest`` turns it into "unseeded"); with
``seed=None`` one fresh stream is shared by all systems and metrics. Everything is on the metric's 0–1 scale.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.checks import check_confidence, check_count, check_num_threads, check_seed
from refscore.errors import InputError, InputTypeError
from refscore.metrics.systems import statistics_by_system
from refscore.protocol import Metric, Signature, Statistics
from refscore.significance._arithmetic import arithmetic_of
from refscore.significance.sampling import (bootstrap_draw, chunk_rows, make_rng, mask_draw, run_chunks, seed_label,
                                            swapped_totals)
from refscore.significance.intervals import (check_nonempty, full_scores, make_intervals, resample_scores,
                                             resampling_signature, resolve_metric, summarize_samples)

TESTS = {"bs": "paired bootstrap resampling", "ar": "approximate randomization"}
DEFAULT_N = {"bs": 1000, "ar": 10000}


@dataclasses.dataclass(frozen=True)
class SystemResult:
    """One system's result for one score: the full-corpus ``score``, and where computed the ``p_value`` against the
    baseline (``None`` for the baseline itself), the bootstrap ``mean`` and ``ci`` (half-width), ``lower``/``upper``.
    """

    system: str
    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    lower: float | None = None
    upper: float | None = None

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the difference to the baseline is significant at ``alpha`` (sacreBLEU marks ``p <= 0.05``)."""
        return self.p_value is not None and self.p_value <= alpha

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@dataclasses.dataclass(frozen=True)
class PairedTestResult:
    """Results of a paired test: for each score name, one :class:`SystemResult` per system, baseline first."""

    test: str
    n: int
    seed: int | None
    confidence: float
    confidence_n: int | None
    systems: tuple[str, ...]
    results: dict[str, list[SystemResult]]
    metric_of: dict[str, str]
    signatures: dict[str, Signature]

    @property
    def baseline(self) -> str:
        return self.systems[0]

    def result(self, system: str, score_name: str) -> SystemResult:
        """The result of ``system`` for one score (a metric name, or one of a metric's score names)."""
        if score_name not in self.results:
            raise KeyError(f"no score {score_name!r}; scores: {list(self.results)}")
        if system not in self.systems:
            raise KeyError(f"no system {system!r}; systems: {list(self.systems)}")
        return self.results[score_name][self.systems.index(system)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: test settings, signatures, and per system and score its results on the 0–1 scale."""
        return {
            "test": self.test, "n": self.n, "seed": self.seed, "confidence": self.confidence,
            "confidence_n": self.confidence_n, "baseline": self.baseline,
            "signatures": {name: str(sig) for name, sig in self.signatures.items()},
            "systems": [{"system": system, "baseline": index == 0,
                         "scores": {name: {k: v for k, v in rows[index].to_dict().items() if k != "system"}
                                    for name, rows in self.results.items()}}
                        for index, system in enumerate(self.systems)],
        }


def _named_items(items: Any, what: str) -> list[tuple[str, Any]]:
    """A mapping name -> item, or a sequence of (name, item) pairs, as a list of pairs with unique names."""
    if isinstance(items, Mapping):
        pairs = list(items.items())
    elif isinstance(items, Sequence) and not isinstance(items, str) and all(
            isinstance(p, tuple) and len(p) == 2 for p in items):
        pairs = list(items)
    else:
        raise InputTypeError(f"{what} must be a dict name -> {what[:-1]} (baseline first) or a list of "
                             f"(name, {what[:-1]}) pairs, got {type(items).__name__}")
    if len(pairs) < 2:
        raise InputError(f"a paired test needs a baseline and at least one other system; got {len(pairs)} "
                         f"{what[:-1]}(s) ({', '.join(map(str, (n for n, _ in pairs))) or 'none'})")
    names = [str(name) for name, _ in pairs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(f"system names must be unique; repeated: {duplicates}")
    return [(str(name), item) for name, item in pairs]


def _check_same_length(named_stats: list[tuple[str, Statistics]]) -> None:
    baseline_name, baseline = named_stats[0]
    check_nonempty(baseline, f"baseline {baseline_name!r}")
    for name, stats in named_stats[1:]:
        if len(stats) != len(baseline):
            raise InputError(f"system {name!r} has {len(stats)} segments but the baseline {baseline_name!r} has "
                             f"{len(baseline)}; paired tests need every system scored on the same segments")


@dataclasses.dataclass(frozen=True)
class _Plan:
    """One test's settings; every metric redraws the same random stream from ``stream_seed``."""

    test: str
    n: int
    seed: int | None
    stream_seed: int  # ``seed``, or fresh entropy drawn once when ``seed`` is None (shared by all metrics)
    confidence_n: int | None  # resamples of the intervals (bs: n; ar: optional)
    progress: bool | None


def _p_values(exceeding: np.ndarray, n: int) -> np.ndarray:
    """multeval's ``(c + 1) / (n + 1)`` from the per-score count of sample statistics above the real one."""
    return (exceeding + 1) / (n + 1)


def _bootstrap_exceeding(system: np.ndarray, baseline: np.ndarray, real: float) -> int:
    """sacreBLEU's paired-bootstrap count: resamples whose ``|Δ*| - mean|Δ*|`` exceeds the real ``|Δ|``.

    ``real`` is compared as a Python float, as sacreBLEU's is: against float32 scores numpy then compares in
    float32 (NEP 50), which decides ties at float32 precision.

    >>> _bootstrap_exceeding(np.float32([0, 2]), np.float32([0, 0]), 1 - 1e-12)   # 1 > float32(1 - 1e-12) is False
    0
    """
    sample_diffs = np.abs(system - baseline)
    return int(np.sum(sample_diffs - sample_diffs.mean() > float(real)))


def _corpus_totals(stats: Statistics) -> np.ndarray:
    """Summed statistics as sacreBLEU's ``sum_of_lists`` adds them: one value after the other (float columns)."""
    if stats.data.dtype.kind == "f" and len(stats):
        return np.cumsum(stats.data, axis=0)[-1]
    return stats.totals()


def _randomization_counts(metric: Metric, named_stats: list[tuple[str, Statistics]], plan: _Plan,
                          real: np.ndarray, num_threads: int | None) -> np.ndarray:
    """Per system and score, the trials whose ``|score(A*) - score(B*)|`` exceeds the real difference."""
    arithmetic = arithmetic_of(metric)
    baseline = named_stats[0][1].data
    width, n_segments = baseline.shape[1], baseline.shape[0]
    systems = np.concatenate([stats.data for _, stats in named_stats[1:]], axis=1)

    def work(masks: np.ndarray) -> np.ndarray:
        totals_a, totals_b = swapped_totals(baseline, systems, masks)
        counts = []
        for j in range(len(named_stats) - 1):
            block = slice(j * width, (j + 1) * width)
            trial = np.abs(arithmetic.exact(totals_a[:, block]) - arithmetic.exact(totals_b[:, block]))
            counts.append(np.sum(trial > real[j], axis=0))
        return np.array(counts)

    rows = chunk_rows(n_segments, 1, multiple=32)
    chunks = run_chunks(mask_draw(make_rng(plan.stream_seed), n_segments), plan.n, rows, work,
                        num_threads=num_threads, progress=plan.progress,
                        description=f"{metric.name}: approximate randomization", unit="trial")
    return np.sum(chunks, axis=0)


def _bootstrap_samples(metric: Metric, named_stats: list[tuple[str, Statistics]], plan: _Plan,
                       num_threads: int | None) -> list[np.ndarray]:
    """Resampled scores of every system, ``(confidence_n, n_scores)`` each, on the metric's arithmetic scale.

    bs: one stream for all systems. ar: sacreBLEU draws the systems' resamples after the trial masks in the same
    generator, and the baseline's from a fresh one.
    """
    blocks = [stats.data for _, stats in named_stats]
    n_segments = blocks[0].shape[0]
    description = f"{metric.name}: bootstrap"
    if plan.test == "bs":
        return resample_scores(metric, blocks, bootstrap_draw(make_rng(plan.stream_seed), n_segments), plan.n,
                               num_threads=num_threads, progress=plan.progress, description=description)
    rng = make_rng(plan.stream_seed)
    draw_masks = mask_draw(rng, n_segments)
    rows = chunk_rows(n_segments, 1, multiple=32)
    for start in range(0, plan.n, rows):   # advance the stream past the masks, a chunk at a time
        draw_masks(min(rows, plan.n - start))
    systems = resample_scores(metric, blocks[1:], bootstrap_draw(rng, n_segments), plan.confidence_n,
                              num_threads=num_threads, progress=plan.progress, description=description)
    baseline = resample_scores(metric, blocks[:1], bootstrap_draw(make_rng(plan.stream_seed), n_segments),
                               plan.confidence_n, num_threads=num_threads, progress=plan.progress,
                               description=description)
    return baseline + systems


def _test_metric(metric: Metric, named_stats: list[tuple[str, Statistics]], plan: _Plan, confidence: float,
                 num_threads: int | None) -> dict[str, list[SystemResult]]:
    names = metric.score_names
    arithmetic = arithmetic_of(metric)
    scores = np.stack([full_scores(metric, stats) for _, stats in named_stats])  # (S, n_scores), 0–1
    exact = np.stack([arithmetic.exact(_corpus_totals(stats)[None, :])[0] for _, stats in named_stats])
    real = np.abs(exact[0] - exact[1:])  # (S - 1, n_scores): sacreBLEU's |baseline - system| on its scale

    samples = _bootstrap_samples(metric, named_stats, plan, num_threads) if plan.confidence_n else None
    if plan.test == "bs":
        exceeding = np.zeros((len(named_stats) - 1, len(names)), dtype=np.int64)
        for j in range(1, len(named_stats)):
            for i in range(len(names)):
                exceeding[j - 1, i] = _bootstrap_exceeding(samples[j][:, i], samples[0][:, i], real[j - 1, i])
    else:
        exceeding = _randomization_counts(metric, named_stats, plan, real, num_threads)
    p_values = _p_values(exceeding, plan.n)  # (S - 1, n_scores)

    rows: dict[str, list[SystemResult]] = {name: [] for name in names}
    for index, (system, _) in enumerate(named_stats):
        p_value = [None] * len(names) if index == 0 else p_values[index - 1].tolist()
        if samples is None:
            for i, name in enumerate(names):
                rows[name].append(SystemResult(system, float(scores[index, i]), p_value[i]))
            continue
        intervals = make_intervals(metric, arithmetic, scores[index], summarize_samples(samples[index], confidence),
                                   confidence)
        for i, name in enumerate(names):
            interval = intervals[name]
            rows[name].append(SystemResult(system, interval.score, p_value[i], interval.mean, interval.ci,
                                           interval.lower, interval.upper))
    return rows


def _check_options(test: str, n: int | None, seed: Any, confidence: Any,
                   confidence_n: int | None) -> tuple[int, int | None, float, int | None]:
    if test not in TESTS:
        raise InputError(f"test must be one of {list(TESTS)} ('bs': {TESTS['bs']}, 'ar': {TESTS['ar']}), "
                         f"got {test!r}")
    n = DEFAULT_N[test] if n is None else check_count(n, "n")
    if confidence_n is not None:
        if test == "bs":
            raise InputError("confidence_n applies to test='ar' only; the paired bootstrap's intervals use its n "
                             "resamples")
        confidence_n = check_count(confidence_n, "confidence_n")
    return n, check_seed(seed), check_confidence(confidence), confidence_n


def _signature(metric: Metric, nrefs: int, plan: _Plan, confidence_n: int | None) -> Signature:
    fields = {"bs": str(plan.n)} if plan.test == "bs" else {
        **({"bs": str(confidence_n)} if confidence_n else {}), "ar": str(plan.n)}
    return resampling_signature(metric.signature(nrefs), **fields, seed=seed_label(plan.seed))


def _run(metric_stats: list[tuple[Metric, list[tuple[str, Statistics]]]], test: str, n: int, seed: int | None,
         confidence: float, confidence_n: int | None, num_threads: int | None,
         progress: bool | None) -> PairedTestResult:
    systems = tuple(name for name, _ in metric_stats[0][1])
    stream_seed = seed if seed is not None else int(np.random.SeedSequence().entropy)
    plan = _Plan(test, n, seed, stream_seed, n if test == "bs" else confidence_n, progress)
    results: dict[str, list[SystemResult]] = {}
    metric_of: dict[str, str] = {}
    signatures: dict[str, Signature] = {}
    for metric, named_stats in metric_stats:
        for name, rows in _test_metric(metric, named_stats, plan, confidence, num_threads).items():
            if name in results:
                raise InputError(f"two metrics report a score named {name!r}; give each metric once")
            results[name] = rows
            metric_of[name] = metric.name
        signatures[metric.name] = _signature(metric, named_stats[0][1].nrefs, plan, confidence_n)
    return PairedTestResult(test, n, seed, confidence, plan.confidence_n, systems, results, metric_of, signatures)


def paired_test_from_statistics(metric: Metric | str, statistics: Any, *, test: str = "bs", n: int | None = None,
                                seed: int | None = 12345, confidence: float = 0.95, confidence_n: int | None = None,
                                num_threads: int | None = None, progress: bool | None = None) -> PairedTestResult:
    """Paired test on statistics already computed: ``statistics`` maps system name -> :class:`Statistics`
    (baseline first), or is a list of ``(name, statistics)`` pairs. See :func:`paired_test`."""
    num_threads = check_num_threads(num_threads)
    metric = resolve_metric(metric)
    n, seed, confidence, confidence_n = _check_options(test, n, seed, confidence, confidence_n)
    named_stats = _named_items(statistics, "statistics")
    for name, stats in named_stats:
        try:
            metric.check_statistics(stats)
        except (InputError, TypeError) as exc:
            raise type(exc)(f"statistics of system {name!r}: {exc}") from None
    _check_same_length(named_stats)
    return _run([(metric, named_stats)], test, n, seed, confidence, confidence_n, num_threads, progress)


def paired_test(metrics: Metric | str | Sequence[Metric | str], systems: Any, references: Any, *, test: str = "bs",
                n: int | None = None, seed: int | None = 12345, confidence: float = 0.95,
                confidence_n: int | None = None, num_threads: int | None = None,
                progress: bool | None = None) -> PairedTestResult:
    """Compare a baseline with other systems on the same references, like ``sacrebleu --paired-bs/--paired-ar``.

    Args:
        metrics: one metric or several (instances or registered names).
        systems: dict name -> hypotheses with the **baseline first**, or a list of ``(name, hypotheses)`` pairs.
        references: per-segment references, shared by every system (``references[i]``: str or list of str).
        test: ``"bs"`` (paired bootstrap resampling) or ``"ar"`` (approximate randomization).
        n: resamples (bs, default 1000) or trials (ar, default 10000).
        seed: default 12345 (sacreBLEU's); ``None`` for fresh randomness; recorded in the signatures.
        confidence: level of the bootstrap intervals (0.95 as sacreBLEU).
        confidence_n: ar only: bootstrap resamples for intervals (sacreBLEU's ``n_ar_confidence``); none by default.
        num_threads: threads for statistics and resampling (default: all cores).
        progress: a progress bar on stderr; None (default): only on a terminal, for runs expected to take more
            than about 2 s.

    Returns a :class:`PairedTestResult`; everything on the metrics' 0–1 scale. For BLEU, chrF and TER the
    p-values, means and half-widths are sacreBLEU's ``PairedTest`` values (divided by 100).

    >>> refs = ["the cat sat on the mat", "a dog barked", "it rained all day"]
    >>> systems = {"base": ["the cat sat on mat", "dog barked", "it rained"],
    ...            "new": ["the cat sat on the mat", "a dog barked loudly", "it rained all day"]}
    >>> result = paired_test(["bleu", "chrf"], systems, refs, test="ar", n=200)
    >>> row = result.result("new", "chrf")
    >>> row.score > result.result("base", "chrf").score, 0 < row.p_value <= 1
    (True, True)
    >>> str(result.signatures["bleu"]).startswith("nrefs:1|ar:200|seed:12345|")
    True
    """
    n, seed, confidence, confidence_n = _check_options(test, n, seed, confidence, confidence_n)
    metric_list = [resolve_metric(m) for m in (metrics if isinstance(metrics, (list, tuple)) else [metrics])]
    if not metric_list:
        raise InputError("metrics is empty: give at least one metric")
    named_systems = _named_items(systems, "systems")
    lengths = {name: len(hyps) for name, hyps in named_systems if hasattr(hyps, "__len__")}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name}: {count}" for name, count in lengths.items())
        raise InputError(f"systems have different numbers of segments ({detail}); paired tests need every system "
                         f"to translate the same segments")
    metric_stats = []
    for metric in metric_list:
        by_system = statistics_by_system(metric, dict(named_systems), references, num_threads=num_threads)
        named_stats = list(by_system.items())
        _check_same_length(named_stats)
        metric_stats.append((metric, named_stats))
    return _run(metric_stats, test, n, seed, confidence, confidence_n, num_threads, progress)


def paired_bootstrap(metrics: Metric | str | Sequence[Metric | str], systems: Any, references: Any, *,
                     n: int = 1000, seed: int | None = 12345, confidence: float = 0.95,
                     num_threads: int | None = None, progress: bool | None = None) -> PairedTestResult:
    """Paired bootstrap resampling (sacreBLEU ``--paired-bs``); see :func:`paired_test`."""
    return paired_test(metrics, systems, references, test="bs", n=n, seed=seed, confidence=confidence,
                       num_threads=num_threads, progress=progress)


def paired_approximate_randomization(metrics: Metric | str | Sequence[Metric | str], systems: Any,
                                     references: Any, *, n: int = 10000, seed: int | None = 12345,
                                     confidence: float = 0.95, confidence_n: int | None = None,
                                     num_threads: int | None = None,
                                     progress: bool | None = None) -> PairedTestResult:
    """Paired approximate randomization (sacreBLEU ``--paired-ar``); see :func:`paired_test`."""
    return paired_test(metrics, systems, references, test="ar", n=n, seed=seed, confidence=confidence,
                       confidence_n=confidence_n, num_threads=num_threads, progress=progress)
