"""Reading segment files for the command line, with errors that name the file and the line."""
from __future__ import annotations

import sys
from pathlib import Path

from refscore.errors import ExitCode


class CliError(Exception):
    """An error the command line reports as one line on stderr, exiting with ``exit_code``."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def decode_lines(data: bytes, source: str) -> list[str]:
    """Split UTF-8 bytes into segments, one per line (``\\n``, ``\\r\\n``); a final newline ends the last line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise CliError(f"{source}: line {line_number} is not valid UTF-8 ({exc.reason} at byte {column} of the "
                       f"line); re-encode the file as UTF-8", ExitCode.UNDECODABLE_INPUT) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str) -> list[str]:
    """Segments of a UTF-8 text file, or of standard input for ``-``."""
    if path == "-":
        return decode_lines(sys.stdin.buffer.read(), "<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}", ExitCode.UNREADABLE_FILE) from None
    return decode_lines(data, path)


def check_same_length(named_lists: dict[str, list[str]]) -> None:
    """All inputs must have one line per segment."""
    lengths = {name: len(lines) for name, lines in named_lists.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name}: {n} lines" for name, n in lengths.items())
        raise CliError(f"inputs have different numbers of lines ({detail}); every file needs one line per segment",
                       ExitCode.LINE_COUNT_MISMATCH)


RECORD_EXTENSIONS = (".jsonl", ".csv", ".tsv")


def is_record_file(path: str) -> bool:
    """Whether an input path holds records with their own references (JSON Lines, CSV or TSV, by extension)."""
    return path.lower().endswith(RECORD_EXTENSIONS)


def read_table(path: str) -> list[dict]:
    """The rows of a CSV (``.csv``) or tab-separated (``.tsv``) file with a header line, as records
    ``{"prediction": ..., "references": [...], "system": ...}``: the ``prediction`` column, every non-empty
    column whose name starts with ``reference`` (``reference``, ``reference_2``, ``references`` ...), and an
    optional ``system`` column."""
    import csv

    lines = read_lines(path)
    reader = csv.DictReader(lines, delimiter="\t" if path.lower().endswith(".tsv") else ",")
    header = reader.fieldnames or []
    reference_columns = [name for name in header if name.strip().lower().startswith("reference")]
    if "prediction" not in header or not reference_columns:
        raise CliError(f"{path}: the header line must name a 'prediction' column and at least one 'reference...' "
                       f"column, got {header}", ExitCode.BAD_INPUT)
    records = []
    for number, row in enumerate(reader, start=2):
        if None in row:
            raise CliError(f"{path}: line {number} has more fields than the header", ExitCode.BAD_INPUT)
        record: dict = {"prediction": row["prediction"] or "",
                        "references": [row[c] for c in reference_columns if row[c]] or [""]}
        if row.get("system"):
            record["system"] = row["system"]
        records.append(record)
    return records


def read_jsonl(path: str) -> list[dict]:
    """The JSON objects of a JSON Lines file (one per non-blank line), with errors naming file and line."""
    import json

    records = []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"{path}: line {number} is not valid JSON ({exc.msg} at column {exc.colno})",
                           ExitCode.BAD_INPUT) from None
        if not isinstance(record, dict):
            raise CliError(f"{path}: line {number} is a JSON {type(record).__name__}, expected an object",
                           ExitCode.BAD_INPUT)
        records.append(record)
    return records


def read_record_systems(path: str, prediction_field: str = "prediction", references_field: str = "references",
                        system_field: str = "system") -> dict[str, tuple[list[str], list[list[str]]]]:
    """Predictions and per-segment references from a JSON Lines file of objects
    ``{"prediction": str, "references": [str, ...]}`` (a single reference string is accepted too), or from a
    CSV/TSV file (see :func:`read_table`).

    Records with a ``system`` field are grouped into one system each (named ``path:system``), in order of first
    appearance; otherwise the whole file is one system named ``path``.
    """
    systems: dict[str, tuple[list[str], list[list[str]]]] = {}
    records = read_jsonl(path) if path.lower().endswith(".jsonl") else read_table(path)
    for number, record in enumerate(records, start=1):
        prediction = record.get(prediction_field)
        references = record.get(references_field)
        if not isinstance(prediction, str):
            raise CliError(f"{path}: record {number} needs a string field {prediction_field!r}, got "
                           f"{type(prediction).__name__}", ExitCode.BAD_INPUT)
        if isinstance(references, str):
            references = [references]
        if not isinstance(references, list) or not references or not all(isinstance(r, str) for r in references):
            raise CliError(f"{path}: record {number} needs a field {references_field!r} holding a non-empty list "
                           f"of strings", ExitCode.BAD_INPUT)
        name = f"{path}:{record[system_field]}" if system_field in record else path
        predictions, reference_lists = systems.setdefault(name, ([], []))
        predictions.append(prediction)
        reference_lists.append(references)
    return systems
