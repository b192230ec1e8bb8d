"""Record files (JSON Lines, CSV/TSV, Parquet) cut into independent read units, each read in bounded memory into
chunks of records that carry their position in the input: the one reader of record files, behind the command
line, the single-machine stream and the Ray datasource alike.

A unit is a byte range of a JSON Lines file (cut at line starts), a whole CSV/TSV file (quoted fields may span
lines, so a CSV file cannot be cut blindly) or one row group of a Parquet file. Every record gets a position key
``(file, start, end)``: byte offsets for JSON Lines, row numbers otherwise. The spans of a file's records tile the
file exactly (blank lines belong to the next record), which is how a merge proves that no record was lost or read
twice, in whatever order and on whatever worker the units ran.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.jsonl")
>>> _ = open(path, "w").write('{"prediction": "a", "references": "a"}\\n\\n{"prediction": "b", "references": ["b"]}\\n')
>>> units = plan_units([path], unit_bytes=64)
>>> chunks = [chunk for unit in units for chunk in read_unit(unit, RecordLayout())]
>>> [(c.starts, c.ends, c.hypotheses) for c in chunks if len(c)]
[([0, 39], [39, 81], ['a', 'b'])]
"""
from __future__ import annotations

import csv
import glob
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from refscore.io.json_lines import line_too_long, read_line
from refscore.io.limits import (DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_VARIABLE,  # noqa: F401
                                check_file_size, check_total, is_regular_file, max_input_bytes, max_line_bytes)
from refscore.io.records import (BadRecord, MalformedRecordError, NotUtf8Record, RecordFormatError, RecordLayout,
                                 UndecodableRecordError)
from refscore.io.parquet import (check_value_lengths, parquet_batches, parquet_error, parquet_file,  # noqa: F401
                                 parquet_module)
from refscore.io.tables import table_rows

__all__ = [
    "Chunk", "DEFAULT_CHUNK_RECORDS", "DEFAULT_UNIT_BYTES", "JSONL_EXTENSIONS", "PARQUET_EXTENSIONS",
    "RECORD_EXTENSIONS", "SystemNames", "TABLE_EXTENSIONS", "Unit", "expand_paths", "file_extent", "input_kind",
    "is_record_file", "max_line_bytes", "parquet_error", "parquet_module", "plan_units", "read_file", "read_unit",
    "record_bytes", "record_place", "table_rows",
]

JSONL_EXTENSIONS = (".jsonl", ".ndjson")
TABLE_EXTENSIONS = (".csv", ".tsv")
PARQUET_EXTENSIONS = (".parquet", ".pq")
#: Default size of a JSON Lines read unit: large enough that a unit's overhead is negligible, small enough that
#: many units keep every worker busy.
DEFAULT_UNIT_BYTES = 32 << 20
#: Records per chunk handed on by a reader (bounds the memory of one read).
DEFAULT_CHUNK_RECORDS = 50_000
# The read budget (MAX_LINE_BYTES_VARIABLE, DEFAULT_MAX_LINE_BYTES, max_line_bytes) lives in refscore.io.limits,
# shared with every reader; imported here for the readers that import it from this module.


@dataclass(frozen=True)
class Unit:
    """One independently readable part of one input file: ``[start, stop)`` in bytes (JSON Lines), row groups
    (Parquet) or the whole file (CSV/TSV, and a JSON Lines pipe, read as a stream: ``stop`` = -1)."""

    file_index: int
    path: str
    kind: str
    start: int
    stop: int


@dataclass
class Chunk:
    """Records of one unit in input order, with their position keys; ``bad[i]`` is None for a good record and the
    error message (with file and line) for a malformed one that was skipped."""

    file_index: int
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    hypotheses: list[str] = field(default_factory=list)
    references: list[list[str]] = field(default_factory=list)
    systems: list[str | None] = field(default_factory=list)
    bad: list[str | None] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.starts)

    def add(self, start: int, end: int, record: tuple[str, list[str], str | None] | None,
            bad: str | None = None) -> None:
        hypothesis, references, system = record if record is not None else ("", [""], None)
        self.starts.append(start)
        self.ends.append(end)
        self.hypotheses.append(hypothesis)
        self.references.append(references)
        self.systems.append(system)
        self.bad.append(bad)


