"""Reading segment files for the command line, with errors that name the file and the line.

Plain-text files hold one segment per line; like sacreBLEU's command line, trailing whitespace is removed from
every line (``line.rstrip()``). Record files carry their own references: JSON Lines (``.jsonl``, one object per
line) and CSV / TSV (``.csv``: RFC 4180 quoting, fields may span lines; ``.tsv``: no quoting, fields hold no tab
or line break) with a header line.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refscore._inputs import from_streams, per_segment
from refscore.cli.exit_codes import ExitCode


class CliError(Exception):
    """An error the command line reports as one line on stderr, exiting with ``exit_code``."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


STDIN = "-"


def source_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 bytes as text (a leading byte-order mark removed); an error names the line that does not decode."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise CliError(f"{source}: line {line_number} is not valid UTF-8 ({exc.reason} at byte {column} of the "
                       f"line); re-encode the file as UTF-8", ExitCode.UNDECODABLE_INPUT) from None
    return text[1:] if text.startswith("\ufeff") else text


def decode_lines(data: bytes, source: str) -> list[str]:
    """Split UTF-8 bytes into segments, one per line (``\\n``, ``\\r\\n``; a final newline ends the last line),
    each with its trailing whitespace removed as sacreBLEU's command line does."""
    lines = decode_text(data, source).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_bytes(path: str) -> bytes:
    """The bytes of a file, or of standard input for ``-``."""
    if path == STDIN:
        return read_standard_input()
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}", ExitCode.UNREADABLE_FILE) from None


def read_standard_input() -> bytes:
    """The bytes of standard input; a clear error when it is closed (``<&-``: ``sys.stdin`` is None) or
    unreadable, instead of Python's ``AttributeError``."""
    stream = sys.stdin
    fix = "give the input as a file (-i FILE, -r FILE) or pipe it in (... | refscore ...)"
    if stream is None:
        raise CliError(f"standard input is closed; {fix}", ExitCode.UNREADABLE_FILE)
    try:
        return stream.buffer.read()
    except (OSError, ValueError, AttributeError) as exc:  # closed descriptor or file object
        raise CliError(f"cannot read standard input ({exc}); {fix}", ExitCode.UNREADABLE_FILE) from None


def read_lines(path: str) -> list[str]:
    """Segments of a UTF-8 text file, or of standard input for ``-``."""
    return decode_lines(read_bytes(path), source_name(path))


def check_stdin_once(paths: list[str]) -> None:
    """Standard input (``-``) can be read once."""
    if paths.count(STDIN) > 1:
        raise CliError("standard input (-) can be given only once; save the other input to a file",
                       ExitCode.USAGE)


def check_distinct_systems(paths: list[str]) -> None:
    """A system file named twice would be two systems of the same name (sacreBLEU refuses it too)."""
    repeated = sorted({path for path in paths if paths.count(path) > 1})
    if repeated:
        raise CliError(f"system file(s) given more than once: {', '.join(repeated)}; give each system once",
                       ExitCode.USAGE)


def check_same_length(named_lists: list[tuple[str, list[str]]]) -> None:
    """All inputs must have one line per segment, and at least one segment."""
    lengths = [(source_name(name), len(lines)) for name, lines in named_lists]
    if len({n for _, n in lengths}) > 1:
        detail = ", ".join(f"{name}: {n} lines" for name, n in lengths)
        raise CliError(f"inputs have different numbers of lines ({detail}); every file needs one line per segment",
                       ExitCode.LINE_COUNT_MISMATCH)
    if lengths and lengths[0][1] == 0:
        names = ", ".join(name for name, _ in lengths)
        raise CliError(f"the inputs are empty ({names}: 0 lines); give at least one segment", ExitCode.BAD_INPUT)


RECORD_EXTENSIONS = (".jsonl", ".csv", ".tsv")


def is_record_file(path: str) -> bool:
    """Whether an input path holds records with their own references (JSON Lines, CSV or TSV, by extension)."""
    return path.lower().endswith(RECORD_EXTENSIONS)


@dataclass
class Record:
    """One record of a JSONL/CSV/TSV file: its first line, prediction, references and optional system name."""

    line: int
    prediction: Any
    references: Any
    system: Any = None
    has_system: bool = False


