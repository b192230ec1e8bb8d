"""Per-segment sufficient statistics (:class:`Statistics`) and their running column totals (:class:`RunningTotals`,
re-exported by :mod:`refscore.streaming`); :class:`Statistics` is re-exported by :mod:`refscore.protocol`, where every
metric, significance test and application takes them from.

>>> import numpy as np
>>> a = Statistics("demo", "abc", ("hits", "total"), np.array([[1, 2]], dtype=np.int64))
>>> len(a + a), a.totals().tolist()
(2, [1, 2])
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.errors import IncompatibleStatisticsError, InputError, InputTypeError

__all__ = ["STATS_SCHEMA_VERSION", "RunningTotals", "SegmentScores", "Statistics"]

#: Bumped whenever the meaning of a statistics column changes, so old pickles refuse to merge with new ones.
STATS_SCHEMA_VERSION = 1


@dataclass(frozen=True, eq=False)
class Statistics:
    """Sufficient statistics of one metric configuration over a list of segments.

    Attributes:
        metric: the metric's registry name (``"bleu"``, ``"chrf"``, ...).
        config_hash: hash of the metric configuration and the statistics schema version.
        columns: the column names, one per entry of a row.
        data: ``(n_segments, len(columns))`` array; int64 for counts, float64 for per-document scores.
        nrefs: references per segment, or -1 when the count varies between segments.
        carried_columns: names of per-segment columns that are carried but never summed (ROUGE's best reference
            per type): they follow the rows through ``+``, :meth:`concatenate`, :meth:`take` and pickling, and stay
            out of :meth:`totals` and every formula.
        carried: ``(n_segments, len(carried_columns))`` int64 or float64 array of those columns.
    """

    metric: str
    config_hash: str
    columns: tuple[str, ...]
    data: np.ndarray
    nrefs: int = 1
    carried_columns: tuple[str, ...] = ()
    carried: np.ndarray = None  # type: ignore[assignment]  # None: __post_init__ makes it the empty array
    _column_index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        data = np.asarray(self.data)
        if data.ndim != 2 or data.shape[1] != len(self.columns):
            raise InputError(f"statistics data must have shape (n_segments, {len(self.columns)}), got {data.shape}")
        if data.dtype.kind not in "if":
            raise InputError(f"statistics data must be int64 or float64, got {data.dtype}")
        # An infinity would turn into a silent NaN or inf in a formula. NaN itself is a value some peers define per
        # segment (bert-score's recall when every reference token's idf weight is 0), kept as they keep it.
        if data.dtype.kind == "f" and np.isinf(data).any():
            row, column = np.argwhere(np.isinf(data))[0]
            raise InputError(f"statistics data must be finite or NaN: segment {row}, column {column} is "
                             f"{data[row, column]}")
        data = np.ascontiguousarray(data)
        data.setflags(write=False)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "_column_index", {name: i for i, name in enumerate(self.columns)})
        self._check_carried(data.shape[0])
        if not all(isinstance(name, str) for name in self.columns) or len(self._column_index) != len(self.columns):
            raise InputError(f"statistics columns must be distinct names, got {list(self.columns)}")

    def _check_carried(self, rows: int) -> None:
        if self.carried is None and not self.carried_columns:   # the common case: nothing carried
            carried = np.empty((rows, 0), dtype=np.int64)
            carried.setflags(write=False)
            object.__setattr__(self, "carried", carried)
            object.__setattr__(self, "carried_columns", ())
            return
        names = tuple(self.carried_columns)
        carried = np.zeros((rows, 0), dtype=np.int64) if self.carried is None and not names else \
            np.asarray(self.carried)
        if carried.ndim != 2 or carried.shape != (rows, len(names)):
            raise InputError(f"carried statistics columns must have shape ({rows}, {len(names)}) (one row per "
                             f"segment, one column per name in {list(names)}), got {carried.shape}")
        if carried.dtype.kind not in "if":
            raise InputError(f"carried statistics columns must be int64 or float64, got {carried.dtype}")
        if not all(isinstance(name, str) for name in names) or len(set(names) | set(self.columns)) != \
                len(names) + len(self.columns):
            raise InputError(f"carried columns must be distinct names, not statistics columns; got {list(names)}")
        carried = np.ascontiguousarray(carried)
        carried.setflags(write=False)
        object.__setattr__(self, "carried", carried)
        object.__setattr__(self, "carried_columns", names)

    def _with_rows(self, data: np.ndarray, carried: np.ndarray, nrefs: int) -> Statistics:
        return type(self)(self.metric, self.config_hash, self.columns, data, nrefs, self.carried_columns, carried)

    def __reduce__(self) -> tuple[Any, ...]:
        # unpickling rebuilds through __post_init__'s checks (columns vs data, dtype); pickles are for handing
        # statistics between processes of one run (Ray): on disk use refscore.io.statistics (data only)
        return (type(self), (self.metric, self.config_hash, self.columns, self.data, self.nrefs,
                             self.carried_columns, self.carried))

    def __setstate__(self, state: dict[str, Any]) -> None:
        # a pickle in the default form (a state dict: written before __reduce__ existed, or crafted) is checked too
        fields = ("metric", "config_hash", "columns", "data", "nrefs")
        Statistics.__init__(self, *(state.get(name) for name in fields),  # type: ignore[arg-type, call-arg]  # checked
                            state.get("carried_columns", ()), state.get("carried"))

    def __len__(self) -> int:
        return int(self.data.shape[0])

    def __repr__(self) -> str:
        return (f"Statistics(metric={self.metric!r}, segments={len(self)}, columns={len(self.columns)}, "
                f"config_hash={self.config_hash!r})")

    def column(self, name: str) -> np.ndarray:
        """One column (a summed or a carried one) as a 1-D array (read-only view)."""
        if name in self._column_index:
            return self.data[:, self._column_index[name]]
        if name in self.carried_columns:
            return self.carried[:, self.carried_columns.index(name)]
        raise KeyError(f"{self.metric} statistics have no column {name!r}; columns: "
                       f"{list(self.columns + self.carried_columns)}") from None

    def totals(self) -> np.ndarray:
        """Column sums over all segments (exact int64 for counts)."""
        return self.data.sum(axis=0)

    def take(self, indices: np.ndarray | Iterable[int]) -> Statistics:
        """The statistics of the selected segments, in the given order (used for resampling and subsets)."""
        rows = np.asarray(indices if isinstance(indices, np.ndarray) else list(indices))
        if rows.size == 0:
            rows = rows.astype(np.int64)
        return self._with_rows(self.data[rows], self.carried[rows], self.nrefs)

    def reordered(self, columns: Iterable[str], carried_columns: Iterable[str] | None = None) -> Statistics:
        """These statistics with their columns (and carried columns, when given) in the named order, matched by
        name: a column named here that they lack, or one of theirs not named here, is an :class:`InputError`
        naming it.

        >>> import numpy as np
        >>> a = Statistics("demo", "abc", ("total", "hits"), np.array([[2, 1]], dtype=np.int64))
        >>> a.reordered(("hits", "total")).data.tolist()
        [[1, 2]]
        """
        columns = tuple(columns)
        carried = self.carried_columns if carried_columns is None else tuple(carried_columns)
        for wanted, have, kind in ((columns, self.columns, "columns"), (carried, self.carried_columns,
                                                                           "carried columns")):
            missing = [name for name in wanted if name not in have]
            unknown = [name for name in have if name not in wanted]
            if missing or unknown:
                raise InputError(f"{self.metric} statistics {kind} {list(have)} do not match the expected "
                                 f"{list(wanted)}: " + "; ".join(
                                     [f"missing {', '.join(map(repr, missing))}"] * bool(missing)
                                     + [f"unknown {', '.join(map(repr, unknown))}"] * bool(unknown)))
        if columns == self.columns and carried == self.carried_columns:
            return self
        data = self.data[:, [self._column_index[name] for name in columns]]
        kept = np.asarray(self.carried)[:, [self.carried_columns.index(name) for name in carried]]
        return type(self)(self.metric, self.config_hash, columns, data, self.nrefs, carried, kept)

    def check_compatible(self, other: Statistics) -> None:
        """Raise :class:`IncompatibleStatisticsError` unless ``other`` comes from the same metric configuration."""
        if not isinstance(other, Statistics):
            raise InputTypeError(f"cannot combine Statistics with {type(other).__name__}")
        if other.metric != self.metric:
            raise IncompatibleStatisticsError(
                f"cannot merge {self.metric!r} statistics with {other.metric!r} statistics")
        if (other.config_hash != self.config_hash or other.columns != self.columns
                or other.carried_columns != self.carried_columns):
            raise IncompatibleStatisticsError(
                f"cannot merge {self.metric!r} statistics computed with different configurations (config hash "
                f"{self.config_hash} vs {other.config_hash}); recompute both parts with the same metric settings")

    def __add__(self, other: Statistics) -> Statistics:
        self.check_compatible(other)
        nrefs = self.nrefs if self.nrefs == other.nrefs else -1
        if len(self) == 0:
            nrefs = other.nrefs
        elif len(other) == 0:
            nrefs = self.nrefs
        return self._with_rows(np.concatenate([self.data, other.data]), np.concatenate([self.carried, other.carried]),
                               nrefs)

    def __radd__(self, other: object) -> Statistics:
        if isinstance(other, int) and other == 0:  # lets sum(parts) work
            return self
        return NotImplemented

    @classmethod
    def concatenate(cls, parts: Iterable[Statistics]) -> Statistics:
        """Merge statistics of consecutive parts of a corpus (same configuration) into one."""
        parts = list(parts)
        if not parts:
            raise InputError("concatenate() needs at least one Statistics object")
        first = parts[0]
        nrefs = first.nrefs
        for part in parts[1:]:
            first.check_compatible(part)
            if part.nrefs != nrefs:
                nrefs = -1
        return first._with_rows(np.concatenate([p.data for p in parts]), np.concatenate([p.carried for p in parts]),
                                nrefs)



@dataclass
class RunningTotals:
    """Running column totals of one metric's statistics, added chunk by chunk, with the reference-count rule of
    :meth:`Statistics.concatenate` (``nrefs`` -1 once two chunks differ) and the segments counted.

    >>> import refscore
    >>> running, metric = RunningTotals(), refscore.BLEU()
    >>> running.add(metric.statistics(["a cat sat"], [["a cat sat"]]))
    >>> running.add(metric.statistics(["the dog"], [["a dog barked"]]))
    >>> running.segments, running.totals_statistics(metric).data.shape
    (2, (1, 10))
    """

    totals: np.ndarray | None = None
    columns: tuple[str, ...] = ()
    nrefs: int | None = None
    segments: int = 0

    def add(self, stats: Statistics) -> None:
        if self.totals is None:
            self.totals, self.columns, self.nrefs = stats.totals(), stats.columns, stats.nrefs
        else:
            self.totals = self.totals + stats.totals()
            self.nrefs = self.nrefs if stats.nrefs == self.nrefs else -1
        self.segments += len(stats)

    def totals_statistics(self, metric: Any) -> Statistics:
        """The totals as one row of ``metric``'s statistics (what ``metric.score_from_statistics`` scores)."""
        if self.totals is None:
            raise InputError("no statistics were added: nothing to score")
        return Statistics(metric.name, metric.config_hash, self.columns, self.totals[None, :], self.nrefs or 1)



