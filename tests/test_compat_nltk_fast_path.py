"""The per-call fast path of the NLTK drop-in's sentence_bleu (refscore.metrics.bleu.nltk_sentence) gives NLTK's
values bit for bit and the batch path's: random token lists (empty ones, repeats, several references, str, int
and tuple tokens), every weight and smoothing setting it takes, auto_reweigh; the settings it does not take
(weight tuples, method0 with its warning, other smoothing functions, bad input) keep the batch path's results and
errors."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore.compat import nltk as compat_nltk
from refscore.compat._nltk_bleu import corpus_bleu
from refscore.errors import InputError, InputTypeError
from refscore.metrics.bleu.nltk_sentence import nltk_sentence_bleu

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

token = st.sampled_from(["a", "b", "c", "the", "猫", "é", "", " "]) | st.integers(0, 3)
tokens = st.lists(token, max_size=12)
WEIGHTS = [(0.25, 0.25, 0.25, 0.25), [0.25] * 4, (1.0,), (0.5, 0.5), (0.2, 0.3, 0.5), (1, 0, 0, 0, 0)]


def smoothers(peer: bool) -> list[object]:
    functions = nltk_bleu.SmoothingFunction(epsilon=0.05) if peer else compat_nltk.SmoothingFunction(epsilon=0.05)
    return [None, functions.method1, functions.method2]


@settings(max_examples=400, deadline=None)
@given(hyp=tokens, refs=st.lists(tokens, min_size=1, max_size=3), weights=st.sampled_from(WEIGHTS),
       smoothing=st.sampled_from([0, 1, 2]), auto_reweigh=st.booleans())
def test_fast_path_equals_nltk_and_the_batch_path(hyp: list[object], refs: list[list[object]], weights: object,
                                                  smoothing: int, auto_reweigh: bool) -> None:
    ours, peers = smoothers(False)[smoothing], smoothers(True)[smoothing]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nltk_bleu.sentence_bleu(refs, hyp, weights, peers, auto_reweigh)
        got = compat_nltk.sentence_bleu(refs, hyp, weights, ours, auto_reweigh)
        batch = corpus_bleu([refs], [hyp], weights, ours, auto_reweigh)
    assert type(got) is type(expected) and got == expected and repr(got) == repr(expected)
    assert got == batch


def test_the_fast_path_takes_the_common_calls() -> None:
    hyp, refs = "the cat sat on the mat".split(), ["the cat sat on a mat".split(), "a cat sat".split()]
    method1 = compat_nltk.SmoothingFunction().method1
    for call in [(refs, hyp, (0.25,) * 4, None, False), (refs, hyp, (0.25,) * 4, method1, False),
                 (tuple(refs), tuple(hyp), [0.5, 0.5], method1, True)]:
        assert nltk_sentence_bleu(*call) is not None


def test_calls_off_the_fast_path_keep_the_batch_path() -> None:
    hyp, refs = ["a", "b", "c"], [["a", "b", "d"]]
    functions = compat_nltk.SmoothingFunction()
    assert nltk_sentence_bleu(refs, hyp, ((0.5, 0.5), (1.0,)), None, False) is None
    assert compat_nltk.sentence_bleu(refs, hyp, [(0.5, 0.5), (1.0,)]) == nltk_bleu.sentence_bleu(
        refs, hyp, [(0.5, 0.5), (1.0,)])
    assert nltk_sentence_bleu(refs, hyp, (0.25,) * 4, functions.method4, False) is None
    assert compat_nltk.sentence_bleu(refs, hyp, smoothing_function=functions.method4) == nltk_bleu.sentence_bleu(
        refs, hyp, smoothing_function=nltk_bleu.SmoothingFunction().method4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nltk_bleu.sentence_bleu(refs, hyp)
    assert nltk_sentence_bleu(refs, hyp, (0.25,) * 4, None, False) is None
    with pytest.warns(UserWarning, match="0 counts of 3-gram"):   # method0's warning, as NLTK gives it
        assert compat_nltk.sentence_bleu(refs, hyp) == expected
    with pytest.raises((InputError, InputTypeError)):
        compat_nltk.sentence_bleu([], hyp)
    with pytest.raises((InputError, InputTypeError)):
        compat_nltk.sentence_bleu([[["unhashable"]]], [["unhashable"]])
    with pytest.raises((InputError, InputTypeError)):
        compat_nltk.sentence_bleu(refs, 5)


def test_nltk_smoothing_epsilon_is_read_per_call() -> None:
    functions = compat_nltk.SmoothingFunction()
    hyp, refs = ["a", "b", "x", "y"], [["a", "b", "c", "d"]]
    first = compat_nltk.sentence_bleu(refs, hyp, smoothing_function=functions.method1)
    functions.epsilon = 0.5
    second = compat_nltk.sentence_bleu(refs, hyp, smoothing_function=functions.method1)
    assert second == nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=nltk_bleu.SmoothingFunction(0.5).method1)
    assert first != second
