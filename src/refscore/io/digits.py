"""Python's limit on the digits of an integer it converts from text (``sys.get_int_max_str_digits()``, 4,300 by
default), which JSON, TOML and YAML parsers meet in a long number and report as a bare ``ValueError``: the readers
turn it into an error naming the file and the line.
"""
from __future__ import annotations

import re
import sys

__all__ = ["digit_limit_problem"]


def digit_limit_problem(exc: ValueError, text: str | bytes) -> tuple[int, str] | None:
    """``(line, problem)`` when ``exc`` is Python's limit on the digits of an integer it converts
    (``sys.get_int_max_str_digits()``, 4,300 by default), which a JSON, TOML or YAML parser meets in a long number;
    the line is that of the first such run of digits in ``text``. None for any other ``ValueError``.

    >>> import json
    >>> try:
    ...     json.loads('{"a": 1,\\n "b": ' + "7" * 5000 + '}')
    ... except ValueError as exc:
    ...     print(digit_limit_problem(exc, '{"a": 1,\\n "b": ' + "7" * 5000 + '}'))
    (2, 'a number of 5000 digits, more than the 4300 digits an integer may have here; write it with fewer digits or as a string')
    """
    if "integer string conversion" not in str(exc):
        return None
    limit = sys.get_int_max_str_digits() or 4300
    found = re.search(rb"[0-9]{%d,}" % (limit + 1), text if isinstance(text, bytes) else text.encode("utf-8"))
    if found is None:
        return 1, f"a number of more than {limit} digits; write it with fewer digits or as a string"
    line = found.string.count(b"\n", 0, found.start()) + 1
    return line, (f"a number of {found.end() - found.start()} digits, more than the {limit} digits an integer may "
                  f"have here; write it with fewer digits or as a string")
