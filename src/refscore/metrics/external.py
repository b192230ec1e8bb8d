"""Scores from outside: per-segment scores computed elsewhere (COMET, MetricX, human ratings) as a refscore metric,
so that corpus scores, bootstrap intervals, paired tests, ``compare``, ``report`` and ``score`` work on them too.

The statistics of a segment are its score and a count (columns ``score``, ``documents``); the corpus score is the
mean. Scores are looked up, never computed: the text of the hypotheses and references is not read.

Which scores belong to which hypotheses (the join):

* Hypotheses given as a plain list are the segments ``1..n`` of the scores' only system (an array, or a file
  without a ``system`` column, or a file with a single system). With scores of several systems that is an error.
* Hypotheses given as :class:`SystemSegments` carry their system name and segment ids (default ``"1".."n"``): the
  rows ``(system, id)`` are taken, in the hypotheses' order. A missing key, or a row of that system that matches no
  segment, is an error that names the keys; so is an id given twice. The command line wraps every system this way,
  with the name it gives the system (``--name``, the file stem, or the records' ``system``) and as ids the
  records' ``id`` fields (JSONL/CSV/TSV records that carry them), else the segments' 1-based numbers.

>>> comet = external_scores({"base": [0.5, 0.75], "new": [0.75, 1.0]}, name="comet")
>>> systems = {"base": SystemSegments(["a", "b"], system="base"), "new": SystemSegments(["a", "c"], system="new")}
>>> [comet.corpus_score(hypotheses, ["a", "b"]).score for hypotheses in systems.values()]
[0.625, 0.875]
>>> import refscore
>>> refscore.paired_test(comet, systems, ["a", "b"], n=100).result("new", "comet").score
0.875
"""
from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from refscore.checks import check_bool
from refscore.wording import counted, fixed
from refscore.errors import InputError, InputTypeError
from refscore.metrics import REGISTRY
from refscore.metrics._score_tables import FORMATS, ScoreTable, listed_keys, score_table
from refscore.metrics.external_names import (DECLARATIONS, EXTERNAL_PREFIX, OPTIONS, PAIR_FIELD, external_name,
                                             external_path)
from refscore.protocol import Metric, Score, Signature, Statistics

__all__ = ["COLUMNS", "DECLARATIONS", "EXTERNAL_PREFIX", "FORMATS", "OPTIONS", "PAIR_FIELD", "ExternalScores",
           "ExternalScoresConfig", "SystemSegments", "external_name", "external_path", "external_scores",
           "keyed_systems", "spec_in_folder"]

#: The columns of an external metric's statistics.
COLUMNS = ("score", "documents")


def spec_in_folder(spec: Any, folder: str | os.PathLike[str]) -> Any:
    """A metric as named in a file of ``folder`` (pyproject.toml's checks): a relative ``file:PATH`` is taken from
    that folder; every other name, and an absolute path, is returned as given.

    >>> spec_in_folder("file:scores/comet.tsv", "proj"), spec_in_folder("bleu", "proj")
    ('file:proj/scores/comet.tsv', 'bleu')
    """
    given = external_path(spec)
    if given is None:
        return spec
    path = Path(given)
    return EXTERNAL_PREFIX + str(path if path.is_absolute() or not given else Path(folder) / path)


class SystemSegments(list):
    """A system's hypotheses (a list of strings, usable by every metric) that also carry the system's name and the
    segments' ids, by which :class:`ExternalScores` finds their scores. ``ids`` default to ``"1".."n"``.

    >>> segments = SystemSegments(["a cat", "a dog"], system="sysA", ids=["s7", "s9"])
    >>> segments, segments.system, segments.ids
    (['a cat', 'a dog'], 'sysA', ['s7', 's9'])
    """

    def __init__(self, hypotheses: Sequence[str], system: str, ids: Sequence[Any] | None = None) -> None:
        super().__init__(hypotheses)
        if not isinstance(system, str) or not system:
            raise InputTypeError(f"SystemSegments: system must be a non-empty string, got {system!r}")
        if ids is None:
            ids = range(1, len(self) + 1)
        elif isinstance(ids, (str, bytes)) or len(ids) != len(self):
            raise InputError(f"SystemSegments: ids must be a list with one id per hypothesis ({len(self)}), got "
                             f"{len(ids) if not isinstance(ids, (str, bytes)) else type(ids).__name__}")
        self.system = system
        self.ids = [str(segment_id) for segment_id in ids]
        if len(set(self.ids)) != len(self.ids):     # two segments would share one score
            repeated = [(system, key) for key, count in Counter(self.ids).items() if count > 1]
            raise InputError(f"SystemSegments: {counted(len(repeated), 'id')} given twice: {listed_keys(repeated)}; "
                             f"give each segment its own id")


def keyed_systems(systems: dict[str, Sequence[str]], ids: Sequence[Any] | None = None) -> dict[str, SystemSegments]:
    """Every system's hypotheses as :class:`SystemSegments` under its own name (``ids`` shared by all systems).

    >>> keyed_systems({"a": ["x"]})["a"].system
    'a'
    """
    return {name: SystemSegments(hypotheses, system=name, ids=ids) for name, hypotheses in systems.items()}


