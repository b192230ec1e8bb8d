"""``evaluate``: results, no-output cases, summaries with their intervals, gates, saving and baselines."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from refscore.errors import InputError
from refscore.significance import bootstrap_ci_from_statistics
from refscore.testing import Check, TestCase, evaluate, load_run, wilson_interval
from refscore.io.atomic import write_text_atomically

REFERENCES = [f"the report number {i} says that sales rose by {i} percent in the north region" for i in range(30)]
GOOD = list(REFERENCES)
DEGRADED = [f"sales went up in region {i}" for i in range(30)]


def cases(outputs):
    return [TestCase(output, reference, id=f"q{i}") for i, (output, reference) in enumerate(zip(outputs, REFERENCES))]


def test_results_no_output_and_explanations_only_for_failing_cases():
    outputs = GOOD[:3] + [DEGRADED[3], None]
    run = evaluate([TestCase(o, r, id=f"q{i}") for i, (o, r) in enumerate(zip(outputs, REFERENCES))],
                   [Check("rougeL", 0.8), Check("ter", 0.3)])
    rouge = {r.case_id: r for r in run.results() if r.check == "rougeL"}
    assert [rouge[f"q{i}"].passed for i in range(5)] == [True, True, True, False, False]
    assert rouge["q0"].explanation is None
    assert "longest common subsequence" in rouge["q3"].explanation
    assert rouge["q4"].reason == "no output" and rouge["q4"].score == 0.0
    ter = run.results("q4")[1]
    assert ter.check == "ter" and ter.score == 1.0 and not ter.passed     # "" against the reference: all edits
    assert not run.ok and not run.case_passed("q3") and run.case_passed("q0")
    assert len(run.failures()) == 4


def test_explain_all_and_none():
    run = evaluate(cases(GOOD[:2]), ["chrf"], explain="all")
    assert all(r.explanation for r in run.results())
    assert all(r.explanation is None for r in evaluate(cases(DEGRADED[:2]), ["chrf"], explain="none").results())


def test_no_output_is_error(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text('{"actual_output": "a", "expected_output": "a"}\n{"expected_output": "b"}\n')
    with pytest.raises(InputError, match=r"cases\.jsonl: line 2: actual_output is null or missing \(case 'case-2'\)"):
        evaluate(path, ["bleu"], no_output_is_error=True)
    assert not evaluate(path, ["bleu"]).ok


def test_wilson_interval_matches_newcombe_1998():
    # Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 -> 0.2553 to 0.3662 (method 3, Wilson)
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_summary_mean_interval_is_the_metric_bootstrap_for_document_averaged_rouge():
    outputs = GOOD[:15] + DEGRADED[15:]
    run = evaluate(cases(outputs), [Check("rougeL")], n_bootstrap=500, seed=7)
    summary = run.summary["rougeL"]
    check = Check("rougeL")
    _, stats = check.scores(outputs, REFERENCES)
    reference = bootstrap_ci_from_statistics(check.metric, stats, n=500, seed=7)   # ROUGE's mean, resampled
    assert summary.mean == pytest.approx(reference.score, abs=1e-12)
    assert summary.mean_interval == pytest.approx((reference.lower, reference.upper), abs=1e-12)
    assert (summary.passed, summary.cases, summary.pass_rate) == (15, 30, 0.5)
    assert summary.pass_rate_interval == wilson_interval(15, 30)


def test_mean_is_the_mean_of_case_scores_for_bleu():
    outputs = GOOD[:10] + DEGRADED[10:]
    run = evaluate(cases(outputs), ["bleu"])
    scores, _ = Check("bleu").scores(outputs, REFERENCES)
    assert run.summary["bleu"].mean == pytest.approx(float(np.mean(scores)), abs=1e-12)


def test_gates_min_pass_rate_and_min_mean():
    outputs = GOOD[:27] + DEGRADED[27:]
    assert not evaluate(cases(outputs), [Check("rougeL", 0.5)]).ok          # default: every case must pass
    run = evaluate(cases(outputs), [Check("rougeL", 0.5, min_pass_rate=0.9, min_mean=0.8)])
    assert run.ok and [g.kind for g in run.gates] == ["pass_rate", "mean"]
    run = evaluate(cases(outputs), [Check("rougeL", 0.5, min_pass_rate=0.9, min_mean=0.95)])
    assert not run.ok and not run.gates[1].passed and "required >= 0.95" in run.gates[1].message
    ter = evaluate(cases(outputs), [Check("ter", 0.5, min_pass_rate=0.0, min_mean=0.05)])
    assert not ter.ok and "required <= 0.05" in ter.gates[1].message      # lower is better


def test_baseline_gate_tells_a_regression_from_noise(tmp_path):
    checks = [Check("rougeL", 0.5, min_pass_rate=0.0), Check("ter", 0.5, min_pass_rate=0.0)]
    baseline = evaluate(cases(GOOD), checks)
    baseline.save(tmp_path / "base.json")
    noise = evaluate(cases(GOOD[:29] + DEGRADED[29:]), checks, baseline=tmp_path / "base.json")
    assert noise.ok
    assert "worse, but not significantly" in [g for g in noise.gates if g.kind == "baseline"][0].message
    regression = evaluate(cases(DEGRADED[:15] + GOOD[15:]), checks, baseline=str(tmp_path / "base.json"))
    failed = [g for g in regression.gates if not g.passed]
    assert [(g.check, g.kind) for g in failed] == [("rougeL", "baseline"), ("ter", "baseline")]
    assert "significantly worse (paired bootstrap p = " in failed[0].message
    same = evaluate(cases(GOOD), checks, baseline=baseline)
    assert same.ok and "equal to the baseline" in same.gates[1].message


def test_baseline_matches_cases_by_id_and_refuses_other_cases_or_settings(tmp_path):
    path = tmp_path / "base.json"
    evaluate(cases(GOOD), [Check("rougeL", min_pass_rate=0)]).save(path)
    shuffled = list(reversed(cases(GOOD)))
    assert evaluate(shuffled, [Check("rougeL")], baseline=path).gates[1].message.endswith("equal to the baseline")
    with pytest.raises(InputError, match=r"other cases than this run .*only in the baseline: \['q29'\]"):
        evaluate(cases(GOOD[:29]), [Check("rougeL")], baseline=path)
    with pytest.raises(InputError, match=r"computed with other metric settings"):
        evaluate(cases(GOOD), [Check("rougeL", stemmer=True)], baseline=path)
    new_check = evaluate(cases(GOOD), [Check("chrf")], baseline=path)
    assert "not in the baseline" in new_check.gates[1].message


def test_saved_run_is_json_with_every_case_result(tmp_path):
    run = evaluate(cases(GOOD[:2]), ["bleu"])
    run.save(tmp_path / "run.json")
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["refscore_test_run"] == 1 and data["ok"] is True
    assert data["cases"][0]["results"][0]["band"] == "very strong overlap"
    assert load_run(tmp_path / "run.json").case_ids == ["q0", "q1"]


@pytest.mark.parametrize("text, message", [("{", "not valid JSON"), ('{"a": 1}', "not a saved refscore test run"),
                                           ('{"refscore_test_run": 1, "cases": [{"id": 1}], "checks": '
                                            '[{"name": "x", "metric": "bleu", "config_hash": "h", "scores": []}]}',
                                            "damaged")])
def test_bad_baselines(tmp_path, text, message):
    (tmp_path / "base.json").write_text(text)
    with pytest.raises(InputError, match=message):
        load_run(tmp_path / "base.json")


def test_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "report.xml"
    target.write_text("old")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomically(target, "new" * 1000)
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["report.xml"]


def test_bad_arguments():
    with pytest.raises(InputError, match="no test cases"):
        evaluate([], ["bleu"])
    with pytest.raises(InputError, match="explain must be one of"):
        evaluate(cases(GOOD[:1]), ["bleu"], explain="some")
    with pytest.raises(InputError, match="no checks given"):
        evaluate(cases(GOOD[:1]), [])


def test_the_worked_example_of_the_docs(tmp_path):
    """docs/testing.md prints these numbers; the bundled 20 cases must keep producing them."""
    from importlib import resources

    examples = resources.files("refscore") / "data" / "testing"
    checks = [Check("bleu", threshold=0.2, min_pass_rate=0.5),
              Check("chrf", threshold=0.5, min_pass_rate=0.6, min_mean=0.55)]
    run = evaluate(examples / "translation_v1.jsonl", checks)
    assert run.ok and len(run.cases) == 20
    assert (run.summary["chrf"].passed, round(run.summary["chrf"].mean, 3)) == (13, 0.572)
    run.save(tmp_path / "baseline.json")
    new = evaluate(examples / "translation_v2.jsonl", checks, baseline=tmp_path / "baseline.json")
    gates = {(g.check, g.kind): g for g in new.gates}
    assert gates["bleu", "baseline"].passed and "p = 0.0619" in gates["bleu", "baseline"].message
    assert not gates["chrf", "baseline"].passed and "p = 0.0140" in gates["chrf", "baseline"].message


def test_evaluate_pauses_the_cyclic_collector_and_restores_the_callers_setting():
    import gc

    seen = []

    class Spy(Check):
        def scores(self, hypotheses, references, *, num_threads=None):
            seen.append(gc.isenabled())
            return super().scores(hypotheses, references, num_threads=num_threads)

    assert gc.isenabled()
    evaluate([{"actual_output": "a b", "expected_output": "a b"}], [Spy("bleu")], explain="none")
    assert seen == [False] and gc.isenabled()
    with pytest.raises(InputError):     # an error inside the block restores it too
        evaluate([{"actual_output": "a", "expected_output": "a"}] * 2 + [{"id": "x", "actual_output": "a",
                  "expected_output": "a"}] * 2, ["bleu"])
    assert gc.isenabled()
    gc.disable()
    try:
        evaluate([{"actual_output": "a b", "expected_output": "a b"}], ["bleu"], explain="none")
        assert not gc.isenabled()     # a caller who disabled it keeps it disabled
    finally:
        gc.enable()