class SegmentScores(Mapping[str, np.ndarray]):
    """A corpus score's per-segment scores by name (:meth:`Metric.segment_table`), computed when first read: a
    corpus score is mostly read for its one number, and the table runs the metric's formula once per segment.
    Pickled as the plain dict.

    >>> from refscore.metrics.bleu import BLEU
    >>> score = BLEU(tokenize="none").corpus_score(["a b c d", "x y"], ["a b c d", "x z"])
    >>> score.segments["bleu"].round(4).tolist(), list(score.segments)
    ([1.0, 0.0], ['bleu'])
    """

    __slots__ = ("_metric", "_stats", "_table")

    def __init__(self, metric: Any, stats: Statistics) -> None:
        self._metric, self._stats = metric, stats
        self._table: dict[str, np.ndarray] | None = None

    def _computed(self) -> dict[str, np.ndarray]:
        if self._table is None:   # two threads may both compute it: the same arrays, either kept
            self._table = self._metric.segment_table(self._stats)
        return self._table

    def __getitem__(self, name: str) -> np.ndarray:
        return self._computed()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._computed())

    def __len__(self) -> int:
        return len(self._computed())

    def __repr__(self) -> str:
        return repr(self._computed())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._computed(),))


# pickles name the class where users import it from (and where pickles of earlier versions found it)
Statistics.__module__ = "refscore.protocol"
