"""What the ROUGE flavors return: :class:`ROUGEScore` (rouge-score) and :class:`ROUGE155Score` (ROUGE-1.5.5).

Both are :class:`~refscore.protocol.Score` objects carrying the corpus values, the statistics they came from
and, through ``result[type]``, the per-document arrays of each type (input order)::

    result["rouge1"].fmeasure        # one F per document (precision, recall likewise)
    result["rougeL"].mean            # the corpus score of one type
    list(result)                     # the types, in order

The per-document values are read from the statistics (one row per document); a score made from summed
statistics (:meth:`~refscore.protocol.Metric.corpus_score_chunks`) has corpus values only.
"""
from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from refscore.errors import InputError
from refscore.protocol import DeprecatedValue, Score, Statistics
from refscore.metrics.rouge.bootstrap import PerlAverage, bootstrap_percentiles

#: ROUGE-1.5.5's components in its statistics order.
COMPONENTS = ("R", "P", "F")
#: Fields that hold arrays: left out of the JSON of :meth:`Score.to_dict` (as the base's statistics are).
_NOT_IN_DICT = frozenset({"best_reference", "labels", "printed"})


class PRF(NamedTuple):
    """Precision, recall and F-measure (0–1)."""

    precision: float
    recall: float
    fmeasure: float


class Interval(NamedTuple):
    """A bootstrap estimate: the low and high percentiles and the median (``mid``) of the resampled means."""

    low: PRF
    mid: PRF
    high: PRF


@dataclasses.dataclass(frozen=True)
class RougeTypeScores:
    """One ROUGE type over a batch: per-document arrays (input order) and the index of the reference that gave
    each document's score (the best F, the first on ties; -1 where unknown)."""

    precision: np.ndarray
    recall: np.ndarray
    fmeasure: np.ndarray
    best_reference: np.ndarray

    @property
    def mean(self) -> PRF:
        """The corpus score: mean precision, recall and F over documents."""
        return PRF(float(np.mean(self.precision)), float(np.mean(self.recall)), float(np.mean(self.fmeasure)))


@dataclasses.dataclass(frozen=True)
class ROUGE155TypeResult:
    """Per-document ``recall``/``precision``/``fmeasure`` (input order) of one ROUGE-1.5.5 measure, their plain
    ``mean`` (``{"R", "P", "F"}``), and the script's printed averages and intervals (``printed``: component ->
    :class:`PerlAverage`; empty unless computed)."""

    name: str
    recall: np.ndarray
    precision: np.ndarray
    fmeasure: np.ndarray
    mean: dict[str, float]
    printed: dict[str, PerlAverage]

    @property
    def best_reference(self) -> np.ndarray:
        """-1 per document: ROUGE-1.5.5 pools (``-f A``) or picks (``-f B``) models per count, not per text."""
        return np.full(len(self.fmeasure), -1, dtype=np.int64)


def _document_rows(statistics: Statistics | None) -> np.ndarray:
    """The statistics' rows when each is one document (the ``documents`` column is 1), else a clear error."""
    if statistics is None or not np.all(statistics.data[:, -1] == 1):
        raise InputError("this score was made from summed statistics (e.g. corpus_score_chunks), which keep no "
                         "per-document values; use metric.corpus_score(...) or collect metric.statistics(...) "
                         "of each chunk and merge them with Statistics.concatenate")
    return statistics.data


class _NamedValues(dict):
    """A ROUGE result's ``values``: its named corpus values (a dict, as every Score's); called, the former mapping
    method ``result.values()`` (deprecated: the per-type results, ``[result[name] for name in result]``)."""

    def __init__(self, values: dict[str, Any], owner: Any) -> None:
        super().__init__(values)
        self._owner = owner

    def __call__(self) -> list[Any]:
        warnings.warn("result.values() is deprecated; use [result[name] for name in result] (result.values holds "
                      "the named corpus values)", DeprecationWarning, stacklevel=2)
        return [self._owner[name] for name in self._owner.keys()]


