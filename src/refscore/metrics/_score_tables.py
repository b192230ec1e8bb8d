"""Per-segment scores computed elsewhere (COMET, MetricX, human ratings), read into one table keyed by
``(system, id)``: from a TSV, CSV or JSON Lines file, from an array (one system, ids ``1..n``) or from a dict
system -> array.

A file has the columns ``system``, ``id`` and ``score`` (any order; other columns are ignored). ``id`` is optional:
without it a row's id is its 1-based number among its system's rows (in a one-system file: its line number, the
header not counted). ``system`` is optional too: a file without it holds the scores of one unnamed system. Every
score must be a finite number (inside ``range`` when one is given); a key given twice is an error that names it.

>>> table = score_table([0.5, 0.25])
>>> table.rows[None], table.systems
({'1': 0.5, '2': 0.25}, [None])
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.io.json_lines import json_values
from refscore.io.record_files import table_rows
from refscore.wording import counted
from refscore.errors import InputError, InputTypeError

#: The file formats, by extension.
FORMATS = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
#: Keys named in an error message before the rest are counted.
LISTED_KEYS = 5


@dataclass(frozen=True)
class ScoreTable:
    """Scores by system (``None``: the scores carry no system name) and segment id (a string), in file order;
    ``source`` is the file path or ``"array"``; ``digest`` a hash of the content (part of the metric's config, so
    statistics of different score files never merge)."""

    source: str
    rows: dict[str | None, dict[str, float]]
    digest: str
    #: Where each score was read ("comet.jsonl: line 4", "scores[3]"), by system and id as in ``rows``.
    where: dict[str | None, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def systems(self) -> list[str | None]:
        return list(self.rows)


def listed_keys(keys: Sequence[tuple[str | None, str]]) -> str:
    """The first few ``(system, id)`` keys of an error message, and how many more.

    >>> listed_keys([("a", "1"), ("a", "2")])
    "('a', '1'), ('a', '2')"
    """
    shown = ", ".join(repr(key) for key in keys[:LISTED_KEYS])
    return shown + (f" and {len(keys) - LISTED_KEYS} more" if len(keys) > LISTED_KEYS else "")


class _Builder:
    """Collects rows, refusing a non-finite or out-of-range score and a repeated key."""

    def __init__(self, source: str, score_range: tuple[float, float] | None) -> None:
        self.source, self.range = source, score_range
        self.rows: dict[str | None, dict[str, float]] = {}
        self.where: dict[str | None, dict[str, str]] = {}
        self.duplicates: list[tuple[str | None, str]] = []

    def add(self, system: str | None, segment_id: str | None, value: float, where: str) -> None:
        if not math.isfinite(value):
            raise InputError(f"{where}: score is {value!r}; every score must be a finite number (drop the segment "
                             f"from the inputs, or give it a score)")
        if self.range is not None and not self.range[0] <= value <= self.range[1]:
            raise InputError(f"{where}: score {value!r} is outside range={self.range}; fix the score or the range")
        scores = self.rows.setdefault(system, {})
        key = (system, str(len(scores) + 1) if segment_id is None else segment_id)
        if key[1] in scores:
            self.duplicates.append(key)
            return
        scores[key[1]] = value
        self.where.setdefault(system, {})[key[1]] = where

    def table(self) -> ScoreTable:
        if self.duplicates:
            system, segment_id = self.duplicates[0]
            first = self.where[system][segment_id]
            raise InputError(f"{self.source}: {counted(len(self.duplicates), '(system, id) key')} given twice: "
                             f"{listed_keys(self.duplicates)} (first given at {first}); give each segment one score")
        if not self.rows:
            raise InputError(f"{self.source}: no scores; give at least one row with a score")
        payload = json.dumps([[system, list(scores.items())] for system, scores in self.rows.items()])
        return ScoreTable(self.source, self.rows, hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16],
                          self.where)


def _number(text: Any, where: str) -> float:
    if isinstance(text, bool) or not isinstance(text, (int, float, str)):
        raise InputError(f"{where}: score {text!r} is not a number; write the score as a number such as 0.8312")
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{where}: score {text!r} is not a number; write the score as a number such as "
                         f"0.8312") from None


def _key_text(value: Any, where: str, column: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{where}: {column} {value!r} must be a string or an integer")
    return str(value)


def _read_table_file(path: str, builder: _Builder) -> None:
    rows = table_rows(path)
    header_line, header = next(rows, (1, []))
    columns = {name.strip().lower(): index for index, name in enumerate(header)}
    if "score" not in columns:
        raise InputError(f"{path}: line {header_line}: the header has no 'score' column (it has "
                         f"{[name for name in header]}); name the columns system, id, score")
    for line, fields in rows:
        def field(name: str) -> str | None:
            index = columns.get(name)
            if index is None:
                return None
            if index >= len(fields):
                raise InputError(f"{path}: line {line}: no '{name}' field ({len(fields)} fields, the header has "
                                 f"{len(header)})")
            return fields[index]
        where = f"{path}: line {line}"
        builder.add(field("system"), field("id"), _number(field("score"), f"{where}, column 'score'"), where)


def _read_jsonl_file(path: str, builder: _Builder) -> None:
    with open(path, "rb") as handle:
        for line, record in json_values(handle, path, hint="write one object per line"):
            where = f"{path}: line {line}"
            if not isinstance(record, dict) or "score" not in record:
                raise InputError(f"{where}: a scores record is an object with a 'score' field (and 'system', "
                                 f"'id'), got {json.dumps(record, ensure_ascii=False)[:60]!r}")
            system = _key_text(record["system"], where, "system") if "system" in record else None
            segment_id = _key_text(record["id"], where, "id") if "id" in record else None
            builder.add(system, segment_id, _number(record["score"], f"{where}, field 'score'"), where)


def read_score_file(path: str | os.PathLike[str], score_range: tuple[float, float] | None = None) -> ScoreTable:
    """The scores of a TSV, CSV or JSON Lines file (see the module's rules)."""
    path = os.fspath(path)
    kind = FORMATS.get(os.path.splitext(path)[1].lower())
    if kind is None:
        raise InputError(f"scores file {path!r}: unknown format; name it .tsv, .csv or .jsonl")
    if not os.path.isfile(path):
        raise InputError(f"scores file {path!r} does not exist; give the path of a .tsv, .csv or .jsonl file")
    builder = _Builder(path, score_range)
    (_read_jsonl_file if kind == "jsonl" else _read_table_file)(path, builder)
    return builder.table()


def _array_rows(system: str | None, values: Any, builder: _Builder, label: str) -> None:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InputTypeError(f"{label} must be a list or 1-D array of numbers, got {type(values).__name__}")
    array = np.asarray(values)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iuf"):
        raise InputTypeError(f"{label} must be a 1-D array of numbers, got shape {array.shape} of {array.dtype}")
    for index, value in enumerate(array.tolist()):
        builder.add(system, None, float(value), f"{label}[{index}]")


def score_table(scores: Any, score_range: tuple[float, float] | None = None) -> ScoreTable:
    """A :class:`ScoreTable` from a file path, an array (one unnamed system, ids ``1..n``) or a dict system ->
    array."""
    if isinstance(scores, (str, os.PathLike)):
        return read_score_file(scores, score_range)
    builder = _Builder("array", score_range)
    if isinstance(scores, Mapping):
        for system, values in scores.items():
            if not isinstance(system, str) or not system:
                raise InputTypeError(f"scores: system names must be non-empty strings, got {system!r}")
            _array_rows(system, values, builder, f"scores[{system!r}]")
    else:
        _array_rows(None, scores, builder, "scores")
    return builder.table()
