"""Human judgments per (system, segment): the input of meta-evaluation and of threshold calibration.

A judgments file holds one record per (system, segment) with the system's name, the segment's id, the hypothesis,
its reference(s), optionally the source, and one or more human scores (MQM, DA, Likert ratings, pass/fail labels).
JSON Lines, CSV, TSV and Parquet files are read; the hypothesis and references fields follow ``refscore score``'s
record files (:class:`refscore.io.records.RecordLayout`: ``prediction`` or its aliases ``hypothesis``, ``hyp``,
``output``; ``references`` or ``reference``; in CSV/TSV every ``reference...`` column). Other names are found by
alias when not given (:class:`JudgmentFields`):

* the system: ``system``; a file whose records name none holds one system, named after the file;
* the hypothesis and references of a test-case file (``actual_output``, ``expected_output``, as
  :mod:`refscore.testing.cases` reads them) when there is no ``prediction`` field or alias;
* the segment id: ``seg_id``, ``segment_id`` or ``id``; without one, a record's id is its 1-based position among
  its system's records (as in the scores-from-outside join, :mod:`refscore.metrics.external`);
* the source: ``source``, ``src``;
* the human scores: every field named ``mqm``, ``da``, ``human``, ``human_score``, ``rating`` or ``label``, and
  every number inside a ``human_scores`` object (SummEval's ``coherence``, ``consistency``, ...).

So the WMT21 TED MQM files (``system``, ``seg_id``, ``hypothesis``, ``reference``, ``mqm``) and SummEval
(``system``, ``id``, ``prediction``, ``references``, ``human_scores``) load as they are.

A missing rating (JSON ``null``, ``NaN``, an empty CSV cell or ``None``/``NA``/``NaN`` in CSV/TSV) is kept as
missing (NaN in :attr:`Judgments.human`, ``None`` in :meth:`Judgments.ratings`), as the WMT tools keep it: the
statistics leave out the pairs it belongs to. A rating that is not a number is an error naming the file, the line
and the field. Every system must rate the same segments; otherwise the files are refused with the counts, or with
``align="intersect"`` the segments that every system has are kept.

>>> import json, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "ratings.jsonl")
>>> rows = [{"system": s, "seg_id": i, "hypothesis": h, "reference": "a cat", "mqm": m}
...         for s, i, h, m in [("A", 1, "a cat", 0.0), ("A", 2, "cat", -5.0), ("B", 1, "the cat", None),
...                            ("B", 2, "a cat", -1.0)]]
>>> _ = open(path, "w").write("".join(json.dumps(row) + "\\n" for row in rows))
>>> judgments = load_judgments(path)
>>> judgments.systems, judgments.segment_ids, judgments.human_names
(['A', 'B'], ['1', '2'], ['mqm'])
>>> judgments.ratings("mqm")
{'A': [0.0, -5.0], 'B': [None, -1.0]}
"""
from __future__ import annotations

import errno
import glob
import json
import math
import os
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from refscore.errors import InputError
from refscore.io.json_lines import json_values
from refscore.io.parquet import check_value_lengths
from refscore.io.record_files import (expand_paths, input_kind, parquet_error, parquet_module, record_bytes,
                                     table_rows)
from refscore.io.records import BadRecord, RecordLayout, _field
from refscore.protocol import Metric

SEGMENT_ALIASES: tuple[str, ...] = ("seg_id", "segment_id", "id")
SOURCE_ALIASES: tuple[str, ...] = ("source", "src")
HUMAN_ALIASES: tuple[str, ...] = ("mqm", "da", "human", "human_score", "rating", "label")
#: A field holding an object of named human scores (SummEval's ``human_scores``): one score per key.
HUMAN_GROUP = "human_scores"
#: Texts that mean "no rating" in CSV/TSV cells (CSV has no null).
MISSING_TEXTS = frozenset({"", "none", "null", "na", "nan"})
#: Pass/fail labels as text (CSV/TSV) or JSON booleans: 1 for a pass, 0 for a fail.
LABEL_TEXTS = {"pass": 1.0, "passed": 1.0, "true": 1.0, "yes": 1.0, "fail": 0.0, "failed": 0.0, "false": 0.0,
               "no": 0.0}
ALIGN_MODES = ("strict", "intersect")
#: The hypothesis and references fields of a test-case file, read when the record has no ``prediction`` (alias).
TEST_CASE_FIELDS = ("actual_output", "expected_output")


class JudgmentsError(InputError):
    """A judgments file that cannot be used; the message names the file, the line and the field."""


