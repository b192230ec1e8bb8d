"""What the values of a metric's statistics columns may be (:class:`ColumnRules`), declared by each metric
(:meth:`refscore.protocol.Metric.statistics_rules`) and checked where statistics come from outside: a saved
statistics file (:func:`refscore.load_statistics`) is refused when a count is negative, a match count exceeds its
total, or a count table is not int64, since the formulas would turn such rows into a plausible number.

NaN passes every rule: it is a value (:class:`~refscore.protocol.Statistics`), and the corpus value over it is NaN.

>>> import numpy as np
>>> from refscore.protocol import Statistics
>>> rules = ColumnRules(counts=("hits", "total"), at_most=(("hits", "total"),), integer=True)
>>> rules.first_violation(Statistics("demo", "h", ("hits", "total"), np.array([[3, 2]])))
"segment 0: column 'hits' is 3, more than column 'total' (2)"
>>> rules.first_violation(Statistics("demo", "h", ("hits", "total"), np.array([[1, 2]]))) is None
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from refscore._statistics import Statistics

__all__ = ["ColumnRules", "first_overflowing_sum"]

#: The largest int64, the bound of a column's total (``Statistics.totals`` sums in int64).
INT64_MAX = int(np.iinfo(np.int64).max)


@dataclass(frozen=True)
class ColumnRules:
    """The rules of one metric configuration's statistics columns (summed ones, by name).

    ``counts``: columns that are never negative; ``at_most``: ``(part, whole)`` pairs where a segment's ``part``
    never exceeds its ``whole`` (BLEU's ``match_n`` and ``total_n``); ``integer``: the table holds counts, so it is
    int64 (a float64 one was not computed by the metric). A column the statistics lack is not checked: the column
    names themselves are checked against the metric's (:meth:`refscore.protocol.Metric.check_statistics`).
    """

    counts: tuple[str, ...] = ()
    at_most: tuple[tuple[str, str], ...] = ()
    integer: bool = False

    def first_violation(self, stats: Statistics) -> str | None:
        """The first value that breaks a rule (segment, column, value and the rule), or None."""
        data, index = stats.data, {name: i for i, name in enumerate(stats.columns)}
        if self.integer and data.dtype.kind != "i":
            return f"the table is {data.dtype}, but {stats.metric} statistics are counts (int64)"
        counts = [index[name] for name in self.counts if name in index]
        if counts and len(data):
            negative = data[:, counts] < 0   # NaN compares False: it passes
            if negative.any():
                row, k = np.argwhere(negative)[0]
                return (f"segment {row}: column {stats.columns[counts[k]]!r} is {data[row, counts[k]]}, a count, "
                        f"never negative")
        for part, whole in self.at_most:
            if part in index and whole in index and len(data):
                above = data[:, index[part]] > data[:, index[whole]]
                if above.any():
                    row = int(np.argmax(above))
                    return (f"segment {row}: column {part!r} is {data[row, index[part]]}, more than column "
                            f"{whole!r} ({data[row, index[whole]]})")
        return None


def first_overflowing_sum(data: np.ndarray) -> int | None:
    """The index of the first int64 column whose sum over the rows does not fit int64 (``Statistics.totals``
    would wrap around to a wrong number), or None; exact (Python integers) only for columns that could overflow.

    >>> first_overflowing_sum(np.array([[2**62], [2**62]])), first_overflowing_sum(np.array([[1], [-2**63]]))
    (0, None)
    """
    if data.dtype.kind != "i" or not data.size:
        return None
    rows = data.shape[0]
    largest = np.maximum(np.abs(data.max(axis=0).astype(object)), np.abs(data.min(axis=0).astype(object)))
    for column in np.flatnonzero([int(value) * rows > INT64_MAX for value in largest]):
        total = sum(int(value) for value in data[:, column])
        if not -INT64_MAX - 1 <= total <= INT64_MAX:
            return int(column)
    return None
