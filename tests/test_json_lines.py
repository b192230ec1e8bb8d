"""refscore.io.json_lines: the one JSON Lines line loop (the line limit, UTF-8, JSON errors with line and column)
that ``refscore pairwise``/``mbr`` read through, and that the record-file reader shares its line limit with."""
from __future__ import annotations

import doctest
import io

import pytest

import refscore.io.json_lines
from refscore.io.json_lines import (MAX_LINE_BYTES_VARIABLE, JsonLineError, NotUtf8LineError, json_values,
                                    read_line)


def test_docstring_examples_run():
    failures, attempted = doctest.testmod(refscore.io.json_lines)
    assert failures == 0 and attempted > 0


def test_values_with_line_numbers_bom_and_blank_lines():
    data = b'\xef\xbb\xbf{"a": "\xc3\xa9"}\r\n\n  \n[1, 2]'   # BOM, CRLF, blank lines, no final line break
    assert list(json_values(io.BytesIO(data), "x.jsonl")) == [(1, {"a": "é"}), (4, [1, 2])]


def test_line_limit_counts_the_line_without_its_break(monkeypatch):
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "8")
    assert list(json_values(io.BytesIO(b'"123456"\n"12"'), "x.jsonl")) == [(1, "123456"), (2, "12")]  # 8 bytes + \n
    with pytest.raises(JsonLineError, match=r"^x\.jsonl: line 2 is longer than 8 bytes.*REFSCORE_MAX_LINE_BYTES"):
        list(json_values(io.BytesIO(b'"123456"\n"12345678"\n'), "x.jsonl"))
    stream = io.BytesIO(b"x" * 100)
    assert read_line(stream, 8) == (b"x" * 9, True) and stream.tell() == 9   # reads no more than limit + 1


def test_errors_name_line_and_column():
    with pytest.raises(NotUtf8LineError, match=r"^x\.jsonl: line 2: not valid UTF-8 \(invalid start byte at byte 1 "):
        list(json_values(io.BytesIO(b'1\n"\xff"\n'), "x.jsonl"))
    with pytest.raises(JsonLineError, match=r"^x\.jsonl: line 1: not valid JSON \(Expecting value at column 7\); "
                                            r"one item per line$"):
        list(json_values(io.BytesIO(b'{"a": }\n'), "x.jsonl", hint="one item per line"))
    with pytest.raises(JsonLineError, match="nested too deeply"):
        list(json_values(io.BytesIO(b"[" * 100_000 + b"\n"), "x.jsonl"))
