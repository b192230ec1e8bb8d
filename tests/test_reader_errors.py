"""issue 40 item 15, the readers: a JSON Lines pipe is read as a stream; a folder or a device given as a record file
says what it is; YAML and Parquet errors are one line with the file and the position; a number over Python's
integer digit limit names the file and the line; text not UTF-8 exits 5 (undecodable input) in every reader."""
from __future__ import annotations

import json
import os
import threading

import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.errors import InputError

RECORDS = [{"prediction": "a cat sat", "references": ["a cat sat"]}, {"prediction": "the dog", "references": ["a dog"]}]
LONG = "7" * 5000   # Python converts integers of at most 4,300 digits (sys.get_int_max_str_digits)


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


def fifo_with(tmp_path, name: str, data: bytes) -> tuple[str, threading.Thread]:
    path = str(tmp_path / name)
    os.mkfifo(path)

    def write() -> None:
        try:
            with open(path, "wb") as stream:
                stream.write(data)
        except BrokenPipeError:   # the reader stopped early (the budget)
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return path, writer


def test_a_jsonl_pipe_is_read_as_a_stream(tmp_path):
    from refscore.io.record_files import read_file
    from refscore.io.records import RecordLayout

    data = "".join(json.dumps(record) + "\n" for record in RECORDS).encode()
    path, writer = fifo_with(tmp_path, "p.jsonl", data)
    hypotheses = [h for chunk in read_file(path, RecordLayout()) for h in chunk.hypotheses]
    writer.join(10)
    assert hypotheses == ["a cat sat", "the dog"]


def test_score_reads_a_jsonl_pipe(tmp_path, capsys):
    plain = tmp_path / "d.jsonl"
    plain.write_text("".join(json.dumps(record) + "\n" for record in RECORDS))
    assert main(["score", "-i", str(plain), "-m", "chrf", "--format", "json"]) == 0
    [expected] = json.loads(capsys.readouterr().out)
    path, writer = fifo_with(tmp_path, "p.jsonl", plain.read_bytes())
    assert main(["score", "-i", path, "-m", "chrf", "--format", "json"]) == 0
    writer.join(10)
    [got] = json.loads(capsys.readouterr().out)
    assert got["system"] == path and got["scores"] == expected["scores"]


def test_a_jsonl_pipe_stops_at_the_budget(tmp_path, monkeypatch):
    from refscore.io.limits import InputTooLargeError
    from refscore.io.record_files import read_file
    from refscore.io.records import RecordLayout

    monkeypatch.setenv("REFSCORE_MAX_INPUT_BYTES", "100")
    data = "".join(json.dumps(RECORDS[0]) + "\n" for _ in range(20)).encode()
    path, writer = fifo_with(tmp_path, "p.jsonl", data)
    with pytest.raises(InputTooLargeError, match=r"p\.jsonl: more than 100 bytes"):
        list(read_file(path, RecordLayout()))
    writer.join(10)


def test_meta_eval_says_what_a_folder_or_a_device_is(tmp_path, capsys):
    folder = tmp_path / "judgments"
    folder.mkdir()
    code, err = run(capsys, "meta-eval", str(folder), "-m", "bleu")
    assert code == ExitCode.BAD_INPUT and "a folder, not a file" in err and "No such file" not in err
    assert f"{folder}/*.jsonl" in err
    code, err = run(capsys, "meta-eval", "/dev/zero", "-m", "bleu")
    assert code == ExitCode.BAD_INPUT and "/dev/zero: not a regular file (a character device)" in err


def test_yaml_errors_are_one_line_with_line_and_column(tmp_path, capsys):
    pytest.importorskip("yaml")
    path = tmp_path / "bad.yaml"
    path.write_text("cases:\n  - {actual_output: a, expected_output: b\n  - x: [\n")
    code, err = run(capsys, "check", str(path), "-c", "bleu=0.1")
    assert code == ExitCode.BAD_INPUT
    assert err.count("\n") == 1 and err.startswith(f"refscore: error: {path}: line 3, column 6: not valid YAML (")
    assert "began at line 2, column 5" in err


