"""A check: one sentence-level metric, a threshold, bands and the suite gates of that metric.

Check names come from the metric classes of the registry (:meth:`~refscore.protocol.Metric.check_spec`, so a
registered or plug-in metric is a check under its name): ``bleu`` (sacreBLEU's ``sentence_bleu`` defaults: effective
order, exp smoothing), ``gleu``, ``chrf``, ``ter`` (lower is better: a case passes when its TER is *at most* the
threshold), ``meteor``, ``rouge1``, ``rouge2`` (any ``rouge<n>``), ``rougeL``, ``rougeLsum`` (the F-measure) and
``bertscore`` (F1). Scores and thresholds are on the 0–1 scale of the Python API (``refscore score`` prints 0–100);
a threshold outside the range its metric class declares (``threshold_range``: [0, 1], BERTScore [-1, 1], TER [0, 2])
can only be a 0–100 number or a sign mistake and is refused, with the 0–1 value it probably means. Keyword options
go to the metric (``Check("chrf", word_order=2)`` is chrF++).

A check on scores computed elsewhere (COMET, MetricX, human ratings) names their file: ``Check("file:comet.jsonl",
threshold=0.8)`` (or takes a :func:`~refscore.metrics.external.external_scores` metric). Its name is the file's stem;
its direction and threshold range are the scores' declared ``higher_is_better`` and ``range`` (its options; without
a range any finite threshold is accepted), and its option ``system`` picks one system of a file that holds several.
The file's rows join the test cases by case id (see :meth:`Check.scores`).

>>> check = Check("bleu", threshold=0.3)
>>> check.band(0.45), check.band(0.7), check.passes([0.29, 0.3]).tolist()
('moderate overlap', 'very strong overlap', [False, True])
>>> Check("ter", threshold=0.4).passes([0.2, 0.5]).tolist()
[True, False]
"""
from __future__ import annotations

import copy
import difflib
import errno
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.metrics import REGISTRY, get_metric_class, metric_classes
from refscore.metrics.bleu import BLEU_BANDS
from refscore.metrics.external import (DECLARATIONS, EXTERNAL_PREFIX, external_name, external_path,
                                      external_scores)
from refscore.protocol import CheckSpec, Metric, Statistics, metric_with

DEFAULT_THRESHOLD = 0.5
#: The options of such a check: ``external_scores``' declarations, and the system a multi-system file is read for.
EXTERNAL_OPTIONS = (*DECLARATIONS, "system")


class UnknownCheckError(InputError):
    """A check names a metric refscore does not know."""


def check_names() -> list[str]:
    """The metric names a check accepts: every registered metric's :meth:`~refscore.protocol.Metric.check_names`."""
    return [name for _, cls in metric_classes() for name in cls.check_names()]


def resolve_spec(metric: str) -> tuple[str, CheckSpec]:
    """The canonical check name (``rougeL``, ``bleu``...) and its :class:`CheckSpec`, from the metric class that
    declares the name (:meth:`~refscore.protocol.Metric.check_spec`); names are case-insensitive."""
    if not isinstance(metric, str):
        raise InputTypeError(f"a check's metric must be a name such as 'bleu' or 'rougeL', got "
                             f"{type(metric).__name__}")
    key = metric.strip().lower().replace("-", "")
    # the metric registered under the name first (one import), then every metric in registry order
    first = [(key, get_metric_class(key))] if key in REGISTRY else []   # a plug-in asked for by name must load
    for _, cls in [*first, *metric_classes()]:
        spec = cls.check_spec(key)
        if spec is not None:
            return spec.name, spec
    names = check_names()
    close = difflib.get_close_matches(key, [name.lower() for name in names], n=1, cutoff=0.6)
    suggestion = f"did you mean {names[[name.lower() for name in names].index(close[0])]!r}? " if close else ""
    raise UnknownCheckError(f"unknown metric {metric!r} for a check; {suggestion}choose from: {', '.join(names)}")


def external_check_name(metric: Any) -> str | None:
    """The name of a check on ``file:PATH`` (the file's stem, as :func:`external_scores` names it); None for
    another metric.

    >>> external_check_name("file:scores/comet.jsonl"), external_check_name("bleu")
    ('comet', None)
    """
    return external_name(metric)


def _keyed(metric: Any) -> bool:
    """Whether ``metric`` is a metric instance whose scores are read by key (an :class:`ExternalScores`)."""
    return isinstance(metric, Metric) and metric.keyed_scores


