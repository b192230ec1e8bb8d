"""refscore.pairwise: every cell equals the metric's sentence score of that pair (metric.sentence_scores on the
flattened pairs, and sacreBLEU's sentence_chrf / sentence_bleu / sentence_ter), on random text of many scripts with
empty strings and on WMT22 en-de system outputs; NaN padding, thread independence, the memory budget and errors."""
from __future__ import annotations

import random

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings, strategies as st

import refscore
from conftest import read_segments, shared_data_path
from refscore.errors import InputError, InputTypeError, MemoryBudgetError
from refscore.metrics.bleu import BLEU
from refscore.metrics.chrf import CHRF
from refscore.metrics.gleu import GLEU
from refscore.metrics.ter import TER

#: Words of several scripts, punctuation and odd whitespace, so that tokenizers, lowercasing and chrF++'s
#: punctuation peeling all meet non-Latin text.
WORDS = ["the", "The", "cat", "Ärger", "straße", "ß", "İstanbul", "猫", "が", "好き", "кот", "Кошка", "قطة", "😀",
         "(hi)", "end.", ",", "'s", "e.g.", "a", "x\u0301", "\u00a0", "10", "1,000"]
SEPARATORS = [" ", "  ", "\t", "\u3000", ""]

text = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=8).map(
    lambda parts: "".join(w + s for w, s in parts))
item = st.lists(text, min_size=0, max_size=4)

METRICS = [CHRF(), CHRF(word_order=2, lowercase=True), CHRF(char_order=3, beta=1, whitespace=True),
           BLEU(effective_order=True), BLEU(tokenize="intl", lowercase=True, effective_order=True),
           BLEU(tokenize="zh", max_order=2), GLEU(min_len=2), TER()]


def brute_force(metric, candidates, references):
    """Each item's matrix from metric.sentence_scores on the flattened pairs, padded with NaN."""
    rows = max((len(c) for c in candidates), default=0)
    refs = [c if references is None else references[k] for k, c in enumerate(candidates)]
    cols = max((len(r) for r in refs), default=0)
    out = np.full((len(candidates), rows, cols), np.nan)
    for k, (cands, item_refs) in enumerate(zip(candidates, refs)):
        pairs = [(c, r) for c in cands for r in item_refs]
        if pairs:
            scores = metric.sentence_scores([c for c, _ in pairs], refscore.per_segment([[r] for _, r in pairs]))
            out[k, :len(cands), :len(item_refs)] = scores.reshape(len(cands), len(item_refs))
    return out


def assert_same(actual, expected):
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected))
    assert np.array_equal(actual[~np.isnan(actual)], expected[~np.isnan(expected)])   # exactly, bit for bit


@settings(max_examples=12, deadline=None)
@given(candidates=st.lists(item, min_size=0, max_size=3), data=st.data())
@pytest.mark.parametrize("metric", METRICS, ids=[f"{m.name}{i}" for i, m in enumerate(METRICS)])
def test_equals_sentence_scores_of_each_pair(metric, candidates, data):
    references = data.draw(st.one_of(st.none(), st.lists(item, min_size=len(candidates), max_size=len(candidates))))
    assert_same(refscore.pairwise(metric, candidates, references), brute_force(metric, candidates, references))


@pytest.fixture(scope="module")
def wmt22_items():
    """12 items of 16 en-de system outputs each (distinct segments of several systems) and 3 references each."""
    directory = shared_data_path("wmt22", "en-de")
    systems = sorted((directory / "sys").glob("*.txt"))[:6]
    outputs = [line for path in systems for line in read_segments(path)[:40]]
    references = read_segments(sorted(directory.glob("ref*.txt"))[0])[:40]
    rng = random.Random(7)
    return ([rng.sample(outputs, 16) for _ in range(12)], [rng.sample(references, 3) for _ in range(12)])


@pytest.mark.parametrize("kind", ["chrf", "chrf++", "bleu", "ter"])
def test_wmt22_slice_equals_sacrebleu(wmt22_items, kind):
    candidates, references = wmt22_items
    metric, peer = {
        "chrf": (CHRF(), lambda h, r: sacrebleu.sentence_chrf(h, [r]).score),
        "chrf++": (CHRF(word_order=2), lambda h, r: sacrebleu.sentence_chrf(h, [r], word_order=2).score),
        "bleu": (BLEU(effective_order=True), lambda h, r: sacrebleu.sentence_bleu(h, [r]).score),
        "ter": (TER(), lambda h, r: sacrebleu.sentence_ter(h, [r]).score),
    }[kind]
    candidates = [cands[:8] for cands in candidates[:2]]   # sacreBLEU is slow: 2 items x (8 x 3 + 8 x 8) pairs
    for refs in (references, None):
        matrix = refscore.pairwise(metric, candidates, None if refs is None else refs[:2])
        for k, cands in enumerate(candidates):
            item_refs = cands if refs is None else refs[k]
            expected = np.array([[peer(c, r) for r in item_refs] for c in cands])
            # Exactly as refscore's sentence scores relate to sacreBLEU's: chrF/BLEU are sacreBLEU's 0-100 float
            # divided by 100; sacreBLEU's TER is 100 * (edits / length), refscore's the quotient itself.
            ours = 100 * matrix[k] if kind == "ter" else matrix[k]
            np.testing.assert_array_equal(ours, expected if kind == "ter" else expected / 100.0)


