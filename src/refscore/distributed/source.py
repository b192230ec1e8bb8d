"""Record files cut into independent read units, each read in bounded memory into chunks of records that carry
their position in the input: the one reader behind both the Ray datasource and the single-machine stream.

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
import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from refscore.distributed.records import BadRecord, RecordFormatError, RecordLayout

JSONL_EXTENSIONS = (".jsonl", ".ndjson")
TABLE_EXTENSIONS = (".csv", ".tsv")
PARQUET_EXTENSIONS = (".parquet", ".pq")
#: Default size of a JSON Lines read unit: large enough that a unit's overhead is negligible, small enough that
#: many units keep every worker busy.
DEFAULT_UNIT_BYTES = 32 << 20
#: Records per chunk handed on by a reader (bounds the memory of one read).
DEFAULT_CHUNK_RECORDS = 50_000


@dataclass(frozen=True)
class Unit:
    """One independently readable part of one input file: ``[start, stop)`` in bytes (JSON Lines), row groups
    (Parquet) or the whole file (CSV/TSV, ``stop`` = -1)."""

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
    for pattern in map(os.fspath, paths):
        if glob.has_magic(pattern):
            matches = sorted(glob.glob(pattern))
            if not matches:
                raise RecordFormatError(f"no file matches {pattern!r}")
            files += matches
        elif not os.path.isfile(pattern):
            raise RecordFormatError(f"cannot read {pattern}: no such file")
        else:
            files.append(pattern)
    if not files:
        raise RecordFormatError("no input files given")
    return files


def plan_units(paths: Sequence[str], unit_bytes: int = DEFAULT_UNIT_BYTES) -> list[Unit]:
    """The read units of ``paths`` (already expanded), in input order."""
    units = []
    for file_index, path in enumerate(paths):
        kind = input_kind(path)
        if kind == "jsonl":
            size = os.path.getsize(path)
            starts = list(range(0, size, unit_bytes)) or [0]
            units += [Unit(file_index, path, kind, start, min(start + unit_bytes, size)) for start in starts]
        elif kind == "parquet":
            import pyarrow.parquet as pq

            groups = pq.ParquetFile(path).metadata.num_row_groups
            units += [Unit(file_index, path, kind, group, group + 1) for group in range(max(groups, 1))]
        else:
            units.append(Unit(file_index, path, kind, 0, -1))
    return units


def file_extent(path: str) -> int | None:
    """Where the record spans of a file must end: its size (JSON Lines), its row count (Parquet), or None when
    only reading it tells (CSV/TSV, read whole by one unit)."""
    kind = input_kind(path)
    if kind == "jsonl":
        return os.path.getsize(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        return int(pq.ParquetFile(path).metadata.num_rows)
    return None


def read_unit(unit: Unit, layout: RecordLayout, skip_bad_records: bool = False,
              chunk_records: int = DEFAULT_CHUNK_RECORDS) -> Iterator[Chunk]:
    """The records of one unit in chunks of at most ``chunk_records`` (the last may be empty)."""
    reader = {"jsonl": _read_jsonl, "table": _read_table, "parquet": _read_parquet}[unit.kind]
    yield from reader(unit, layout, skip_bad_records, chunk_records)


def _fail_or_skip(chunk: Chunk, start: int, end: int, message: str, skip: bool) -> None:
    if not skip:
        raise RecordFormatError(f"{message}; fix the record, or skip such records with --skip-bad-records "
                                f"(skip_bad_records=True: they are counted and reported)")
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
        while position < unit.stop:
            line = handle.readline()
            if not line:
                break
            position += len(line)
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
                              skip)
            span_start = position
        if len(chunk):  # trailing blank lines of the unit belong to its last record
            chunk.ends[-1] = position
        yield chunk


def _table_rows(handle: io.TextIOBase, path: str) -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) of each non-blank row of a CSV (quoted fields may span lines) or TSV (no quoting)."""
    tsv = path.lower().endswith(".tsv")
    reader = csv.reader(handle, delimiter="\t" if tsv else ",", strict=True,
                        quoting=csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL)
    first_line = 1
    try:
        for row in reader:
            line, first_line = first_line, reader.line_num + 1
            if row:
                yield line, row
    except csv.Error as exc:
        raise RecordFormatError(f"{path}: line {first_line}: malformed CSV ({exc}); quote a field that contains a "
                                f"comma, a quote or a line break as \"...\" with inner quotes doubled (\"\")") \
            from None
    except UnicodeDecodeError as exc:
        raise RecordFormatError(f"{path}: near line {first_line}: not valid UTF-8 ({exc.reason}); re-encode the "
                                f"file as UTF-8") from None


def _read_table(unit: Unit, layout: RecordLayout, skip: bool, chunk_records: int) -> Iterator[Chunk]:
    previous_limit = csv.field_size_limit()
    csv.field_size_limit(max(previous_limit, os.path.getsize(unit.path) + 1))
    try:
        with open(unit.path, encoding="utf-8-sig", newline="") as handle:
            rows = _table_rows(handle, unit.path)
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
    finally:
        csv.field_size_limit(previous_limit)


def _read_parquet(unit: Unit, layout: RecordLayout, skip: bool, chunk_records: int) -> Iterator[Chunk]:
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(unit.path)
    metadata = parquet.metadata
    first_row = sum(metadata.row_group(g).num_rows for g in range(unit.start))
    names = [layout.hypothesis_column, layout.references_column]
    if layout.system_column is not None and layout.system_column in parquet.schema_arrow.names:
        names.append(layout.system_column)
    missing = [name for name in names[:2] if name not in parquet.schema_arrow.names]
    if missing:
        raise RecordFormatError(f"{unit.path}: no column {missing[0]!r}; the columns are "
                                f"{parquet.schema_arrow.names} (set hypothesis_column / references_column)")
    if metadata.num_row_groups == 0:
        yield Chunk(unit.file_index)
        return
    row = first_row
    for batch in parquet.iter_batches(batch_size=chunk_records, row_groups=[unit.start], columns=names):
        columns = [batch.column(i).to_pylist() for i in range(len(names))]
        systems = columns[2] if len(names) == 3 else [None] * len(columns[0])
        chunk = Chunk(unit.file_index)
        for hypothesis, references, system in zip(columns[0], columns[1], systems):
            try:
                chunk.add(row, row + 1, layout.record(hypothesis, references, system, len(names) == 3))
            except BadRecord as exc:
                _fail_or_skip(chunk, row, row + 1, f"{unit.path}: row {row + 1}: {exc}", skip)
            row += 1
        yield chunk
