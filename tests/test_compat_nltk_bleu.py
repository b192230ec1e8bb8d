"""refscore.compat.nltk BLEU / GLEU: equal to NLTK 3.10.4 for every smoothing method, weights and edge cases."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as peer
from nltk.translate import gleu_score as peer_gleu

from refscore.compat import nltk as compat
from refscore.errors import InputError, InputTypeError

VOCABULARY = ["the", "cat", "sat", "on", "a", "mat", ".", "猫", "é", "x", 7, ("a", 1)]  # any hashable tokens
tokens = st.lists(st.sampled_from(VOCABULARY), max_size=9)
segment = st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3))
corpus = st.lists(segment, min_size=1, max_size=5)
WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (1.0,), (0.5, 0.5), (0.2, 0.3, 0.5), (0.1, 0.2, 0.3, 0.2, 0.2),
           [(0.25, 0.25, 0.25, 0.25), (1.0,), (0.4, 0.6, 0.0)]]
METHODS = [None] + [f"method{i}" for i in range(8)]


def outcome(function, *args, **kwargs):
    """The value, or the fact that it raised (NLTK raises for some inputs, e.g. method6 without trigrams)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs)
        except (AssertionError, ValueError, ZeroDivisionError, IndexError):
            return "raised"


@settings(max_examples=40, deadline=None)
@given(corpus, st.sampled_from(WEIGHTS), st.sampled_from(METHODS), st.booleans(),
       st.sampled_from([(0.1, 5, 5), (0.3, 2, 3)]))
def test_bleu_equals_nltk(data, weights, method, auto_reweigh, constants):
    hyps = [hyp for hyp, _ in data]
    refs = [group for _, group in data]
    ours_smoothing = getattr(compat.SmoothingFunction(*constants), method) if method else None
    peer_smoothing = getattr(peer.SmoothingFunction(*constants), method) if method else None
    expected = outcome(peer.corpus_bleu, refs, hyps, weights, peer_smoothing, auto_reweigh)
    assert outcome(compat.corpus_bleu, refs, hyps, weights, ours_smoothing, auto_reweigh) == expected
    expected = outcome(peer.sentence_bleu, refs[0], hyps[0], weights, peer_smoothing, auto_reweigh)
    assert outcome(compat.sentence_bleu, refs[0], hyps[0], weights, ours_smoothing, auto_reweigh) == expected


@settings(max_examples=40, deadline=None)
@given(corpus, st.integers(1, 3), st.integers(0, 3))
def test_gleu_equals_nltk(data, min_len, extra):
    hyps = [hyp for hyp, _ in data]
    refs = [group for _, group in data]
    max_len = min_len + extra
    assert compat.corpus_gleu(refs, hyps, min_len, max_len) == peer_gleu.corpus_gleu(refs, hyps, min_len, max_len)
    assert compat.sentence_gleu(refs[0], hyps[0], min_len=min_len, max_len=max_len) == \
        peer_gleu.sentence_gleu(refs[0], hyps[0], min_len=min_len, max_len=max_len)


def test_golden_values_and_method0_warning():
    with pytest.warns(UserWarning, match="0 counts of 4-gram overlaps"):
        assert compat.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"]) == 1.2213386697554703e-77
    assert compat.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], auto_reweigh=True) == 1.0
    with pytest.warns(UserWarning):
        assert compat.sentence_bleu([["left", "right"]], ["left", "right"]) == 1.491668146240062e-154
    assert compat.corpus_bleu([[list("abcde")], [["x"]]], [list("abcde"), ["x"]]) == 0.7952707287670506
    r1, r2, hyp = "the cat sat".split(), "a cat sat on the mat".split(), "the cat sat on the mat".split()
    assert compat.sentence_gleu([r1, r2], hyp) == pytest.approx(0.7777777777777778, abs=1e-15)
    assert compat.corpus_gleu([[r1, r2], [r1]], [hyp, "the cat".split()]) == pytest.approx(0.7083333333333334,
                                                                                          abs=1e-15)


