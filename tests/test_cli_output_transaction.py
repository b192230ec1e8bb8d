"""The outputs of one command are committed together, at the end (issue 40, item 7): ``check --save --junit-xml``,
``mbr -o --matrices`` and ``report -o --latex`` leave both files or neither when interrupted or failing while
writing the second, and text an output cannot encode (a lone surrogate) is refused, naming the output, before any
file is written."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from test_cli_process import lines

SURROGATE = "\\ud800"   # a JSON escape json.loads turns into a lone surrogate


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    cases = [{"actual_output": hyp, "expected_output": ref}
             for hyp, ref in zip(lines(30, 2).splitlines(), lines(30, 1).splitlines())]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    items = [{"candidates": line.split()[:4], "id": k} for k, line in enumerate(lines(6, 3).splitlines())]
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    (tmp_path / "ref.txt").write_text(lines(40, 1), encoding="utf-8")
    (tmp_path / "a.txt").write_text(lines(40, 2), encoding="utf-8")
    (tmp_path / "b.txt").write_text(lines(40, 3), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


#: Commands with two output files (and nothing else in the folder they write to).
TWO_OUTPUTS = {
    "check --junit-xml --save": (["check", "cases.jsonl", "-c", "bleu=0.0", "--junit-xml", "out/j.xml", "--save",
                                  "out/run.json"], ExitCode.OK),
    "mbr --matrices -o": (["mbr", "-i", "items.jsonl", "--matrices", "out/m.npz", "-o", "out/sel.jsonl",
                           "--no-progress"], ExitCode.OK),
    "report --latex -o": (["report", "-r", "ref.txt", "-i", "a.txt", "b.txt", "-m", "bleu", "--n", "20",
                           "--latex", "out/t.tex", "-o", "out/r.html"], ExitCode.OK),
}


def _fail_second_fsync(monkeypatch, error: BaseException) -> None:
    """The second output's last write fails: Ctrl-C, or a disk that filled up meanwhile."""
    calls = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        calls.append(descriptor)
        if len(calls) == 2:
            raise error
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("command", TWO_OUTPUTS)
def test_both_outputs_are_written(workdir, command):
    pytest.importorskip("jinja2") if command.startswith("report") else None
    (workdir / "out").mkdir()
    arguments, code = TWO_OUTPUTS[command]
    assert main(arguments) == code
    assert len(os.listdir(workdir / "out")) == 2


@pytest.mark.parametrize("command", TWO_OUTPUTS)
def test_ctrl_c_while_writing_the_second_leaves_neither(workdir, command, monkeypatch, capsys):
    """SIGINT during ``check --save run.json --junit-xml j.xml`` used to leave a complete new j.xml and no run.json
    while saying "no report file was written"; ``mbr`` wrote m.npz only."""
    if command.startswith("report"):
        pytest.importorskip("jinja2")
    (workdir / "out").mkdir()
    _fail_second_fsync(monkeypatch, KeyboardInterrupt())
    assert main(TWO_OUTPUTS[command][0]) == ExitCode.INTERRUPTED
    assert os.listdir(workdir / "out") == []   # no output, no temporary file
    assert "interrupted" in capsys.readouterr().err


@pytest.mark.parametrize("command", TWO_OUTPUTS)
def test_a_failure_while_writing_the_second_leaves_neither_and_the_old_files(workdir, command, monkeypatch, capsys):
    if command.startswith("report"):
        pytest.importorskip("jinja2")
    out = workdir / "out"
    out.mkdir()
    arguments = TWO_OUTPUTS[command][0]
    olds = {part: f"old {part}" for part in arguments if part.startswith("out/")}
    for part, text in olds.items():
        (workdir / part).write_text(text, encoding="utf-8")
    _fail_second_fsync(monkeypatch, OSError(28, "No space left on device"))
    assert main(arguments) == ExitCode.UNWRITABLE_OUTPUT
    assert {f"out/{name}": (out / name).read_text(encoding="utf-8") for name in os.listdir(out)} == olds
    assert "No space left on device" in capsys.readouterr().err


def test_a_lone_surrogate_is_refused_before_any_file(workdir, capsys):
    """It used to write the JUnit file, then fail on --save with the codec's message, naming no file."""
    (workdir / "cases.jsonl").write_text('{"actual_output": "the cat ' + SURROGATE + ' sat", '
                                         '"expected_output": "the cat sat"}\n', encoding="utf-8")
    (workdir / "out").mkdir()
    assert main(["check", "cases.jsonl", "-c", "bleu=0.1", "--junit-xml", "out/j.xml", "--save",
                 "out/run.json"]) == ExitCode.BAD_INPUT
    assert os.listdir(workdir / "out") == []
    error = capsys.readouterr().err
    assert error.startswith("refscore: error: --save out/run.json: the output holds '\\ud800' at character "), error
    assert "lone surrogate" in error and len(error.splitlines()) == 1


def _items_with_a_lone_surrogate(workdir: Path) -> None:
    """An MBR items file whose first id holds a lone surrogate, and an empty ``out/`` for the outputs."""
    (workdir / "items.jsonl").write_text('{"id": "a' + SURROGATE + '", "candidates": ["x y", "x z"]}\n',
                                         encoding="utf-8")
    (workdir / "out").mkdir()


def test_a_lone_surrogate_for_standard_output_is_refused_before_the_archive(workdir, capsys):
    _items_with_a_lone_surrogate(workdir)
    assert main(["mbr", "-i", "items.jsonl", "--matrices", "out/m.npz", "--no-progress"]) == ExitCode.BAD_INPUT
    assert os.listdir(workdir / "out") == []
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("refscore: error: standard output: the output holds '\\ud800'"), captured.err


def test_a_lone_surrogate_in_a_streamed_file_names_it(workdir, capsys):
    _items_with_a_lone_surrogate(workdir)
    assert main(["mbr", "-i", "items.jsonl", "-o", "out/sel.jsonl", "--no-progress"]) == ExitCode.BAD_INPUT
    assert os.listdir(workdir / "out") == []
    assert capsys.readouterr().err.startswith("refscore: error: -o out/sel.jsonl: the output holds '\\ud800'")
