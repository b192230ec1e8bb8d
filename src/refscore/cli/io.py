"""Reading segment files for the command line, with errors that name the file and the line.

Plain-text files hold one segment per line; like sacreBLEU's command line, trailing whitespace is removed from
every line (``line.rstrip()``). Record files carry their own references: JSON Lines (``.jsonl``, one object per
line), CSV / TSV (``.csv``: RFC 4180 quoting, fields may span lines; ``.tsv``: no quoting, fields hold no tab
or line break) with a header line, and Parquet; :mod:`refscore.io.record_files` reads them all.
"""
from __future__ import annotations

import errno
import os
import sys

from refscore.inputs import from_streams, per_segment
from refscore.io.record_files import SystemNames, is_record_file, read_file
from refscore.io.records import MalformedRecordError, RecordLayout
from refscore.wording import counted
from refscore.cli.exit_codes import CliError, ExitCode, input_error_code  # CliError: also imported from here
from refscore.errors import InputError, UndecodableInputError
from refscore.io.text_files import decode_utf8
from refscore.io.limits import (InputTooLargeError, check_line_lengths, is_regular_file, read_file_within_budget,
                                read_within_budget)


STDIN = "-"


def source_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 bytes as text (a leading byte-order mark removed); an error names the line that does not decode
    (exit code ``UNDECODABLE_INPUT``)."""
    try:
        return decode_utf8(data, source)
    except UndecodableInputError as exc:
        raise CliError(str(exc), ExitCode.UNDECODABLE_INPUT) from None


def decode_lines(data: bytes, source: str) -> list[str]:
    """Split UTF-8 bytes into segments, one per line (``\\n``, ``\\r\\n``; a final newline ends the last line),
    each with its trailing whitespace removed as sacreBLEU's command line does; a line longer than the line budget
    (``REFSCORE_MAX_LINE_BYTES``) is an error naming it (exit 7)."""
    try:
        check_line_lengths(data, source)
    except InputTooLargeError as exc:
        raise CliError(str(exc), ExitCode.BAD_INPUT) from None
    lines = decode_text(data, source).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def unreadable(path: str, exc: OSError, argument: str | None = None) -> CliError:
    """The error for an input file that cannot be read, naming the file and the argument that gave it, with the
    system's reason and without Python's ``[Errno N]`` prefix (exit status 4).

    >>> print(unreadable("hyp.txt", FileNotFoundError(2, "No such file or directory"), "-i"))
    cannot read hyp.txt (-i): No such file or directory
    """
    given = f" ({argument})" if argument else ""
    return CliError(f"cannot read {path}{given}: {exc.strerror or exc}", ExitCode.UNREADABLE_FILE)


def os_error_text(exc: OSError) -> str:
    """An ``OSError`` as one line without Python's ``[Errno N]`` prefix (``str(exc)`` has it).

    >>> os_error_text(OSError(2, "cannot read the cases file c.jsonl: No such file or directory"))
    'cannot read the cases file c.jsonl: No such file or directory'
    >>> os_error_text(FileNotFoundError(2, "No such file or directory", "c.jsonl"))
    'cannot read c.jsonl: No such file or directory'
    """
    if exc.strerror is None:
        return str(exc)
    return exc.strerror if exc.filename is None else f"cannot read {exc.filename}: {exc.strerror}"


def check_readable(path: str, argument: str | None = None) -> None:
    """An input file must exist and be readable: checked before a run that reads it later (streamed inputs). A pipe
    is not opened (that would wait for its writer, and closing it would end the writer's data)."""
    try:
        if os.path.exists(path) and not is_regular_file(path) and not os.path.isdir(path):
            if not os.access(path, os.R_OK):
                raise PermissionError(errno.EACCES, "Permission denied", path)
            return
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise unreadable(path, exc, argument) from None


def read_bytes(path: str, argument: str | None = None) -> bytes:
    """The bytes of a file, or of standard input for ``-``; ``argument`` (``-i``, ``-r``) names the flag that gave
    the file in an error."""
    if path == STDIN:
        return read_standard_input()
    try:
        return read_file_within_budget(path)
    except OSError as exc:
        raise unreadable(path, exc, argument) from None
    except InputTooLargeError as exc:
        raise CliError(str(exc), ExitCode.BAD_INPUT) from None


def read_standard_input() -> bytes:
    """The bytes of standard input; a clear error when it is closed (``<&-``: ``sys.stdin`` is None) or
    unreadable, instead of Python's ``AttributeError``."""
    stream = sys.stdin
    fix = "give the input as a file (-i FILE, -r FILE) or pipe it in (... | refscore ...)"
    if stream is None:
        raise CliError(f"standard input is closed; {fix}", ExitCode.UNREADABLE_FILE)
    try:
        return read_within_budget(stream.buffer, "<stdin>")
    except InputTooLargeError as exc:
        raise CliError(str(exc), ExitCode.BAD_INPUT) from None
    except (OSError, ValueError, AttributeError) as exc:  # closed descriptor or file object
        raise CliError(f"cannot read standard input ({exc}); {fix}", ExitCode.UNREADABLE_FILE) from None


def read_lines(path: str, argument: str | None = None) -> list[str]:
    """Segments of a UTF-8 text file, or of standard input for ``-`` (``argument``: see :func:`read_bytes`)."""
    return decode_lines(read_bytes(path, argument), source_name(path))


def check_stdin_once(paths: list[str]) -> None:
    """Standard input (``-``) can be read once."""
    if paths.count(STDIN) > 1:
        raise CliError("standard input (-) can be given only once; save the other input to a file",
                       ExitCode.USAGE)


def check_distinct_systems(paths: list[str]) -> None:
    """A system file named twice would be two systems of the same name (sacreBLEU refuses it too)."""
    repeated = sorted({path for path in paths if paths.count(path) > 1})
    if repeated:
        raise CliError(f"{'system files' if len(repeated) > 1 else 'system file'} given more than once: "
                       f"{', '.join(repeated)}; give each system once",
                       ExitCode.USAGE)


def check_same_length(named_lists: list[tuple[str, list[str]]]) -> None:
    """All inputs must have one line per segment, and at least one segment."""
    lengths = [(source_name(name), len(lines)) for name, lines in named_lists]
    if len({n for _, n in lengths}) > 1:
        detail = ", ".join(f"{name}: {counted(n, 'line')}" for name, n in lengths)
        raise CliError(f"inputs have different numbers of lines ({detail}); every file needs one line per segment",
                       ExitCode.LINE_COUNT_MISMATCH)
    if lengths and lengths[0][1] == 0:
        names = ", ".join(name for name, _ in lengths)
        raise CliError(f"the inputs are empty ({names}: 0 lines); give at least one segment", ExitCode.BAD_INPUT)


def read_record_systems(path: str, skippable: bool = True) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Predictions and per-segment references of a record file: JSON Lines objects
    ``{"prediction": str, "references": [str, ...]}`` (a single reference string is accepted too), CSV/TSV rows
    with a header line (a ``prediction`` column and ``reference...`` columns) or Parquet rows (read row group by
    row group), all read by :mod:`refscore.io.record_files`.

    Records with a ``system`` field are grouped into one system each (named ``path:system``), in order of first
    appearance; otherwise the whole file is one system named ``path``. Either every record names its system or
    none does. A malformed record stops the read; only where ``skippable`` (a command with ``--skip-bad-records``)
    does the error suggest skipping such records.
    """
    systems: dict[str, tuple[list[str], list[list[str]]]] = {}
    names = SystemNames(path)
    check_readable(path, "-i")
    try:
        for chunk in read_file(path, RecordLayout()):
            for name, indices in names.group(chunk).items():
                predictions, reference_lists = systems.setdefault(name, ([], per_segment([])))
                predictions += [chunk.hypotheses[i] for i in indices]
                reference_lists += [chunk.references[i] for i in indices]
    except MalformedRecordError as error:
        raise CliError(str(error) if skippable else f"{error.problem}; fix the record",
                       input_error_code(error)) from None
    except InputError as error:
        raise CliError(str(error), input_error_code(error)) from None
    except OSError as exc:
        raise unreadable(path, exc, "-i") from None
    return systems


def read_text_inputs(reference_paths: list[str], system_paths: list[str]) -> tuple[dict[str, list[str]],
                                                                                   list[list[str]]]:
    """Plain-text systems (by name) and their per-segment references, every file with one line per segment."""
    reference_files = [(path, read_lines(path, "-r")) for path in reference_paths]
    system_files = [(path, read_lines(path, "-i")) for path in system_paths]
    check_same_length(reference_files + system_files)
    return ({source_name(path): lines for path, lines in system_files},
            from_streams([lines for _, lines in reference_files]))


def read_record_inputs(paths: list[str], reference_paths: list[str], skippable: bool = True
                       ) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The systems of JSON Lines / CSV / TSV / Parquet inputs (see :func:`read_record_systems`), which carry their own
    references, so every input must be such a file and no reference file may be given."""
    if not all(is_record_file(path) for path in paths) or reference_paths:
        raise CliError("JSONL/CSV/TSV/Parquet inputs carry their own references: give only such files to -i and no -r",
                       ExitCode.USAGE)
    return {name: system for path in paths for name, system in read_record_systems(path, skippable).items()}
