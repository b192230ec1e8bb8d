"""Threshold calibration (refscore.meta.calibration): the chosen threshold against a brute-force oracle, the
objectives, lower-is-better metrics, the bootstrap interval, cut-offs, and writing the threshold into
pyproject.toml."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore.errors import InputError
from refscore.meta.calibration import (agreement, calibrate, labels_from_ratings, parse_cutoff,
                                       write_threshold)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def oracle(scores, labels, objective, higher_is_better=True, target=None, span=(0.0, 1.0)):
    """Every threshold on a fine grid of the range plus every score and midpoint, scored case by case in plain
    Python: the best agreement any threshold reaches, and the most cases passed at that agreement."""
    sign = 1 if higher_is_better else -1
    values = sorted(set(scores))
    grid = set(np.linspace(*span, 401).tolist()) | set(values)
    grid |= {(a + b) / 2 for a, b in zip(values, values[1:])}
    results = []
    for t in grid:
        tp = fp = fn = tn = 0
        for s, label in zip(scores, labels):
            passed = s >= t if sign > 0 else s <= t
            tp += passed and label
            fp += passed and not label
            fn += (not passed) and label
            tn += (not passed) and not label
        accuracy = (tp + tn) / len(scores)
        precision = tp / (tp + fp) if tp + fp else math.nan
        f1 = 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else math.nan
        value = {"accuracy": accuracy, "f1": f1, "precision": precision}[objective]
        results.append((t, value, tp + fp))
    if objective == "precision":
        reached = [r for r in results if not math.isnan(r[1]) and r[1] >= target - 1e-12]
        return max(r[2] for r in reached), None
    best = max(r[1] for r in results if not math.isnan(r[1]))
    return best, max(r[2] for r in results if r[1] == best)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([i / 20 for i in range(21)]), st.booleans()), min_size=1, max_size=30),
       st.sampled_from(["accuracy", "f1"]), st.booleans())
def test_best_threshold_equals_the_brute_force_oracle(cases, objective, higher_is_better):
    scores = [score for score, _ in cases]
    labels = [label for _, label in cases]
    span = (0.0, 1.0)
    if not any(labels) and objective == "f1":
        return   # F1 of passes is undefined without a human pass
    result = calibrate(scores, labels, objective=objective, higher_is_better=higher_is_better, n_bootstrap=20,
                       threshold_range=span)
    best, most_passes = oracle(scores, labels, objective, higher_is_better, span=span)
    assert result.agreement == pytest.approx(best, abs=1e-12)
    assert result.check_passes == most_passes          # ties go to the most lenient threshold
    assert span[0] <= result.threshold <= span[1]
    assert agreement(scores, labels, result.threshold, higher_is_better=higher_is_better,
                     objective=objective) == pytest.approx(best, abs=1e-12)


def test_target_precision_passes_the_most_cases_that_keep_it():
    scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    labels = [0, 1, 0, 1, 1, 0, 1, 1]
    result = calibrate(scores, labels, objective="precision", target_precision=0.75, n_bootstrap=50)
    most, _ = oracle(scores, labels, "precision", target=0.75)
    assert result.check_passes == most == 5 and result.precision == 0.8     # 0.4 ... 0.8 pass, 4 of them rightly
    assert result.threshold == 0.35
    with pytest.raises(InputError, match="no threshold reaches precision 1; the best is 0.833"):
        calibrate([0.1, 0.9, 0.8, 0.7, 0.6, 0.5], [1, 0, 1, 1, 1, 1], objective="precision", target_precision=1.0)


def test_lower_is_better_passes_at_or_below_the_threshold():
    ter = [0.0, 0.2, 0.5, 0.9, 1.4]
    labels = [True, True, False, False, False]
    result = calibrate(ter, labels, higher_is_better=False, threshold_range=(0.0, 2.0), n_bootstrap=50)
    assert result.threshold == 0.3 and result.accuracy == 1.0     # candidate 0.35: 0.3 makes the same decisions
    assert list(result.curve.thresholds) == sorted(result.curve.thresholds)


def test_bootstrap_interval_is_seeded_and_brackets_the_agreement():
    rng = np.random.default_rng(0)
    scores = rng.random(300)
    labels = scores + rng.normal(0, 0.3, 300) > 0.5
    first = calibrate(scores, labels, seed=7, n_bootstrap=300)
    again = calibrate(scores, labels, seed=7, n_bootstrap=300)
    other = calibrate(scores, labels, seed=8, n_bootstrap=300)
    assert first.interval == again.interval != other.interval
    low, high = first.interval
    assert low < first.agreement < high and high - low < 0.2
    # the interval is the percentile interval of the agreement over resampled cases at the chosen threshold
    resample = np.random.default_rng(7).integers(0, 300, size=(300, 300))
    passed = scores >= first.threshold
    values = ((passed[resample] == labels[resample]).mean(axis=1))
    assert (low, high) == pytest.approx(tuple(np.percentile(values, [2.5, 97.5])))


def test_missing_labels_are_left_out_and_counted():
    result = calibrate([0.2, 0.8, 0.5, 0.9], labels_from_ratings([-3.0, 0.0, None, -1.0], ">= -1"), n_bootstrap=20)
    assert (result.cases, result.missing, result.accuracy) == (3, 1, 1.0)


def test_cutoffs_and_their_errors():
    assert parse_cutoff(" > 3.5") == (">", 3.5)
    assert labels_from_ratings([1, 2, 3, 4, 5], "> 3").tolist() == [0, 0, 0, 1, 1]
    with pytest.raises(InputError, match="is not a comparison with a number; write e.g. '>= -1'"):
        parse_cutoff("at least -1")
    with pytest.raises(InputError, match=r"ratings \(e.g. -5\), not pass/fail labels; give a cut-off"):
        calibrate([0.1, 0.2], [-5.0, 0.0])
    with pytest.raises(InputError, match="target_precision"):
        calibrate([0.1, 0.2], [0, 1], objective="f1", target_precision=0.9)
    with pytest.raises(InputError, match="2 scores but 3 labels"):
        calibrate([0.1, 0.2], [0, 1, 1])


def test_write_threshold_keeps_the_rest_of_the_file(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "app"  # keep\n\n[tool.refscore]\ncases = "c.jsonl"\n\n'
                    '[tool.refscore.checks.bleu]\nthreshold = 0.3\nmin_mean = 0.2\n\n'
                    '[tool.refscore.checks.chrfpp]\nmetric = "chrf"\noptions = { word_order = 2 }\n\n'
                    '[tool.refscore.checks]\nter = 0.4\n')
    write_threshold(path, "bleu", 0.125)
    write_threshold(path, "chrfpp", 0.5625)
    write_threshold(path, "ter", 0.375)
    write_threshold(path, "rougeL", 0.25)
    text = path.read_text()
    assert 'name = "app"  # keep' in text
    checks = tomllib.loads(text)["tool"]["refscore"]["checks"]
    assert checks["bleu"] == {"threshold": 0.125, "min_mean": 0.2}
    assert checks["chrfpp"] == {"metric": "chrf", "options": {"word_order": 2}, "threshold": 0.5625}
    assert checks["ter"] == 0.375 and checks["rougeL"] == {"threshold": 0.25}
    write_threshold(tmp_path / "new.toml", "chrf", 0.5)
    assert tomllib.loads((tmp_path / "new.toml").read_text())["tool"]["refscore"]["checks"]["chrf"]["threshold"] == 0.5


def test_write_threshold_refuses_a_layout_it_cannot_edit_and_leaves_the_file(tmp_path):
    path = tmp_path / "pyproject.toml"
    original = '[tool.refscore]\nchecks = { bleu = { threshold = 0.3 } }\n'
    path.write_text(original)
    with pytest.raises(InputError, match=r"cannot write the threshold of check 'bleu'.*by hand"):
        write_threshold(path, "bleu", 0.2)
    assert path.read_text() == original


def test_docstring_examples_run():
    import doctest

    import refscore.meta.calibration as module

    failures, attempted = doctest.testmod(module)
    assert failures == 0 and attempted >= 5


def test_errors_name_the_api_arguments_not_the_command_line_flags():
    with pytest.raises(InputError) as info:
        calibrate([0.1, 0.2], [0, 1], objective="f1", target_precision=0.9)
    assert "target_precision" in str(info.value) and "--" not in str(info.value)
    with pytest.raises(InputError) as info:
        calibrate([0.1, 0.9, 0.8], [1, 0, 1], objective="precision", target_precision=1.0)
    assert "lower target_precision" in str(info.value) and "--" not in str(info.value)


@pytest.mark.parametrize("labels, objective, expected, rule", [
    ([1, 1, 1, 0], "accuracy", 0.75, "pass everything"),
    ([1, 0, 0, 0], "accuracy", 0.75, "fail everything"),    # the majority fails
    ([1, 1, 0, 0], "accuracy", 0.5, "pass everything"),     # a tie goes to passing everything
    ([1, 0, 0, 0], "f1", 0.4, "pass everything"),           # 2 * 1 / (4 + 1)
    ([1, 0, 0, 0], "precision", 0.25, "pass everything"),
])
def test_baseline_is_the_better_constant_rule_on_the_same_objective(labels, objective, expected, rule):
    options = {"target_precision": 0.2} if objective == "precision" else {}
    result = calibrate([0.2, 0.4, 0.6, 0.8], labels, objective=objective, n_bootstrap=0, **options)
    assert (result.baseline, result.baseline_rule) == (pytest.approx(expected, abs=1e-15), rule)
    assert result.to_dict()["baseline"] == result.baseline and math.isnan(result.interval[0])   # no resamples
    # the constant rules are among the candidates, so a calibrated threshold never does worse
    assert result.agreement >= result.baseline - 1e-15


def test_held_out_by_system_decides_each_system_with_a_threshold_calibrated_without_it():
    from refscore.meta.holdout import held_out, system_folds

    rng = np.random.default_rng(3)
    systems = np.repeat([f"s{i}" for i in range(6)], 40)
    offset = np.repeat(rng.normal(0, 0.15, 6), 40)      # system styles: a threshold fitted on a system flatters it
    scores = np.clip(rng.random(240) * 0.6 + offset + 0.2, 0, 1)
    labels = (rng.random(240) < scores).astype(float)
    labels[::17] = np.nan                                # unlabelled cases are left out
    result = held_out(scores, labels, systems, folds=3, seed=5)
    groups = system_folds(list(systems[~np.isnan(labels)]), 3, seed=5)
    assert sorted(name for group in groups for name in group) == [f"s{i}" for i in range(6)]
    assert result.systems == tuple(groups) and len(groups) == 3 and all(len(group) == 2 for group in groups)
    agreeing = 0
    for group, threshold in zip(groups, result.thresholds):   # the oracle: calibrate without the fold, then decide it
        test = np.isin(systems, group) & ~np.isnan(labels)
        train = ~np.isin(systems, group) & ~np.isnan(labels)
        assert threshold == calibrate(scores[train], labels[train], n_bootstrap=0).threshold
        agreeing += int(((scores[test] >= threshold) == (labels[test] == 1)).sum())
    assert result.cases == int((~np.isnan(labels)).sum()) and result.agreement == agreeing / result.cases
    assert result.agreement <= calibrate(scores, labels, n_bootstrap=0).agreement   # in-sample flatters
    with pytest.raises(InputError, match=r"folds must be an integer from 2 to the number of systems with a label "
                                         r"\(6\), got 7"):
        held_out(scores, labels, systems, folds=7)
    with pytest.raises(InputError, match=r"fold 1 of 2 \(held out: .*\): no threshold reaches precision 1"):
        held_out([0.1, 0.9, 0.2, 0.8], [1, 0, 1, 0], ["a", "a", "b", "b"], folds=2, objective="precision",
                 target_precision=1.0)


def test_holdout_docstring_examples_run():
    import doctest

    import refscore.meta.holdout as module

    failures, attempted = doctest.testmod(module)
    assert failures == 0 and attempted >= 4