@dataclass(frozen=True)
class ExternalScoresConfig:
    """What identifies a set of outside scores: the metric's ``name``, its direction and declared ``range``, where
    the scores came from (``source``: a path or ``"array"``) and a hash of their content (``digest``); and the
    factor they are printed by (``scale``: 1, as given; not part of the config hash)."""

    name: str
    higher_is_better: bool = True
    range: tuple[float, float] | None = None
    source: str = "array"
    digest: str = ""
    scale: float = 1.0


class ExternalScores(Metric):
    """A metric whose per-segment scores come from a file or an array; build it with :func:`external_scores`."""

    config_class = ExternalScoresConfig
    independent_segments = False   # its "hypotheses" are (system, segment) keys, read per system
    keyed_scores = True
    runtime_fields = frozenset({"scale"})   # how they are printed, not what they are

    def __init__(self, table: ScoreTable, config: ExternalScoresConfig) -> None:
        self.name = config.name  # type: ignore[misc]  # each instance names its own scores
        self.higher_is_better = config.higher_is_better  # type: ignore[misc]  # per instance
        self.display_scale = config.scale  # type: ignore[misc]  # as given unless declared
        # a threshold on them, and one score, lies in the declared range (any finite number without one)
        self.threshold_range = config.range or (-math.inf, math.inf)  # type: ignore[misc]  # per instance
        super().__init__(config)
        self.table = table

    def __repr__(self) -> str:
        return (f"ExternalScores(name={self.name!r}, source={self.config.source!r}, "
                f"higher_is_better={self.higher_is_better}, range={self.config.range})")

    def _system_scores(self, system: str | None) -> dict[str, float]:
        return self.table.rows[self._system_key(system)]

    def _system_key(self, system: str | None) -> str | None:
        """The table's key of ``system`` (``None``: the scores' only system)."""
        rows = self.table.rows
        if system is None:
            if len(rows) == 1:
                return next(iter(rows))
            raise InputError(f"{self.name}: the scores ({self.config.source}) hold {len(rows)} systems "
                             f"({', '.join(map(str, rows))}); say which system the hypotheses are: pass them as "
                             f"SystemSegments(hypotheses, system=NAME) (keyed_systems(systems) wraps a dict of "
                             f"systems under their names)")
        if system in rows:
            return system
        if list(rows) == [None]:
            raise InputError(f"{self.name}: the scores ({self.config.source}) have no system names, so they cannot "
                             f"be joined to system {system!r}; add a 'system' column (or pass a dict system -> "
                             f"scores)")
        raise InputError(f"{self.name}: no scores for system {system!r} in {self.config.source}; its systems are "
                         f"{', '.join(map(repr, rows))} (on the command line, name the inputs with --name)")

    def declarations(self) -> dict[str, Any]:
        """What the user declared about these scores (:data:`DECLARATIONS`), as JSON values: what two runs with
        different scores files must share to be compared (a baseline gate), unlike the file and its content.

        >>> external_scores([1.5], name="metricx", higher_is_better=False, range=(0, 25)).declarations()
        {'higher_is_better': False, 'range': [0.0, 25.0]}
        """
        declared = {name: getattr(self.config, name) for name in DECLARATIONS}
        return {name: list(value) if isinstance(value, tuple) else value for name, value in declared.items()}

    def statistics_for(self, system: str | None, ids: Sequence[Any]) -> Statistics:
        """The statistics of the segments ``ids`` of ``system`` (``None``: the scores' only system), in that order.

        >>> external_scores([0.5, 0.25, 1.0], name="human").statistics_for(None, [3, 1, 2]).column("score").tolist()
        [1.0, 0.5, 0.25]
        """
        scores = self._system_scores(system)
        ids = [str(segment_id) for segment_id in ids]
        missing = [(system, segment_id) for segment_id in ids if segment_id not in scores]
        if missing:
            raise InputError(f"{self.name}: {len(missing)} of {len(ids)} segments "
                             f"{'has' if len(missing) == 1 else 'have'} no score in "
                             f"{self.config.source}: (system, id) {listed_keys(missing)}; give every segment a "
                             f"score (ids are the segments' 1-based numbers unless the inputs name them)")
        wanted = set(ids)
        unmatched = [(system, segment_id) for segment_id in scores if segment_id not in wanted]
        if unmatched:
            raise InputError(f"{self.name}: {counted(len(unmatched), 'score')} in {self.config.source} match"
                             f"{'es' if len(unmatched) == 1 else ''} no segment of the "
                             f"inputs: (system, id) {listed_keys(unmatched)}; the scores and the inputs must cover "
                             f"the same segments")
        values = np.fromiter((scores[segment_id] for segment_id in ids), dtype=np.float64, count=len(ids))
        return self._new_statistics(COLUMNS, np.column_stack([values, np.ones(len(ids))]), 1)

    def system_statistics(self, system: str | None, hypotheses: Any, references: Any, segment_ids: Sequence[Any], *,
                          num_threads: int | None = None) -> Statistics:
        """The scores of ``system``'s segments ``segment_ids``, joined by key (:meth:`statistics_for`)."""
        return self.statistics_for(system, segment_ids)

    def explain_segment(self, output: str, references: Sequence[str], system: str | None, segment_id: Any) -> str:
        """Where the score was read (:meth:`explain_score`): the text is not what it was computed from."""
        return self.explain_score(system, segment_id)

    def baseline_declarations(self) -> dict[str, Any]:
        """:meth:`declarations`: each run brings its own scores file, so runs compare when these are equal."""
        return self.declarations()

    def explain_score(self, system: str | None, segment_id: Any) -> str:
        """Where the score of one segment was read: these scores are not computed from the text, so this is their
        explanation (a test case's, under a check on them).

        >>> external_scores({"sysA": [0.5, 0.75]}, name="comet").explain_score("sysA", 2)
        "comet 0.7500 read from scores['sysA'][1] (id '2'); computed outside refscore, which cannot explain it"
        """
        key, segment_id = self._system_key(system), str(segment_id)
        value = self.table.rows[key][segment_id]
        where = self.table.where.get(key, {}).get(segment_id, self.config.source)
        return (f"{self.name} {fixed(value, 4)} read from {where} (id {segment_id!r}); computed outside refscore, "
                f"which cannot explain it")

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """The scores of ``hypotheses``' segments (see the module's join rule); their text is not read."""
        if isinstance(hypotheses, SystemSegments):
            return self.statistics_for(hypotheses.system, hypotheses.ids)
        if isinstance(hypotheses, (str, bytes)) or not isinstance(hypotheses, Sequence):
            raise InputTypeError(f"{self.name}: hypotheses must be a list (or SystemSegments), got "
                                 f"{type(hypotheses).__name__}")
        return self.statistics_for(None, range(1, len(hypotheses) + 1))

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.asarray(totals, dtype=np.float64)
        documents = totals[:, 1]
        return np.where(documents > 0, totals[:, 0] / np.where(documents > 0, documents, 1.0), 0.0)[:, None]

    def corpus_values(self, stats: Statistics) -> dict[str, Any]:
        """None: the corpus score is the mean itself (the summed columns are its parts, not its values)."""
        return {}

    def signature(self, nrefs: int = 1) -> Signature:
        source = self.config.source
        return Signature({"scores": source if source == "array" else os.path.basename(source),
                          "sha": self.config.digest, "higher": "yes" if self.higher_is_better else "no"})


