"""The metric protocol, the one module every metric, significance test and application builds on.

A metric is a frozen config (:attr:`Metric.config`) that turns text into per-segment :class:`Statistics`
(:meth:`Metric.statistics`, through the compiled core); one vectorised formula turns summed statistics into scores
(:meth:`Metric.scores_from_totals`), so sentence scores, per-segment tables, bootstrap replicates and merged
corpus scores share it; :meth:`Metric.score_from_statistics` builds the detailed corpus :class:`Score` and
:meth:`Metric.signature` its reproducibility :class:`Signature`. docs/architecture.md adds a metric step by step.

Statistics hold one row per segment and one named column per count. Rows of two statistics objects concatenate
with ``+`` (segments of the second follow the first), :meth:`Statistics.totals` sums the columns, and both carry
the metric's configuration hash, so statistics computed with different settings can never be merged.

>>> import numpy as np
>>> a = Statistics("demo", "abc", ("hits", "total"), np.array([[1, 2]], dtype=np.int64))
>>> b = Statistics("demo", "abc", ("hits", "total"), np.array([[3, 4]], dtype=np.int64))
>>> (a + b).totals().tolist()
[4, 6]
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

import numpy as np

from refscore._metric_facts import CheckSpec, CliOption, MetricFacts
from refscore._metric_facts import ColumnRules  # noqa: F401  (re-exported: a plug-in declares its rules with it)
from refscore._deprecated import DeprecatedValue  # noqa: F401  (re-exported: result classes of plug-ins use it)
from refscore._signature import Signature, nrefs_text
from refscore._statistics import STATS_SCHEMA_VERSION, RunningTotals, SegmentScores, Statistics
from refscore.errors import InputError, InputTypeError
from refscore.wording import fixed

_ScoreT = TypeVar("_ScoreT", bound="Score")  # with_facts returns the class it was given
_MetricT = TypeVar("_MetricT", bound="Metric")  # metric_with returns an instance of the class it was given


@dataclass(frozen=True, kw_only=True)
class Score:
    """A metric result, one shape for every metric: ``score`` (the headline, 0–1 scale; TER: edits per reference
    word, may exceed 1), ``higher_is_better`` (the direction of its metric, :attr:`Metric.higher_is_better`: every
    score a metric returns carries it, whatever its ``score_from_statistics`` passed; None only on a score built by
    hand without one), ``values`` (every named corpus value: BLEU's ``precisions``, ``bp``, ...), ``segments``
    (per-segment scores by name), ``statistics`` and ``details`` (what else the metric reports). Metrics whose
    results still have their own fields get them in ``values`` too.
    """

    metric: str
    score: float
    signature: str
    higher_is_better: bool | None = None
    #: The factor :meth:`format` prints ``score`` by: its metric's :attr:`Metric.display_scale` (stamped like the
    #: direction; None only on a score built by hand, which prints by the metrics' default).
    display_scale: float | None = dataclasses.field(default=None, repr=False, compare=False, metadata={"json": False})
    #: The statistics it was computed from: a row per segment, or one row of merged column totals (None: built by hand).
    statistics: Statistics | None = dataclasses.field(default=None, repr=False, compare=False, metadata={"json": False})
    #: Each headline score per segment (0–1, input order), by name; None unless computed from per-segment rows.
    segments: Mapping[str, np.ndarray] | None = dataclasses.field(default=None, repr=False, compare=False,
                                                                  metadata={"json": False})
    #: Every named corpus value (JSON: flattened into the result's keys).
    values: dict[str, Any] = dataclasses.field(default_factory=dict, repr=False)
    #: What the metric reports beside its named values (e.g. the ``nltk`` BLEU flavor's score per weight tuple).
    details: dict[str, Any] | None = dataclasses.field(default=None, repr=False, compare=False,
                                                       metadata={"json": False})

    def __post_init__(self) -> None:
        if not self.values:   # a result with fields of its own: the same values, by name
            base = {f.name for f in dataclasses.fields(Score)}
            own = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in base and f.compare}
            if own:
                object.__setattr__(self, "values", own)

    def __float__(self) -> float:
        return float(self.score)

    def __repr__(self) -> str:
        """The dataclass repr with the named values where the former fields were (results keep printing as they
        did; a subclass declares ``repr=False`` to use it)."""
        shown = [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr and f.name != "values"]
        names = {name for name, _ in shown}
        shown += [(name, value) for name, value in self.values.items() if name not in names]
        return f"{type(self).__qualname__}({', '.join(f'{name}={value!r}' for name, value in shown)})"

    def format(self, digits: int = 2) -> str:
        """sacreBLEU-style one-liner on the scale the command line prints (×:attr:`display_scale`: 0–100 for
        built-in metrics, scores from outside as given), never ``-0.00``.

        >>> Score(metric="meteor", score=0.709, signature="").format(), Score(metric="mqm", score=-0.0,
        ...       signature="", display_scale=1.0).format(3)
        ('METEOR = 70.90', 'MQM = 0.000')
        """
        scale = MetricFacts.display_scale if self.display_scale is None else self.display_scale
        return f"{self.metric.upper()} = {fixed(scale * self.score, digits)}"

    def summary(self) -> dict[str, float]:
        """The headline number(s) for tables, on the 0–1 scale (metrics with variants return several)."""
        return {self.metric: float(self.score)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (numpy arrays become lists)."""
        out: dict[str, Any] = {}
        fields = [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)
                  if f.metadata.get("json", True) and f.name != "values"]
        for name, value in [*fields, *self.values.items()]:
            if name in out:   # a field of its own that is also a named value: written once
                continue
            if isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, np.generic):
                value = value.item()
            out[name] = value
        return out


