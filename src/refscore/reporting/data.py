"""Gathering a report's numbers: each metric runs once per system, and its statistics feed every section.

Only public metric and significance functions are used (``metric.statistics``, ``metric.segment_table``,
``metric.score_from_statistics``, :func:`refscore.bootstrap_ci_from_statistics`,
:func:`refscore.paired_test_from_statistics`), so any metric that follows the protocol can be reported.

>>> from refscore.metrics.bleu import BLEU
>>> data = gather({"a": ["the cat sat", "a dog"], "b": ["the cat", "a dog barked"]},
...               [["the cat sat"], ["a dog barked"]], [BLEU()], n=50)
>>> data.score_names, data.systems, len(data.segment_scores["b"]["bleu"])
(['bleu'], ['a', 'b'], 2)
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.progress import progress_bar
from refscore.errors import InputError, InputTypeError
from refscore.protocol import Metric, Statistics
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics

SIGNIFICANCE_LEVEL = 0.05
#: The page shows every score ×its metric's ``display_scale``, in tables and on chart axes alike, the scale the
#: command line prints: ×100 for the built-in metrics' 0–1 scores (as sacreBLEU does; TER's can pass 1), scores
#: from outside as given unless declared. This is the factor of a score the page has no metric for.
DISPLAY_SCALE = 100.0
#: Rough seconds per step (one metric on one system, or one bootstrap) and segment, for the progress bar's
#: "long run" estimate.
SECONDS_PER_STEP_AND_SEGMENT = 5e-5


@dataclass
class ReportData:
    """Everything a report shows, computed once.

    ``score_names`` are the headline scores of the metrics (a metric with variants, such as ROUGE, has several);
    ``metric_of[name]`` is the metric a score belongs to. Scores are on the metrics' 0–1 scale (the page shows
    them ×``scales[name]``, the metric's display scale: :meth:`scale`). ``ids`` are the segments' own ids (records'
    ``id``), if given.
    """

    systems: list[str]
    references: list[list[str]]
    hypotheses: dict[str, list[str]]
    metadata: dict[str, list[str]]
    metrics: list[Metric]
    score_names: list[str]
    metric_of: dict[str, str]
    higher_is_better: dict[str, bool]
    signatures: dict[str, str]
    statistics: dict[str, dict[str, Statistics]]  # metric name -> system -> statistics
    corpus: dict[str, dict[str, float]]  # system -> score name -> corpus score
    intervals: dict[str, dict[str, tuple[float, float]]]  # system -> score name -> (lower, upper)
    p_values: dict[str, dict[str, dict[str, float]]]  # score name -> system -> other system -> p
    segment_scores: dict[str, dict[str, np.ndarray]]  # system -> score name -> per-segment scores
    baseline: str
    n: int
    seed: int | None
    bootstrap_signatures: dict[str, str] = field(default_factory=dict)
    sources: list[str] | None = None
    ids: list[str] | None = None
    scales: dict[str, float] = field(default_factory=dict)   # score name -> the factor it is shown by

    def scale(self, name: str) -> float:
        """The factor score ``name`` is shown by (its metric's ``display_scale``; :data:`DISPLAY_SCALE` by default)."""
        return self.scales.get(name, DISPLAY_SCALE)

    def scaled(self, name: str) -> str:
        """``name`` as an axis or column label that says its factor: ``chrf (×100)``, ``mqm`` (as given)."""
        scale = self.scale(name)
        return name if scale == 1 else f"{name} (×{scale:g})"

    @property
    def n_segments(self) -> int:
        return len(self.references)

    @property
    def primary_names(self) -> list[str]:
        """The first headline score of each metric (charts per metric use these; tables show every score)."""
        return list({self.metric_of[name]: name for name in reversed(self.score_names)}.values())[::-1]

    def corpus_of(self, score_name: str) -> dict[str, float]:
        """Corpus score of ``score_name`` per system."""
        return {system: self.corpus[system][score_name] for system in self.systems}


def check_inputs(systems: Any, references: Any, metadata: Any) -> tuple[dict[str, list[str]], list[list[str]],
                                                                        dict[str, list[str]]]:
    """Systems (name -> hypotheses), per-segment references and metadata fields as plain lists, or an error that
    names the argument, the position and the fix."""
    if not isinstance(systems, Mapping) or not systems:
        raise InputTypeError(f"systems must be a non-empty dict name -> list of hypotheses (the baseline first), "
                             f"got {type(systems).__name__ if not isinstance(systems, Mapping) else 'an empty dict'}")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise InputTypeError(f"references must be a list with one reference (str) or list of references per "
                             f"segment, got {type(references).__name__}")
    refs = [[r] if isinstance(r, str) else list(r) for r in references]
    for index, segment in enumerate(refs):
        if not segment or not all(isinstance(r, str) for r in segment):
            raise InputTypeError(f"references[{index}] must be a string or a non-empty list of strings")
    hypotheses: dict[str, list[str]] = {}
    for name, hyps in systems.items():
        if not isinstance(name, str) or not name:
            raise InputTypeError(f"system names must be non-empty strings, got {name!r}")
        if isinstance(hyps, (str, bytes)) or not isinstance(hyps, Sequence):
            raise InputTypeError(f"systems[{name!r}] must be a list of hypothesis strings, got {type(hyps).__name__}")
        bad = next((i for i, h in enumerate(hyps) if not isinstance(h, str)), None)
        if bad is not None:
            raise InputTypeError(f"systems[{name!r}][{bad}] is a {type(hyps[bad]).__name__}; hypotheses must be "
                                 f"strings (use \"\" for an empty one)")
        if len(hyps) != len(refs):
            raise InputError(f"systems[{name!r}] has {len(hyps)} hypotheses but there are {len(refs)} references; "
                             f"give one hypothesis per segment")
        # a list subclass keeps its attributes (SystemSegments carry the keys of scores from outside)
        hypotheses[name] = copy.copy(hyps) if isinstance(hyps, list) else list(hyps)
    if not refs:
        raise InputError("references is empty; a report needs at least one segment")
    fields: dict[str, list[str]] = {}
    for key, values in (metadata or {}).items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != len(refs):
            raise InputError(f"metadata[{key!r}] must be a list with one value per segment ({len(refs)}), got "
                             f"{len(values) if isinstance(values, Sequence) else type(values).__name__}")
        fields[str(key)] = ["" if v is None else str(v) for v in values]
    return hypotheses, refs, fields


def _headline_names(metric: Metric, stats: Statistics) -> list[str]:
    """The headline scores of a metric: those its corpus score summarises (ROUGE: the F-measures)."""
    return list(metric.score_from_statistics(stats).summary())


def check_sources(sources: Any, n_segments: int) -> list[str] | None:
    """The source segments as a list of strings (or None), one per segment."""
    if sources is None:
        return None
    if isinstance(sources, (str, bytes)) or not isinstance(sources, Sequence):
        raise InputTypeError(f"sources must be a list with one source string per segment, got "
                             f"{type(sources).__name__}")
    if len(sources) != n_segments:
        raise InputError(f"sources has {len(sources)} segments but there are {n_segments} references; give one "
                         f"source per segment")
    bad = next((i for i, source in enumerate(sources) if not isinstance(source, str)), None)
    if bad is not None:
        raise InputTypeError(f"sources[{bad}] is a {type(sources[bad]).__name__}; sources must be strings")
    return list(sources)


def check_ids(ids: Any, n_segments: int) -> list[str] | None:
    """The segments' ids as strings (or None), one per segment; ids are shown and searched, so they must be
    strings or numbers."""
    if ids is None:
        return None
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
        raise InputTypeError(f"ids must be a list with one id per segment, got {type(ids).__name__}")
    if len(ids) != n_segments:
        raise InputError(f"ids has {len(ids)} ids but there are {n_segments} references; give one id per segment")
    bad = next((i for i, x in enumerate(ids) if isinstance(x, bool) or not isinstance(x, (str, int, float))), None)
    if bad is not None:
        raise InputTypeError(f"ids[{bad}] is a {type(ids[bad]).__name__}; ids must be strings or numbers")
    return [str(x) for x in ids]


def gather(systems: Mapping[str, Sequence[str]], references: Sequence[Any], metrics: Sequence[Metric], *,
           metadata: Mapping[str, Sequence[Any]] | None = None, sources: Sequence[str] | None = None,
           ids: Sequence[Any] | None = None, baseline: str | None = None, n: int = 1000,
           seed: int | None = 12345, num_threads: int | None = None, progress: bool | None = None) -> ReportData:
    """Run every metric once per system and derive corpus scores, bootstrap intervals, pairwise paired-bootstrap
    p-values (every system against every other) and per-segment scores."""
    hypotheses, refs, fields = check_inputs(systems, references, metadata)
    source_list = check_sources(sources, len(refs))
    id_list = check_ids(ids, len(refs))
    names = list(hypotheses)
    baseline = names[0] if baseline is None else baseline
    if baseline not in hypotheses:
        raise InputError(f"baseline {baseline!r} is not one of the systems {names}; pass one of their names")
    names.remove(baseline)
    names.insert(0, baseline)
    if not metrics:
        raise InputError("metrics is empty; give at least one metric (e.g. metrics=['bleu', 'chrf'])")
    steps = len(metrics) * len(names) * (2 + (len(names) > 1))
    bar = progress_bar(steps, "report", progress, unit="step",
                       expected_seconds=SECONDS_PER_STEP_AND_SEGMENT * steps * len(refs))
    statistics: dict[str, dict[str, Statistics]] = {}
    corpus: dict[str, dict[str, float]] = {s: {} for s in names}
    intervals: dict[str, dict[str, tuple[float, float]]] = {s: {} for s in names}
    segment_scores: dict[str, dict[str, np.ndarray]] = {s: {} for s in names}
    p_values: dict[str, dict[str, dict[str, float]]] = {}
    score_names: list[str] = []
    metric_of: dict[str, str] = {}
    higher: dict[str, bool] = {}
    signatures: dict[str, str] = {}
    bootstrap_signatures: dict[str, str] = {}
    try:
        for metric in metrics:
            per_system = statistics[metric.name] = {}
            for system in names:
                per_system[system] = metric.statistics(hypotheses[system], refs, num_threads=num_threads)
                bar.update(1)
            headline = _headline_names(metric, per_system[baseline])
            for name in headline:
                score_names.append(name)
                metric_of[name] = metric.name
                higher[name] = bool(metric.higher_is_better)
                signatures[name] = str(metric.signature(per_system[baseline].nrefs))
                p_values[name] = {s: {} for s in names}
            for system in names:
                table = metric.segment_table(per_system[system])
                ci = bootstrap_ci_from_statistics(metric, per_system[system], n=n, seed=seed,
                                                  num_threads=num_threads)
                for name in headline:
                    interval = ci.intervals[name]
                    corpus[system][name] = float(interval.score)
                    intervals[system][name] = (float(interval.lower), float(interval.upper))
                    segment_scores[system][name] = np.asarray(table[name], dtype=np.float64)
                    bootstrap_signatures[name] = str(ci.signature)
                bar.update(1)
            if len(names) > 1:
                for first in names:  # each system as the baseline once gives the full matrix
                    order = [first] + [s for s in names if s != first]
                    result = paired_test_from_statistics(metric, [(s, per_system[s]) for s in order], test="bs",
                                                         n=n, seed=seed, num_threads=num_threads)
                    for name in headline:
                        for row in result.results[name][1:]:
                            p_values[name][first][row.system] = float(row.p_value)
                    bar.update(1)
    finally:
        bar.close()
    return ReportData(names, refs, {s: hypotheses[s] for s in names}, fields, list(metrics), score_names, metric_of,
                      higher, signatures, statistics, corpus, intervals, p_values, segment_scores, baseline, n, seed,
                      bootstrap_signatures, source_list, id_list,
                      {name: float(metric.display_scale) for metric in metrics for name in score_names
                       if metric_of[name] == metric.name})