@dataclass(frozen=True)
class JudgmentFields:
    """Which fields hold what; ``None`` means "find it by its aliases" (see the module docstring)."""

    system: str = "system"
    segment: str | None = None
    hypothesis: str = "prediction"
    references: str = "references"
    source: str | None = None
    human: tuple[str, ...] | None = None

    def layout(self, names: Any = ()) -> RecordLayout:
        """The record layout of a record (or header) with these field names: a test-case file's
        ``actual_output`` / ``expected_output`` (:mod:`refscore.testing.cases`) when the default hypothesis field
        and its aliases are absent."""
        layout = RecordLayout(self.hypothesis, self.references, self.system)
        if (self.hypothesis, self.references) == ("prediction", "references") and TEST_CASE_FIELDS[0] in names \
                and not any(name in names for name in layout.hypothesis_names()):
            return RecordLayout(*TEST_CASE_FIELDS, self.system)
        return layout


@dataclass
class Judgments:
    """Human judgments aligned by (system, segment): ``hypotheses[system][i]``, ``references[system][i]`` and
    ``human[name][system_index, i]`` (NaN: missing) belong to segment ``segment_ids[i]``."""

    systems: list[str]
    segment_ids: list[str]
    hypotheses: dict[str, list[str]]
    references: dict[str, list[list[str]]]
    human: dict[str, np.ndarray]
    sources: list[str] | None = None
    source_file: str = ""
    dropped_segments: int = 0

    @property
    def human_names(self) -> list[str]:
        return list(self.human)

    def ratings(self, name: str) -> dict[str, list[float | None]]:
        """One human score per system as lists in segment order, ``None`` where missing (mt-metrics-eval's form)."""
        matrix = self._human(name)
        return {system: [None if math.isnan(value) else value for value in matrix[row].tolist()]
                for row, system in enumerate(self.systems)}

    def rated_cells(self, names: Sequence[str] | None = None) -> dict[str, int]:
        """Each human score of ``names`` (default: all) -> how many (system, segment) cells it rates.

        >>> Judgments(["A"], ["1", "2"], {}, {}, {"mqm": np.array([[0.0, np.nan]])}).rated_cells()
        {'mqm': 1}
        """
        return {name: int(np.count_nonzero(~np.isnan(self._human(name))))
                for name in (self.human_names if names is None else names)}

    def _human(self, name: str) -> np.ndarray:
        if name not in self.human:
            raise JudgmentsError(f"{self.source_file}: no human score {name!r}; the human scores are "
                                 f"{', '.join(map(repr, self.human)) or 'none'}")
        return self.human[name]

    def metric_scores(self, metric: Metric, *, num_threads: int | None = None) -> np.ndarray:
        """Per-segment scores of ``metric`` as a (systems x segments) array. Scores from outside
        (:func:`refscore.external_scores`) are joined by (system, segment id); other metrics score the texts."""
        rows = []
        for system in self.systems:
            stats = metric.system_statistics(system, self.hypotheses[system], self.references[system],
                                             self.segment_ids, num_threads=num_threads)
            rows.append(np.asarray(metric.segment_scores(stats), dtype=np.float64))
        return np.vstack(rows) if rows else np.zeros((0, len(self.segment_ids)))

    def select_systems(self, systems: Sequence[str]) -> Judgments:
        """The judgments of some systems only (e.g. one half for calibration, the other for evaluation)."""
        unknown = [system for system in systems if system not in self.systems]
        if unknown:
            raise JudgmentsError(f"{self.source_file}: no system {unknown[0]!r}; the systems are "
                                 f"{', '.join(self.systems)}")
        rows = [self.systems.index(system) for system in systems]
        return Judgments(list(systems), list(self.segment_ids), {s: self.hypotheses[s] for s in systems},
                         {s: self.references[s] for s in systems},
                         {name: matrix[rows] for name, matrix in self.human.items()}, self.sources,
                         self.source_file, self.dropped_segments)


def _find(names: Collection[str], wanted: str | None, aliases: Sequence[str]) -> str | None:
    """The field that holds ``wanted`` (exactly), or the first alias present."""
    if wanted is not None:
        return wanted
    return next((name for name in aliases if name in names), None)


