"""``refscore check --calibrate`` in real processes: the threshold written into pyproject.toml is calibrate()'s on
the check's own scores, the rest of the configuration stays, the next ``refscore check`` uses it, and bad input
exits with its code and a message naming the problem."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.meta.calibration import calibrate
from refscore.testing import Check
from test_cli_process import refscore_command

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REFERENCES = ["the cat sat on the mat", "a dog barked at the mailman", "it is raining in the city today",
              "she reads a book every night", "the train leaves at nine", "we walked along the river"]
OUTPUTS = ["the cat sat on the mat", "a dog barked at a mailman", "rain falls on city",
           "she is reading books each night", "train nine", "we went walking along the river bank"]
LABELS = ["pass", "pass", "fail", "pass", "fail", "pass"]
RATINGS = [0.0, -1.0, -6.0, -0.5, -10.0, None]


def refscore(*args, cwd):
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.refscore]\ncases = "cases.jsonl"\n\n[tool.refscore.checks.chrfpp]\nmetric = "chrf"\n'
        'threshold = 0.9\nmin_pass_rate = 0.5\noptions = { word_order = 2 }\n', encoding="utf-8")
    with open(tmp_path / "cases.jsonl", "w", encoding="utf-8") as handle:
        for i, (out, ref, label, rating) in enumerate(zip(OUTPUTS, REFERENCES, LABELS, RATINGS), 1):
            handle.write(json.dumps({"id": f"q{i}", "actual_output": out, "expected_output": ref, "label": label,
                                     "mqm": rating}) + "\n")
    return tmp_path


def test_calibrated_threshold_is_written_into_the_configuration(project):
    process = refscore("check", "--calibrate", "cases.jsonl", "--label", "label", "--save", "cal.json", cwd=project)
    assert process.returncode == ExitCode.OK, process.stderr
    check = Check("chrf", word_order=2)
    scores, _ = check.scores(OUTPUTS, REFERENCES)
    expected = calibrate(scores, [label == "pass" for label in LABELS], seed=12345)
    table = tomllib.loads((project / "pyproject.toml").read_text())["tool"]["refscore"]["checks"]["chrfpp"]
    assert table == {"metric": "chrf", "threshold": expected.threshold, "min_pass_rate": 0.5,
                     "options": {"word_order": 2}}
    assert f"chrfpp       >= {expected.threshold:<7.4f}  {expected.agreement:.3f}" in process.stdout
    saved = json.loads((project / "cal.json").read_text())
    assert saved["refscore_calibration"] == 1 and saved["checks"][0]["interval"] == list(expected.interval)
    # the next run uses the calibrated threshold: with accuracy 1 the failing cases are the labelled failures
    run = refscore("check", "--format", "json", cwd=project)
    failed = {case["id"] for case in json.loads(run.stdout)["cases"] if not case["results"][0]["passed"]}
    assert expected.accuracy == 1.0 and failed == {"q3", "q5"}


def test_ratings_with_a_cutoff_json_output_and_no_write(project):
    before = (project / "pyproject.toml").read_text()
    process = refscore("check", "--calibrate", "cases.jsonl", "--label", "mqm", "--pass-if", ">= -1", "--check",
                       "bleu", "--objective", "f1", "--no-write", "--format", "json", cwd=project)
    assert process.returncode == ExitCode.OK, process.stderr
    document = json.loads(process.stdout)
    item = document["checks"][0]
    assert (item["name"], item["objective"], item["cases"], item["missing"]) == ("bleu", "f1", 5, 1)
    scores, _ = Check("bleu").scores(OUTPUTS[:5], REFERENCES[:5])
    assert item["threshold"] == calibrate(scores, [r >= -1 for r in RATINGS[:5]], objective="f1").threshold
    assert (project / "pyproject.toml").read_text() == before


# the other refusals (ratings without a cut-off, a bad cut-off, a precision target without a value) are the
# library's errors, tested in test_meta_calibration.py; the command maps every one of them to exit 7
@pytest.mark.parametrize("arguments, code, message", [
    (["--calibrate", "absent.jsonl"], ExitCode.UNREADABLE_FILE,
     "cannot read the labels file absent.jsonl (--calibrate): No such file or directory"),
    (["--calibrate", "cases.jsonl"], ExitCode.USAGE, "has 2 human scores (mqm, label); choose one with --label"),
])
def test_bad_input_exits_with_its_code(project, arguments, code, message):
    process = refscore("check", *arguments, cwd=project)
    assert process.returncode == code, process.stderr
    assert message in process.stderr and "Traceback" not in process.stderr


def test_a_threshold_near_zero_prints_without_a_minus_sign(project):
    """Issue 39 item 8: outside scores near a perfect MQM of 0 give a threshold that rounds to zero: ``>= 0.0000``,
    never ``-0.0000``; the header says outside scores are on their own scale."""
    (project / "mqm.tsv").write_text("system\tid\tscore\n" + "".join(f"cases\tq{i}\t{score}\n" for i, score in
                                                                     enumerate([-1e-5, -1e-5, -3e-5, -1e-5, -4e-5,
                                                                                -1e-5], 1)), encoding="utf-8")
    process = refscore("check", "--calibrate", "cases.jsonl", "--label", "label", "--check", "file:mqm.tsv",
                       "--no-write", cwd=project)
    assert process.returncode == ExitCode.OK, process.stderr
    document = json.loads(refscore("check", "--calibrate", "cases.jsonl", "--label", "label", "--check",
                                   "file:mqm.tsv", "--no-write", "--format", "json", cwd=project).stdout)
    threshold = document["checks"][0]["threshold"]
    assert -5e-5 < threshold < 0, threshold
    row = process.stdout.splitlines()[2]
    assert row.split()[:3] == ["mqm", ">=", "0.0000"], row
    assert "scores from outside on their own scale" in process.stdout.splitlines()[0]


def rated_segments(path):
    """Three systems' outputs of the six references, each labelled: a file with systems for held-out folds."""
    variants = [OUTPUTS, REFERENCES, [output.split(" ", 1)[-1] for output in OUTPUTS]]
    verdicts = [LABELS, ["pass"] * 5 + ["fail"], ["fail", "pass", "fail", "fail", "fail", "pass"]]
    with open(path, "w", encoding="utf-8") as handle:
        for system, (outputs, labels) in enumerate(zip(variants, verdicts)):
            for segment, (output, reference, label) in enumerate(zip(outputs, REFERENCES, labels), 1):
                handle.write(json.dumps({"system": f"sys{system}", "seg_id": segment, "hypothesis": output,
                                         "reference": reference, "label": label}) + "\n")
    return variants, verdicts


