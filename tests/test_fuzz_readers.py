"""The fuzz targets of the read budget (fuzz/reader_targets.py, issue 40 item 6): inputs that the budget must refuse
(a line over the line budget, a file over the total) and inputs within it, written in the targets' own encoding
(fuzzer bytes drawn front to back by fuzz/targets.py's Source), so that a reader without the budget is a finding."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
from targets import TARGETS  # noqa: E402  (first: the target modules import its helpers)
from reader_targets import CASE_FORMATS, READER_TARGETS, case_file_budget, text_budget  # noqa: E402


def text_input(line: int, total: int, content: bytes) -> bytes:
    """The bytes text_budget reads as a line budget, a total budget and (raw) the file's content."""
    return bytes([line - 1]) + (total - 1).to_bytes(2, "little") + b"\0" + content


def case_input(suffix: str, line: int, total: int, content: bytes) -> bytes:
    """The bytes case_file_budget reads as a format, the budgets and (raw) content."""
    return bytes([sorted(CASE_FORMATS).index(suffix), line - 1]) + (total - 1).to_bytes(2, "little") + b"\0" + content


@pytest.mark.parametrize("line, total, content", [
    (10, 500, b"a cat\n" + b"x" * 40 + b"\n"),          # line 2 over the line budget
    (64, 20, b"a cat\nthe dog\nthe bird\n"),             # over the total
    (10, 500, b"a cat\r\nthe dog\n"),                    # within both
    (5, 500, b"\xef\xbb\xbfab\nc\xff\n"),                 # the byte-order mark counts; not UTF-8 within the budget
])
def test_text_budget_target_holds_on_inputs_at_the_bounds(line, total, content):
    text_budget(text_input(line, total, content))


@pytest.mark.parametrize("suffix, line, total, content", [
    (".jsonl", 60, 1000, b'{"actual_output": "a", "expected_output": "a"}\n'
                         b'{"actual_output": "' + b"x" * 80 + b'", "expected_output": "a"}\n'),
    (".csv", 30, 1000, b"actual_output,expected_output\na," + b"y" * 40 + b"\n"),
    (".json", 20, 1000, json.dumps({"cases": [{"actual_output": "a", "expected_output": "b"}]}).encode()),
    (".jsonl", 128, 40, b'{"actual_output": "a", "expected_output": "a"}\n'),
])
def test_case_file_budget_target_holds_on_inputs_at_the_bounds(suffix, line, total, content):
    if suffix == ".yaml":
        pytest.importorskip("yaml")
    case_file_budget(case_input(suffix, line, total, content))


@pytest.mark.parametrize("target", sorted(READER_TARGETS))
def test_reader_targets_hold_on_random_inputs(target):
    if target == "case-file-budget":
        pytest.importorskip("yaml")
    for seed in range(300):
        generator = random.Random(seed)
        READER_TARGETS[target](generator.randbytes(generator.choice([0, 3, 8, 40, 300])))


def test_the_targets_are_registered_with_the_runner():
    assert {"text-budget", "case-file-budget"} <= set(TARGETS)


# -- findings, kept as regression tests --------------------------------------------------------------------------
@pytest.mark.parametrize("content, line", [(b"\x1acases:\n", 1), (b"cases:\n  - a: b\n  - c\x1a\n", 3)])
def test_a_character_yaml_refuses_is_one_line_naming_file_and_line(tmp_path, content, line):
    # case-file-budget found it: PyYAML's reader checks the first characters when the loader is made, outside the
    # try that turned YAML errors into one line: a ReaderError ("unacceptable character #x001a ...", two lines)
    yaml = pytest.importorskip("yaml")
    from refscore.errors import InputError
    from refscore.testing.cases import load_cases

    path = tmp_path / "cases.yaml"
    path.write_bytes(content)
    with pytest.raises(InputError, match=rf"^{path}: line {line}: not valid YAML \(the character U\+001A ") as info:
        load_cases(path)
    assert "\n" not in str(info.value) and not isinstance(info.value, yaml.YAMLError)
    case_file_budget(case_input(".yaml", 128, 1000, content))