def test_wmt22_slice_equals_sentence_scores_all_metrics(wmt22_items):
    candidates, references = wmt22_items
    for metric in (CHRF(word_order=2), BLEU(effective_order=True), GLEU()):
        assert_same(refscore.pairwise(metric, candidates), brute_force(metric, candidates, None))
        assert_same(refscore.pairwise(metric, candidates, references), brute_force(metric, candidates, references))


def test_results_do_not_depend_on_thread_count(wmt22_items):
    candidates, _ = wmt22_items
    one = refscore.pairwise("chrf", candidates, num_threads=1)
    assert np.array_equal(one, refscore.pairwise("chrf", candidates, num_threads=3))


def test_ragged_items_are_padded_with_nan():
    matrix = refscore.pairwise("chrf", [["a", "b", "c"], [], ["d"]], [["a"], ["x", "y"], ["d", "e", "f", "g"]])
    assert matrix.shape == (3, 3, 4)
    assert np.isnan(matrix[0, :, 1:]).all() and not np.isnan(matrix[0, :, 0]).any()
    assert np.isnan(matrix[1]).all() and np.isnan(matrix[2, 1:]).all() and not np.isnan(matrix[2, 0]).any()
    assert refscore.pairwise("chrf", []).shape == (0, 0, 0)


def test_duplicate_texts_score_like_distinct_ones():
    candidates = [["the cat", "a dog", "the cat", ""], ["", ""]]
    assert_same(refscore.pairwise(CHRF(word_order=2), candidates), brute_force(CHRF(word_order=2), candidates, None))


def test_pairwise_items_streams_the_same_matrices():
    candidates = [["a b c", "a b"], ["x"], ["p q", "q p", "p"]]
    padded = refscore.pairwise("bleu", candidates)
    for k, matrix in enumerate(refscore.pairwise_items("bleu", candidates)):
        assert np.array_equal(matrix, padded[k, :len(candidates[k]), :len(candidates[k])])


def test_a_lowered_budget_streams_in_groups_with_equal_results(wmt22_items, monkeypatch):
    candidates, references = wmt22_items
    full = refscore.pairwise("chrf", candidates, references)
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", "2MiB")   # about one item's counts at a time
    assert np.array_equal(refscore.pairwise("chrf", candidates, references), full)
    assert np.array_equal(refscore.pairwise("chrf", candidates, references, memory_budget="3MiB"), full)


def test_an_item_beyond_the_budget_stops_with_an_error_naming_it(wmt22_items, monkeypatch):
    candidates, _ = wmt22_items
    with pytest.raises(MemoryBudgetError, match=r"item 0 .*memory budget of 64\.0 KiB.*memory_budget=.*"
                                                r"REFSCORE_MEMORY_BUDGET"):
        refscore.pairwise("chrf", candidates, memory_budget=64 * 1024)
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", "1k")
    with pytest.raises(MemoryBudgetError, match=r"padded pairwise matrix 12 x 16 x 16 .*pairwise_items"):
        refscore.pairwise("ter", candidates)
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", "lots")
    with pytest.raises(InputError, match="environment variable REFSCORE_MEMORY_BUDGET .*'4GiB'"):
        refscore.pairwise("chrf", candidates)


@pytest.mark.parametrize("call, message", [
    (lambda: refscore.pairwise("chrf", [["a"], ["b"]], [["a"]]), r"references has 1 item\(s\) but candidates has 2"),
    (lambda: refscore.pairwise("chrf", ["a", "b"]), r"candidates\[0\] is a string"),
    (lambda: refscore.pairwise("chrf", [["a", 3]]), r"candidates\[0\]\[1\] must be a string, got int"),
    (lambda: refscore.pairwise(42, [["a"]]), r"metric must be a refscore metric"),
    (lambda: refscore.pairwise("chrff", [["a"]]), r"unknown metric 'chrff'"),
    (lambda: refscore.pairwise("chrf", [["a"]], memory_budget=0), r"memory_budget must be a positive size"),
])
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises((InputError, InputTypeError), match=message):
        call()


@pytest.mark.parametrize("module", ["refscore.pairs", "refscore.pairs._items", "refscore.pairs._matrix",
                                    "refscore.pairs._mbr", "refscore._memory", "refscore.metrics._pair_counts", "refscore._pair_scoring",
                                    "refscore._core._pairwise"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0
