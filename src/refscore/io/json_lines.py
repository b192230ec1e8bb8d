"""JSON Lines read one line at a time: the one loop that turns a line into a JSON value or an error naming the
source, the line and the column, within the read budget (:mod:`refscore.io.limits`: the line limit
``REFSCORE_MAX_LINE_BYTES``, the total ``REFSCORE_MAX_INPUT_BYTES``).

A line is read whole, so the limit bounds the memory of one read: a file without line breaks would otherwise be
read into memory at once. Blank lines are skipped; a UTF-8 byte-order mark at the start is dropped.

>>> import io
>>> list(json_values(io.BytesIO(b'{"a": 1}\\n\\n[2]\\n'), "items.jsonl"))
[(1, {'a': 1}), (3, [2])]
>>> try:
...     list(json_values(io.BytesIO(b'{"a": 1}\\n{"a": }\\n'), "items.jsonl", hint="one object per line"))
... except JsonLineError as error:
...     print(error)
items.jsonl: line 2: not valid JSON (Expecting value at column 7); one object per line
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import IO, Any

from refscore.io.limits import (DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_VARIABLE, LineTooLongError,  # noqa: F401
                                 check_total, line_too_long_message, max_input_bytes, max_line_bytes)
from refscore.errors import UndecodableInputError
from refscore.io.digits import digit_limit_problem
from refscore.io.records import RecordFormatError

__all__ = [
    "DEFAULT_MAX_LINE_BYTES", "JsonLineError", "JsonLineTooLongError", "MAX_LINE_BYTES_VARIABLE", "NotUtf8LineError",
    "budgeted_lines", "json_values", "line_too_long", "max_line_bytes", "read_line",
]

_BOM = b"\xef\xbb\xbf"


class JsonLineError(RecordFormatError):
    """A JSON Lines line that is too long, not UTF-8 or not JSON; the message names the source and the line."""


class JsonLineTooLongError(JsonLineError, LineTooLongError):
    """A JSON Lines line longer than the line budget (a :class:`~refscore.io.limits.LineTooLongError` too)."""


class NotUtf8LineError(JsonLineError, UndecodableInputError):
    """A JSON Lines line that is not UTF-8 (the command line exits with its own status for undecodable input)."""


def read_line(stream: IO[bytes], limit: int) -> tuple[bytes, bool]:
    """The next line of a binary stream (``b""`` at its end) and whether it is longer than ``limit`` bytes, its
    line break not counted; at most ``limit + 1`` bytes are read."""
    line = stream.readline(limit + 1)
    return line, len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n"))


def line_too_long(source: str, line_number: int, limit: int) -> JsonLineTooLongError:
    """The error for a line longer than the limit, naming the setting that raises it."""
    return JsonLineTooLongError(line_too_long_message(source, line_number, limit, "split the record"))


def budgeted_lines(stream: IO[bytes], source: str,
                   too_long: Callable[[int, int], Exception]) -> Iterator[tuple[int, bytes]]:
    """``(line number, bytes)`` of each line of ``stream`` (line break kept, a UTF-8 byte-order mark dropped), each
    within :func:`~refscore.io.limits.max_line_bytes` (else ``too_long(line number, limit)`` is raised) and all
    within :func:`~refscore.io.limits.max_input_bytes` (else :class:`~refscore.io.limits.InputTooLargeError`).

    >>> import io
    >>> list(budgeted_lines(io.BytesIO(b"\\xef\\xbb\\xbfa\\nb"), "x.txt", lambda number, limit: ValueError()))
    [(1, b'a\\n'), (2, b'b')]
    """
    limit, budget = max_line_bytes(), max_input_bytes()
    number = total = 0
    while True:
        line, over = read_line(stream, limit)
        if not line:
            return
        number += 1
        if over:
            raise too_long(number, limit)
        total += len(line)
        check_total(source, total, budget)
        yield number, line[len(_BOM):] if number == 1 and line.startswith(_BOM) else line


def json_values(stream: IO[bytes], source: str, hint: str = "") -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank line of a JSON Lines stream, read line by line within
    :func:`~refscore.io.limits.max_line_bytes`, the whole stream within :func:`~refscore.io.limits.max_input_bytes`
    (an :class:`~refscore.io.limits.InputTooLargeError` past it); a line that is not UTF-8 or not JSON is a
    :class:`JsonLineError` that names ``source``, the line and the column (byte of the line for UTF-8), followed by
    ``hint`` (what a line should hold)."""
    advice = f"; {hint}" if hint else ""
    for number, line in budgeted_lines(stream, source, lambda number, limit: line_too_long(source, number, limit)):
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NotUtf8LineError(f"{source}: line {number}: not valid UTF-8 ({exc.reason} at byte {exc.start} of "
                                f"the line); re-encode the file as UTF-8") from None
        try:
            value = json.loads(text.rstrip(" \t\r\n"))   # JSON's whitespace: columns count on this line
        except json.JSONDecodeError as exc:
            raise JsonLineError(f"{source}: line {number}: not valid JSON ({exc.msg} at column {exc.colno})"
                                f"{advice}") from None
        except RecursionError:
            raise JsonLineError(f"{source}: line {number}: JSON arrays or objects nested too deeply{advice}") \
                from None
        except ValueError as exc:   # Python's digit limit on integers (4,300 digits)
            problem = digit_limit_problem(exc, text)
            if problem is None:
                raise
            raise JsonLineError(f"{source}: line {number}: {problem[1]}") from None
        yield number, value
