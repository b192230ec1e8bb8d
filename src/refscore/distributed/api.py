"""Exact corpus scores over data sharded by Ray Data: one ``map_batches`` pass computes every metric's per-segment
statistics on the workers; the driver puts the rows back in input order and merges them. The result is the same
:class:`~refscore.stats.Statistics` a single process computes, whatever the number of blocks, their order or the
worker that ran them (see docs/distributed.md).

>>> import ray, refscore, refscore.distributed as rd                     # doctest: +SKIP
>>> ray.init(num_cpus=2, include_dashboard=False)                        # doctest: +SKIP
>>> merged = rd.statistics("outputs/*.jsonl", [refscore.BLEU(), refscore.CHRF()])   # doctest: +SKIP
>>> merged.score("bleu").format(), merged.bootstrap_ci("bleu").format()  # doctest: +SKIP
"""
from __future__ import annotations

import dataclasses

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.distributed._ray import ensure_ray, import_ray
from refscore.distributed.compute import (NREFS, BatchColumns, ScoresActor, ScoresBatch, StatisticsActor,
                                          StatisticsBatch, TotalsBatch)
from refscore.distributed.datasource import HYPOTHESIS, KEY_COLUMNS, REFERENCES, SYSTEM, read_records
from refscore.distributed.merge import (Collected, LostRecordsError, blank_bytes, collect, metric_statistics,
                                        order_and_check_spans, split_systems)
from refscore.io.records import RecordLayout
from refscore.io.record_files import DEFAULT_UNIT_BYTES, expand_paths, file_extent
from refscore.errors import InputError
from refscore.protocol import Metric, Score, Statistics

#: Rows per ``map_batches`` call: enough that a call's fixed cost is small against the metric's work.
DEFAULT_BATCH_SIZE = 8192
#: Rows per call for metrics that run a model (BERTScore batches by tokens inside each call).
MODEL_BATCH_SIZE = 1024
INDEX = "__index"


@dataclass
class RunOptions:
    """How a pass runs on Ray (none of these change a result)."""

    batch_size: int | None = None
    num_actors: int | None = None
    unit_bytes: int | None = None
    num_threads: int | None = 1
    address: str | None = None


@dataclass
class MergedStatistics:
    """The merged statistics of a distributed pass: ``statistics[system][i]`` belongs to ``metrics[i]``;
    ``bad_records`` lists the skipped malformed records (file and line, reason); ``rows`` counts input records."""

    metrics: list[Metric]
    statistics: dict[str, list[Statistics]]
    bad_records: list[str] = field(default_factory=list)
    rows: int = 0

    @property
    def systems(self) -> list[str]:
        return list(self.statistics)

    def _index(self, metric: Metric | str) -> int:
        for index, candidate in enumerate(self.metrics):
            if candidate is metric or candidate.name == metric:
                return index
        names = [m.name for m in self.metrics]
        raise InputError(f"metric {metric!r} was not part of this pass; the metrics are {names}")

    def _system(self, system: str | None) -> str:
        if system is None:
            if len(self.statistics) != 1:
                raise InputError(f"the data has several systems {self.systems}; name one with system=...")
            return self.systems[0]
        if system not in self.statistics:
            raise InputError(f"no system {system!r}; the systems are {self.systems}")
        return system

    def of(self, metric: Metric | str, system: str | None = None) -> Statistics:
        """The merged :class:`Statistics` of one metric (and system)."""
        return self.statistics[self._system(system)][self._index(metric)]

    def score(self, metric: Metric | str, system: str | None = None) -> Score:
        """The corpus score, from the merged statistics (``metric.score_from_statistics``)."""
        return self.metrics[self._index(metric)].score_from_statistics(self.of(metric, system))

    def scores(self) -> dict[str, dict[str, Score]]:
        """Every corpus score: ``{system: {metric name: Score}}``."""
        return {system: {metric.name: metric.score_from_statistics(stats) for metric, stats in
                         zip(self.metrics, statistics)} for system, statistics in self.statistics.items()}

    def bootstrap_ci(self, metric: Metric | str, system: str | None = None, **options: Any) -> Any:
        """:func:`refscore.bootstrap_ci_from_statistics` of the merged statistics (same options)."""
        from refscore import bootstrap_ci_from_statistics

        return bootstrap_ci_from_statistics(self.metrics[self._index(metric)], self.of(metric, system), **options)

    def paired_test(self, metric: Metric | str, systems: Sequence[str] | None = None, **options: Any) -> Any:
        """:func:`refscore.paired_test_from_statistics` over ``systems`` (default: all, the first is the
        baseline)."""
        from refscore import paired_test_from_statistics

        names = list(systems) if systems is not None else self.systems
        return paired_test_from_statistics(self.metrics[self._index(metric)],
                                           [(name, self.of(metric, name)) for name in names], **options)


