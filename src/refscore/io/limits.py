"""The read budget of every whole-file reader: the most bytes one input may hold (``REFSCORE_MAX_INPUT_BYTES``,
default 4 GiB), checked while reading so that ``/dev/zero``, an endless pipe or a huge sparse file stops with an
error naming the file and the budget instead of growing memory. The line limit of line readers is
:mod:`refscore.io.json_lines`'s ``REFSCORE_MAX_LINE_BYTES``.

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
from pathlib import Path
from collections.abc import Callable
from typing import IO, Any

from refscore.errors import InputError

__all__ = ["DEFAULT_MAX_INPUT_BYTES", "InputTooLargeError", "MAX_INPUT_BYTES_VARIABLE", "NestedTooDeeplyError",
           "max_input_bytes", "parse_bounded", "positive_int_variable", "read_file_within_budget",
           "read_within_budget"]

#: The environment variable that sets the most bytes one input file (or standard input) may hold.
MAX_INPUT_BYTES_VARIABLE = "REFSCORE_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 4 << 30
_CHUNK = 1 << 20


class InputTooLargeError(InputError):
    """An input longer than the read budget; the message names the source, the budget and its variable."""


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
            raise InputTooLargeError(f"{source}: more than {limit} bytes, the most one input may hold; give a smaller "
                                     f"file, or raise the budget with {MAX_INPUT_BYTES_VARIABLE}=<bytes>")


def read_file_within_budget(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file within the read budget (``OSError`` as raised by ``open``)."""
    with Path(path).open("rb") as stream:
        return read_within_budget(stream, os.fspath(path))


class NestedTooDeeplyError(InputError):
    """A JSON / TOML / YAML document nested deeper than the parser's recursion allows; names the source."""


def parse_bounded(parse: Callable[[str], Any], text: str, source: str) -> Any:
    """``parse(text)`` (``json.loads``, ``tomllib.loads``) with nesting too deep for the parser's recursion
    (``'[' * 100000``) a :class:`NestedTooDeeplyError` naming ``source`` instead of a ``RecursionError``.

    >>> import json
    >>> try:
    ...     parse_bounded(json.loads, "[" * 100000, "run.json")
    ... except NestedTooDeeplyError as error:
    ...     print(error)
    run.json: arrays or objects nested too deeply to read; flatten the document
    """
    try:
        return parse(text)
    except RecursionError:
        raise NestedTooDeeplyError(f"{source}: arrays or objects nested too deeply to read; flatten the document") \
            from None
