"""``refscore check``: reports, exit codes, JUnit XML (parsed), configuration, baselines and bad input."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest

import refscore.testing.run
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main

CASES = [
    {"id": "same", "actual_output": "the cat sat on the mat", "expected_output": "the cat sat on the mat"},
    {"id": "short", "actual_output": "Berlin is nice", "expected_output": ["The capital of Germany is Berlin."]},
    {"id": "empty", "actual_output": None, "expected_output": "nothing here"},
]


def write_cases(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


@pytest.fixture
def cases(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # no pyproject.toml above tmp_path: checks come from the flags
    return write_cases(tmp_path / "cases.jsonl", CASES)


def test_all_pass_exits_0(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    cases = write_cases(tmp_path / "cases.jsonl", CASES[:2])
    assert main(["check", cases, "--check", "chrf=0.0", "--check", "ter=1.0"]) == ExitCode.OK
    assert capsys.readouterr().out.rstrip().endswith("result: ok")


def test_failing_cases_exit_1_and_come_first_with_reasons(cases, capsys):
    assert main(["check", cases, "--check", "bleu=0.3"]) == ExitCode.CHECKS_FAILED == 1
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split()[0] for line in lines[2:] if line.split() and line.split()[0] in ("same", "short", "empty")]
    assert rows == ["short", "empty", "same"]
    assert any("brevity penalty" in line for line in lines)
    assert "    no output" in lines
    assert lines[-1] == "result: FAILED"


def test_json_format(cases, capsys):
    assert main(["check", cases, "--check", "rougeL", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [r["passed"] for case in data["cases"] for r in case["results"]] == [True, False, False]
    assert data["summary"]["rougeL"]["passed"] == 1 and data["ok"] is False


def test_junit_xml_is_valid_with_one_testcase_per_case_and_check(cases, tmp_path):
    report = tmp_path / "junit.xml"
    assert main(["check", cases, "--check", "bleu=0.3", "--check", "rougeL=0.5", "--junit-xml", str(report)]) == 1
    root = ElementTree.parse(report).getroot()
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert list(suites) == ["refscore.bleu", "refscore.rougeL", "refscore.gates"]
    bleu = suites["refscore.bleu"]
    assert [case.get("name") for case in bleu.findall("testcase")] == ["same", "short", "empty"]
    assert bleu.get("tests") == "3" and bleu.get("failures") == "2"
    failure = bleu.find("testcase[@name='empty']/failure")
    assert failure.get("message") == "bleu 0.000 (threshold >= 0.3): no output"
    assert int(root.get("tests")) == len(root.findall(".//testcase")) == 3 * 2 + 2
    assert int(root.get("failures")) == len(root.findall(".//failure"))


def test_configuration_from_pyproject(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path / "cases.jsonl", CASES[:2])
    (tmp_path / "pyproject.toml").write_text(
        '[tool.refscore]\ncases = "cases.jsonl"\n'
        '[tool.refscore.checks.rougeL]\nthreshold = 0.2\nbands = { good = 0.8, weak = 0.0 }\n'
        '[tool.refscore.checks.chrfpp]\nmetric = "chrf"\nthreshold = 0.1\noptions = { word_order = 2 }\n')
    assert main(["check"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "chrfpp" in out and " good " in out
    # a flag naming a configured check changes its threshold and keeps its bands
    assert main(["check", "--check", "rougeL=0.9"]) == 1
    assert " weak " in capsys.readouterr().out


def test_min_pass_rate_gate(cases):
    assert main(["check", cases, "--check", "chrf=0.5", "--min-pass-rate", "0.3"]) == ExitCode.OK
    assert main(["check", cases, "--check", "chrf=0.5", "--min-pass-rate", "0.5"]) == 1


def test_save_and_baseline(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    references = [f"the report number {i} says that sales rose by {i} percent in the north region" for i in range(30)]
    good = [{"id": f"q{i}", "actual_output": r, "expected_output": r} for i, r in enumerate(references)]
    write_cases(tmp_path / "cases.jsonl", good)
    assert main(["check", "cases.jsonl", "--check", "rougeL=0.0", "--save", "base.json"]) == ExitCode.OK
    worse = [{**case, "actual_output": "sales went up"} if i < 15 else case for i, case in enumerate(good)]
    write_cases(tmp_path / "cases.jsonl", worse)
    capsys.readouterr()
    assert main(["check", "cases.jsonl", "--check", "rougeL=0.0", "--baseline", "base.json"]) == 1
    assert "gate rougeL baseline: FAILED — mean 0.556 vs baseline 1.000: significantly worse" in capsys.readouterr().out


@pytest.mark.parametrize("records, flags, code, message", [
    ([{"actual_output": "a"}], ["--check", "bleu"], ExitCode.BAD_INPUT,
     "cases.jsonl: line 1: missing field 'expected_output'"),
    (CASES, ["--check", "cider"], ExitCode.UNKNOWN_METRIC, "unknown metric 'cider'"),
    (CASES, ["--check", "bleu=30"], ExitCode.BAD_INPUT, "threshold 30 is outside BLEU's range [0, 1]"),
    (CASES + CASES[:1], ["--check", "bleu"], ExitCode.BAD_INPUT, "line 4: duplicate case id 'same'"),
    (CASES, ["--check", "bleu", "--no-output-is-error"], ExitCode.BAD_INPUT,
     "line 3: actual_output is null or missing (case 'empty')"),
    (CASES, [], ExitCode.USAGE, "no checks: give --check"),
    (CASES, ["--check", "bleu", "--baseline", "absent.json"], ExitCode.UNREADABLE_FILE, "cannot read the baseline"),
    (CASES, ["--check", "bleu", "--junit-xml", "no/such/dir/x.xml"], ExitCode.UNWRITABLE_OUTPUT,
     "the folder does not exist"),
])
def test_bad_input_exit_codes(tmp_path, monkeypatch, capsys, records, flags, code, message):
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path / "cases.jsonl", records)
    assert main(["check", "cases.jsonl", *flags]) == code
    assert message in capsys.readouterr().err


def test_unreadable_cases_and_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "absent.jsonl", "--check", "bleu"]) == ExitCode.UNREADABLE_FILE
    assert "cannot read the cases file absent.jsonl" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").write_text("[tool.refscore\n")
    write_cases(tmp_path / "cases.jsonl", CASES)
    assert main(["check", "cases.jsonl"]) == ExitCode.BAD_INPUT
    assert "pyproject.toml is not valid TOML" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").write_text("[tool.refscore.checks.bleu]\nthreshhold = 0.3\n")
    assert main(["check", "cases.jsonl"]) == ExitCode.BAD_INPUT
    assert "unknown key 'threshhold'" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").write_text("[tool.refscore]\ncase = 'cases.jsonl'\n")
    assert main(["check", "cases.jsonl"]) == ExitCode.BAD_INPUT
    assert "[tool.refscore]: unknown key 'case'; valid keys: cases," in capsys.readouterr().err


def test_interrupted_run_writes_nothing(cases, tmp_path, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(refscore.testing.run, "evaluate", interrupted)
    assert main(["check", cases, "--check", "bleu", "--junit-xml", "out.xml", "--save", "run.json"]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert not (tmp_path / "out.xml").exists() and not (tmp_path / "run.json").exists()
