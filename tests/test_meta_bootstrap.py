"""The meta-evaluation's bootstrap intervals (refscore.meta._bootstrap): every replicate, computed for many
resamples at once, equals the statistic of the resampled matrices computed one resample at a time (the way
meta_evaluate computed them before, and the way mt-metrics-eval's Correlation would: the replicates are checked
against it too), and meta_evaluate's intervals are the sorted replicates'."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from meta_reference import packed, reference_stats, synthetic
from refscore.meta import _bootstrap
from refscore.meta.evaluate import MetricScores, _segment_value, _system_value, human_system_scores, meta_evaluate
from refscore.significance.sampling import interval_indices

SEGMENT_CASES = [("pearson", "none", {}), ("pearson", "item", {}), ("pearson", "sys", {}),
                 ("spearman", "none", {}), ("spearman", "item", {}), ("kendall", "item", {"variant": "b"}),
                 ("kendall", "none", {"variant": "b"}), ("kendall", "sys", {"variant": "acc23"}),
                 ("kendall", "item", {"variant": "23", "epsilon": 1.0}), ("kendall_like", "item", {"threshold": 2.0})]
SYSTEM_CASES = [("pearson", {}), ("spearman", {}), ("kendall", {"variant": "b"}), ("kendall", {"variant": "c"}),
                ("pairwise_accuracy", {})]


def _counts(items: int, resamples: int, seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([np.bincount(rng.integers(0, items, items), minlength=items) for _ in range(resamples)])


def _one_at_a_time(function, counts, items):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([function(np.repeat(np.arange(items), c)) for c in counts])


@pytest.mark.parametrize("statistic, grouping, options", SEGMENT_CASES)
def test_segment_replicates_equal_one_resample_at_a_time(statistic, grouping, options):
    human, (metric, _) = synthetic(systems=5, items=60, seed=7, missing=0.15)
    counts = _counts(60, 40)
    got = _bootstrap.segment_replicates(statistic, human, metric, grouping, options, counts, progress=False)
    expected = _one_at_a_time(lambda i: _segment_value(statistic, human[:, i], metric[:, i], grouping, options),
                              counts, 60)
    if grouping == "none":   # the same arithmetic on the same cells in the same order
        np.testing.assert_array_equal(got, expected)
    else:                    # the mean over rows is summed in another order
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("statistic, options", SYSTEM_CASES)
def test_system_replicates_equal_one_resample_at_a_time(statistic, options):
    human, (metric, _) = synthetic(systems=9, items=30, seed=3, missing=0.2)
    counts = _counts(30, 50, seed=6)
    gold = human_system_scores(human, counts)
    systems = MetricScores.from_segments("m", metric).resample(counts)
    got = _bootstrap.system_replicates(statistic, gold, systems, options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.array([_system_value(statistic, g, s, options) for g, s in zip(gold, systems)])
    np.testing.assert_array_equal(got, expected)


def test_replicates_are_the_references_correlations_of_the_resampled_items():
    stats = reference_stats()
    human, (metric, _) = synthetic(systems=5, items=40, seed=9, missing=0.1)
    counts = _counts(40, 12, seed=2)
    pearson = _bootstrap.segment_replicates("pearson", human, metric, "none", {}, counts, progress=False)
    kendall = _bootstrap.segment_replicates("kendall", human, metric, "item", {"variant": "b"}, counts,
                                            progress=False)
    for index, row in enumerate(counts):
        picks = np.repeat(np.arange(40), row)
        reference = stats.Correlation(5, packed(human[:, picks]), packed(metric[:, picks]))
        assert pearson[index] == pytest.approx(reference.Pearson("none")[0], rel=1e-12)
        assert kendall[index] == pytest.approx(reference.Kendall("item")[0], rel=1e-12)


def test_statistics_without_a_batched_form_are_left_to_the_caller():
    human, (metric, _) = synthetic(systems=4, items=10, seed=1)
    counts = _counts(10, 3)
    assert _bootstrap.segment_replicates("kendall_ties_opt", human, metric, "item", {}, counts) is None
    assert _bootstrap.segment_replicates("kendall_like", human, metric, "none", {}, counts) is None
    assert _bootstrap.system_replicates("soft_pairwise_accuracy", human[:, 0], metric[:, 0], {}) is None


def test_meta_evaluate_intervals_are_the_sorted_replicates():
    human, (first, second) = synthetic(systems=6, items=50, seed=5, missing=0.1)
    metrics = [MetricScores.from_segments("a", first), MetricScores.from_segments("b", second)]
    entries = meta_evaluate(human, metrics, n_bootstrap=40, k=0, seed=8, progress=False)
    rng = np.random.default_rng(8)   # meta_evaluate's draws
    counts = np.stack([np.bincount(rng.integers(0, 50, 50), minlength=50) for _ in range(40)])
    entry = next(e for e in entries if (e.metric, e.level, e.statistic, e.grouping) == ("b", "segment", "pearson",
                                                                                         "none"))
    replicates = np.sort(_one_at_a_time(lambda i: _segment_value("pearson", human[:, i], second[:, i], "none", {}),
                                        counts, 50))
    lower, upper = interval_indices(40, 0.95)   # sacreBLEU's rule: the 2nd and the 39th of 40
    assert (lower, upper) == (1, 38) and (entry.lower, entry.upper) == (replicates[lower], replicates[upper])
    kendall = next(e for e in entries if (e.metric, e.level, e.statistic) == ("a", "system", "kendall"))
    assert kendall.lower <= kendall.value <= kendall.upper


def test_docstring_examples_run():
    import doctest

    failures, attempted = doctest.testmod(_bootstrap)
    assert failures == 0 and attempted >= 3
