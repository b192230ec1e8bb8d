"""A saved baseline's scores (issue 40 item 3): NaN or null for a case the metric gave no number leaves that case out
of the paired comparison, said in the gate's message, and never turns the gate off; strings, booleans, infinities
and scores outside the metric's range are refused when the baseline is read."""
from __future__ import annotations

import json

import pytest

from refscore.errors import InputError
from refscore.testing import Check, TestCase, evaluate, load_run

REFERENCES = [f"the report number {i} says that sales rose by {i} percent in the north region" for i in range(30)]
WORSE = ["sales went up"] * 15 + REFERENCES[15:]


def cases(outputs):
    return [TestCase(output, reference, id=f"q{i}") for i, (output, reference) in enumerate(zip(outputs, REFERENCES))]


@pytest.fixture()
def saved(tmp_path):
    path = tmp_path / "base.json"
    evaluate(cases(REFERENCES), [Check("rougeL", 0.0), Check("ter", 2.0)]).save(path)
    return path, json.loads(path.read_text())


def edited(tmp_path, data, check, values):
    """The saved run with some scores of one check replaced ({case index: value})."""
    data = json.loads(json.dumps(data))
    scores = data["checks"][[c["name"] for c in data["checks"]].index(check)]["scores"]
    for index, value in values.items():
        scores[index] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))    # NaN as the bare NaN token Python's json writes and reads
    return path


def baseline_gate(run, check="rougeL"):
    return next(g for g in run.gates if g.kind == "baseline" and g.check == check)


@pytest.mark.parametrize("missing", [float("nan"), None])
def test_a_missing_baseline_score_leaves_its_case_out_and_the_gate_still_fails_a_regression(tmp_path, saved, missing):
    path, data = saved
    clean = baseline_gate(evaluate(cases(WORSE), [Check("rougeL", 0.0), Check("ter", 2.0)], baseline=path))
    assert not clean.passed and "significantly worse" in clean.message
    run = evaluate(cases(WORSE), [Check("rougeL", 0.0), Check("ter", 2.0)],
                   baseline=edited(tmp_path, data, "rougeL", {3: missing}))
    gate = baseline_gate(run)
    assert not gate.passed and not run.ok
    assert "vs baseline 1.000: significantly worse" in gate.message          # not "vs baseline nan: not worse"
    assert "compared on the 29 of 30 cases both runs scored (1 left out: 1 without a score" in gate.message
    assert "in the baseline" in gate.message
    ter = baseline_gate(run, "ter")                                        # the other check keeps all its cases
    assert not ter.passed and "left out" not in ter.message


def test_a_baseline_without_any_score_fails_its_gate_saying_why(tmp_path, saved):
    path, data = saved
    run = evaluate(cases(REFERENCES), [Check("rougeL", 0.0)],
                   baseline=edited(tmp_path, data, "rougeL", dict.fromkeys(range(30))))
    gate = baseline_gate(run)
    assert not gate.passed and "no case has a score in both this run and the baseline" in gate.message


@pytest.mark.parametrize("value, message", [
    ("0.5", r"case 'q3': the score is \"0.5\", not a finite number"),
    (True, r"case 'q3': the score is true, not a finite number"),
    (float("inf"), r"case 'q3': the score is Infinity, not a finite number"),
    (10 ** 400, r"case 'q3': the score is 1000000000000000000000000000000000000\.\.\., not a finite number"),
    ([0.5], r"case 'q3': the score is \[0.5\], not a finite number"),
], ids=["string", "boolean", "infinity", "400 digits", "list"])
def test_a_baseline_score_that_is_not_a_number_is_refused_when_read(tmp_path, saved, value, message):
    _, data = saved
    with pytest.raises(InputError, match=rf"edited.json is damaged: check 'rougeL', {message}"):
        load_run(edited(tmp_path, data, "rougeL", {3: value}))


@pytest.mark.parametrize("check, value, shown", [("rougeL", 55.0, r"score 55 is outside ROUGE-L's range \[0, 1\]"),
                                                 ("rougeL", -0.5, r"score -0.5 is outside ROUGE-L's range \[0, 1\]"),
                                                 ("ter", -1.0, r"score -1 is outside TER's range \[0, inf\]")])
def test_a_baseline_score_outside_the_metric_range_is_refused_before_scoring(tmp_path, saved, check, value, shown):
    _, data = saved
    with pytest.raises(InputError, match=rf"check '{check}', case 'q3': {shown} \(1 of 30 scores outside\)"):
        evaluate(cases(REFERENCES), [Check("rougeL", 0.0), Check("ter", 2.0)],
                 baseline=edited(tmp_path, data, check, {3: value}))


def test_scores_a_metric_can_give_are_accepted(tmp_path, saved):
    """TER above 2 (more edits than reference words) and a rounding hair above 1 are real scores."""
    _, data = saved
    path = edited(tmp_path, {**data}, "ter", {0: 7.5})
    path = edited(tmp_path, json.loads(path.read_text()), "rougeL", {1: 1.0 + 1e-9})
    run = evaluate(cases(REFERENCES), [Check("rougeL", 0.0), Check("ter", 2.0)], baseline=path)
    assert baseline_gate(run, "ter").passed and baseline_gate(run).passed


def test_the_command_line_gate_with_a_nan_baseline_exits_1(tmp_path, saved, monkeypatch, capsys):
    from refscore.cli.main import main

    _, data = saved
    monkeypatch.chdir(tmp_path)
    path = edited(tmp_path, data, "rougeL", {0: float("nan")})
    (tmp_path / "cases.jsonl").write_text("".join(
        json.dumps({"id": f"q{i}", "actual_output": o, "expected_output": r}) + "\n"
        for i, (o, r) in enumerate(zip(WORSE, REFERENCES))))
    assert main(["check", "cases.jsonl", "--check", "rougeL=0.0", "--check", "ter=2.0",
                 "--baseline", str(path)]) == 1
    assert "gate rougeL baseline: FAILED — mean 0.571 vs baseline 1.000: significantly worse" in capsys.readouterr().out