def unit_size(files: Sequence[str], unit_bytes: int | None) -> int:
    """``unit_bytes``, or by default about four read units per CPU of the cluster (so that no CPU idles while
    another finishes a large unit), between 1 MiB and :data:`DEFAULT_UNIT_BYTES`."""
    if unit_bytes is not None:
        return unit_bytes
    cpus = max(1, int(import_ray().cluster_resources().get("CPU", 1)))
    total = sum(os.path.getsize(path) for path in files)
    return int(min(DEFAULT_UNIT_BYTES, max(1 << 20, total // (4 * cpus))))


def _is_dataset(data: Any) -> bool:
    return type(data).__module__.startswith("ray.data") and hasattr(data, "map_batches")


def _needs_actors(metrics: Sequence[Metric]) -> bool:
    """Metrics that load a model (:attr:`~refscore.protocol.Metric.loads_model`: BERTScore) run in an actor pool,
    loaded once per actor (:meth:`~refscore.protocol.Metric.warm_up`)."""
    return any(metric.loads_model for metric in metrics)


def _map(dataset: Any, metrics: Sequence[Metric], columns: BatchColumns, options: RunOptions,
         task_class: type, actor_class: type) -> Any:
    ray = import_ray()
    if _needs_actors(metrics):
        gpus = int(ray.cluster_resources().get("GPU", 0))
        actors = options.num_actors or max(gpus, 1)
        return dataset.map_batches(actor_class, fn_constructor_args=(list(metrics), columns, options.num_threads),
                                   batch_size=options.batch_size or MODEL_BATCH_SIZE, batch_format="pyarrow",
                                   concurrency=actors, num_gpus=1 if gpus else 0)
    # rows read from files come in chunks of ``batch_size`` already: whole blocks (batch_size None) let Ray Data fuse
    # the read and the statistics into one task, so the text never goes through the object store
    batch_size = None if columns.bad is not None else options.batch_size or DEFAULT_BATCH_SIZE
    return dataset.map_batches(task_class(list(metrics), columns, options.num_threads), batch_size=batch_size,
                               batch_format="pyarrow")


def _unwrap(error: BaseException) -> BaseException:
    """refscore's own error inside Ray's task-error wrapper (a malformed record's file and line), or None."""
    seen: BaseException | None = error
    while seen is not None:
        cause = getattr(seen, "cause", None)
        if isinstance(seen, InputError):
            return seen
        if isinstance(cause, InputError):
            return cause
        seen = seen.__cause__ or seen.__context__ or (cause if isinstance(cause, BaseException) else None)
    return error


def _run(dataset: Any) -> Collected:
    try:
        return collect(dataset.iter_batches(batch_format="pyarrow", batch_size=None))
    except Exception as error:  # noqa: BLE001 -- re-raised as is unless it wraps refscore's own input error
        inner = _unwrap(error)
        if inner is error:
            raise
        raise type(inner)(str(inner)) from None


def integer_statistics(metrics: Sequence[Metric]) -> bool:
    """Whether every metric's statistics are integer counts (exact sums in any order: BLEU, chrF, GLEU)."""
    return not _needs_actors(metrics) and all(metric.integer_statistics for metric in metrics)


@dataclass
class MergedTotals:
    """Corpus scores of a totals pass (``{system: {metric name: Score}}``), records read, skipped records."""

    scores: dict[str, dict[str, Score]]
    rows: int
    bad_records: list[str] = field(default_factory=list)


def file_totals(paths: Any, metrics: Sequence[Metric], layout: RecordLayout, skip_bad_records: bool = False,
                options: RunOptions | None = None) -> MergedTotals:
    """Corpus scores of record files for integer-statistics metrics: each batch sends its column totals, not its
    segments (a few hundred bytes a batch instead of ~100 a segment); spans are checked as in a full pass."""
    options = options or RunOptions()
    files = expand_paths(paths)
    dataset = read_records(files, layout, skip_bad_records, unit_size(files, options.unit_bytes),
                           options.batch_size or DEFAULT_BATCH_SIZE)
    columns = BatchColumns(HYPOTHESIS, REFERENCES, bad="__bad")
    collected = _run(dataset.map_batches(TotalsBatch(list(metrics), columns, options.num_threads), batch_size=None,
                                         batch_format="pyarrow"))
    c = collected.columns
    order = order_and_check_spans(c["__file"], c["__start"], c["__end"],
                                  {i: file_extent(path) for i, path in enumerate(files)}, files, blank_bytes)
    bad = [message for index in order for message in c["__bad"][index]]
    segments = c["__segments"][order]
    used = order[segments > 0]
    systems = split_systems(c[SYSTEM][used], len(used), files[0] if len(files) == 1 else ",".join(files))
    scores = {}
    for name, rows in systems.items():
        counts = c[NREFS][used[rows]]
        nrefs = int(counts[0]) if bool(np.all(counts == counts[0])) else -1
        statistics = metric_statistics(collected, used[rows], np.arange(len(rows)), metrics)
        scores[name] = {metric.name: _totals_score(metric, Statistics(s.metric, s.config_hash, s.columns,
                                                                      s.totals()[None, :], nrefs))
                        for metric, s in zip(metrics, statistics)}
    return MergedTotals(scores, int(segments.sum()) + len(bad), bad)


def _file_pass(paths: Any, metrics: Sequence[Metric], layout: RecordLayout, skip_bad_records: bool,
               options: RunOptions) -> MergedStatistics:
    files = expand_paths(paths)
    dataset = read_records(files, layout, skip_bad_records, unit_size(files, options.unit_bytes),
                           options.batch_size or DEFAULT_BATCH_SIZE)
    columns = BatchColumns(HYPOTHESIS, REFERENCES, (*KEY_COLUMNS, SYSTEM), bad="__bad")
    collected = _run(_map(dataset, metrics, columns, options, StatisticsBatch, StatisticsActor))
    if not len(collected):
        raise InputError(f"{files[0]}: no records; give one record (prediction and references) per segment")
    c = collected.columns
    order = order_and_check_spans(c["__file"], c["__start"], c["__end"],
                                  {i: file_extent(path) for i, path in enumerate(files)}, files, blank_bytes)
    bad = c["__bad"][order]
    good = np.flatnonzero(np.equal(bad, None))  # type: ignore[call-overload]  # object array: is None
    systems = split_systems(c[SYSTEM][order][good], len(good), files[0] if len(files) == 1 else ",".join(files))
    statistics = {name: metric_statistics(collected, order, good[rows], metrics) for name, rows in systems.items()}
    bad_records = bad[np.not_equal(bad, None)].tolist()  # type: ignore[call-overload]  # object array: not None
    return MergedStatistics(list(metrics), statistics, bad_records, len(order))


def _dataset_pass(dataset: Any, metrics: Sequence[Metric], layout: RecordLayout, index_column: str | None,
                  options: RunOptions) -> MergedStatistics:
    names = dataset.schema().names
    for column in (layout.hypothesis_column, layout.references_column):
        if column not in names:
            raise InputError(f"the dataset has no column {column!r}; its columns are {names} (set "
                             f"hypothesis_column= / references_column=)")
    system = layout.system_column if layout.system_column in names else None
    passthrough = tuple(c for c in (index_column, system) if c is not None)
    columns = BatchColumns(layout.hypothesis_column, layout.references_column, passthrough)
    mapped = _map(dataset, metrics, columns, options, StatisticsBatch, StatisticsActor)
    if index_column is None:  # no key: Ray Data hands the rows back in the dataset's own order
        mapped.context.execution_options.preserve_order = True
    collected = _run(mapped)
    expected = dataset.count()
    if len(collected) != expected:
        raise LostRecordsError(f"{len(collected)} rows came back for a dataset of {expected}; the run is not exact, "
                               f"run it again")
    if index_column is None:
        order = np.arange(len(collected))
    else:
        keys = collected.columns[index_column]
        order = np.argsort(keys, kind="stable")
        repeated = np.flatnonzero(np.diff(keys[order]) == 0)
        if len(repeated):
            raise InputError(f"index column {index_column!r} holds {keys[order][repeated[0]]!r} twice; give each "
                             f"row a distinct index")
    system_values = collected.columns[system][order] if system else None
    statistics = {name: metric_statistics(collected, order, rows, metrics)
                  for name, rows in split_systems(system_values, len(order), "dataset").items()}
    return MergedStatistics(list(metrics), statistics, [], len(order))


def statistics(data: Any, metrics: Metric | Sequence[Metric], *, hypothesis_column: str = "prediction",
               references_column: str = "references", system_column: str | None = "system",
               index_column: str | None = None, skip_bad_records: bool = False, batch_size: int | None = None,
               num_actors: int | None = None, unit_bytes: int | None = None,
               address: str | None = None) -> MergedStatistics:
    """The merged per-segment statistics of every metric over ``data``, in one pass.

    ``data`` is a Ray Dataset (rows in the dataset's order, or ordered by ``index_column``) or files Ray reads:
    paths or glob patterns of JSON Lines, CSV/TSV or Parquet files (input order: files in the given order,
    patterns expanded sorted, records in file order). A malformed record stops the run with an error naming the
    file and the line, or, with ``skip_bad_records=True``, is left out and listed in ``bad_records``. Records with
    a ``system_column`` field are grouped into systems. Connects to Ray at ``address`` unless already connected.
    A task whose worker dies is retried by Ray (3 times, Ray's default; actors restart), with the same result.
    ``batch_size``: records per task call (for files: per read chunk); ``unit_bytes``: size of a JSON Lines read
    unit (default: about four units per CPU of the cluster, between 1 and 32 MiB);
    unit; ``num_actors``: actors for model metrics (default: one per GPU, or one).
    """
    metrics = [metrics] if isinstance(metrics, Metric) else list(metrics)
    if not metrics or not all(isinstance(m, Metric) for m in metrics):
        raise InputError("metrics must be a refscore Metric or a non-empty list of them, e.g. [refscore.BLEU()]")
    ensure_ray(address)
    layout = RecordLayout(hypothesis_column, references_column, system_column)
    options = RunOptions(batch_size, num_actors, unit_bytes, address=address)
    if _is_dataset(data):
        return _dataset_pass(data, metrics, layout, index_column, options)
    if not isinstance(data, (str, os.PathLike, list, tuple)):
        raise InputError(f"data must be a Ray Dataset or paths of record files, got {type(data).__name__}")
    return _file_pass(data, metrics, layout, skip_bad_records, options)


def corpus_scores(data: Any, metrics: Metric | Sequence[Metric], **options: Any) -> dict[str, dict[str, Score]]:
    """``{system: {metric name: Score}}`` over ``data``; the options are those of :func:`statistics`. For files and
    integer-statistics metrics only column totals travel to the driver (:func:`file_totals`), so the corpus size
    is not bounded by the driver's memory."""
    metrics = [metrics] if isinstance(metrics, Metric) else list(metrics)
    if _is_dataset(data) or options.get("index_column") or not integer_statistics(metrics):
        return statistics(data, metrics, **options).scores()
    ensure_ray(options.pop("address", None))
    layout = RecordLayout(options.pop("hypothesis_column", "prediction"),
                          options.pop("references_column", "references"), options.pop("system_column", "system"))
    skip = options.pop("skip_bad_records", False)
    options.pop("index_column", None)
    return file_totals(data, metrics, layout, skip, RunOptions(**options)).scores


def score_dataset(data: Any, metrics: Metric | Sequence[Metric], *, hypothesis_column: str = "prediction",
                  references_column: str = "references", skip_bad_records: bool = False,
                  batch_size: int | None = None, num_actors: int | None = None,
                  address: str | None = None) -> Any:
    """A lazy Ray Dataset: the rows of ``data`` with one column per headline score of each metric (``bleu``,
    ``chrf``, ...; NaN for skipped malformed records), ready for ``.write_parquet(...)``. Rows read from files
    carry their position key (``__file``, ``__start``) to sort them back into input order."""
    metrics = [metrics] if isinstance(metrics, Metric) else list(metrics)
    ensure_ray(address)
    options = RunOptions(batch_size, num_actors, address=address)
    if _is_dataset(data):
        columns = BatchColumns(hypothesis_column, references_column)
    else:
        layout = RecordLayout(hypothesis_column, references_column)
        files = expand_paths(data)
        data = read_records(files, layout, skip_bad_records, unit_size(files, options.unit_bytes),
                            options.batch_size or DEFAULT_BATCH_SIZE)
        columns = BatchColumns(HYPOTHESIS, REFERENCES, bad="__bad")
    return _map(data, metrics, columns, options, ScoresBatch, ScoresActor)


def _totals_score(metric: Metric, totals: Statistics) -> Score:
    """The score of one row of column totals, carrying that row as its statistics."""
    return dataclasses.replace(metric.score_from_statistics(totals), statistics=totals)
