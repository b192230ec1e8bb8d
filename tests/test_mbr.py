"""refscore.mbr against a brute-force loop over sacreBLEU's / refscore's sentence scores: expected utilities
without and with self-pairs, pseudo-references, several metrics with weights, TER's direction, per-item
standardisation, ragged and degenerate items, and clear errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import sacrebleu

import refscore
from refscore.errors import InputError, InputTypeError

ITEMS = [["the cat sat on the mat", "a cat sat on the mat", "the cat is on a mat", "dogs bark loudly", ""],
         ["Grüße aus Köln", "Viele Grüße aus Köln", "猫が好き"],
         ["one", "one"]]
PSEUDO = [["the cat sat on a mat", "a cat on the mat"], ["Grüße aus Köln"], ["two", "one two"]]
PEERS = {"chrf": lambda h, r: sacrebleu.sentence_chrf(h, [r]).score / 100,
         "bleu": lambda h, r: sacrebleu.sentence_bleu(h, [r]).score / 100,
         "ter": lambda h, r: -sacrebleu.sentence_ter(h, [r]).score / 100}   # lower TER is better: sign flipped

# Tolerance: the brute force sums each candidate's at most 5 utilities in another order than numpy; each value lies
# in [-2, 1], so the two means differ by at most a few ulps of 2 (5 * 2**-52 * 2 < 1e-14).
ATOL = 1e-14


def brute_force(items, names, weights, pseudo=None, include_self=False, standardize=False):
    out = np.full((len(items), max(map(len, items))), np.nan)
    for k, cands in enumerate(items):
        total = np.zeros(len(cands))
        for name, weight in zip(names, weights):
            utilities = []
            for i, hyp in enumerate(cands):
                refs = pseudo[k] if pseudo is not None else [c for j, c in enumerate(cands) if include_self or j != i]
                utilities.append(sum(PEERS[name](hyp, ref) for ref in refs) / len(refs) if refs else np.nan)
            utilities = np.array(utilities)
            if standardize:
                spread = np.std(utilities)
                utilities = (utilities - np.mean(utilities)) / spread if spread > 0 else np.zeros_like(utilities)
            total += weight * utilities
        out[k, :len(cands)] = total
    return out


@pytest.mark.parametrize("names, weights", [(["chrf"], [1.0]), (["chrf", "bleu"], [0.7, 0.3]),
                                            (["bleu", "ter"], [0.5, 0.5])])
@pytest.mark.parametrize("include_self", [False, True])
def test_expected_utilities_equal_the_brute_force_loop(names, weights, include_self):
    result = refscore.mbr(ITEMS, metric=names, weights=weights, include_self=include_self)
    expected = brute_force(ITEMS, names, weights, include_self=include_self)
    np.testing.assert_allclose(result.utilities, expected, rtol=0, atol=ATOL)
    assert result.chosen.tolist() == [int(np.nanargmax(row)) for row in expected]
    assert result.best == [ITEMS[k][c] for k, c in enumerate(result.chosen)]


def test_pseudo_references_and_standardisation():
    result = refscore.mbr(ITEMS, metric=["chrf", "ter"], weights=[1.0, 2.0], pseudo_references=PSEUDO,
                          standardize=True, return_matrices=True)
    expected = brute_force(ITEMS, ["chrf", "ter"], [1.0, 2.0], pseudo=PSEUDO, standardize=True)
    np.testing.assert_allclose(result.utilities, expected, rtol=0, atol=1e-12)  # z-scores: / std (>= 1e-3 here)
    assert sorted(result.matrices) == ["chrf", "ter"]
    assert result.matrices["chrf"].shape == (3, 5, 2)


def test_default_weights_are_equal_and_sum_to_one():
    both = refscore.mbr(ITEMS, metric=["chrf", "bleu"])
    np.testing.assert_allclose(both.utilities, brute_force(ITEMS, ["chrf", "bleu"], [0.5, 0.5]), rtol=0, atol=ATOL)


def test_ragged_and_degenerate_items():
    result = refscore.mbr([["only one"], [], ["a b", "a b c", "x"]], metric="chrf")
    third = brute_force([["a b", "a b c", "x"]], ["chrf"], [1.0])[0]
    assert result.chosen.tolist() == [0, -1, int(np.nanargmax(third))]
    assert result.best[:2] == ["only one", None] and result.best[2] == ["a b", "a b c", "x"][result.chosen[2]]
    assert np.isnan(result.utilities[0]).all()          # no other candidate to score against
    assert np.isnan(result.utilities[1]).all() and not np.isnan(result.utilities[2]).any()
    assert refscore.mbr([["only one"]], metric="chrf", include_self=True).utilities[0, 0] == 1.0


@pytest.mark.parametrize("kwargs, message", [
    ({"metric": ["chrf", "bleu"], "weights": [1.0]}, r"weights must be a list of 2 number"),
    ({"metric": []}, r"metric is empty"),
    ({"metric": "chrf", "weights": [-1.0]}, r"weights\[0\]"),
    ({"metric": ["chrf", "bleu"], "weights": [0, 0.0]}, r"weights are all 0 \(0, 0\)"),
    ({"metric": "chrf", "weights": [-0.0]}, r"weights are all 0"),
    ({"metric": "chrf", "include_self": "yes"}, r"include_self"),
    ({"metric": "chrf", "pseudo_references": [["a"]]}, r"pseudo_references has 1 item\(s\) but candidates has 3"),
])
def test_bad_arguments_are_clear_errors(kwargs, message):
    with pytest.raises((InputError, InputTypeError), match=message):
        refscore.mbr(ITEMS, **kwargs)


def test_standardize_with_ragged_items_warns_nothing():
    items = [["only one"], ["a b", "a b c", "b c d", "x"]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = refscore.mbr(items, metric=["chrf", "bleu"], standardize=True)
    assert np.isnan(result.utilities[0]).all() and result.chosen[0] == 0
    expected = brute_force(items[1:], ["chrf", "bleu"], [0.5, 0.5], standardize=True)
    np.testing.assert_allclose(result.utilities[1:], expected, rtol=0, atol=1e-12)


def test_chrf_and_bertscore_combined(tmp_path_factory):
    """BERTScore through its public metric API (a tiny local model): the pairwise matrix equals its sentence scores
    of the flattened pairs, and MBR's utilities combine them with chrF's as weighted."""
    from bertscore_helpers import build_tiny_bert
    from refscore.metrics.bertscore import BERTScoreMetric

    bertscore = BERTScoreMetric(model_type=str(build_tiny_bert(tmp_path_factory.mktemp("tiny_bert"))), num_layers=2,
                                device="cpu")
    items = [["The cat sat on the mat.", "A cat sat on the mat.", "Das Wetter ist schön."], ["a dog", "the dog"]]
    flat_h = [h for item in items for h in item for _ in item]
    flat_r = [r for item in items for _ in item for r in item]
    bert = bertscore.sentence_scores(flat_h, refscore.per_segment([[r] for r in flat_r]))
    matrix = refscore.pairwise(bertscore, items)
    np.testing.assert_array_equal(matrix[0], bert[:9].reshape(3, 3))
    np.testing.assert_array_equal(matrix[1, :2, :2], bert[9:].reshape(2, 2))
    result = refscore.mbr(items, metric=["chrf", bertscore], weights=[0.25, 0.75])
    chrf = refscore.pairwise("chrf", items)
    for k, item in enumerate(items):
        n = len(item)
        for i in range(n):
            others = [j for j in range(n) if j != i]
            expected = 0.25 * np.mean(chrf[k, i, others]) + 0.75 * np.mean(matrix[k, i, others])
            assert result.utilities[k, i] == pytest.approx(expected, abs=ATOL)
