"""Checks on scores computed elsewhere (``--check file:PATH=T``, ``metric = "file:PATH"``, ``Check("file:PATH")``):
rows join the test cases by case id, direction and threshold range are the scores' declared ones, a failed case's
explanation names the file and line, and bad files fail with the documented exit codes (real processes)."""
from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.errors import InputError
from refscore.metrics.external import external_scores
from refscore.testing import Check, TestCase, evaluate
from test_cli_process import refscore_command
from test_testing_plugin import MARKED_TEST, PLUGIN

pytest_plugins = ["pytester"]

# the ids of the cases, shuffled in the scores file: the join is by id, never by position
CASES = [{"id": f"q{i}", "actual_output": f"output {i}", "expected_output": f"reference {i}"} for i in range(4)]
COMET = {"q2": 0.91, "q0": 0.85, "q3": 0.42, "q1": 0.77}


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def write_comet(path: Path, scores=COMET) -> Path:
    return write_jsonl(path, [{"id": key, "score": value} for key, value in scores.items()])


@pytest.fixture()
def folder(tmp_path) -> Path:
    write_jsonl(tmp_path / "cases.jsonl", CASES)
    write_comet(tmp_path / "comet.jsonl")
    return tmp_path


def refscore_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


def test_check_passes_and_fails_on_a_scores_file_with_junit_and_json(folder):
    passing = refscore_run("check", "cases.jsonl", "--check", "file:comet.jsonl=0.4", cwd=folder)
    assert passing.returncode == ExitCode.OK, passing.stderr
    assert passing.stdout.rstrip().endswith("result: ok")

    failing = refscore_run("check", "cases.jsonl", "--check", "file:comet.jsonl=0.8", "--junit-xml", "junit.xml",
                           "--format", "json", cwd=folder)
    assert failing.returncode == ExitCode.CHECKS_FAILED, failing.stderr
    report = json.loads(failing.stdout)
    [check] = report["checks"]
    assert (check["name"], check["metric"], check["higher_is_better"]) == ("comet", "comet", True)
    assert check["scores"] == [COMET[case["id"]] for case in CASES]    # in case order, joined by id
    results = {case["id"]: case["results"][0] for case in report["cases"]}
    assert [results[key]["passed"] for key in ("q0", "q1", "q2", "q3")] == [True, False, True, False]
    assert results["q3"]["explanation"] == ("comet 0.4200 read from comet.jsonl: line 3 (id 'q3'); computed "
                                            "outside refscore, which cannot explain it")
    suite = ElementTree.parse(folder / "junit.xml").getroot().find("testsuite")
    tests = {case.get("name"): case for case in suite.iter("testcase")}
    assert suite.get("name") == "refscore.comet" and sorted(tests) == ["q0", "q1", "q2", "q3"]
    assert [name for name, case in sorted(tests.items()) if case.find("failure") is not None] == ["q1", "q3"]
    assert "read from comet.jsonl: line 3" in ElementTree.tostring(suite, encoding="unicode")


def test_configured_check_takes_direction_and_range_from_the_declared_scores(folder):
    """A lower-is-better score (MetricX-like) with a declared range, configured in pyproject.toml with a path
    relative to it, run from another folder: a case passes at or under the threshold."""
    (folder / "scores").mkdir()
    write_comet(folder / "scores" / "metricx.jsonl", {"q0": 3.0, "q1": 12.5, "q2": 0.5, "q3": 7.0})
    (folder / "pyproject.toml").write_text(
        '[tool.refscore]\ncases = "cases.jsonl"\n\n[tool.refscore.checks.mqm]\nmetric = "file:scores/metricx.jsonl"\n'
        'threshold = 7\noptions = { higher_is_better = false, range = [0, 25] }\n', encoding="utf-8")
    (folder / "elsewhere").mkdir()
    result = refscore_run("check", "--config", "../pyproject.toml", "--format", "json", cwd=folder / "elsewhere")
    assert result.returncode == ExitCode.CHECKS_FAILED, result.stderr
    report = json.loads(result.stdout)
    assert report["checks"][0]["name"] == "mqm" and report["checks"][0]["higher_is_better"] is False
    assert [case["results"][0]["passed"] for case in report["cases"]] == [True, False, True, True]
    assert report["cases"][0]["results"][0]["threshold"] == "<= 7"

    # the declared range bounds the threshold: 30 is refused (bad input), as a 0-1 check refuses 30
    (folder / "pyproject.toml").write_text((folder / "pyproject.toml").read_text().replace("threshold = 7",
                                                                                          "threshold = 30"))
    result = refscore_run("check", "--config", "../pyproject.toml", cwd=folder / "elsewhere")
    assert result.returncode == ExitCode.BAD_INPUT
    assert "check 'mqm': threshold 30 is outside mqm's range [0, 25]" in result.stderr   # the declared name
    assert "did you mean" not in result.stderr and "Traceback" not in result.stderr     # their own scale, not 0-1