def _csv_rows(text: str, path: str) -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) of each non-blank row of a CSV (quoted fields may span lines) or TSV (no quoting)."""
    tsv = path.lower().endswith(".tsv")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if tsv else ",", strict=True,
                        quoting=csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL)
    previous_limit = csv.field_size_limit()
    csv.field_size_limit(max(previous_limit, len(text) + 1))
    first_line = 1
    try:
        for row in reader:
            line, first_line = first_line, reader.line_num + 1
            if row:
                yield line, row
    except csv.Error as exc:
        raise CliError(f"{path}: line {first_line}: malformed CSV ({exc}); quote a field that contains a comma, a "
                       f"quote or a line break as \"...\" with inner quotes doubled (\"\")",
                       ExitCode.BAD_INPUT) from None
    finally:
        csv.field_size_limit(previous_limit)


def read_table(path: str) -> list[Record]:
    """The rows of a CSV (``.csv``) or tab-separated (``.tsv``) file with a header line: the ``prediction``
    column, every non-empty column whose name starts with ``reference`` (``reference``, ``reference_2``,
    ``references`` ...) and an optional ``system`` column (column names are case-insensitive)."""
    rows = _csv_rows(decode_text(read_bytes(path), path), path)
    _, header = next(rows, (1, []))
    names = [name.strip().lower() for name in header]
    reference_columns = [i for i, name in enumerate(names) if name.startswith("reference")]
    if names.count("prediction") != 1 or not reference_columns or names.count("system") > 1:
        raise CliError(f"{path}: the header line must name one 'prediction' column, at least one 'reference...' "
                       f"column and at most one 'system' column, got {header}", ExitCode.BAD_INPUT)
    prediction = names.index("prediction")
    system = names.index("system") if "system" in names else None
    records = []
    for line, row in rows:
        if len(row) != len(header):
            raise CliError(f"{path}: line {line} has {len(row)} field(s) but the header has {len(header)}; every "
                           f"row needs one field per column (an empty reference is an empty field)",
                           ExitCode.BAD_INPUT)
        records.append(Record(line, row[prediction], [row[i] for i in reference_columns if row[i]] or [""],
                              row[system] if system is not None else None, system is not None))
    return records


def read_jsonl(path: str) -> list[Record]:
    """The JSON objects of a JSON Lines file (one per non-blank line), with errors naming file and line."""
    records = []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"{path}: line {number} is not valid JSON ({exc.msg} at column {exc.colno})",
                           ExitCode.BAD_INPUT) from None
        except RecursionError:
            raise CliError(f"{path}: line {number} nests JSON arrays or objects too deeply", ExitCode.BAD_INPUT) \
                from None
        if not isinstance(record, dict):
            raise CliError(f"{path}: line {number} is a JSON {type(record).__name__}, expected an object",
                           ExitCode.BAD_INPUT)
        records.append(Record(number, record.get("prediction", _MISSING), record.get("references", _MISSING),
                              record.get("system"), "system" in record))
    return records


_MISSING = object()


def _json_type(value: Any) -> str:
    return "missing" if value is _MISSING else "null" if value is None else f"a {type(value).__name__}"


def _checked_references(record: Record, path: str) -> list[str]:
    references = record.references
    if isinstance(references, str):
        return [references]
    if not isinstance(references, list) or not references:
        raise CliError(f"{path}: line {record.line}: 'references' must be a string or a non-empty list of strings, "
                       f"got {_json_type(references) if references != [] else 'an empty list'}", ExitCode.BAD_INPUT)
    for index, reference in enumerate(references):
        if not isinstance(reference, str):
            hint = "; use \"\" for an empty reference" if reference is None else ""
            raise CliError(f"{path}: line {record.line}: references[{index}] is {_json_type(reference)}, expected a "
                           f"string{hint}", ExitCode.BAD_INPUT)
    return references


def read_record_systems(path: str) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Predictions and per-segment references from a JSON Lines file of objects
    ``{"prediction": str, "references": [str, ...]}`` (a single reference string is accepted too), or from a
    CSV/TSV file (see :func:`read_table`).

    Records with a ``system`` field are grouped into one system each (named ``path:system``), in order of first
    appearance; otherwise the whole file is one system named ``path``. Either every record names its system or
    none does.
    """
    records = read_jsonl(path) if path.lower().endswith(".jsonl") else read_table(path)
    if not records:
        raise CliError(f"{path}: no records; give one record (prediction and references) per segment",
                       ExitCode.BAD_INPUT)
    named = records[0].has_system
    systems: dict[str, tuple[list[str], list[list[str]]]] = {}
    for record in records:
        if not isinstance(record.prediction, str):
            hint = "; use \"\" for an empty prediction" if record.prediction is None else ""
            raise CliError(f"{path}: line {record.line}: 'prediction' must be a string, got "
                           f"{_json_type(record.prediction)}{hint}", ExitCode.BAD_INPUT)
        references = _checked_references(record, path)
        if record.has_system != named or (named and (not isinstance(record.system, str) or not record.system)):
            raise CliError(f"{path}: line {record.line}: 'system' must be a non-empty string in every record or "
                           f"absent from all (line {records[0].line} {'has' if named else 'has no'} one)",
                           ExitCode.BAD_INPUT)
        name = f"{path}:{record.system}" if named else path
        predictions, reference_lists = systems.setdefault(name, ([], per_segment([])))
        predictions.append(record.prediction)
        reference_lists.append(references)
    return systems


def read_text_inputs(reference_paths: list[str], system_paths: list[str]) -> tuple[dict[str, list[str]],
                                                                                   list[list[str]]]:
    """Plain-text systems (by name) and their per-segment references, every file with one line per segment."""
    reference_files = [(path, read_lines(path)) for path in reference_paths]
    system_files = [(path, read_lines(path)) for path in system_paths]
    check_same_length(reference_files + system_files)
    return ({source_name(path): lines for path, lines in system_files},
            from_streams([lines for _, lines in reference_files]))


def read_record_inputs(paths: list[str], reference_paths: list[str]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The systems of JSON Lines / CSV / TSV inputs (see :func:`read_record_systems`), which carry their own
    references, so every input must be such a file and no reference file may be given."""
    if not all(is_record_file(path) for path in paths) or reference_paths:
        raise CliError("JSONL/CSV/TSV inputs carry their own references: give only such files to -i and no -r",
                       ExitCode.USAGE)
    return {name: system for path in paths for name, system in read_record_systems(path).items()}
