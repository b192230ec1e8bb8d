"""What runs on the Ray workers: one batch of records in, the per-segment statistics of every metric out (one
pass over the data for all metrics), or the batch with per-segment score columns added.

Statistics travel as plain columns, ``__stats__<i>__<column>`` for the ``i``-th metric (int64 counts stay int64,
float64 scores stay float64, so nothing is rounded on the way), next to the row's position key.

>>> stats_column(0, "correct_1"), parse_stats_column("__stats__0__correct_1")
('__stats__0__correct_1', (0, 'correct_1'))
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.protocol import Metric

STATS_PREFIX = "__stats__"
NREFS = "__nrefs"
#: Statistics columns carried but not summed (``Statistics.carried_columns``) travel under this prefix.
CARRIED_PREFIX = "carried:"


def stats_column(metric_index: int, column: str) -> str:
    return f"{STATS_PREFIX}{metric_index}__{column}"


def parse_stats_column(name: str) -> tuple[int, str] | None:
    """``(metric index, statistics column)`` of an output column name, None for other columns."""
    if not name.startswith(STATS_PREFIX):
        return None
    index, _, column = name[len(STATS_PREFIX):].partition("__")
    return int(index), column


@dataclass(frozen=True)
class BatchColumns:
    """Where a batch holds the hypotheses and references, and which columns pass through to the output."""

    hypothesis: str
    references: str
    passthrough: tuple[str, ...] = ()
    bad: str | None = None


def _texts(batch: Any, columns: BatchColumns) -> tuple[list[Any], list[Any], np.ndarray]:
    """Hypotheses, references and the mask of good rows (rows of skipped malformed records are not scored)."""
    hypotheses = batch.column(columns.hypothesis).to_pylist()
    references = batch.column(columns.references).to_pylist()
    if columns.bad is None:
        return hypotheses, references, np.ones(len(hypotheses), dtype=bool)
    good = np.asarray(batch.column(columns.bad).is_null())
    return hypotheses, references, good


def _reference_counts(references: list[Any]) -> np.ndarray:
    return np.fromiter((1 if isinstance(r, str) else len(r) for r in references), dtype=np.int64,
                       count=len(references))


def batch_statistics(metrics: Sequence[Metric], hypotheses: list[Any], references: list[Any], good: np.ndarray,
                     num_threads: int | None) -> list[tuple[tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray]]:
    """Each metric's statistics columns and rows for a batch, then its carried columns and rows (zero rows where
    ``good`` is False)."""
    rows = np.flatnonzero(good)
    selected_hyps = [hypotheses[i] for i in rows]
    selected_refs = [references[i] for i in rows]
    out = []
    for metric in metrics:
        if len(rows):
            stats = metric.statistics(selected_hyps, selected_refs, num_threads=num_threads)
            columns, data, carried = stats.columns, stats.data, stats.carried
        else:  # a batch of skipped records only: the columns of the metric on an empty segment
            stats = metric.statistics([""], [""], num_threads=num_threads)
            columns, data, carried = stats.columns, stats.data[:0], stats.carried[:0]
        full = np.zeros((len(hypotheses), len(columns)), dtype=data.dtype)
        full[rows] = data
        full_carried = np.zeros((len(hypotheses), carried.shape[1]), dtype=carried.dtype)
        full_carried[rows] = carried
        out.append((columns, full, stats.carried_columns, full_carried))
    return out


class _BatchFunction:
    """A map function of Ray Data over pyarrow batches: the metrics, the batch's column names and the threads of
    the compiled core in each worker."""

    def __init__(self, metrics: Sequence[Metric], columns: BatchColumns, num_threads: int | None = 1) -> None:
        self.metrics = list(metrics)
        self.columns = columns
        self.num_threads = num_threads


class StatisticsBatch(_BatchFunction):
    """The map function of a statistics pass: a pyarrow batch -> its keys, reference counts and statistics."""

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        hypotheses, references, good = _texts(batch, self.columns)
        out = {name: batch.column(name) for name in self.columns.passthrough}
        out[NREFS] = pa.array(_reference_counts(references))
        for index, (names, data, carried_names, carried) in enumerate(
                batch_statistics(self.metrics, hypotheses, references, good, self.num_threads)):
            for position, name in enumerate(names):
                out[stats_column(index, name)] = pa.array(data[:, position])
            for position, name in enumerate(carried_names):
                out[stats_column(index, CARRIED_PREFIX + name)] = pa.array(carried[:, position])
        return pa.table(out)


class TotalsBatch(StatisticsBatch):
    """The map function of a totals pass (integer statistics only, which sum exactly in any order): one row per
    system in a batch of file records — the column totals, the records' span (the first system's row carries the
    batch's span, the others an empty span at its end, so spans still tile the file) and the skipped records."""

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        hypotheses, references, good = _texts(batch, self.columns)
        starts, ends = batch.column("__start").to_numpy(), batch.column("__end").to_numpy()
        systems = np.asarray(batch.column("__system").to_numpy(zero_copy_only=False))
        bad = batch.column("__bad").to_pylist()
        labels = [None] if len(systems) == 0 else list(dict.fromkeys(systems[good].tolist())) or [None]
        out: dict[str, list[Any]] = {"__file": [], "__start": [], "__end": [], "__bad": [], "__system": [],
                                     NREFS: []}
        span = (int(starts[0]), int(ends[-1])) if len(starts) else (0, 0)
        for position, label in enumerate(labels):
            unnamed = np.equal(systems, None)  # type: ignore[call-overload]  # an object array: is None
            rows = good & (systems == label) if label is not None else good & unnamed
            statistics = batch_statistics(self.metrics, hypotheses, references, rows, self.num_threads)
            counts = _reference_counts([references[i] for i in np.flatnonzero(rows)])
            out["__file"].append(batch.column("__file")[0].as_py() if len(starts) else 0)
            out["__start"].append(span[0] if position == 0 else span[1])
            out["__end"].append(span[1])
            out["__bad"].append([message for message in bad if message is not None] if position == 0 else [])
            out["__system"].append(label)
            # the reference count of the group: one value, or -1 when it varies (Statistics' nrefs rule)
            out[NREFS].append(int(counts[0]) if len(counts) and bool(np.all(counts == counts[0])) else -1)
            out.setdefault("__segments", []).append(int(rows.sum()))
            for index, (names, data, _, _) in enumerate(statistics):   # totals: carried columns are not summed
                for column, name in enumerate(names):
                    out.setdefault(stats_column(index, name), []).append(data[:, column].sum())
        return pa.table(out)