@pytest.mark.parametrize(("flag", "code", "message"), [
    ("file:missing.jsonl=0.5", ExitCode.UNREADABLE_FILE, "cannot read the scores file 'missing.jsonl'"),
    ("file:partial.jsonl=0.5", ExitCode.BAD_INPUT, "(None, 'q3')"),
])
def test_bad_scores_files_exit_with_the_documented_codes(folder, flag, code, message):
    write_comet(folder / "partial.jsonl", {"q0": 0.5, "q1": 0.5, "q2": 0.5, "q9": 0.5})   # q3 missing, q9 extra
    result = refscore_run("check", "cases.jsonl", "--check", flag, "--junit-xml", "junit.xml", cwd=folder)
    assert result.returncode == code
    assert message in result.stderr and result.stderr.startswith(("refscore: error:", "usage:"))
    assert "Traceback" not in result.stderr and not (folder / "junit.xml").exists()


def test_unmatched_and_duplicated_rows_are_named(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    with pytest.raises(SystemExit) as exited:
        main(["check", "cases.jsonl", "--check", "file:=0.5"])
    assert exited.value.code == ExitCode.USAGE and "has no path after 'file:'" in capsys.readouterr().err
    write_comet(folder / "extra.jsonl", {**COMET, "q7": 0.5})
    assert main(["check", "cases.jsonl", "--check", "file:extra.jsonl"]) == ExitCode.BAD_INPUT
    assert "matches no segment of the inputs: (system, id) (None, 'q7')" in capsys.readouterr().err
    write_jsonl(folder / "twice.jsonl", [{"id": "q0", "score": 0.5}, *({"id": key, "score": value}
                                                                       for key, value in COMET.items())])
    assert main(["check", "cases.jsonl", "--check", "file:twice.jsonl"]) == ExitCode.BAD_INPUT
    assert "given twice: (None, 'q0') (first given at twice.jsonl: line 1)" in capsys.readouterr().err


def test_check_option_of_a_file_check_uses_its_name(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    assert main(["check", "cases.jsonl", "--check", "file:comet.jsonl=0.8",
                 "--check-option", "comet.higher_is_better=false"]) == ExitCode.CHECKS_FAILED
    passed = [line.split()[-1] for line in capsys.readouterr().out.splitlines() if line.startswith("q")]
    assert sorted(passed) == ["FAILED", "FAILED", "passed", "passed"]    # q1, q3 (<= 0.8) pass now


def test_python_api_joins_by_case_id_and_a_system_of_several():
    """An array's rows have the ids 1..n: they join cases with those ids, and name the cases they miss."""
    cases = [TestCase(case["actual_output"], case["expected_output"], id=index + 1) for index, case in enumerate(CASES)]
    scores = external_scores({"old": [0.1] * 4, "new": [0.9, 0.2, 0.9, 0.9]}, name="human")
    run = evaluate(cases, [Check(scores, threshold=0.5, system="new")])
    assert [result.passed for result in run.results()] == [True, False, True, True]
    assert "read from scores['new'][1] (id '2')" in run.results("2")[0].explanation
    with pytest.raises(InputError, match=r"check 'human': .*\('new', 'q0'\)"):
        evaluate(CASES, [Check(scores, system="new")])
    with pytest.raises(InputError, match="hold 2 systems.*option system"):
        evaluate(cases, [Check(scores)])


def test_pytest_plugin_gates_on_a_configured_file_check(pytester):
    pytester.makepyprojecttoml('[tool.refscore.checks.comet]\nmetric = "file:comet.jsonl"\nthreshold = 0.8\n')
    write_jsonl(pytester.path / "cases.jsonl", CASES)
    write_comet(pytester.path / "comet.jsonl")
    pytester.makepyfile(MARKED_TEST.format(checks="") + """
def test_own_output(refscore_check):
    from refscore.testing import TestCase
    refscore_check(TestCase("made by the test", "reference 0", id="q0"))
""")
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(["*test_case?q1? FAILED*", "*test_case?q2? PASSED*"])
    result.stdout.fnmatch_lines(["*comet: 0.420 (threshold >= 0.8) FAILED — comet 0.4200 read from *comet.jsonl: "
                                 "line 3 (id 'q3')*"])
    result.stdout.fnmatch_lines(["*the checks comet read scores computed elsewhere for the outputs of the cases "
                                 "file; an output the test produces has none*"])

    # a selection of the file's cases (-k): the session summary takes their batch scores, not a join of a subset
    result = pytester.runpytest(*PLUGIN, "-k", "q0 or q2")
    result.assert_outcomes(passed=2, deselected=3)
    result.stdout.fnmatch_lines(["comet: 2/2 passed*mean 0.880*"])


# -- issue 39 item 9: each version its own scores file, compared by the checks' declared name ---------------------
def _two_versions(folder: Path, shift: float) -> None:
    """40 cases; ``v1.jsonl`` COMET-like scores, ``v2.jsonl`` the same scores moved by ``shift`` (with noise)."""
    rng = np.random.default_rng(4)
    cases = [{"id": f"c{i}", "actual_output": f"output {i}", "expected_output": f"reference {i}"} for i in range(40)]
    write_jsonl(folder / "many.jsonl", cases)
    first = rng.uniform(0.55, 0.95, len(cases))
    second = np.clip(first + shift + rng.normal(0, 0.01, len(cases)), 0, 1)
    for name, values in (("v1", first), ("v2", second)):
        write_comet(folder / f"{name}.jsonl", {case["id"]: float(v) for case, v in zip(cases, values)})


@pytest.mark.parametrize("shift, code", [(-0.15, ExitCode.CHECKS_FAILED), (0.0, ExitCode.OK)])
def test_two_scores_files_gate_against_each_other_by_the_declared_name(folder, shift, code):
    _two_versions(folder, shift)
    for flags in (["--check-option", "{stem}.name=comet"], []):   # the command line; a configured check
        config = [] if flags else ["--config", "pyproject.toml"]
        runs = []
        for version, extra in (("v1", ["--save", "baseline.json"]), ("v2", ["--baseline", "baseline.json"])):
            (folder / "pyproject.toml").write_text(f'[tool.refscore.checks.comet]\nmetric = "file:{version}.jsonl"\n'
                                                   f'threshold = 0.0\n', encoding="utf-8")
            check = ["--check", f"file:{version}.jsonl=0.0", *(f.format(stem=version) for f in flags)] if flags else []
            runs.append(refscore_run("check", "many.jsonl", *check, *config, *extra, "--format", "json", cwd=folder))
        assert runs[0].returncode == ExitCode.OK, runs[0].stderr
        assert runs[1].returncode == code, runs[1].stderr
        [gate] = [g for g in json.loads(runs[1].stdout)["gates"] if g["gate"] == "baseline"]
        assert gate["check"] == "comet" and "not compared" not in gate["message"]
        assert ("significantly worse" in gate["message"]) is (code == ExitCode.CHECKS_FAILED), gate["message"]


def test_another_declared_direction_is_refused_and_an_unnamed_file_check_says_how_to_compare(folder):
    _two_versions(folder, 0.0)
    saved = refscore_run("check", "many.jsonl", "--check", "file:v1.jsonl=0.0", "--check-option", "v1.name=comet",
                         "--save", "baseline.json", cwd=folder)
    assert saved.returncode == ExitCode.OK, saved.stderr
    flipped = refscore_run("check", "many.jsonl", "--check", "file:v2.jsonl=1.0", "--check-option", "v2.name=comet",
                           "--check-option", "v2.higher_is_better=false", "--baseline", "baseline.json", cwd=folder)
    assert flipped.returncode == ExitCode.BAD_INPUT, flipped.stderr
    assert "higher_is_better True vs False" in flipped.stderr
    unnamed = refscore_run("check", "many.jsonl", "--check", "file:v2.jsonl=0.0", "--baseline", "baseline.json",
                           "--format", "json", cwd=folder)
    assert unnamed.returncode == ExitCode.OK, unnamed.stderr
    [gate] = [g for g in json.loads(unnamed.stdout)["gates"] if g["gate"] == "baseline"]
    assert "not compared" in gate["message"] and "v2.name=comet" not in gate["message"]
    assert "--check-option v2.name=NAME" in gate["message"], gate["message"]