def config_hash(metric: str, config: Any) -> str:
    """Stable hash of a metric's frozen dataclass config, or of the mapping of its hashed fields
    (:meth:`Metric.hashed_config`), independent of process and Python's hash seed."""
    fields = dict(config) if isinstance(config, Mapping) else dataclasses.asdict(config)
    payload = json.dumps({"metric": metric, "schema": STATS_SCHEMA_VERSION, "config": fields},
                         sort_keys=True, default=repr)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


class Metric(MetricFacts, ABC):
    """Base class of all metrics: ``name``, ``config_class`` (a frozen dataclass), the four hooks below, and the facts
    of :class:`~refscore._metric_facts.MetricFacts` that differ from its defaults (direction, range, checks...)."""

    name: ClassVar[str]
    config_class: ClassVar[type]
    #: Flags of ``refscore score`` that set this metric's config fields (shared flags apply to every metric).
    cli_options: ClassVar[tuple[CliOption, ...]] = ()
    #: The result class :meth:`new_score` makes (a subclass of :class:`Score` with fields of its own: TER's, BLEU's).
    score_class: ClassVar[type[Score]] = Score

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every score a metric's own ``score_from_statistics`` returns carries the metric's direction (a plug-in
        that builds ``Score(...)`` without ``higher_is_better`` must not read as higher-is-better by default)."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("score_from_statistics")
        if own is None or getattr(own, "_directed", False) or getattr(own, "__isabstractmethod__", False):
            return

        @functools.wraps(own)
        def score_from_statistics(self: Metric, stats: Statistics) -> Score:
            return self.with_facts(own(self, stats))

        score_from_statistics._directed = True  # type: ignore[attr-defined]  # a marker
        cls.score_from_statistics = score_from_statistics  # type: ignore[method-assign]  # wrapped once

    def __init__(self, config: Any = None, **options: Any) -> None:
        if config is not None and options:
            raise InputError(f"{type(self).__name__}: give either a config object or keyword options, not both")
        if config is None:
            config = self.build_config(**options)
        elif not isinstance(config, self.config_class):
            raise InputTypeError(f"{type(self).__name__}: config must be a {self.config_class.__name__}, "
                             f"got {type(config).__name__}")
        self.config = config
        self.config_hash = config_hash(self.name, self.hashed_config())

    @classmethod
    def build_config(cls, **options: Any) -> Any:
        """``config_class(**options)``; an unknown option is an error naming the valid ones."""
        try:
            return cls.config_class(**options)
        except InputTypeError:  # a config's own check on a value's type: already a clear message
            raise
        except TypeError as exc:
            valid = [f.name for f in dataclasses.fields(cls.config_class)]
            raise InputError(f"{cls.__name__}: {exc}; valid options: {valid}") from None

    def __repr__(self) -> str:
        options = ", ".join(f"{f.name}={getattr(self.config, f.name)!r}" for f in dataclasses.fields(self.config))
        return f"{type(self).__name__}({options})"

    # -- hooks -------------------------------------------------------------------------------------------------
    @abstractmethod
    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment sufficient statistics of a batch (one row per hypothesis, input order).

        ``references`` holds one entry per hypothesis, a string or a list of strings (the count may vary): the
        Python API passes what its caller gave, the command line, ``check`` and the report always lists. Read
        both with :func:`refscore.inputs.prepare_batch` (``batch.segment_references(i)`` is segment ``i``'s list,
        ``batch.nrefs`` the count for :meth:`new_statistics`) and return :meth:`new_statistics`.
        """

    def score_from_statistics(self, stats: Statistics) -> Score:
        """The corpus score of (possibly merged) statistics: :meth:`new_score` with :meth:`corpus_values`. A metric
        whose named values are a function of the column totals overrides :meth:`corpus_values` only; one with a
        result class of its own sets :attr:`score_class`."""
        return self.new_score(stats)

    def corpus_values(self, stats: Statistics) -> dict[str, Any]:
        """The named corpus values (:attr:`Score.values`) of ``stats``: by default each summed column's total by
        the column's name (an int where the column is integral)."""
        totals = stats.totals()
        cast_value = int if np.issubdtype(totals.dtype, np.integer) else float
        return {name: cast_value(value) for name, value in zip(stats.columns, totals)}

    @abstractmethod
    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """The headline score(s) of many statistics vectors at once, vectorised.

        ``totals`` is ``(m, k)``: each row is a sum of segment statistics (one segment's row gives its sentence
        score, the column sums give the corpus score, a resample's sums give a bootstrap replicate). Returns a
        float64 ``(m, len(self.score_names))`` array on the 0–1 scale. Document-averaged metrics keep a
        ``documents`` count column so that the mean is ``sum / documents`` and follows the same rule.
        """

    @property
    def score_names(self) -> tuple[str, ...]:
        """Names of the headline scores returned by :meth:`scores_from_totals` (one unless a metric has variants)."""
        return (self.name,)

    @property
    def primary_score_names(self) -> tuple[str, ...]:
        """Scores of compact tables (``compare`` without ``--all-scores``): the first, or one per variant (ROUGE)."""
        return self.score_names[:1]

    @abstractmethod
    def signature(self, nrefs: int = 1) -> Signature:
        """The reproducibility signature for results over data with ``nrefs`` references per segment."""

    # -- derived -----------------------------------------------------------------------------------------------
    @functools.cached_property
    def _signature_texts(self) -> dict[int, str]:
        return {}

    def signature_text(self, nrefs: int = 1) -> str:
        """``str(self.signature(nrefs))``, formatted once per reference count (a metric's config never changes)."""
        text = self._signature_texts.get(nrefs)
        if text is None:
            text = self._signature_texts[nrefs] = str(self.signature(nrefs))
        return text

    def new_statistics(self, columns: tuple[str, ...], data: np.ndarray, nrefs: int, *,
                       carried_columns: tuple[str, ...] = (), carried: np.ndarray | None = None) -> Statistics:
        """This metric's :class:`Statistics`, stamped with its name and config hash: summed ``columns`` (``data``:
        one row per segment), ``nrefs`` references per segment (-1 when the count varies: ``Batch.nrefs``), and
        ``carried_columns`` that follow the rows without being summed (ROUGE's best reference per type)."""
        return Statistics(self.name, self.config_hash, columns, data, nrefs, carried_columns,
                          carried)  # type: ignore[arg-type]  # None: Statistics makes the empty array

    def new_score(self, stats: Statistics, *, score: float | None = None, values: dict[str, Any] | None = None,
                  details: dict[str, Any] | None = None, **fields: Any) -> Score:
        """This metric's :attr:`score_class` result of ``stats`` (checked with :meth:`check_statistics`), with the
        name, signature, direction and printed scale filled from the metric: ``score`` defaults to the first
        headline of :meth:`scores_from_totals` on the column totals, ``values`` to :meth:`corpus_values`, and
        ``fields`` are the result class's own fields.

        >>> import refscore
        >>> metric = refscore.ExactMatch()
        >>> result = metric.new_score(metric.statistics(["a", "b"], ["a", "c"]))
        >>> result.score, result.values, result.higher_is_better
        (0.5, {'matches': 1, 'segments': 2}, True)
        """
        self.check_statistics(stats)
        if score is None:
            score = float(self.scores_from_totals(stats.totals()[None, :])[0, 0])
        return self.score_class(metric=self.name, score=score, signature=self.signature_text(stats.nrefs),
                                higher_is_better=bool(self.higher_is_better), display_scale=float(self.display_scale),
                                values=self.corpus_values(stats) if values is None else values, details=details,
                                **fields)

    def with_facts(self, score: _ScoreT) -> _ScoreT:
        """``score`` with this metric's direction and printed scale (:attr:`higher_is_better`,
        :attr:`display_scale`, which may be an instance's own: outside scores declare theirs), the one source of
        :attr:`Score.higher_is_better` and :attr:`Score.display_scale`."""
        direction, scale = bool(self.higher_is_better), float(self.display_scale)
        if score.higher_is_better is direction and score.display_scale == scale:
            return score
        return dataclasses.replace(score, higher_is_better=direction, display_scale=scale)

    #: The former, private-looking name of :meth:`new_statistics` (refscore's metrics and older plug-ins use it).
    _new_statistics = new_statistics

    def check_statistics(self, stats: Statistics) -> None:
        """Raise unless ``stats`` were computed by this metric with this exact configuration."""
        if not isinstance(stats, Statistics):
            raise InputTypeError(f"{type(self).__name__}: stats must be refscore Statistics (from "
                                 f"metric.statistics(...)), got {type(stats).__name__}")
        if stats.metric != self.name or stats.config_hash != self.config_hash:
            raise InputError(
                f"{type(self).__name__}: these statistics were computed by {stats.metric!r} with config hash "
                f"{stats.config_hash}, not by this {self.name!r} metric (hash {self.config_hash}); recompute them "
                f"with the same settings")
        expected = self.statistics_columns
        if expected is not None and stats.columns != expected:
            # the formulas read columns by position: other names or another order would score silently wrong
            raise InputError(
                f"{type(self).__name__}: statistics columns {list(stats.columns)} are not this metric's "
                f"{list(expected)} in that order; put them in order by name with stats.reordered(metric."
                f"statistics_columns), or load saved statistics with load_statistics(path, metric=metric)")

    def corpus_score(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Score:
        """Corpus-level score of a batch, carrying its statistics and per-segment scores (see :meth:`scored`)."""
        return self.scored(self.statistics(hypotheses, references, num_threads=num_threads))

    def scored(self, stats: Statistics) -> Score:
        """:meth:`score_from_statistics` with ``stats`` and the per-segment scores attached: the :class:`Score`
        every public scoring function returns (``score.statistics``, ``score.segments[name]``; the per-segment
        scores are computed when first read, :class:`SegmentScores`)."""
        score = self.score_from_statistics(stats)
        return dataclasses.replace(score, statistics=stats if score.statistics is None else score.statistics,
                                   segments=SegmentScores(self, stats) if score.segments is None else score.segments)

    def sentence_score(self, hypothesis: Any, references: Any) -> Score:
        """Score of one segment; ``references`` is a string or a list of strings (token ids also accepted)."""
        return self.score_from_statistics(self.statistics([hypothesis], [references], num_threads=1))

    def percent_scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """:meth:`scores_from_totals` on the scale the command line prints, ×:attr:`display_scale` (0–100, as
        sacreBLEU, for every built-in metric; metrics whose formula works on that scale override this to return its
        values to the last bit)."""
        return self.display_scale * self.scores_from_totals(totals)

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        """One headline score per segment (the first of :attr:`score_names`), float64, input order."""
        return self.segment_table(stats)[self.score_names[0]]

    def segment_table(self, stats: Statistics) -> dict[str, np.ndarray]:
        """Every headline score per segment, by name (for ``--segments`` output and per-segment reports)."""
        self.check_statistics(stats)
        scores = self.scores_from_totals(stats.data)
        return {name: scores[:, i] for i, name in enumerate(self.score_names)}

    def sentence_scores(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> np.ndarray:
        """Sentence-level scores of a whole batch as a float64 array, in input order."""
        return self.segment_scores(self.statistics(hypotheses, references, num_threads=num_threads))

    def corpus_score_chunks(self, chunks: Iterable[tuple[Any, Any]], *, num_threads: int | None = None) -> Score:
        """Corpus score of a corpus streamed as ``(hypotheses, references)`` chunks (e.g. read from files).

        Memory holds one chunk and the running column sums of its statistics, never the whole corpus; the
        result equals :meth:`corpus_score` on the concatenated chunks. (To keep per-segment statistics for
        bootstrap or per-segment output, collect ``statistics(...)`` of each chunk and merge them with
        :meth:`Statistics.concatenate`.)
        """
        running = RunningTotals()
        for index, chunk in enumerate(chunks):
            if not isinstance(chunk, (tuple, list)) or len(chunk) != 2:
                raise InputTypeError(f"chunks[{index}] must be a (hypotheses, references) pair, "
                                     f"got {type(chunk).__name__}")
            running.add(self.statistics(chunk[0], chunk[1], num_threads=num_threads))
        if running.totals is None:
            raise InputError("corpus_score_chunks: chunks is empty; give at least one (hypotheses, references) chunk")
        return self.score_from_statistics(running.totals_statistics(self))


@functools.lru_cache(maxsize=64)
def _metric_with(metric_class: type[Metric], options: tuple[tuple[str, type, Any], ...]) -> Metric:
    return metric_class(**{name: value for name, _, value in options})


def metric_with(metric_class: type[_MetricT], options: Mapping[str, Any]) -> _MetricT:
    """``metric_class(**options)``, reused by later calls with the same options (a metric is its frozen config),
    so one-segment helpers such as :func:`refscore.sentence_bleu` do not rebuild it on every call.

    >>> from refscore.metrics.bleu import BLEU
    >>> metric_with(BLEU, {"tokenize": "none"}) is metric_with(BLEU, {"tokenize": "none"})
    True
    """
    # each value's type is part of the key: 1 == True and 4.0 == 4, but the config accepts only one of each
    key = tuple(sorted((name, type(value), value) for name, value in options.items()))
    try:
        hash(key)
    except TypeError:   # an unhashable option value: build a fresh metric (its config check reports bad values)
        return metric_class(**options)
    return cast(_MetricT, _metric_with(metric_class, key))  # cached per class: an instance of metric_class
