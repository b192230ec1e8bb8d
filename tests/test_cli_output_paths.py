"""Output files are checked before any work, by every command that writes one (``report -o``, ``check --save`` and
``--junit-xml``, ``bertscore-baseline -o``): a missing folder, a folder as the path, a device, a place where no
file can be created. Real processes: one ``refscore: error:`` line naming the flag and the path, exit status 9,
no progress bar (nothing was scored), no traceback, and no file left behind."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from test_cli_process import lines, refscore_command, write_cases

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")


@pytest.fixture
def inputs(tmp_path) -> Path:
    (tmp_path / "ref.txt").write_text(lines(300, 1), encoding="utf-8")
    (tmp_path / "a.txt").write_text(lines(300, 2), encoding="utf-8")
    (tmp_path / "b.txt").write_text(lines(300, 3), encoding="utf-8")
    write_cases(tmp_path / "cases.jsonl", 50)
    return tmp_path


#: Each command that writes a file, with ``{out}`` where its output path goes. ``--progress`` would draw a bar on
#: stderr as soon as scoring began; bertscore-baseline names a model that does not exist, so loading it first
#: would end in another error.
COMMANDS = {
    "report -o": ["report", "-r", "ref.txt", "-i", "a.txt", "b.txt", "-m", "bleu,chrf", "--progress",
                  "-o", "{out}"],
    "report -o (test run only)": ["report", "--test-run", "run.json", "-o", "{out}"],
    "report --latex": ["report", "-r", "ref.txt", "-i", "a.txt", "b.txt", "-m", "bleu", "--progress", "-o", "r.html",
                       "--latex", "{out}"],
    "check --save": ["check", "cases.jsonl", "--check", "bleu=0.1", "--save", "{out}"],
    "check --junit-xml": ["check", "cases.jsonl", "--check", "bleu=0.1", "--junit-xml", "{out}"],
    "bertscore-baseline -o": ["bertscore-baseline", "--model", "no-such-model", "--corpus", "ref.txt",
                              "--progress", "-o", "{out}"],
}


def run_refscore(arguments: list[str], out: str, cwd: Path) -> subprocess.CompletedProcess:
    command = refscore_command(*[out if part == "{out}" else part for part in arguments])
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def flag_of(arguments: list[str]) -> str:
    return arguments[arguments.index("{out}") - 1]


def assert_refused(result: subprocess.CompletedProcess, flag: str, out: str, reason: str) -> None:
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT == 9, result.stderr
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr  # no bar, no traceback: nothing ran before
    assert result.stderr.startswith(f"refscore: error: {flag} {out}: {reason}"), result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_missing_folder(inputs, command):
    before = sorted(os.listdir(inputs))
    result = run_refscore(COMMANDS[command], "nodir/out.html", inputs)
    assert_refused(result, flag_of(COMMANDS[command]), "nodir/out.html", "the folder does not exist")
    assert "create it or write elsewhere" in result.stderr
    assert sorted(os.listdir(inputs)) == before


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("folder", [".", "sub", "sub/"])
def test_a_folder_as_the_path(inputs, command, folder):
    (inputs / "sub").mkdir()
    result = run_refscore(COMMANDS[command], folder, inputs)
    assert_refused(result, flag_of(COMMANDS[command]), folder, "is a folder, not a file; give a file name")
    assert sorted(os.listdir(inputs / "sub")) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_as_the_folder(inputs, command):
    result = run_refscore(COMMANDS[command], "ref.txt/out.html", inputs)
    assert_refused(result, flag_of(COMMANDS[command]), "ref.txt/out.html", f"{inputs / 'ref.txt'} is a file")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux), where no file can be created")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_where_no_file_can_be_created(inputs, command):
    result = run_refscore(COMMANDS[command], "/proc/out.html", inputs)
    assert_refused(result, flag_of(COMMANDS[command]), "/proc/out.html", "cannot create a file in /proc (")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write in any folder")
@pytest.mark.parametrize("command", ["report -o", "check --save"])
def test_a_read_only_folder(inputs, command):
    (inputs / "locked").mkdir()
    (inputs / "locked").chmod(0o555)
    try:
        result = run_refscore(COMMANDS[command], "locked/out.html", inputs)
    finally:
        (inputs / "locked").chmod(0o755)
    assert_refused(result, flag_of(COMMANDS[command]), "locked/out.html", "cannot create a file in")
    assert "Permission denied" in result.stderr
    assert os.listdir(inputs / "locked") == []


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
@pytest.mark.parametrize("command", ["report -o", "check --junit-xml"])
def test_a_device_is_not_replaced(inputs, command):
    """An atomic write renames a new file over its target: a device such as /dev/null must be refused first."""
    result = run_refscore(COMMANDS[command], "/dev/null", inputs)
    assert_refused(result, flag_of(COMMANDS[command]), "/dev/null", "is not a regular file")
    assert not Path("/dev/null").is_file()


def test_a_writable_path_is_written_and_nothing_else(inputs):
    """The check leaves no trace: after a run only the output file is new."""
    before = set(os.listdir(inputs))
    result = run_refscore(["check", "cases.jsonl", "--check", "bleu=0.0", "--save", "{out}"], "run.json", inputs)
    assert result.returncode == ExitCode.OK, result.stderr
    assert set(os.listdir(inputs)) - before == {"run.json"}


def test_docstring_examples_run():
    import doctest

    import refscore.io.atomic

    failures, attempted = doctest.testmod(refscore.io.atomic)
    assert failures == 0 and attempted > 0


# -- an output that is an input or another output (issue 40, item 15) --------------------------------------------
#: Each command with an output that is one of its inputs, or two outputs on one path: the flag refused, the reason.
CLOBBERING = {
    "check: --save is the cases file": (["check", "cases.jsonl", "-c", "bleu=0.0", "--save", "cases.jsonl"],
                                        "--save cases.jsonl: is also the cases file cases.jsonl, an input"),
    "check: --save is the cases file (./ and a link)": (
        ["check", "cases.jsonl", "-c", "bleu=0.0", "--save", "link.jsonl"],
        "--save link.jsonl: is also the cases file cases.jsonl, an input"),
    "check: --save and --junit-xml on one path": (
        ["check", "cases.jsonl", "-c", "bleu=0.0", "--junit-xml", "out.xml", "--save", "./out.xml"],
        "--save ./out.xml: is also the file of --junit-xml; give each output its own file"),
    "check: --save is --baseline": (["check", "cases.jsonl", "-c", "bleu=0.0", "--baseline", "run.json", "--save",
                                     "run.json"], "--save run.json: is also --baseline run.json, an input"),
    "report: --latex is a system": (["report", "-r", "ref.txt", "-i", "a.txt", "b.txt", "-o", "r.html", "--latex",
                                     "b.txt"], "--latex b.txt: is also -i b.txt, an input"),
    "pairwise: -o is -i": (["pairwise", "-i", "items.jsonl", "-o", "items.jsonl"],
                           "-o items.jsonl: is also -i items.jsonl, an input"),
    "mbr: -o and --matrices on one path": (["mbr", "-i", "items.jsonl", "-o", "m.npz", "--matrices", "m.npz"],
                                           "--matrices m.npz: is also the file of -o"),
}


@pytest.mark.parametrize("case", CLOBBERING)
def test_an_output_that_is_an_input_or_another_output_is_refused(inputs, case):
    """``check x.jsonl --save x.jsonl`` overwrote the cases file, ``--save`` and ``--junit-xml`` on one path
    clobbered each other."""
    arguments, message = CLOBBERING[case]
    (inputs / "link.jsonl").symlink_to(inputs / "cases.jsonl")
    (inputs / "items.jsonl").write_text('{"candidates": ["a b", "a c"]}\n', encoding="utf-8")
    (inputs / "run.json").write_text("{}", encoding="utf-8")
    before = {name: (inputs / name).read_bytes() for name in os.listdir(inputs)}
    result = run_refscore(arguments, "", inputs)
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT == 9, result.stderr
    assert result.stderr.startswith(f"refscore: error: {message}"), result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""
    assert {name: (inputs / name).read_bytes() for name in os.listdir(inputs)} == before


def test_the_configured_cases_file_is_an_input_too(inputs):
    (inputs / "pyproject.toml").write_text('[tool.refscore]\ncases = "cases.jsonl"\n', encoding="utf-8")
    before = (inputs / "cases.jsonl").read_bytes()
    result = run_refscore(["check", "-c", "bleu=0.0", "--save", "cases.jsonl"], "", inputs)
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT, result.stderr
    assert f"--save cases.jsonl: is also the cases file {inputs / 'cases.jsonl'}, an input" in result.stderr
    assert (inputs / "cases.jsonl").read_bytes() == before


def test_calibrate_may_edit_its_configuration_in_place(inputs):
    labelled = [dict(json.loads(line), label="pass" if k % 2 else "fail")
                for k, line in enumerate((inputs / "cases.jsonl").read_text(encoding="utf-8").splitlines())]
    (inputs / "labels.jsonl").write_text("".join(json.dumps(c) + "\n" for c in labelled), encoding="utf-8")
    (inputs / "cal.toml").write_text("[tool.refscore]\n", encoding="utf-8")
    result = run_refscore(["check", "--calibrate", "labels.jsonl", "-c", "chrf", "--config", "cal.toml"], "", inputs)
    assert result.returncode == ExitCode.OK, result.stderr
    result = run_refscore(["check", "--calibrate", "labels.jsonl", "-c", "chrf", "--config", "cal.toml", "--save",
                           "labels.jsonl"], "", inputs)
    assert result.returncode == ExitCode.UNWRITABLE_OUTPUT
    assert "--save labels.jsonl: is also --calibrate labels.jsonl, an input" in result.stderr


def test_report_with_standard_output_closed_writes_the_report_and_exits_0(inputs):
    """``report -o f.html >&-`` wrote the report, then exited 9 on its "wrote" line."""
    pytest.importorskip("jinja2")
    from test_cli_process import shell

    result = shell("refscore report -r ref.txt -i a.txt b.txt -m bleu --n 20 -o f.html >&-", inputs)
    assert result.returncode == ExitCode.OK, result.stderr
    assert result.stderr == "" and (inputs / "f.html").stat().st_size > 0