def test_a_damaged_parquet_page_is_one_line_naming_the_row_group(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "c.parquet"
    pq.write_table(pa.table({"prediction": ["a cat"] * 100, "references": ["a cat"] * 100}), path)
    data = bytearray(path.read_bytes())
    data[8:60] = b"\xff" * 52   # the first data page's header
    path.write_bytes(bytes(data))
    code, err = run(capsys, "score", "-i", str(path), "-m", "bleu")
    assert code == ExitCode.BAD_INPUT, err
    assert err.count("\n") == 1 and f"{path}: row group 1: not a readable Parquet file (" in err


@pytest.mark.parametrize("name, content, line", [
    ("cases.jsonl", '{"actual_output": "a", "expected_output": "a"}\n{"actual_output": "a", "expected_output": "a", '
                    '"metadata": {"n": ' + LONG + '}}\n', 2),
    ("cases.json", '{"cases": [{"actual_output": "a",\n "expected_output": "a",\n "metadata": {"n": ' + LONG + '}}]}',
     3),
    ("cases.yaml", "cases:\n  - {actual_output: a, expected_output: a,\n     metadata: {n: " + LONG + "}}\n", 3),
])
def test_a_long_integer_in_a_case_file_names_file_and_line(tmp_path, name, content, line):
    if name.endswith(".yaml"):
        pytest.importorskip("yaml")
    from refscore.testing.cases import load_cases

    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError, match=rf"^{path}: line {line}: a number of 5000 digits, more than the 4300 "):
        load_cases(path)


def test_a_long_integer_in_records_config_and_json_lines_names_file_and_line(tmp_path, capsys):
    from refscore.io.json_lines import json_values
    from refscore.testing.config import load_settings
    import io

    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps(RECORDS[0]) + "\n" + json.dumps(RECORDS[1])[:-1] + ', "n": ' + LONG + "}\n")
    code, err = run(capsys, "score", "-i", str(records), "-m", "bleu")
    assert code == ExitCode.BAD_INPUT and f"{records}: line 2: a number of 5000 digits" in err
    with pytest.raises(InputError, match=r"^items\.jsonl: line 2: a number of 5000 digits"):
        list(json_values(io.BytesIO(b"[1]\n[" + LONG.encode() + b"]\n"), "items.jsonl"))
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.refscore.checks.bleu]\nthreshold = 0.5\nn = " + LONG + "\n")
    with pytest.raises(InputError, match=rf"^{config}: line 3: a number of 5000 digits"):
        load_settings(config)


@pytest.mark.parametrize("name, content, command", [
    ("r.jsonl", b'{"prediction": "a \xff", "references": ["a"]}\n', ["score", "-i", "{path}", "-m", "bleu"]),
    ("r.csv", b'prediction,reference\n"a \xff",b\n', ["score", "-i", "{path}", "-m", "bleu"]),
    ("r.txt", b"a \xff\n", ["score", "-r", "{path}", "-i", "{path}", "-m", "bleu"]),
    ("cases.jsonl", b'{"actual_output": "a \xff", "expected_output": "a"}\n', ["check", "{path}", "-c", "bleu=0.1"]),
    ("j.jsonl", b'{"system": "A", "prediction": "a \xff", "references": ["a"], "mqm": 1}\n',
     ["meta-eval", "{path}", "-m", "bleu"]),
])
def test_text_that_is_not_utf8_exits_5_in_every_reader(tmp_path, capsys, name, content, command):
    path = tmp_path / name
    path.write_bytes(content)
    code, err = run(capsys, *[str(path) if part == "{path}" else part for part in command])
    assert code == ExitCode.UNDECODABLE_INPUT, err
    assert f"{path}: " in err and "not valid UTF-8" in err and "line " in err