def external_scores(scores: Any, *, name: str | None = None, higher_is_better: bool = True,
                    range: tuple[float, float] | None = None,  # noqa: A002 (the issue's name)
                    scale: float = 1.0) -> ExternalScores:
    """A metric of per-segment scores computed elsewhere: ``scores`` is a TSV/CSV/JSONL file (columns ``system``,
    ``id``, ``score``; see :mod:`refscore.metrics._score_tables`), an array (one system, segments in order) or a
    dict system -> array. ``name`` defaults to the file's stem; ``range`` (low, high), when given, is checked for
    every score; ``scale`` is the factor the command line and the report print them by (1: as given; 100 for 0–1
    scores to print beside BLEU and chrF). The corpus score is the mean; see :mod:`refscore.metrics.external` for
    the join.

    >>> comet = external_scores([0.8, 0.6, 0.7], name="comet")
    >>> round(comet.corpus_score(["a", "b", "c"], ["x", "y", "z"]).score, 10)
    0.7
    """
    if name is None:
        if not isinstance(scores, (str, os.PathLike)):
            raise InputError("external_scores: give name=... (e.g. name='comet') for scores given as an array")
        name = os.path.splitext(os.path.basename(os.fspath(scores)))[0]
    if not isinstance(name, str) or not name.strip() or "," in name:
        raise InputError(f"external_scores: name must be a non-empty string without commas, got {name!r}")
    if name.lower() in REGISTRY:
        raise InputError(f"external_scores: name {name!r} is a built-in metric's; name the scores otherwise "
                         f"(e.g. {name + '_external'!r})")
    higher_is_better = check_bool(higher_is_better, "higher_is_better", owner="external_scores")
    if range is not None:
        if (not isinstance(range, (tuple, list)) or len(range) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in range)
                or not range[0] < range[1]):
            raise InputError(f"external_scores: range must be a pair (low, high) of numbers with low < high, "
                             f"got {range!r}")
        range = (float(range[0]), float(range[1]))
    if (isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale)
            or scale <= 0):
        raise InputError(f"external_scores: scale must be a positive number (1: print the scores as given, 100: "
                         f"0–1 scores on the 0–100 scale), got {scale!r}")
    table = score_table(scores, range)
    config = ExternalScoresConfig(name, higher_is_better, range, table.source, table.digest, float(scale))
    return ExternalScores(table, config)
