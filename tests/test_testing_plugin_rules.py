"""The pytest plugin's rules, run with pytester: the gates decide (the same verdict as ``refscore check`` for one
configuration), bad ``checks=`` are one clean collection error, ``refscore_cases`` is public and resolves paths
from the test file, and output paths are checked before any work."""
from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from test_testing_plugin import PLUGIN

pytest_plugins = ["pytester"]

#: Four cases, one far from its expected output: chrF at threshold 0.5 passes 3 of 4.
CASES = [("the cat sat on the mat", "the cat sat on the mat"),
         ("the report says that sales rose", "the report says that sales rose in the north"),
         ("Berlin is the capital of Germany", "The capital of Germany is Berlin"),
         ("a dog barked", "the committee approved the budget for next year")]


def cases_jsonl(records=CASES) -> str:
    return "".join(json.dumps({"id": f"q{i}", "actual_output": a, "expected_output": e}) + "\n"
                   for i, (a, e) in enumerate(records))


CONFIGURED_TEST = """
import pytest

@pytest.mark.refscore_cases("cases.jsonl")
def test_case(case, refscore_check):
    refscore_check(case)
"""


def refscore_check_process(cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "refscore.cli", "check"], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


# -- item 5: gates decide, in pytest as in refscore check ----------------------------------------------------------
@pytest.mark.parametrize("min_pass_rate, session_ok, outcomes", [
    (0.5, True, {"passed": 3, "xfailed": 1}),      # 3/4 >= 50%: the gate passes, the weak case is reported
    (0.9, False, {"passed": 3, "xfailed": 1}),     # 3/4 < 90%: the gate fails the session
    (1.0, False, {"passed": 3, "failed": 1}),      # the default: every failing case fails
])
def test_one_configuration_one_verdict(pytester, min_pass_rate, session_ok, outcomes):
    pytester.makefile(".jsonl", cases=cases_jsonl())
    pytester.makefile(".toml", pyproject=f'[tool.refscore]\ncases = "cases.jsonl"\n[tool.refscore.checks.chrf]\n'
                                         f'threshold = 0.5\nmin_pass_rate = {min_pass_rate}\n')
    pytester.makepyfile(CONFIGURED_TEST)
    result = pytester.runpytest(*PLUGIN, "-rxX")
    result.assert_outcomes(**outcomes)
    assert (result.ret == pytest.ExitCode.OK) is session_ok
    gate = "ok" if min_pass_rate == 0.5 else "FAILED"
    result.stdout.fnmatch_lines([f"gate chrf pass_rate: {gate} — pass rate 3/4 = 75.0%*"])
    if "xfailed" in outcomes:   # the weak case is shown with its explanation
        result.stdout.fnmatch_lines(["XFAIL*q3*under its threshold, tolerated*"])
    cli = refscore_check_process(pytester.path)
    assert (cli.returncode == 0) is session_ok, cli.stdout + cli.stderr
    weak = next(line for line in cli.stdout.splitlines() if line.startswith("q3 "))
    assert weak.split()[-1] == ("tolerated" if "xfailed" in outcomes else "FAILED")


# -- item 6: bad checks= -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("checks, fix", [('{"blue": 0.3}', "did you mean 'bleu'?"),
                                         ('{"bleu": 30}', "did you mean 0.3?")])
def test_bad_checks_are_one_clean_collection_error(pytester, checks, fix):
    pytester.makefile(".jsonl", cases=cases_jsonl())
    pytester.makepyfile(test_app=CONFIGURED_TEST.replace('"cases.jsonl"', f'"cases.jsonl", checks={checks}'))
    result = pytester.runpytest(*PLUGIN)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    shown = repr(ast.literal_eval(checks))     # the marker's checks as Python prints them
    assert output.count(f"refscore: test_app.py::test_case: checks={shown}: ") == 1, output
    assert fix in output and "(fix checks= in @pytest.mark.refscore_cases)" in output
    assert "Traceback" not in output and "checks.py" not in output


# -- item 7: refscore_cases --------------------------------------------------------------------------------------
def test_refscore_cases_is_public_and_relative_to_the_test_file(pytester):
    folder = pytester.mkdir("pt2")
    (folder / "cases.jsonl").write_text(cases_jsonl(CASES[:3]), encoding="utf-8")
    (folder / "test_app.py").write_text(
        "import pytest\nfrom refscore.testing import refscore_cases\n\n"
        "@pytest.mark.parametrize('case', refscore_cases('cases.jsonl'))\n"
        "def test_case(case, refscore_check):\n    refscore_check(case)\n", encoding="utf-8")
    pytester.makefile(".toml", pyproject="[tool.refscore.checks.chrf]\nthreshold = 0.5\n")
    result = pytester.runpytest(*PLUGIN, "pt2/test_app.py", "-v")    # run from the parent folder
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*test_case?q0? PASSED*"])


# -- item 8: output paths are checked before any test runs ---------------------------------------------------------
@pytest.mark.parametrize("option, path, why", [("--refscore-report", "nodir/r.xml", "the folder does not exist"),
                                               ("--refscore-save", ".", "is a folder, not a file")])
def test_an_unwritable_output_stops_the_session_before_any_test(pytester, option, path, why):
    pytester.makefile(".jsonl", cases=cases_jsonl())
    pytester.makepyfile(CONFIGURED_TEST.replace('"cases.jsonl"', '"cases.jsonl", checks={"chrf": 0.0}'))
    result = pytester.runpytest_subprocess(*PLUGIN, f"{option}={path}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.errlines[0].startswith(f"ERROR: refscore: {option} {path}: {why}"), result.errlines
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert "passed" not in result.stdout.str()      # no test ran
    assert not list(pytester.path.glob("*.xml")) and not list(pytester.path.glob(".*.tmp*"))   # nothing written