def _rating(value: Any, where: str, name: str, text: bool) -> float:
    """A human score as a float (NaN: missing); a value that is no number is an error."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) or math.isnan(value) else _bad(value, where, name)
    if isinstance(value, str) and (text or value.strip().lower() in LABEL_TEXTS):
        cleaned = value.strip().lower()
        if cleaned in MISSING_TEXTS:
            return math.nan
        if cleaned in LABEL_TEXTS:
            return LABEL_TEXTS[cleaned]
        try:
            number = float(cleaned)
        except ValueError:
            return _bad(value, where, name)
        return number if math.isfinite(number) or math.isnan(number) else _bad(value, where, name)
    return _bad(value, where, name)


def _bad(value: Any, where: str, name: str) -> float:
    raise JudgmentsError(f"{where}: human score {name!r} is {value!r}, not a number; give a number, a pass/fail "
                         f"label, or null (JSON) / an empty cell (CSV) for a missing rating")


def _records(path: str, fields: JudgmentFields) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """(where, record, from a text table) of every record of one file."""
    kind = input_kind(path)
    if kind == "jsonl":
        with open(path, "rb") as handle:   # line by line within the read budget, errors naming line and column
            for number, value in json_values(handle, path, hint="one JSON object per line"):
                where = f"{path}: line {number}"
                if not isinstance(value, dict):
                    raise JudgmentsError(f"{where}: a JSON {type(value).__name__}, expected an object")
                yield where, value, False
    elif kind == "table":
        rows = table_rows(path)
        _, header = next(rows, (1, []))
        layout = fields.layout([name.strip().lower() for name in header])
        hypothesis, references, _ = layout.table_columns(header, path)
        names = [name.strip() for name in header]
        for line, row in rows:
            where = f"{path}: line {line}"
            if len(row) != len(header):
                raise JudgmentsError(f"{where}: {len(row)} fields but the header has {len(header)} columns")
            record: dict[str, Any] = {name: value for i, (name, value) in enumerate(zip(names, row))
                                      if i != hypothesis and i not in references}
            record[layout.hypothesis_column] = row[hypothesis]
            record[layout.references_column] = [row[i] for i in references if row[i]] or [""]
            yield where, record, True
    else:
        record_bytes(path)   # refuses a file over the read budget (its uncompressed size) before reading it
        import pyarrow as pa

        try:
            table = parquet_module().read_table(path)
        except (pa.ArrowException, OSError) as exc:
            raise parquet_error(path, exc) from None
        first = 0
        for batch in table.to_batches():   # each text value within the line budget
            check_value_lengths(batch, path, first)
            first += batch.num_rows
        for number, record in enumerate(table.to_pylist(), start=1):
            yield f"{path}: row {number}", record, False


def load_judgments(paths: Any, fields: JudgmentFields | None = None, *, align: str = "strict") -> Judgments:
    """Human judgments from JSONL/CSV/TSV/Parquet files (a path, a glob pattern or a list; see the module
    docstring for the fields and the rules on missing ratings and alignment)."""
    fields = fields or JudgmentFields()
    if align not in ALIGN_MODES:
        raise JudgmentsError(f"align must be one of {', '.join(map(repr, ALIGN_MODES))}, got {align!r}")
    for given in [paths] if isinstance(paths, (str, os.PathLike)) else list(paths):
        name = os.fspath(given)
        if not glob.has_magic(name) and not os.path.exists(name):   # an OSError: the command lines exit 4
            raise FileNotFoundError(errno.ENOENT, f"cannot read the judgments file {name}: No such file or directory")
    files = expand_paths(paths)
    source_name = ", ".join(files)
    cells: dict[tuple[str, str], tuple[str, list[str], dict[str, float], str | None]] = {}
    places: dict[tuple[str, str], str] = {}
    systems: list[str] = []
    segments: list[str] = []
    seen_segments: set[str] = set()
    human_names: list[str] | None = None
    unnamed: bool | None = None   # records without a system: one system named after the file
    for path in files:
        positions: dict[str, int] = {}
        for where, record, text in _records(path, fields):
            try:
                named = fields.system in record
                if unnamed is None:
                    unnamed = not named
                elif unnamed == named:
                    raise BadRecord(f"{fields.system!r} must be given in every record or in none (the file's "
                                    f"first record {'has no' if unnamed else 'has a'} system)")
                layout = fields.layout(record)
                hypothesis, references, system = layout.record(
                    _field(record, layout.hypothesis_names()), _field(record, layout.references_names()),
                    record.get(fields.system), named)
                system = cast(str, system) if named else os.path.splitext(os.path.basename(path))[0]  # named: given
            except BadRecord as exc:
                raise JudgmentsError(f"{where}: {exc}") from None
            segment_field = _find(record, fields.segment, SEGMENT_ALIASES)
            positions[system] = positions.get(system, 0) + 1
            if segment_field is None:
                segment = str(positions[system])
            elif record.get(segment_field) in (None, ""):
                raise JudgmentsError(f"{where}: no segment id in field {segment_field!r}; every record needs one "
                                     f"(name the field with segment=... / --segment-field)")
            else:
                segment = str(record[segment_field])
            names = _human_fields(record, fields, where)
            if human_names is None:
                human_names = [name for name, _ in names]
                if not human_names:
                    raise JudgmentsError(f"{where}: no human score; name its field (human=... / --human FIELD) or "
                                         f"use one of {', '.join(HUMAN_ALIASES)} or a {HUMAN_GROUP!r} object")
            given = dict(names)
            missing = [name for name in human_names if name not in given]
            if missing:
                raise JudgmentsError(f"{where}: no field for human score {missing[0]!r}, which the first record "
                                     f"has; give it in every record (null when the rating is missing)")
            ratings = {name: _rating(given[name], where, name, text) for name in human_names}
            source_field = _find(record, fields.source, SOURCE_ALIASES)
            source = record.get(source_field) if source_field else None
            key = (system, segment)
            if key in places:
                several = ("; files of different language pairs: load each on its own (command line: name "
                           "them, meta-eval en-de=ende.jsonl zh-en=zhen.jsonl)") if len(files) > 1 else ""
                raise JudgmentsError(f"{where}: system {system!r} segment {segment!r} is given twice (first at "
                                     f"{places[key]}); give each (system, segment) once{several}")
            places[key] = where
            if system not in systems:
                systems.append(system)
            if segment not in seen_segments:
                seen_segments.add(segment)
                segments.append(segment)
            cells[key] = (hypothesis, references, ratings, source if isinstance(source, str) else None)
    if not cells:
        raise JudgmentsError(f"{source_name}: no records; give one record per (system, segment)")
    kept, dropped = _aligned(systems, segments, cells, source_name, align)
    human = {name: np.array([[cells[(s, g)][2][name] for g in kept] for s in systems], dtype=np.float64)
             for name in human_names or []}
    sources = [cells[(systems[0], g)][3] for g in kept]
    return Judgments(systems, kept, {s: [cells[(s, g)][0] for g in kept] for s in systems},
                     {s: [cells[(s, g)][1] for g in kept] for s in systems}, human,
                     cast("list[str]", sources) if all(isinstance(text, str) for text in sources) else None,
                     source_name, dropped)


def _human_fields(record: dict[str, Any], fields: JudgmentFields, where: str) -> list[tuple[str, Any]]:
    """(name, raw value) of every human score of one record."""
    if fields.human is not None:
        absent = [name for name in fields.human if name not in record]
        if absent:
            shown = ", ".join(repr(name) for name in list(record)[:12])
            raise JudgmentsError(f"{where}: no field {absent[0]!r} (a human score); the record has {shown}")
        return [(name, record[name]) for name in fields.human]
    found = [(name, record[name]) for name in HUMAN_ALIASES if name in record]
    group = record.get(HUMAN_GROUP)
    if isinstance(group, dict):
        found += sorted(group.items())
    elif group is not None:
        raise JudgmentsError(f"{where}: {HUMAN_GROUP!r} must be an object of named scores, got "
                             f"{type(group).__name__}")
    return found


def _aligned(systems: list[str], segments: list[str], cells: dict[tuple[str, str], Any], source: str,
             align: str) -> tuple[list[str], int]:
    """The segments every system rates (all of them, or refused with the counts unless ``align="intersect"``)."""
    counts = {system: sum((system, segment) in cells for segment in segments) for system in systems}
    short = [system for system in systems if counts[system] < len(segments)]
    if not short:
        return segments, 0
    kept = [segment for segment in segments if all((system, segment) in cells for system in systems)]
    if align == "intersect" and kept:
        return kept, len(segments) - len(kept)
    first = short[0]
    lacking = [segment for segment in segments if (first, segment) not in cells]
    listed = ", ".join(lacking[:5]) + (f" and {len(lacking) - 5} more" if len(lacking) > 5 else "")
    others = f" ({len(short) - 1} more systems lack segments too)" if len(short) > 1 else ""
    fix = (f"keep the {len(kept)} segments every system rates with align='intersect' (--align intersect), or "
           f"add the missing records" if kept else "no segment is rated for every system")
    raise JudgmentsError(f"{source}: the systems rate different segments: {first!r} has {counts[first]} of the "
                         f"{len(segments)} segments (missing ids {listed}){others}; {fix}")


__all__ = ["ALIGN_MODES", "HUMAN_ALIASES", "JudgmentFields", "Judgments", "JudgmentsError", "SEGMENT_ALIASES",
           "SOURCE_ALIASES", "load_judgments"]