RECORD_EXTENSIONS = JSONL_EXTENSIONS + TABLE_EXTENSIONS + PARQUET_EXTENSIONS


def is_record_file(path: str) -> bool:
    """Whether a path names a record file (by extension: JSON Lines, CSV/TSV or Parquet).

    >>> is_record_file("runs.JSONL"), is_record_file("runs.parquet"), is_record_file("hyp.txt")
    (True, True, False)
    """
    return path.lower().endswith(RECORD_EXTENSIONS)


def input_kind(path: str) -> str:
    """``jsonl``, ``table`` or ``parquet`` by the file's extension; anything else is a clear error."""
    lower = path.lower()
    for kind, extensions in (("jsonl", JSONL_EXTENSIONS), ("table", TABLE_EXTENSIONS),
                             ("parquet", PARQUET_EXTENSIONS)):
        if lower.endswith(extensions):
            return kind
    raise RecordFormatError(f"{path}: unknown record file type; give .jsonl/.ndjson, .csv/.tsv or .parquet files")


def expand_paths(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Files and glob patterns (``data/*.jsonl``) as a list of files, patterns expanded in sorted order; the order
    of the list is the order of the input."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[str] = []
    for pattern in (os.fspath(path) for path in paths):
        if glob.has_magic(pattern):
            matches = sorted(glob.glob(pattern))
            if not matches:
                raise RecordFormatError(f"no file matches {pattern!r}")
            files += matches
        else:
            problem = _not_a_record_file(pattern)
            if problem:
                raise RecordFormatError(f"cannot read {pattern}: {problem}")
            files.append(pattern)
    if not files:
        raise RecordFormatError("no input files given")
    return files


def _not_a_record_file(path: str) -> str:
    """Why ``path`` cannot be read as a record file ("" when it can: a regular file or a pipe).

    >>> _not_a_record_file("/"), _not_a_record_file("/dev/null")
    ('a folder, not a file; give the record files in it (a pattern such as /*.jsonl)', 'not a regular file (a character device); give a record file or a pipe')
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISDIR(mode):
        return f"a folder, not a file; give the record files in it (a pattern such as {path.rstrip('/')}/*.jsonl)"
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return ""
    what = "a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode) else \
        "a socket" if stat.S_ISSOCK(mode) else "not a file"
    return f"not a regular file ({what}); give a record file or a pipe"


def plan_units(paths: Sequence[str], unit_bytes: int = DEFAULT_UNIT_BYTES) -> list[Unit]:
    """The read units of ``paths`` (already expanded), in input order; a regular file over the read budget
    (:func:`~refscore.io.limits.max_input_bytes`) is refused here, a JSON Lines pipe is one unit read as a stream."""
    units = []
    for file_index, path in enumerate(paths):
        kind = input_kind(path)
        if kind != "parquet":
            check_file_size(path)
        if kind == "jsonl" and not is_regular_file(path):   # a pipe has no size: read to its end
            units.append(Unit(file_index, path, kind, 0, -1))
        elif kind == "jsonl":
            size = os.path.getsize(path)
            starts = list(range(0, size, unit_bytes)) or [0]
            units += [Unit(file_index, path, kind, start, min(start + unit_bytes, size)) for start in starts]
        elif kind == "parquet":
            groups = parquet_file(path).metadata.num_row_groups
            units += [Unit(file_index, path, kind, group, group + 1) for group in range(max(groups, 1))]
        else:
            units.append(Unit(file_index, path, kind, 0, -1))
    return units


def file_extent(path: str) -> int | None:
    """Where the record spans of a file must end: its size (JSON Lines), its row count (Parquet), or None when
    only reading it tells (CSV/TSV, read whole by one unit)."""
    kind = input_kind(path)
    if kind == "jsonl":
        return os.path.getsize(path) if is_regular_file(path) else None
    if kind == "parquet":
        return int(parquet_file(path).metadata.num_rows)
    return None


def record_bytes(path: str) -> int:
    """The size of a record file's data: its size on disk, or for Parquet the uncompressed size of its row
    groups (what reading it into memory would take, not its compressed size)."""
    if input_kind(path) != "parquet":
        return os.path.getsize(path)
    metadata = parquet_file(path).metadata
    return sum(metadata.row_group(group).total_byte_size for group in range(metadata.num_row_groups))


def read_unit(unit: Unit, layout: RecordLayout, skip_bad_records: bool = False,
              chunk_records: int = DEFAULT_CHUNK_RECORDS) -> Iterator[Chunk]:
    """The records of one unit in chunks of at most ``chunk_records`` (the last may be empty)."""
    reader = {"jsonl": _read_jsonl, "table": _read_table, "parquet": _read_parquet}[unit.kind]
    yield from reader(unit, layout, skip_bad_records, chunk_records)


def read_file(path: str, layout: RecordLayout, skip_bad_records: bool = False,
              chunk_records: int = DEFAULT_CHUNK_RECORDS) -> Iterator[Chunk]:
    """Every record of one file in input order, chunk by chunk; a file without records is a clear error."""
    records = 0
    for unit in plan_units([path]):
        for chunk in read_unit(unit, layout, skip_bad_records, chunk_records):
            records += len(chunk)
            yield chunk
    if records == 0:
        raise RecordFormatError(f"{path}: no records; give one record (prediction and references) per segment")


class SystemNames:
    """The system of each good record of one file: the file's path, or ``path:system`` when the records name
    their system (as ``refscore score`` names them); either every record of a file names one or none does."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.first: tuple[int, int, bool] | None = None  # span of the first good record, and whether it names one

    def group(self, chunk: Chunk) -> dict[str, list[int]]:
        """Positions in ``chunk`` of its good records by system name, in input order."""
        groups: dict[str, list[int]] = {}
        for index, (system, bad) in enumerate(zip(chunk.systems, chunk.bad)):
            if bad is not None:
                continue
            named = system is not None
            if self.first is None:
                self.first = (chunk.starts[index], chunk.ends[index], named)
            elif named != self.first[2]:
                where = record_place(self.path, chunk.starts[index], chunk.ends[index])
                first = record_place(self.path, *self.first[:2])
                raise RecordFormatError(f"{self.path}: {where}: 'system' must be a non-empty string in every record "
                                        f"or absent from all ({first} {'has' if self.first[2] else 'has no'} one)")
            groups.setdefault(f"{self.path}:{system}" if named else self.path, []).append(index)
        return groups


def record_place(path: str, start: int, end: int) -> str:
    """``line N`` (JSON Lines, CSV/TSV) or ``row N`` (Parquet) of the record with position key ``(start, end)``,
    found by reading the file again: for error messages only."""
    kind = input_kind(path)
    if kind == "parquet":
        return f"row {start + 1}"
    if not is_regular_file(path):   # a pipe cannot be read again
        return f"record {start + 1}" if kind == "table" else f"bytes {start}-{end}"
    if kind == "jsonl":
        with open(path, "rb") as handle:
            handle.seek(start)
            span = handle.read(end - start)
        blank = next((i for i, line in enumerate(span.split(b"\n")) if line.strip()), 0)
        return f"line {_lines_before(path, start) + blank + 1}"
    rows = table_rows(path)
    next(rows, None)  # the header
    return next((f"line {line}" for index, (line, _) in enumerate(rows) if index == start), f"record {start + 1}")


def _fail_or_skip(chunk: Chunk, start: int, end: int, message: str, skip: bool, undecodable: bool = False) -> None:
    if not skip:
        raise (UndecodableRecordError if undecodable else MalformedRecordError)(message)
    chunk.add(start, end, None, bad=message)


def _lines_before(path: str, offset: int) -> int:
    """Line breaks in the first ``offset`` bytes of a file (only for an error message: reads that prefix)."""
    count = 0
    with open(path, "rb") as handle:
        while offset > 0:
            block = handle.read(min(offset, 1 << 20))
            if not block:
                break
            count += block.count(b"\n")
            offset -= len(block)
    return count


def _read_jsonl(unit: Unit, layout: RecordLayout, skip: bool, chunk_records: int) -> Iterator[Chunk]:
    with open(unit.path, "rb") as handle:
        position = unit.start
        if position > 0:  # a unit starts at the first line that starts inside it
            handle.seek(position - 1)
            position += len(handle.readline()) - 1
        unit_start, lines_before = position, None if position else 0
        chunk, span_start, line_offset = Chunk(unit.file_index), position, 0
        limit, budget, stream = max_line_bytes(), max_input_bytes(), unit.stop < 0
        while stream or position < unit.stop:
            line, too_long = read_line(handle, limit)
            if not line:
                break
            if too_long:
                lines_before = _lines_before(unit.path, unit_start) if lines_before is None else lines_before
                raise line_too_long(unit.path, lines_before + line_offset + 1, limit)
            position += len(line)
            if stream:   # a regular file's size was checked by plan_units
                check_total(unit.path, position, budget)
            line_offset += 1
            if not line.strip():
                continue
            if len(chunk) >= chunk_records:  # handed on only now: trailing blank lines may still extend it
                yield chunk
                chunk = Chunk(unit.file_index)
            try:
                chunk.add(span_start, position, layout.parse_json(line))
            except BadRecord as exc:
                if lines_before is None:
                    lines_before = _lines_before(unit.path, unit_start)
                _fail_or_skip(chunk, span_start, position, f"{unit.path}: line {lines_before + line_offset}: {exc}",
                              skip, isinstance(exc, NotUtf8Record))
            span_start = position
        if len(chunk):  # trailing blank lines of the unit belong to its last record
            chunk.ends[-1] = position
        yield chunk


def _read_table(unit: Unit, layout: RecordLayout, skip: bool, chunk_records: int) -> Iterator[Chunk]:
    rows = table_rows(unit.path)
    _, header = next(rows, (1, []))
    columns = layout.table_columns(header, unit.path)
    chunk, index = Chunk(unit.file_index), 0
    for line, row in rows:
        if len(chunk) >= chunk_records:
            yield chunk
            chunk = Chunk(unit.file_index)
        try:
            chunk.add(index, index + 1, layout.parse_row(row, len(header), columns))
        except BadRecord as exc:
            _fail_or_skip(chunk, index, index + 1, f"{unit.path}: line {line}: {exc}", skip)
        index += 1
    yield chunk


def _read_parquet(unit: Unit, layout: RecordLayout, skip: bool, chunk_records: int) -> Iterator[Chunk]:
    parquet = parquet_file(unit.path)
    metadata = parquet.metadata
    hypothesis, references, system = layout.parquet_columns(parquet.schema_arrow.names, unit.path)
    names = [hypothesis, *references] + ([system] if system is not None else [])
    if metadata.num_row_groups == 0:
        yield Chunk(unit.file_index)
        return
    row = sum(metadata.row_group(g).num_rows for g in range(unit.start))
    for batch in parquet_batches(parquet, unit.path, unit.start, chunk_records, names):
        check_value_lengths(batch, unit.path, row)
        columns = [batch.column(i).to_pylist() for i in range(len(names))]
        values = columns[:1 + len(references)]
        systems = columns[-1] if system is not None else [None] * batch.num_rows
        chunk = Chunk(unit.file_index)
        for index in range(batch.num_rows):
            try:
                record = layout.parse_columns([column[index] for column in values], systems[index],
                                              system is not None)
                chunk.add(row, row + 1, record)
            except BadRecord as exc:
                _fail_or_skip(chunk, row, row + 1, f"{unit.path}: row {row + 1}: {exc}", skip)
            row += 1
        yield chunk