def _external_metric(metric: Any, options: dict[str, Any], name: str | None) -> Metric | None:
    """The metric of a check on scores computed elsewhere (``file:PATH`` or an :class:`ExternalScores`), None for a
    registered metric's check. ``options`` (without ``system``) are :func:`external_scores`' declarations; ``name``
    (the check's declared name, default the file's stem) names the scores, so that the checks of two versions, each
    with its own scores file, are one check under one name (a baseline gate compares them)."""
    if _keyed(metric):
        if options:
            raise InputError(f"check {metric.name!r}: options {sorted(options)} of a check on an external_scores() "
                             f"metric go to external_scores(...) itself")
        return metric
    path = external_path(metric)
    if path is None:
        return None
    if not path:
        raise InputError(f"check {metric!r}: no path; give the scores file, e.g. file:comet.jsonl")
    unknown = sorted(set(options) - set(EXTERNAL_OPTIONS))
    if unknown:
        raise InputError(f"check {metric!r}: unknown option {unknown[0]!r}; a check on scores from a file takes "
                         f"{', '.join(EXTERNAL_OPTIONS)}")
    if not os.path.isfile(path):    # an unreadable file (the command line's exit 4), not bad content
        raise FileNotFoundError(errno.ENOENT, f"cannot read the scores file {path!r} of check {metric!r}: no such "
                                              f"file; give the path of a .tsv, .csv or .jsonl file")
    # a check named like a registered metric (a table [tool.refscore.checks.bleu] on a file) keeps the file's stem
    named = None if name is None or str(name).strip().lower() in REGISTRY else str(name)
    return external_scores(path, name=named, **options)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputTypeError(f"{what} must be a number, got {value!r}")
    if math.isnan(value):
        raise InputError(f"{what} must be a number, got NaN")
    return float(value)


