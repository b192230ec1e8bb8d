"""Correlations of scores of extreme magnitude (issue 40 item 10): scaled before sums of products, so a rating of
1e200 gives scipy's Pearson (not 0.0), 1e308 (finite) is never called an infinity, and the sums-based PERM-BOTH
path agrees with the scaled one."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import scipy.stats

from refscore import meta
from refscore.meta._rows import magnitude_divisor
from refscore.meta.evaluate import MetricScores, human_system_scores, meta_evaluate

RNG = np.random.default_rng(40)
X = RNG.normal(size=24)
Y = X + RNG.normal(size=24)


def scipy_r(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(scipy.stats.pearsonr(a, b).statistic)


@pytest.mark.parametrize("value", [1e154, 1e200, 1e300, 1e308, -1.7976931348623157e308, 1e-200, 5e-324])
def test_one_extreme_rating_gives_scipys_pearson(value):
    human = X.copy()
    human[3] = value
    assert meta.pearson(human, Y) == pytest.approx(scipy_r(human, Y), abs=1e-12)
    assert meta.pearson(Y, human) == pytest.approx(scipy_r(human, Y), abs=1e-12)


def test_the_issue_reproducer():
    assert meta.pearson([1, 2, 3, 1e200], [1, 2, 3, 4]) == pytest.approx(0.7745966692414834, abs=1e-12)


@pytest.mark.parametrize("scale", [1e-250, 1e-160, 1e160, 1e250, 1e307])
def test_pearson_is_unchanged_by_any_scale_of_either_side(scale):
    expected = scipy_r(X, Y)
    assert meta.pearson(X * scale, Y) == pytest.approx(expected, abs=1e-12)
    assert meta.pearson(X, Y * scale) == pytest.approx(expected, abs=1e-12)
    assert meta.pearson(-X * scale, Y * scale) == pytest.approx(-expected, abs=1e-12)


def test_grouped_rows_each_scaled_on_their_own():
    human = np.array([X, 2 * X, X + 1])
    metric = np.array([Y, Y, Y * 1e200])
    human[1, 2] = 1e300
    expected = np.mean([scipy_r(h, m) for h, m in zip(human, metric)])
    assert meta.pearson(human, metric, grouping="sys") == pytest.approx(expected, abs=1e-12)


def test_ordinary_scores_keep_every_bit():
    assert magnitude_divisor(X) == 1.0 and magnitude_divisor(X * 1e90) == 1.0
    assert magnitude_divisor(np.array([0.0, 0.0])) == 1.0


def test_perm_both_by_sums_and_by_rows_agree_under_extreme_scales():
    human = X[:12]
    good, weak = Y[:12], Y[:12] + RNG.normal(size=12) * 2
    base = meta.perm_both(human, weak, good, k=200, seed=3)
    for h, a, b in [(human * 1e250, weak, good), (human, weak * 1e200, good * 1e200), (human * 1e-250, weak, good)]:
        result = meta.perm_both(h, a, b, k=200, seed=3)
        assert result.p_value == base.p_value
        assert result.delta == pytest.approx(base.delta, abs=1e-12)


def test_system_means_of_ratings_near_the_largest_float_stay_finite():
    human = np.array([[1e308, 1e308, 1.0], [1.0, 2.0, 3.0], [-1e308, 0.0, 4.0]])
    means = human_system_scores(human, np.array([[2, 1, 0], [1, 1, 1]]))
    assert np.isfinite(means).all() and means[0, 0] == pytest.approx(1e308)
    scores = MetricScores.from_segments("m", human)
    assert np.isfinite(scores.systems).all() and np.isfinite(scores.resample(np.array([[3, 0, 0]]))).all()


def test_meta_eval_of_a_1e308_rating_reports_numbers(tmp_path, capsys):
    """The command line: the rating file with one 1e308 rating gives intervals (before: "human must not hold
    infinities"); the system Pearson is scipy's of the system means."""
    from refscore.cli.main import main

    references = [f"the cat number {j} sat on the mat near the door {j}" for j in range(10)]
    records, ratings = [], np.zeros((4, 10))
    for i in range(4):
        for j, reference in enumerate(references):
            words = reference.split()
            kept = (i * 3 + j) % len(words)
            ratings[i, j] = kept - len(words) + 0.1 * j
            records.append({"system": f"s{i}", "seg_id": j, "prediction": " ".join(words[:kept]),
                            "references": [reference], "mqm": ratings[i, j]})
    records[5]["mqm"] = ratings[0, 5] = 1e308
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["meta-eval", str(path), "-m", "chrf", "--bootstrap", "20", "--k", "0", "--format", "json"]) == 0
    out = capsys.readouterr().out
    entries = json.loads(out)
    entries = entries["results"]
    system = next(e for e in entries if e["level"] == "system" and e["statistic"] == "pearson")
    import refscore

    chrf = [refscore.chrf([r["prediction"] for r in records[i * 10:(i + 1) * 10]],
                          [r["references"] for r in records[i * 10:(i + 1) * 10]]).score for i in range(4)]
    assert system["value"] == pytest.approx(scipy_r(ratings.mean(1), chrf), abs=1e-6)
    assert np.isfinite(system["lower"]) and np.isfinite(system["upper"])
