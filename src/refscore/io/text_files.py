r"""Reading a UTF-8 text file as one segment per line, for library code that takes a file name (the command line
has its own reader with exit codes and standard input, :mod:`refscore.cli.io`).

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "refs.txt"
>>> _ = path.write_bytes("\ufeffa cat \nthe dog\n".encode("utf-8"))
>>> read_text_lines(path)
['a cat', 'the dog']
"""
from __future__ import annotations

import os

from refscore.errors import InputError, UndecodableInputError
from refscore.io.limits import check_line_lengths, read_file_within_budget

__all__ = ["decode_utf8", "read_text_lines"]


def decode_utf8(data: bytes, source: str) -> str:
    """UTF-8 bytes as text, a leading byte-order mark removed; bytes that do not decode are an
    :class:`~refscore.errors.UndecodableInputError` naming ``source``, the line and the byte of the line.

    >>> decode_utf8(b"ok\\n\\xff", "refs.txt")
    Traceback (most recent call last):
    refscore.errors.UndecodableInputError: refs.txt: line 2 is not valid UTF-8 (invalid start byte at byte 0 of the line); re-encode the file as UTF-8
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise UndecodableInputError(f"{source}: line {line_number} is not valid UTF-8 ({exc.reason} at byte {column} "
                                    f"of the line); re-encode the file as UTF-8") from None
    return text.removeprefix("\ufeff")


def read_text_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a UTF-8 file (``\\n`` or ``\\r\\n``; a final newline ends the last line; a leading byte-order
    mark removed), each without trailing whitespace, as sacreBLEU's command line reads segments; within the read
    budget (:mod:`refscore.io.limits`: the file's bytes and each line's)."""
    try:
        data = read_file_within_budget(path)
    except OSError as exc:
        raise InputError(f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
    check_line_lengths(data, os.fspath(path))
    lines = decode_utf8(data, os.fspath(path)).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]