class ScoresBatch(_BatchFunction):
    """The map function that adds per-segment score columns (``metric.segment_table``) to a batch; NaN for skipped
    malformed records."""

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        hypotheses, references, good = _texts(batch, self.columns)
        rows = np.flatnonzero(good)
        for metric in self.metrics:
            table = {}
            if len(rows):
                stats = metric.statistics([hypotheses[i] for i in rows], [references[i] for i in rows],
                                          num_threads=self.num_threads)
                table = metric.segment_table(stats)
            for name in metric.score_names:
                values = np.full(len(hypotheses), np.nan)
                if len(rows):
                    values[rows] = table[name]
                batch = batch.append_column(name, pa.array(values))
        return batch


def warm_up(metrics: Sequence[Metric]) -> None:
    """Load what a metric loads lazily (BERTScore's model) now, once per actor, not inside the first batch."""
    for metric in metrics:
        metric.warm_up()


class StatisticsActor(StatisticsBatch):
    """:class:`StatisticsBatch` as a Ray Data actor: the metrics' models load once, in ``__init__``."""

    def __init__(self, metrics: Sequence[Metric], columns: BatchColumns, num_threads: int | None = None) -> None:
        super().__init__(metrics, columns, num_threads)
        warm_up(self.metrics)


class ScoresActor(ScoresBatch):
    """:class:`ScoresBatch` as a Ray Data actor (models load once per actor)."""

    def __init__(self, metrics: Sequence[Metric], columns: BatchColumns, num_threads: int | None = None) -> None:
        super().__init__(metrics, columns, num_threads)
        warm_up(self.metrics)