class _Documents:
    """Shared behaviour of the ROUGE scores: JSON without arrays, and read-only mapping access by type name
    (``result[name]``, ``list(result)``, ``keys``/``items``, ``in``, ``len``)."""

    def __post_init__(self) -> None:
        super().__post_init__()  # type: ignore[misc]  # both bases define __post_init__; Score's runs
        object.__setattr__(self, "values", _NamedValues(self.values, self))  # type: ignore[attr-defined]  # named values

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in Score.to_dict(self).items()  # type: ignore[arg-type]  # named values
                if key not in _NOT_IN_DICT}

    def _keys(self) -> tuple[str, ...]:
        raise NotImplementedError

    def __getitem__(self, name: str) -> Any:
        raise NotImplementedError

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, name: object) -> bool:
        return name in self._keys()

    def keys(self) -> tuple[str, ...]:
        return self._keys()

    def items(self) -> list[tuple[str, Any]]:
        return [(name, self[name]) for name in self._keys()]


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class ROUGEScore(_Documents, Score):
    """rouge-score flavor result: per type the mean per-document precision, recall and F (``score`` is the first
    type's F), the statistics, and ``result[type]`` (:class:`RougeTypeScores`) per document.

    ``best_reference``: ``(documents, types)`` indexes of the reference each score came from, carried by the
    statistics beside their summed columns (``None`` for a score of column totals, e.g. streamed chunks).

    ``values``: ``types``, per type the ``precision``, ``recall`` and ``fmeasure``, and ``documents``. The
    attributes of the same names are deprecated aliases.
    """

    types = DeprecatedValue()
    precision = DeprecatedValue()
    recall = DeprecatedValue()
    fmeasure = DeprecatedValue()
    documents = DeprecatedValue()
    best_reference: np.ndarray | None = dataclasses.field(default=None, repr=False, compare=False)

    def _keys(self) -> tuple[str, ...]:
        return self.values["types"]

    def __getitem__(self, rouge_type: str) -> RougeTypeScores:
        types = self.values["types"]
        if rouge_type not in types:
            raise KeyError(f"no ROUGE type {rouge_type!r} in this result; it has {list(types)}")
        t = types.index(rouge_type)
        rows = _document_rows(self.statistics)
        best = (np.full(len(rows), -1, dtype=np.int64) if self.best_reference is None
                else self.best_reference[:, t].copy())
        return RougeTypeScores(rows[:, 3 * t].copy(), rows[:, 3 * t + 1].copy(), rows[:, 3 * t + 2].copy(), best)

    @property
    def means(self) -> dict[str, PRF]:
        """Per type the corpus :class:`PRF` (the mean over documents)."""
        values = self.values
        return {name: PRF(values["precision"][name], values["recall"][name], values["fmeasure"][name])
                for name in values["types"]}

    def bootstrap(self, n_samples: int = 1000, confidence_interval: float = 0.95,
                  seed: int | np.random.RandomState | None = None) -> dict[str, Interval]:
        """rouge-score's ``BootstrapAggregator`` on these documents: low/mid/high percentiles of resampled means.

        ``seed=None`` draws from NumPy's global random state exactly as rouge-score does (so after
        ``np.random.seed(s)`` both give the same numbers); an int seeds a private ``RandomState`` that draws the
        same numbers as the global state after ``np.random.seed(seed)``.
        """
        rows = _document_rows(self.statistics)
        types = self.values["types"]
        matrices = [rows[:, 3 * t:3 * t + 3] for t in range(len(types))]
        bounds = bootstrap_percentiles(matrices, n_samples, confidence_interval, seed)
        return {name: Interval(*(PRF(*map(float, row)) for row in bound)) for name, bound in zip(types, bounds)}

    def format(self, digits: int = 2) -> str:
        fmeasure = self.values["fmeasure"]
        return ", ".join(f"{name} = {100 * fmeasure[name]:.{digits}f}" for name in self.values["types"])

    def summary(self) -> dict[str, float]:
        fmeasure = self.values["fmeasure"]
        return {name: float(fmeasure[name]) for name in self.values["types"]}


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class ROUGE155Score(_Documents, Score):
    """ROUGE-1.5.5 result: per measure the mean of per-document R/P/F (``averages``; ``score`` = the first
    measure's F), the statistics, and ``result[measure]`` (:class:`ROUGE155TypeResult`) per document.

    ``labels``: the names ``result[...]`` and iteration use, one per measure (``refscore.rouge(...,
    flavor="rouge155")`` keeps the caller's names, e.g. ``rouge1``); ``printed``: the script's printed lines by
    measure and component, when computed.

    ``values``: ``averages`` (by measure and component), ``documents`` and ``intervals`` (the script's confidence
    intervals, ``(lower, upper)`` by measure and component, when ``averages`` are its printed bootstrap averages,
    :meth:`ROUGE155.script_score`; empty for plain means). The attributes of the same names are deprecated aliases.
    """

    averages = DeprecatedValue()
    documents = DeprecatedValue()
    intervals = DeprecatedValue()
    labels: tuple[str, ...] = dataclasses.field(default=(), repr=False, compare=False)
    printed: dict[str, dict[str, PerlAverage]] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def _keys(self) -> tuple[str, ...]:
        return self.labels or tuple(self.values["averages"])

    def __getitem__(self, name: str) -> ROUGE155TypeResult:
        measures = list(self.values["averages"])
        keys = self._keys()
        if name in keys:
            t = keys.index(name)
        elif name in measures:
            t = measures.index(name)
        else:
            raise KeyError(f"no ROUGE measure {name!r} in this result; it has {list(keys)}")
        rows = _document_rows(self.statistics)
        recall, precision, fmeasure = (rows[:, 3 * t + c].copy() for c in range(3))
        mean = {c: float(v.mean()) if len(v) else 0.0 for c, v in zip(COMPONENTS, (recall, precision, fmeasure))}
        return ROUGE155TypeResult(measures[t], recall, precision, fmeasure, mean, self.printed.get(measures[t], {}))

    def summary(self) -> dict[str, float]:
        """The F of each measure for tables (``ROUGE-1-F`` ...); R and P are in ``averages``."""
        return {f"{name}-F": values["F"] for name, values in self.values["averages"].items()}

    def summary_intervals(self) -> dict[str, tuple[float, float]]:
        """The intervals of :meth:`summary`'s values, where known."""
        return {f"{name}-F": values["F"] for name, values in self.values["intervals"].items()}

    def format(self, digits: int = 2) -> str:
        return " ".join(f"{name}-F = {100 * values['F']:.{digits}f}"
                        for name, values in self.values["averages"].items())
