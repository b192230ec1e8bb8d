"""The read budget of every reader, one variable each: the most bytes one input may hold
(``REFSCORE_MAX_INPUT_BYTES``, default 4 GiB) and the longest line a line reader takes (``REFSCORE_MAX_LINE_BYTES``,
default 256 MiB: JSON Lines, CSV/TSV, plain text, case files; each text value of a Parquet file). Both are checked
while reading, so that ``/dev/zero``, an endless pipe or a huge sparse file stops with an error naming the file,
the budget and its variable instead of growing memory; a regular file over the budget is refused before it is read.

>>> import io
>>> read_within_budget(io.BytesIO(b"a cat\\n"), "hyp.txt")
b'a cat\\n'
>>> try:
...     read_within_budget(io.BytesIO(b"x" * 10), "hyp.txt", limit=4)
... except InputTooLargeError as error:
...     print(error)
hyp.txt: more than 4 bytes, the most one input may hold; give a smaller file, or raise the budget with REFSCORE_MAX_INPUT_BYTES=<bytes>
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from collections.abc import Callable
from typing import IO, Any

from refscore.errors import InputError
from refscore.io.digits import digit_limit_problem
from refscore.io.records import RecordFormatError

__all__ = ["DEFAULT_MAX_INPUT_BYTES", "DEFAULT_MAX_LINE_BYTES", "InputTooLargeError", "LineTooLongError",
           "MAX_INPUT_BYTES_VARIABLE", "MAX_LINE_BYTES_VARIABLE", "NestedTooDeeplyError", "check_file_size",
           "check_line_lengths", "check_total", "input_too_large", "is_regular_file", "line_too_long_message",
           "max_input_bytes", "max_line_bytes", "parse_bounded", "positive_int_variable", "read_file_within_budget",
           "read_text_within_budget", "read_within_budget"]

#: The environment variable that sets the most bytes one input file (or standard input) may hold.
MAX_INPUT_BYTES_VARIABLE = "REFSCORE_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 4 << 30
#: The environment variable that sets the longest line read (bytes, its line break not counted).
MAX_LINE_BYTES_VARIABLE = "REFSCORE_MAX_LINE_BYTES"
DEFAULT_MAX_LINE_BYTES = 256 << 20
_CHUNK = 1 << 20


class InputTooLargeError(InputError):
    """An input longer than the read budget; the message names the source, the budget and its variable."""


class LineTooLongError(InputTooLargeError):
    """A line of a text or case file longer than the line budget; the message names the source and the line."""


def positive_int_variable(name: str, default: int, what: str, error_class: type[Exception] = InputError) -> int:
    """The positive integer in the environment variable ``name``, or ``default`` when it is unset or empty; any
    other value is an ``error_class`` naming the variable, its value and ``what`` it gives.

    >>> positive_int_variable("REFSCORE_DOCTEST_UNSET", 7, "the most bytes one input may hold")
    7
    >>> os.environ["REFSCORE_DOCTEST_LIMIT"] = "-3"
    >>> try:
    ...     positive_int_variable("REFSCORE_DOCTEST_LIMIT", 7, "the most bytes one input may hold")
    ... except InputError as error:
    ...     print(error)
    REFSCORE_DOCTEST_LIMIT='-3': give the most bytes one input may hold, a positive integer
    >>> del os.environ["REFSCORE_DOCTEST_LIMIT"]
    """
    value = os.environ.get(name, "")
    if not value:
        return default
    # isdigit() first: int() of a 5,000-digit value would raise Python's own digit-limit ValueError
    if not value.isascii() or not value.isdigit() or len(value) > 30 or int(value) < 1:
        raise error_class(f"{name}={value!r}: give {what}, a positive integer")
    return int(value)


def max_input_bytes() -> int:
    """The most bytes one input may hold: ``$REFSCORE_MAX_INPUT_BYTES`` or 4 GiB."""
    return positive_int_variable(MAX_INPUT_BYTES_VARIABLE, DEFAULT_MAX_INPUT_BYTES,
                                 "the most bytes one input may hold")


def max_line_bytes() -> int:
    """The longest line read: ``$REFSCORE_MAX_LINE_BYTES`` or 256 MiB (a bad value is a ``RecordFormatError``)."""
    return positive_int_variable(MAX_LINE_BYTES_VARIABLE, DEFAULT_MAX_LINE_BYTES, "the longest line in bytes",
                                 RecordFormatError)


def input_too_large(source: str, limit: int) -> InputTooLargeError:
    """The error for an input of more than ``limit`` bytes, naming ``source`` and the variable that raises it."""
    return InputTooLargeError(f"{source}: more than {limit} bytes, the most one input may hold; give a smaller "
                              f"file, or raise the budget with {MAX_INPUT_BYTES_VARIABLE}=<bytes>")


def line_too_long_message(source: str, line_number: int, limit: int, fix: str = "split the line") -> str:
    """The message for a line longer than ``limit`` bytes, naming the line and the variable that raises it.

    >>> line_too_long_message("hyp.txt", 3, 8)
    'hyp.txt: line 3 is longer than 8 bytes, the longest line read; split the line, or raise the limit with REFSCORE_MAX_LINE_BYTES=<bytes>'
    """
    return (f"{source}: line {line_number} is longer than {limit} bytes, the longest line read; {fix}, or raise the "
            f"limit with {MAX_LINE_BYTES_VARIABLE}=<bytes>")


def check_total(source: str, size: int, limit: int | None = None) -> None:
    """``size`` bytes read so far from ``source`` must be within the budget (``limit``, default
    :func:`max_input_bytes`): readers that stream call it as they go."""
    limit = max_input_bytes() if limit is None else limit
    if size > limit:
        raise input_too_large(source, limit)


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file (not a pipe, a device or a folder); False when it cannot be examined."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_file_size(path: str | os.PathLike[str], size: int | None = None) -> None:
    """A regular file over the budget is refused before it is read (a 2 GB sparse file at once); ``size``, when
    given, is what reading it takes (a Parquet file's uncompressed row groups). Pipes and devices are checked as
    they are read."""
    if size is None:
        if not is_regular_file(path):
            return
        size = os.path.getsize(path)
    check_total(os.fspath(path), size)


def check_line_lengths(data: bytes, source: str, limit: int | None = None) -> None:
    """Every line of ``data`` (split at ``\\n``, the break not counted) must be within the line budget (``limit``,
    default :func:`max_line_bytes`); else a :class:`LineTooLongError` naming the first longer line. Data no longer
    than the limit is not scanned.

    >>> check_line_lengths(b"a cat\\nthe dog\\n", "hyp.txt", limit=7)
    >>> try:
    ...     check_line_lengths(b"a cat\\nthe dogs\\n", "hyp.txt", limit=7)
    ... except LineTooLongError as error:
    ...     print(str(error)[:39])
    hyp.txt: line 2 is longer than 7 bytes,
    """
    limit = max_line_bytes() if limit is None else limit
    if len(data) <= limit:
        return
    import numpy as np   # only for large inputs: the positions of the line breaks, without a copy per line

    breaks = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    ends = np.append(breaks, len(data))
    lengths = np.diff(ends, prepend=-1) - 1
    long = np.flatnonzero(lengths > limit)
    if long.size:
        raise LineTooLongError(line_too_long_message(source, int(long[0]) + 1, limit))


def read_within_budget(stream: IO[bytes], source: str, limit: int | None = None) -> bytes:
    """All bytes of a binary stream, read in chunks; past ``limit`` (default :func:`max_input_bytes`) bytes an
    :class:`InputTooLargeError` naming ``source``, after reading at most ``limit + 1`` bytes."""
    limit = max_input_bytes() if limit is None else limit
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise input_too_large(source, limit)


def read_file_within_budget(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file within the read budget (``OSError`` as raised by ``open``): a regular file over the
    budget is refused before it is read."""
    check_file_size(path)
    with Path(path).open("rb") as stream:
        return read_within_budget(stream, os.fspath(path))


def read_text_within_budget(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of a whole document (JSON, TOML) within the read budget (``OSError`` as raised by ``open``,
    ``UnicodeDecodeError`` for the caller to name the file)."""
    return read_file_within_budget(path).decode("utf-8")


class NestedTooDeeplyError(InputError):
    """A JSON / TOML / YAML document nested deeper than the parser's recursion allows; names the source."""


def parse_bounded(parse: Callable[[str], Any], text: str, source: str, line: int | None = None) -> Any:
    """``parse(text)`` (``json.loads``, ``tomllib.loads``) with nesting too deep for the parser's recursion
    (``'[' * 100000``) a :class:`NestedTooDeeplyError` naming ``source`` instead of a ``RecursionError``, and a
    number over Python's digit limit an :class:`InputError` naming ``source`` and its line (``line``: the line of
    ``text`` in its file, for a parser given one line).

    >>> import json
    >>> try:
    ...     parse_bounded(json.loads, "[" * 100000, "run.json")
    ... except NestedTooDeeplyError as error:
    ...     print(error)
    run.json: arrays or objects nested too deeply to read; flatten the document
    """
    where = source if line is None else f"{source}: line {line}"
    try:
        return parse(text)
    except RecursionError:
        raise NestedTooDeeplyError(f"{where}: arrays or objects nested too deeply to read; flatten the document") \
            from None
    except ValueError as exc:   # a decode error is the caller's; a number over Python's digit limit names its line
        problem = digit_limit_problem(exc, text)
        if problem is None:
            raise
        raise InputError(f"{source}: line {problem[0] if line is None else line}: {problem[1]}") from None
