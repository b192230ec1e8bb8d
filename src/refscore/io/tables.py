"""CSV/TSV files read row by row within the read budget (:mod:`refscore.io.limits`): each physical line within
``REFSCORE_MAX_LINE_BYTES``, the file within ``REFSCORE_MAX_INPUT_BYTES``, decoded as UTF-8 line by line so that
an error names its line. CSV follows RFC 4180 (quoted fields may span lines); TSV has no quoting.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
>>> _ = open(path, "w").write('prediction,reference\\n"a, cat","the\\ncat"\\n')
>>> list(table_rows(path))
[(1, ['prediction', 'reference']), (2, ['a, cat', 'the\\ncat'])]
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from typing import IO

from refscore.io.json_lines import budgeted_lines
from refscore.io.limits import LineTooLongError, line_too_long_message, max_input_bytes
from refscore.io.records import NotUtf8RecordError, RecordFormatError

__all__ = ["table_rows"]

_LONE_CR = re.compile(r"(?<=\r)(?!\n)")   # a line break of its own in a text-mode read (csv's newline="")
def _table_lines(handle: IO[bytes], path: str) -> Iterator[str]:
    """The lines of a CSV/TSV file as ``csv.reader`` takes them (line breaks kept), read in binary within the read
    budget (each line within :func:`~refscore.io.limits.max_line_bytes`, all within
    :func:`~refscore.io.limits.max_input_bytes`) and decoded line by line, so that an error names its line."""
    def too_long(number: int, limit: int) -> LineTooLongError:
        return LineTooLongError(line_too_long_message(path, number, limit, "split the row"))

    for number, line in budgeted_lines(handle, path, too_long):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NotUtf8RecordError(f"{path}: line {number}: not valid UTF-8 ({exc.reason} at byte {exc.start} of "
                                     f"the line); re-encode the file as UTF-8") from None
        yield from _LONE_CR.split(text) if "\r" in text else (text,)


def table_rows(path: str) -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) of each non-blank row of a CSV (quoted fields may span lines) or TSV (no quoting) file,
    header included, within the read budget; a field may be as large as the file."""
    tsv = path.lower().endswith(".tsv")
    previous_limit = csv.field_size_limit()
    csv.field_size_limit(max(previous_limit, min(max_input_bytes() + 1, 2 ** 31 - 1)))
    first_line = 1
    try:
        with open(path, "rb") as handle:
            reader = csv.reader(_table_lines(handle, path), delimiter="\t" if tsv else ",", strict=True,
                                quoting=csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL)
            for row in reader:
                line, first_line = first_line, reader.line_num + 1
                if row:
                    yield line, row
    except csv.Error as exc:
        raise RecordFormatError(f"{path}: line {first_line}: malformed CSV ({exc}); quote a field that contains a "
                                f"comma, a quote or a line break as \"...\" with inner quotes doubled (\"\")") \
            from None
    finally:
        csv.field_size_limit(previous_limit)