def _hashable(value: Any) -> Any:
    """Lists (e.g. from TOML or YAML) as tuples, so equal options share one cached metric."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


class Check:
    """One metric with a ``threshold`` (default 0.5), ``bands`` (label -> bound) and gates.

    Args:
        metric: a check name, ``file:PATH`` of scores computed elsewhere, or an :class:`ExternalScores` (see the
            module docstring).
        threshold: a case passes when its score is >= threshold (TER: <= threshold).
        bands: label -> lower bound (TER: upper bound); the band of a score is the first label whose bound it
            reaches, None when it reaches none. Default: BLEU's documented bands, none for the other metrics.
        name: the check's name in reports (default: the canonical metric name); two checks of one run need
            different names.
        min_mean: gate: the mean score over all cases must reach this (TER: stay at or below it).
        min_pass_rate: gate: the share of passing cases must reach this (default 1.0: every case must pass).
        options: metric options (``tokenize="intl"``, ``word_order=2``, ``model_type=...``).
    """

    def __init__(self, metric: str | Metric, threshold: float = DEFAULT_THRESHOLD, *, bands: Mapping[str, float] | None = None,
                 name: str | None = None, min_mean: float | None = None, min_pass_rate: float = 1.0,
                 **options: Any) -> None:
        self.given = metric     # what the check was built from (with_options rebuilds a file check from it)
        self.system = options.pop("system", None) if external_check_name(metric) or _keyed(metric) else None
        #: The metric of outside scores (``file:PATH``), None for a registered metric's check.
        self.external = _external_metric(metric, options, name)
        #: What the check reads its direction and ranges from: the registered metric's class, or the outside
        #: scores' metric (whose declarations are per instance).
        self.facts: type[Metric] | Metric
        if self.external is not None:
            canonical, spec = self.external.name, CheckSpec(self.external.name, self.external.name,
                                                            self.external.name)
            self.metric_class: type[Metric] = type(self.external)
            self.facts = self.external
        else:
            canonical, spec = resolve_spec(cast(str, metric))  # not outside scores: a name
            self.metric_class = self.facts = get_metric_class(spec.registry)
        self.canonical = canonical
        self.spec = spec
        self.name = canonical if name is None else str(name)
        fixed = dict(spec.options)
        clash = sorted(set(fixed) & set(options))
        if clash:
            raise InputError(f"check {self.name!r}: option {clash[0]!r} is set by the check name {canonical!r}; use "
                             f"one check per ROUGE type (rouge1, rougeL, ...)")
        self.options = {key: _hashable(value) for key, value in {**dict(spec.defaults), **fixed, **options}.items()}
        if self.system is not None:
            self.options["system"] = self.system
        self.threshold = self._in_range(threshold, "threshold")
        self.min_mean = None if min_mean is None else self._in_range(min_mean, "min_mean")
        self.min_pass_rate = _number(min_pass_rate, f"check {self.name!r}: min_pass_rate")
        if not 0.0 <= self.min_pass_rate <= 1.0:
            raise InputError(f"check {self.name!r}: min_pass_rate must be between 0 and 1, got {min_pass_rate}")
        chosen = dict(spec.bands) if bands is None else bands
        if not isinstance(chosen, Mapping):
            raise InputTypeError(f"check {self.name!r}: bands must be a mapping label -> bound, got "
                                 f"{type(chosen).__name__}")
        bounds = [(str(label), self._in_range(bound, f"band {label!r}", finite=False))
                  for label, bound in chosen.items()]
        self.bands = tuple(sorted(bounds, key=lambda item: item[1], reverse=self.higher_is_better))
        try:    # build it now: an unknown or missing option is an error at definition, not at the first case
            self.metric
        except (InputError, InputTypeError) as exc:
            if type(exc) not in (InputError, InputTypeError):    # a subclass with arguments of its own: as it is
                raise
            raise type(exc)(f"check {self.name!r}: {exc} (a check's metric options: Check({canonical!r}, "
                            f"OPTION=VALUE), --check-option {self.name}.OPTION=VALUE of refscore check, or options = "
                            f"{{...}} in [tool.refscore.checks.{self.name}])") from None

    def replace(self, *, threshold: float | None = None, min_pass_rate: float | None = None) -> Check:
        """A copy with another threshold and/or minimum pass rate (validated as in the constructor)."""
        new = copy.copy(self)
        if threshold is not None:
            new.threshold = self._in_range(threshold, "threshold")
        if min_pass_rate is not None:
            new.min_pass_rate = _number(min_pass_rate, f"check {self.name!r}: min_pass_rate")
            if not 0.0 <= new.min_pass_rate <= 1.0:
                raise InputError(f"check {self.name!r}: min_pass_rate must be between 0 and 1, got {min_pass_rate}")
        return new

    def with_options(self, **options: Any) -> Check:
        """A copy with more metric options (validated as in the constructor).

        >>> Check("chrf", threshold=0.4).with_options(word_order=2)
        Check('chrf', threshold=0.4, word_order=2)
        """
        own = {key: value for key, value in self.options.items() if not self._implied(key, value)}
        return Check(self.given if self.external is not None else self.canonical, self.threshold, bands=dict(self.bands), name=self.name, min_mean=self.min_mean,
                     min_pass_rate=self.min_pass_rate, **{**own, **options})

    def _implied(self, key: str, value: Any) -> bool:
        """Whether an option is the check name's own (fixed or default), not one the user gave."""
        return (key, value) in self.spec.options or (key, value) in self.spec.defaults

    def _in_range(self, value: Any, what: str, finite: bool = True) -> float:
        """``value`` as a float in the metric class's ``threshold_range``, the same rule for every metric: a number
        above it can only be a 0–100 score and is refused with the 0–1 value it probably means. A band's bound
        may also be ±inf (``finite=False``): a band that takes every remaining score."""
        number = _number(value, f"check {self.name!r}: {what}")
        if math.isinf(number):
            if finite:
                raise InputError(f"check {self.name!r}: {what} must be a finite number, got {value}")
            return number
        low, high = self.threshold_range
        if low <= number <= high:
            return number
        guess = number / 100
        # the command line prints 0–1 scores as 0–100 (display_scale 100); scores from outside print as given
        percent = self.facts.display_scale == 100
        hint = (f"; test cases use the 0–1 scale (refscore score prints 0–100): did you mean {guess:g}?"
                if number > high and low <= guess <= high and percent else "")
        why = (f" ({self.label} scores can pass 1, but a larger {what} passes outputs unrelated to the expected "
               f"output)" if high > 1 and percent else "")
        raise InputError(f"check {self.name!r}: {what} {value:g} is outside {self.label}'s range [{low:g}, "
                         f"{high:g}]{why}{hint}")

    @property
    def higher_is_better(self) -> bool:
        """The metric's direction (TER: lower is better; outside scores: their declared ``higher_is_better``)."""
        return self.facts.higher_is_better

    @property
    def threshold_range(self) -> tuple[float, float]:
        """The range of a threshold: the metric's ``threshold_range`` (outside scores: their declared ``range``,
        unbounded when they declare none)."""
        return self.facts.threshold_range

    @property
    def score_range(self) -> tuple[float, float]:
        """The range of one case's score: the metric's ``score_range`` (its ``threshold_range`` when it declares
        none)."""
        return self.facts.score_range or self.facts.threshold_range

    @property
    def label(self) -> str:
        """The metric's display name, e.g. ``ROUGE-L``."""
        return self.spec.label

    @property
    def metric(self) -> Metric:
        """The refscore metric (shared by every check with the same options, so a model loads once)."""
        if self.external is not None:
            return self.external
        return metric_with(self.metric_class, self.options)

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items() if not self._implied(k, v))
        return f"Check({self.name!r}, threshold={self.threshold:g}{options})"

    def describe_threshold(self) -> str:
        return f"{'>=' if self.higher_is_better else '<='} {self.threshold:g}"

    def scores(self, hypotheses: Sequence[str], references: Sequence[Any], *, num_threads: int | None = None,
               ids: Sequence[str] | None = None) -> tuple[np.ndarray, Statistics]:
        """The score of every case (one batch call of the metric) and the metric's statistics.

        Outside scores are looked up, not computed: the rows of the file whose id is a case's id (``ids``, the
        case ids; default ``"1".."n"``), of the file's only system or of the option ``system``. A case without
        a row, or a row without a case, is an error that names them.
        """
        metric = self.metric
        case_ids: Sequence[Any] = range(1, len(hypotheses) + 1) if ids is None else ids
        try:
            stats = metric.system_statistics(self.system, list(hypotheses), list(references), case_ids,
                                             num_threads=num_threads)
        except InputError as exc:
            if not metric.keyed_scores:     # the metric's own error, as it is
                raise
            raise InputError(f"check {self.name!r}: {exc} (a check joins the rows to the test cases by case id: "
                             f"the case's id, case-N when it has none; a file of several systems needs the "
                             f"option system)") from None
        return np.asarray(metric.segment_scores(stats), dtype=np.float64), stats

    def passes(self, scores: Any) -> np.ndarray:
        """Whether each score passes the threshold."""
        values = np.asarray(scores, dtype=np.float64)
        return values >= self.threshold if self.higher_is_better else values <= self.threshold

    def reaches(self, value: float, bound: float) -> bool:
        """Whether ``value`` is at least as good as ``bound`` in this metric's direction."""
        return value >= bound if self.higher_is_better else value <= bound

    def band(self, score: float) -> str | None:
        """The label of the first band whose bound the score reaches; None when it reaches none (a score under
        the lowest bound, TER: over the highest) or the check has no bands. Give the last band the bound 0 (TER:
        ``float("inf")``) to cover every score.

        >>> check = Check("rougeL", bands={"close": 0.6, "related": 0.3})
        >>> check.band(0.7), check.band(0.3), check.band(0.1)
        ('close', 'related', None)
        """
        for label, bound in self.bands:
            if self.reaches(score, bound):
                return label
        return None

    def bands_of(self, scores: Any) -> list[str | None]:
        """The band label of every score, as :meth:`band` gives it, one array pass per band.

        >>> Check("bleu").bands_of([0.7, 0.4, 0.1])
        ['very strong overlap', 'moderate overlap', 'low overlap']
        """
        values = np.asarray(scores, dtype=np.float64)
        if not self.bands:
            return [None] * len(values)
        labels = np.full(len(values), None, dtype=object)
        unassigned = np.ones(len(values), dtype=bool)
        for label, bound in self.bands:
            hit = unassigned & (values >= bound if self.higher_is_better else values <= bound)
            labels[hit] = label
            unassigned &= ~hit
        return labels.tolist()


def as_checks(checks: Any) -> list[Check]:
    """Checks from a :class:`Check`, a metric name, a list of either, or a mapping name -> threshold."""
    if isinstance(checks, (Check, str)):
        items: list[Any] = [checks]
    elif isinstance(checks, Mapping):
        items = [Check(name, threshold) for name, threshold in checks.items()]
    elif isinstance(checks, Sequence):
        items = list(checks)
    else:
        raise InputTypeError(f"checks must be a Check, a metric name, a list of them or a mapping name -> threshold, "
                             f"got {type(checks).__name__}")
    result = [item if isinstance(item, Check) else Check(item) for item in items]
    if not result:
        raise InputError("no checks given; give at least one, e.g. Check('bleu', threshold=0.3)")
    names = [check.name for check in result]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(f"two checks are named {duplicates[0]!r}; give each a distinct name=")
    return result


__all__ = ["BLEU_BANDS", "Check", "DEFAULT_THRESHOLD", "EXTERNAL_PREFIX", "UnknownCheckError", "as_checks",
           "check_names", "external_check_name", "resolve_spec"]
