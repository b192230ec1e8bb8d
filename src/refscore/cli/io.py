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
