"""Fuzz targets of the read budget (issue 40 item 6): text files and test-case files read under a line budget and a
total budget the fuzzer chooses (``REFSCORE_MAX_LINE_BYTES``, ``REFSCORE_MAX_INPUT_BYTES``, set for the one call).

The oracle is the budget's definition on the file's bytes: a file over the total budget is refused with
``InputTooLargeError``; else a file read by lines with a line (split at ``\\n``, the break not counted) over the
line budget with ``LineTooLongError`` naming that line; else the reader's own result (the text reader's lines equal
sacreBLEU's reading) or one of refscore's errors, one line naming the file. Nothing else may escape.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator

from refscore.errors import RefscoreError
from refscore.io.limits import (InputTooLargeError, LineTooLongError, MAX_INPUT_BYTES_VARIABLE,
                                MAX_LINE_BYTES_VARIABLE)

from targets import Source, TargetUnavailable

#: The case-file formats, and whether their reader bounds lines (a JSON document may be one long line).
CASE_FORMATS = {".jsonl": True, ".csv": True, ".yaml": True, ".json": False}


@contextlib.contextmanager
def _budgets(line: int, total: int) -> Iterator[None]:
    """The two budget variables set for one call, the caller's values restored after it."""
    saved = {name: os.environ.get(name) for name in (MAX_LINE_BYTES_VARIABLE, MAX_INPUT_BYTES_VARIABLE)}
    os.environ[MAX_LINE_BYTES_VARIABLE], os.environ[MAX_INPUT_BYTES_VARIABLE] = str(line), str(total)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _first_line_over(content: bytes, limit: int) -> int | None:
    """The number (from 1) of the first line of ``content`` (split at ``\\n``) longer than ``limit`` bytes."""
    return next((number for number, line in enumerate(content.split(b"\n"), start=1) if len(line) > limit), None)


def _read_budgeted(suffix: str, content: bytes, line: int, total: int, read: Callable[[str], object],
                   lines: bool) -> object:
    """``read(path)`` of ``content`` under the budgets, checked against the oracle; the reader's result, or None
    when it refused the file with one of refscore's errors."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input" + suffix)
        with open(path, "wb") as handle:
            handle.write(content)
        over = _first_line_over(content, line) if lines else None
        try:
            with _budgets(line, total):
                result = read(path)
        except InputTooLargeError as error:
            message = str(error)
            if len(content) > total:
                assert not isinstance(error, LineTooLongError) and f"more than {total} bytes" in message, message
            else:
                assert isinstance(error, LineTooLongError) and over is not None, message
                assert f": line {over} is longer than {line} bytes" in message, (message, over)
            assert message.startswith(path) and "\n" not in message, message
            return None
        except RefscoreError as error:
            message = str(error)
            assert len(content) <= total and over is None, (message, len(content), over)
            assert "\n" not in message and path in message, message
            return None
        assert len(content) <= total and over is None, ("read past the budget", len(content), over)
        return result


def text_budget(data: bytes) -> None:
    """A text file (``refscore.io.text_files``) under fuzzed budgets: bounds, then sacreBLEU's lines."""
    from refscore.io.text_files import read_text_lines

    source = Source(data)
    line, total = source.integer(1, 64), source.integer(1, 512)
    if source.integer(0, 1):   # UTF-8 lines of fuzzed lengths (a byte-order mark, CR LF now and then)
        content = ("\ufeff" * (source.integer(0, 7) == 0) + "".join(
            source.text(80) + source.choice(["\n", "\r\n", ""]) for _ in range(source.integer(1, 6)))).encode()
    else:
        content = data[source.position:]
    lines = _read_budgeted(".txt", content, line, total, read_text_lines, lines=True)
    if lines is not None:
        expected = content.decode("utf-8").removeprefix("\ufeff").split("\n")
        expected = expected[:-1] if expected[-1] == "" else expected
        assert lines == [text.rstrip() for text in expected]


def _case_content(source: Source, suffix: str) -> bytes:
    """Valid-looking cases with fuzzed texts (of fuzzed lengths, so lines cross the budget), or the raw rest."""
    if source.integer(0, 2) == 0:
        return source.data[source.position:]
    cases = [{"actual_output": source.text(60), "expected_output": source.text(60)}
             for _ in range(source.integer(1, 4))]
    if suffix == ".jsonl":
        return "".join(json.dumps(case) + "\n" for case in cases).encode()
    if suffix == ".json":
        return json.dumps({"cases": cases}, indent=source.integer(0, 1) or None).encode()
    if suffix == ".csv":
        quote = '"{}"'.format
        return ("actual_output,expected_output\n" + "".join(
            f"{quote(c['actual_output'].replace(chr(34), chr(34) * 2))},"
            f"{quote(c['expected_output'].replace(chr(34), chr(34) * 2))}\n" for c in cases)).encode()
    return ("cases:\n" + "".join(f"  - actual_output: {json.dumps(c['actual_output'])}\n"
                                 f"    expected_output: {json.dumps(c['expected_output'])}\n" for c in cases)).encode()


def case_file_budget(data: bytes) -> None:
    """A test-case file (``refscore.testing.load_cases``, one of its formats) under fuzzed budgets."""
    from refscore.testing.cases import load_cases

    source = Source(data)
    suffix = source.choice(sorted(CASE_FORMATS))
    if suffix == ".yaml":
        try:
            import yaml  # noqa: F401
        except ImportError:
            raise TargetUnavailable("YAML cases need PyYAML (pip install 'refscore[testing]')") from None
    line, total = source.integer(1, 128), source.integer(1, 1024)
    content = _case_content(source, suffix)
    cases = _read_budgeted(suffix, content, line, total, load_cases, lines=CASE_FORMATS[suffix])
    if cases is not None:
        assert all(isinstance(case.expected_output, (str, list)) for case in cases)


READER_TARGETS: dict[str, Callable[[bytes], None]] = {"text-budget": text_budget, "case-file-budget": case_file_budget}