@pytest.mark.parametrize("objective, extra, column", [("accuracy", [], "accuracy"), ("f1", [], "F1"),
                                                      ("precision", ["--target-precision", "0.5"], "precision")])
def test_table_names_the_objective_prints_the_baseline_and_the_held_out_figure(project, objective, extra, column):
    from refscore.meta.holdout import held_out

    variants, verdicts = rated_segments(project / "rated.jsonl")
    process = refscore("check", "--calibrate", "rated.jsonl", "--check", "chrf", "--objective", objective, *extra,
                       "--system-folds", "3", "--no-write", cwd=project)
    assert process.returncode == ExitCode.OK, process.stderr
    header, row = process.stdout.splitlines()[1:3]
    assert "agreement" not in header and header.split()[2:6] == [column, "held-out", "(3", "folds)"]
    scores = np.concatenate([Check("chrf").scores(outputs, REFERENCES)[0] for outputs in variants])
    labels = [label == "pass" for labels in verdicts for label in labels]
    systems = [f"sys{i}" for i in range(3) for _ in REFERENCES]
    options = {"objective": objective, "target_precision": 0.5 if extra else None}
    expected = calibrate(scores, labels, seed=12345, **options)
    held = held_out(scores, labels, systems, 3, **options)
    assert row.split()[:7] == ["chrf", ">=", f"{expected.threshold:.4f}", f"{expected.agreement:.3f}",
                               f"[{expected.interval[0]:.3f},", f"{expected.interval[1]:.3f}]",
                               f"{held.agreement:.3f}"]
    assert row.split()[7] == f"{expected.baseline:.3f}" and f"baseline rule: {expected.baseline_rule}" in \
        process.stdout
    document = json.loads(refscore("check", "--calibrate", "rated.jsonl", "--check", "chrf", "--objective",
                                   objective, *extra, "--system-folds", "3", "--no-write", "--format", "json",
                                   cwd=project).stdout)
    item = document["checks"][0]
    assert document["system_folds"] == 3 and item["held_out"] == held.to_dict()
    assert (item["baseline"], item["baseline_rule"]) == (expected.baseline, expected.baseline_rule)


@pytest.mark.parametrize("arguments, message", [
    (["--objective", "f1", "--target-precision", "0.9"],
     "--target-precision goes with --objective precision and only there"),
    (["--objective", "precision", "--target-precision", "1"],
     "lower --target-precision, or use --objective accuracy or --objective f1"),
    (["--system-folds", "4"], "--system-folds must be an integer from 2 to the number of systems with a label (3)"),
])
def test_command_line_errors_name_the_flags(project, arguments, message):
    rated_segments(project / "rated.jsonl")
    process = refscore("check", "--calibrate", "rated.jsonl", "--check", "chrf", "--no-write", *arguments,
                       cwd=project)
    assert process.returncode == ExitCode.BAD_INPUT, process.stderr
    assert message in process.stderr and "Traceback" not in process.stderr
