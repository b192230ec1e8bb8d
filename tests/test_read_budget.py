"""issue 40 item 6: one read budget (REFSCORE_MAX_INPUT_BYTES) for whole-file readers, checked while reading."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from refscore.io.limits import InputTooLargeError, read_within_budget
from refscore.io.text_files import read_text_lines


def test_stream_past_budget_stops_after_limit_plus_one() -> None:
    with open("/dev/zero", "rb") as stream:
        with pytest.raises(InputTooLargeError, match="/dev/zero: more than 1000 bytes"):
            read_within_budget(stream, "/dev/zero", limit=1000)
        assert stream.tell() <= 1001


def test_library_text_reader_uses_budget(tmp_path, monkeypatch) -> None:
    path = tmp_path / "refs.txt"
    path.write_bytes(b"a cat\n" * 10)
    monkeypatch.setenv("REFSCORE_MAX_INPUT_BYTES", "20")
    with pytest.raises(InputTooLargeError, match="REFSCORE_MAX_INPUT_BYTES"):
        read_text_lines(path)
    monkeypatch.setenv("REFSCORE_MAX_INPUT_BYTES", "60")
    assert len(read_text_lines(path)) == 10


@pytest.mark.parametrize("hypotheses", ["/dev/zero", "sparse"])
def test_cli_hypotheses_past_budget_exit_quickly(tmp_path, hypotheses: str) -> None:
    refs = tmp_path / "r.txt"
    refs.write_text("a cat\n")
    if hypotheses == "sparse":
        sparse = tmp_path / "big.txt"
        with open(sparse, "wb") as stream:
            stream.truncate(2 << 30)
        hypotheses = str(sparse)
    env = dict(os.environ, REFSCORE_MAX_INPUT_BYTES=str(8 << 20))
    done = subprocess.run([sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())", "score", "-r", str(refs), "-i", hypotheses],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 7, done.stderr
    assert f"{hypotheses}: more than {8 << 20} bytes" in done.stderr
    assert "Traceback" not in done.stderr


def test_yaml_alias_bomb_in_case_file_is_refused_in_one_line(tmp_path) -> None:
    """issue 40 item 4: a YAML alias bomb is refused before it expands."""
    from refscore.errors import InputError
    from refscore.testing.cases import load_cases
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    lines += ["cases:", "  - {actual_output: *a8, expected_output: x}"]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"bomb.yaml: line 2: YAML aliases") as info:
        load_cases(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_deep_nesting_in_case_file_names_the_file(tmp_path, suffix: str) -> None:
    """issue 40 item 11: '['*100000 is an error naming the file, not a RecursionError."""
    from refscore.io.limits import NestedTooDeeplyError
    from refscore.testing.cases import load_cases
    path = tmp_path / f"cases{suffix}"
    path.write_text("[" * 100000 + "\n")
    with pytest.raises(NestedTooDeeplyError, match=f"cases{suffix}.*nested too deeply"):
        load_cases(path)


def test_deep_nesting_in_baseline_names_the_file(tmp_path) -> None:
    from refscore.io.limits import NestedTooDeeplyError
    from refscore.testing.saved import load_run
    path = tmp_path / "run.json"
    path.write_text("[" * 100000)
    with pytest.raises(NestedTooDeeplyError, match="baseline .*run.json: arrays or objects nested too deeply"):
        load_run(path)


@pytest.mark.parametrize("value", ["0", "-3", "1e6", "²", "9" * 5000])
def test_budget_variables_refuse_what_is_not_a_positive_integer(monkeypatch, value: str) -> None:
    """One parser for both budget variables (refscore.io.limits.positive_int_variable): a value that is not a
    positive integer, even one Python's int() chokes on ('²', 5,000 digits), is the variable's own error."""
    from refscore.io.json_lines import max_line_bytes
    from refscore.io.limits import max_input_bytes
    from refscore.io.records import RecordFormatError
    from refscore.errors import InputError
    monkeypatch.setenv("REFSCORE_MAX_INPUT_BYTES", value)
    with pytest.raises(InputError, match=r"^REFSCORE_MAX_INPUT_BYTES=.*: give the most bytes one input may hold, a "
                                         r"positive integer$"):
        max_input_bytes()
    monkeypatch.setenv("REFSCORE_MAX_LINE_BYTES", value)
    with pytest.raises(RecordFormatError, match=r"^REFSCORE_MAX_LINE_BYTES=.*: give the longest line in bytes, a "
                                                r"positive integer$"):
        max_line_bytes()


def test_budget_variables_default_and_value(monkeypatch) -> None:
    from refscore.io.json_lines import DEFAULT_MAX_LINE_BYTES, max_line_bytes
    from refscore.io.limits import DEFAULT_MAX_INPUT_BYTES, max_input_bytes
    monkeypatch.delenv("REFSCORE_MAX_INPUT_BYTES", raising=False)
    monkeypatch.setenv("REFSCORE_MAX_LINE_BYTES", "")
    assert (max_input_bytes(), max_line_bytes()) == (DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_LINE_BYTES)
    monkeypatch.setenv("REFSCORE_MAX_INPUT_BYTES", "123")
    monkeypatch.setenv("REFSCORE_MAX_LINE_BYTES", "45")
    assert (max_input_bytes(), max_line_bytes()) == (123, 45)
