"""refscore.meta's correlations against mt-metrics-eval's stats.py (the reference, imported by path): every
grouping, every variant, on synthetic ratings with ties and gaps and on a slice of the WMT21 TED MQM ratings."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats

import refscore.meta as meta
from meta_reference import mqm_slice, packed, reference_stats, synthetic
from refscore.errors import InputError

GROUPINGS = ("none", "sys", "item")
#: Correlations are the same formulas as the reference's, summed in another order: 1e-12 relative.
RTOL = 1e-12


def _cases():
    human, (first, _) = synthetic(systems=6, items=14, seed=2)
    yield "synthetic", human, first
    rng = np.random.default_rng(5)
    names, mqm, _ = mqm_slice("ende", systems=13, items=30)
    yield "mqm_ted", mqm, np.round(mqm + rng.normal(0, 2, mqm.shape), 1)


@pytest.mark.parametrize("grouping", GROUPINGS)
def test_correlations_equal_the_reference(grouping):
    stats = reference_stats()
    for label, human, metric in _cases():
        ref = stats.Correlation(human.shape[0], packed(human), packed(metric))
        pairs = [(ref.Pearson(grouping)[0], meta.pearson(human, metric, grouping)),
                 (ref.Spearman(grouping)[0], meta.spearman(human, metric, grouping)),
                 (ref.Kendall(grouping, "b")[0], meta.kendall(human, metric, grouping, "b")),
                 (ref.Kendall(grouping, "c")[0], meta.kendall(human, metric, grouping, "c")),
                 (ref.KendallVariants(grouping, "23")[0], meta.kendall(human, metric, grouping, "23")),
                 (ref.KendallVariants(grouping, "acc23")[0], meta.kendall(human, metric, grouping, "acc23")),
                 (ref.KendallVariants(grouping, "acc23", epsilon=1.5)[0],
                  meta.kendall(human, metric, grouping, "acc23", epsilon=1.5)),
                 (ref.KendallLike(grouping, thresh=2)[0], meta.kendall_like(human, metric, grouping, 2))]
        for index, (expected, got) in enumerate(pairs):
            assert got == pytest.approx(expected, rel=RTOL, abs=1e-15), (label, index)


@pytest.mark.parametrize("grouping,variant,rate", [("none", "acc23", 1.0), ("item", "acc23", 1.0),
                                                    ("sys", "23", 1.0), ("item", "23", 0.3)])
def test_tie_calibration_equals_the_reference(grouping, variant, rate):
    """Threshold and tau bit for bit, the sampled pairs under the seed mapping (np.random.seed(s) <-> seed=s)."""
    stats = reference_stats()
    human, (metric, _) = synthetic(systems=5, items=12, seed=3)
    np.random.seed(11)
    tau, threshold, _ = stats.KendallWithTiesOpt(packed(human), packed(metric), variant, 5, grouping, rate)
    got = meta.kendall_ties_opt(human, metric, grouping, variant, sample_rate=rate, seed=11)
    assert (got.tau, got.threshold) == (tau, threshold)


def test_system_level_accuracies_equal_the_reference():
    stats = reference_stats()
    human, (metric, _) = synthetic(systems=8, items=20, seed=4, missing=0.0)
    agree, pairs = stats.Agreement(human.mean(1), metric.mean(1))
    assert meta.pairwise_accuracy(human.mean(1), metric.mean(1)) == agree / pairs
    soft = stats.Correlation(8, packed(human), packed(metric)).PairwiseConfidenceError()[0]
    assert meta.soft_pairwise_accuracy(human, metric) == soft


def test_williams_equals_the_reference():
    stats = reference_stats()
    human, (first, second) = synthetic(systems=9, items=20, seed=6, missing=0.0)
    gold, one, two = human.mean(1), first.mean(1), second.mean(1)
    corr1 = stats.Correlation(9, list(gold), list(one))
    corr2 = stats.Correlation(9, list(gold), list(two))
    for sided in (True, False):
        expected = stats.WilliamsSigDiff(corr1, corr2, scipy.stats.pearsonr, sided)[0]
        assert meta.williams(gold, one, two, sided) == pytest.approx(expected, rel=RTOL)


def test_constant_scores_warn_and_give_nan():
    human = [[1.0, 2.0, 3.0], [2.0, 1.0, 0.0]]
    with pytest.warns(meta.ConstantScoresWarning, match="undefined"):
        assert np.isnan(meta.pearson(human, [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]))
    with pytest.warns(meta.ConstantScoresWarning):
        assert np.isnan(meta.kendall([[1.0, 1.0, 1.0]], [[0.1, 0.2, 0.3]], variant="b"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one constant row of two: the other is averaged, no warning
        assert meta.pearson(human, [[0.5, 0.5, 0.5], [0.3, 0.2, 0.1]], grouping="sys") == pytest.approx(1.0)


def test_bad_inputs_name_the_problem():
    with pytest.raises(InputError, match="at least 3 systems, got 2"):
        meta.pairwise_accuracy([1.0, 2.0], [0.3, 0.1])
    with pytest.raises(InputError, match="one shape"):
        meta.pearson([[1.0, 2.0]], [[1.0, 2.0, 3.0]])
    with pytest.raises(InputError, match="position"):
        meta.pearson([1.0, 2.0, 3.0], [0.1, float("nan"), 0.2])
    with pytest.raises(InputError, match="grouping must be one of"):
        meta.pearson([1.0, 2.0, 3.0], [0.1, 0.3, 0.2], grouping="doc")
    with pytest.raises(InputError, match="same number of ratings per system"):
        meta.soft_pairwise_accuracy([[1.0, None], [1.0, 2.0], [0.0, 1.0]], [[1.0, 2.0], [1.0, 2.0], [0.0, 1.0]])


def test_mappings_of_systems_are_rows_in_the_human_order():
    human = {"A": [0.0, -1.0, None, -5.0], "B": [-2.0, 0.0, -1.0, -1.0], "C": [-1.0, -3.0, 0.0, 0.0]}
    metric = {"C": [0.4, 0.1, 0.9, 0.8], "A": [0.9, 0.5, 0.3, 0.1], "B": [0.2, 0.8, 0.3, 0.4]}
    matrix_h = [human[s] for s in "ABC"]
    matrix_m = [metric[s] for s in "ABC"]
    for grouping in GROUPINGS:
        assert meta.pearson(human, metric, grouping) == meta.pearson(matrix_h, matrix_m, grouping)
    with pytest.raises(InputError, match="different numbers of segments .'A': 4, 'B': 3"):
        meta.pearson({"A": [0.0, 1.0, 2.0, 3.0], "B": [1.0, 2.0, 3.0]}, {"A": [1, 2, 3, 4], "B": [1, 2, 3]})
    with pytest.raises(InputError, match="same systems"):
        meta.pearson({"A": [0.0, 1.0]}, {"B": [0.0, 1.0]})


def test_kendall_without_grouping_on_a_wmt_sized_pair_is_the_reference_bit_for_bit():
    """8 systems x 1,000 items (the size of a WMT newstest pair), a third unrated: tau-b and tau-c are scipy's
    own, as Correlation.Kendall computes them (not merely within 1e-12), and the pair counts behind 23/acc23 (from
    sorting, not from pair matrices) give the reference's values too."""
    stats = reference_stats()
    human, (metric, _) = synthetic(systems=8, items=1000, seed=14, missing=0.3)   # seed 14: tau-b differs in the
    # last bit when the counts are divided in the other order
    ref = stats.Correlation(8, packed(human), packed(metric))
    for variant in ("b", "c"):
        assert meta.kendall(human, metric, "none", variant) == ref.Kendall("none", variant)[0], variant
    for variant in ("23", "acc23"):
        expected = ref.KendallVariants("none", variant)[0]
        assert meta.kendall(human, metric, "none", variant) == pytest.approx(expected, rel=RTOL), variant
    assert meta.kendall(human, metric, "sys", "b") == ref.Kendall("sys", "b")[0]   # rows of ~700 cells
