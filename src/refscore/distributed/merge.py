"""The driver side of a statistics pass: rows arrive from the workers in any order; they are put back in input
order by their position key, checked (every record exactly once), split by system and turned into one
:class:`~refscore.stats.Statistics` per metric — the same rows in the same order as a single process computes, so
every score, interval and test built on them is identical.

>>> import numpy as np
>>> order_and_check_spans(np.array([0, 0]), np.array([5, 0]), np.array([9, 5]), {0: 9}, ["f.jsonl"]).tolist()
[1, 0]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.distributed.compute import CARRIED_PREFIX, NREFS, parse_stats_column
from refscore.errors import InputError
from refscore.protocol import Metric, Statistics


class LostRecordsError(InputError):
    """The rows that came back do not cover the input exactly once (a record lost or counted twice)."""


@dataclass
class Collected:
    """Every column of a statistics pass, concatenated in arrival order."""

    columns: dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0


def collect(batches: Any) -> Collected:
    """Concatenate the pyarrow batches of a statistics pass (column by column, as numpy arrays)."""
    parts: dict[str, list[np.ndarray]] = {}
    for batch in batches:
        for name in batch.column_names:
            parts.setdefault(name, []).append(batch.column(name).to_numpy(zero_copy_only=False))
    return Collected({name: np.concatenate(values) for name, values in parts.items()})


def order_and_check_spans(files: np.ndarray, starts: np.ndarray, ends: np.ndarray, extents: dict[int, int | None],
                          paths: Sequence[str], gap_is_blank: Callable[[str, int, int], bool] | None = None
                          ) -> np.ndarray:
    """The permutation that puts rows in input order (file, then position), after checking that each file's
    record spans tile it exactly: from 0 to its extent, no overlap (a record read twice), no hole (a record lost;
    a hole is accepted only where ``gap_is_blank`` says the input has no record there)."""
    order = np.lexsort((ends, starts, files))  # ends: an empty span sorts before the span starting where it is
    files, starts, ends = files[order], starts[order], ends[order]
    present = set(np.unique(files).tolist())
    for file_index, path in enumerate(paths):
        if file_index not in present:
            raise InputError(f"{path}: no records; give one record (prediction and references) per segment")
    boundaries = np.flatnonzero(np.diff(files)) + 1
    for first, stop in zip(np.r_[0, boundaries], np.r_[boundaries, len(files)]):
        file_index = int(files[first])
        path = paths[file_index]
        previous_end = np.r_[0, ends[first:stop - 1]]
        mismatched = np.flatnonzero(starts[first:stop] != previous_end)
        for position in mismatched:
            start, expected = int(starts[first + position]), int(previous_end[position])
            if start < expected:
                raise LostRecordsError(f"{path}: the record at position {start} came back more than once "
                                       f"(overlapping rows); the run is not exact, run it again")
            if gap_is_blank is None or not gap_is_blank(path, expected, start):
                raise LostRecordsError(f"{path}: the records between positions {expected} and {start} are missing "
                                       f"from the result; the run is not exact, run it again")
        extent = extents.get(file_index)
        last_end = int(ends[stop - 1])
        if extent is not None and last_end != extent and (gap_is_blank is None or last_end > extent
                                                          or not gap_is_blank(path, last_end, extent)):
            raise LostRecordsError(f"{path}: the records after position {last_end} (of {extent}) are missing from "
                                   f"the result; the run is not exact, run it again")
    return order


def blank_bytes(path: str, start: int, stop: int) -> bool:
    """Whether bytes ``[start, stop)`` of a file are whitespace only (a JSON Lines stretch without records)."""
    with open(path, "rb") as handle:
        handle.seek(start)
        remaining = stop - start
        while remaining > 0:
            block = handle.read(min(remaining, 1 << 20))
            if not block or block.strip():
                return False
            remaining -= len(block)
    return True


def metric_statistics(collected: Collected, order: np.ndarray, rows: np.ndarray,
                      metrics: Sequence[Metric]) -> list[Statistics]:
    """Each metric's :class:`Statistics` of the selected ``rows`` (indices into ``order``), in input order."""
    by_metric: dict[int, list[tuple[str, np.ndarray]]] = {}
    for name, values in collected.columns.items():
        parsed = parse_stats_column(name)
        if parsed is not None:
            by_metric.setdefault(parsed[0], []).append((parsed[1], values))
    selected = order[rows]
    counts = collected.columns[NREFS][selected]
    nrefs = int(counts[0]) if len(counts) and bool(np.all(counts == counts[0])) else (-1 if len(counts) else 1)
    out = []
    for index, metric in enumerate(metrics):
        summed = [(name, values) for name, values in by_metric[index] if not name.startswith(CARRIED_PREFIX)]
        carried = [(name[len(CARRIED_PREFIX):], values) for name, values in by_metric[index]
                   if name.startswith(CARRIED_PREFIX)]
        data, carried_data = (np.column_stack([values[selected] for _, values in columns]) if len(selected) and columns
                              else np.zeros((len(selected), len(columns)),
                                            dtype=columns[0][1].dtype if columns else np.int64)
                              for columns in (summed, carried))
        out.append(Statistics(metric.name, metric.config_hash, tuple(name for name, _ in summed), data, nrefs,
                              tuple(name for name, _ in carried), carried_data))
    return out


def split_systems(systems: np.ndarray | None, count: int, default: str) -> dict[str, np.ndarray]:
    """Row positions (in input order) of each system, systems in order of first appearance; all rows are one
    system named ``default`` when no record names one (``systems`` None or all None: ``count`` rows). Either every
    record names its system or none does.

    >>> {name: rows.tolist() for name, rows in split_systems(np.array(["b", "a", "b"], dtype=object), 3, "x").items()}
    {'b': [0, 2], 'a': [1]}
    """
    missing = None if systems is None else np.equal(systems, None)  # type: ignore[call-overload]  # object array
    if missing is None or missing.all():
        return {default: np.arange(count)}
    if missing.any():
        first = int(np.flatnonzero(missing)[0])
        raise InputError(f"record {first + 1} (in input order) names no system but others do; 'system' must be "
                         f"a non-empty string in every record or absent from all")
    assert systems is not None  # missing is None only without systems
    names, first_seen, inverse = np.unique(systems.astype(str), return_index=True, return_inverse=True)
    return {str(names[label]): np.flatnonzero(inverse == label) for label in np.argsort(first_seen, kind="stable")}