def test_early_zero_last_segment_quirk_and_custom_smoothing():
    assert compat.corpus_bleu([[["a"]]], [["b"]]) == 0 and isinstance(compat.corpus_bleu([[["a"]]], [["b"]]), int)
    assert compat.corpus_bleu([[["a"]]], [["b"]], weights=[(1.0,), (0.5, 0.5)]) == [0, 0]
    # methods 5-7 see only the last segment's references and hypothesis (NLTK's loop variable)
    refs = [[["the", "cat", "sat", "on", "the", "mat"]], [["a", "dog"]]]
    hyps = [["the", "cat", "sat", "on", "the", "mat"], ["a", "cat"]]
    for method in ("method5", "method6", "method7"):
        ours = compat.corpus_bleu(refs, hyps, smoothing_function=getattr(compat.SmoothingFunction(), method))
        expected = peer.corpus_bleu(refs, hyps, smoothing_function=getattr(peer.SmoothingFunction(), method))
        assert ours == expected
    seen = {}

    def custom(p_n, references, hypothesis, hyp_len):
        seen.update(numerators=[p.numerator for p in p_n], denominators=[p.denominator for p in p_n],
                    hypothesis=hypothesis, hyp_len=hyp_len)
        return [p if p.numerator else 0.5 for p in p_n]

    ours = compat.corpus_bleu(refs, hyps, smoothing_function=custom)
    ours_seen = dict(seen)
    assert ours == peer.corpus_bleu(refs, hyps, smoothing_function=custom) and seen == ours_seen
    assert ours_seen["denominators"] == [8, 6, 5, 4] and ours_seen["hypothesis"] == ["a", "cat"]


def test_bad_input():
    with pytest.raises(InputError, match="should be the same"):
        compat.corpus_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(InputError, match=r"list_of_references\[0\] is empty"):
        compat.corpus_bleu([[]], [["a"]])
    with pytest.raises(InputError, match="hypotheses is empty"):
        compat.corpus_bleu([], [])
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\]"):
        compat.corpus_bleu([[["a"]], [["a"]]], [["a"], None])
    with pytest.raises(InputTypeError, match="hashable"):
        compat.sentence_bleu([[["a"]]], [["a"]])
    with pytest.raises(InputError, match="trigrams"):
        compat.sentence_bleu([["a", "b"]], ["a", "b"], smoothing_function=compat.SmoothingFunction().method6)
    with pytest.raises(InputError, match="min_len"):
        compat.corpus_gleu([[["a"]]], [["a"]], min_len=0)
    assert compat.corpus_gleu([], []) == peer_gleu.corpus_gleu([], []) == 0.0


@settings(max_examples=30, deadline=None)
@given(segment, st.integers(1, 5))
def test_helpers_equal_nltk(data, n):
    hypothesis, references = data
    ours, expected = compat.modified_precision(references, hypothesis, n), peer.modified_precision(references,
                                                                                                 hypothesis, n)
    # (== between NLTK Fractions is unreliable on Python < 3.12: they keep unreduced internals)
    assert (ours.numerator, ours.denominator, float(ours)) == (expected.numerator, expected.denominator,
                                                                float(expected))
    ref_len = compat.closest_ref_length(references, len(hypothesis))
    assert ref_len == peer.closest_ref_length(references, len(hypothesis))
    assert compat.brevity_penalty(ref_len, len(hypothesis)) == peer.brevity_penalty(ref_len, len(hypothesis))


def test_numpy_token_arrays_like_nltk():
    hypothesis, references = np.array("the cat sat on the mat".split()), [np.array("the cat sat on a mat".split())]
    assert compat.sentence_bleu(references, hypothesis) == peer.sentence_bleu(references, hypothesis)
    assert compat.sentence_gleu(references, hypothesis) == peer_gleu.sentence_gleu(references, hypothesis)
