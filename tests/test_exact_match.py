"""Exact match: refscore's metric and ``compat.evaluate.load("exact_match")`` against evaluate 0.4.6's
``exact_match`` (its module's examples, and the oracle of tests/_squad_peer.py on random and real texts)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import refscore
from _squad_peer import evaluate_exact_match
from conftest import read_segments, shared_data_path
from refscore.compat import evaluate
from refscore.errors import InputError, InputTypeError
from refscore.metrics.exact_match import ExactMatch

REFS = ["the cat", "theater", "YELLING", "agent007"]
PREDS = ["cat?", "theater", "yelling", "agent"]
#: Latin, digits, ASCII and CJK punctuation, CJK, combining marks, emoji, "İ" (longer in lowercase), NUL, spaces
ALPHABET = st.sampled_from(list("abcAB 09.,?!'-") + ["猫", "。", "\u0301", "é", "😀", "İ", "ß", "\x00", "\t", "\u3000"])
TEXT = st.text(ALPHABET, max_size=12)
OPTIONS = st.fixed_dictionaries({
    "regexes_to_ignore": st.sampled_from([None, [], ["the "], ["a+", "[0-9]"], [r"\s"], ["猫"]]),
    "ignore_case": st.booleans(), "ignore_punctuation": st.booleans(), "ignore_numbers": st.booleans()})


@pytest.mark.parametrize(("options", "expected"), [
    ({}, 0.25),
    ({"regexes_to_ignore": ["the ", "yell"], "ignore_case": True, "ignore_punctuation": True}, 0.5),
    ({"regexes_to_ignore": ["the ", "yell", "YELL"], "ignore_case": True, "ignore_punctuation": True}, 0.75),
    ({"regexes_to_ignore": ["the ", "yell", "YELL"], "ignore_case": True, "ignore_punctuation": True,
      "ignore_numbers": True}, 1.0),
])
def test_evaluate_module_examples(options, expected):
    # the examples of evaluate's metrics/exact_match module, with its printed values
    result = evaluate.load("exact_match").compute(references=REFS, predictions=PREDS, **options)
    assert round(result["exact_match"], 2) == expected
    assert isinstance(result["exact_match"], np.float64)
    assert refscore.exact_match(PREDS, REFS, **options).score == result["exact_match"]


def test_evaluate_module_sentence_example():
    refs = ["The cat sat on the mat.", "Theaters are great.", "It's like comparing oranges and apples."]
    preds = ["The cat sat on the mat?", "Theaters are great.", "It's like comparing apples and oranges."]
    assert round(evaluate.load("exact_match").compute(references=refs, predictions=preds)["exact_match"], 2) == 0.33


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=8), OPTIONS)
def test_drop_in_equals_evaluate_on_random_text(pairs, options):
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    expected = evaluate_exact_match(preds, refs, **options)
    assert evaluate.load("exact_match").compute(predictions=preds, references=refs, **options) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=8), OPTIONS)
def test_metric_segments_equal_evaluate_one_pair_at_a_time(pairs, options):
    # one pair per call: numpy's width is that pair's, so every segment equals evaluate's score of it alone
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    metric = ExactMatch(**{k: (tuple(v) if k == "regexes_to_ignore" and v is not None else v)
                           for k, v in options.items() if v is not None})
    expected = [float(evaluate_exact_match([p], [r], **options)["exact_match"]) for p, r in pairs]
    assert metric.sentence_scores(preds, refs).tolist() == expected


def test_numpy_width_cut_is_the_drop_ins_only():
    # "İ" lowercases to two code points; evaluate's array of width 1 keeps one of them
    preds, refs = ["İ", "a"], ["i\u0307", "a"]
    expected = evaluate_exact_match(preds, refs, ignore_case=True)["exact_match"]
    assert expected == 0.5
    assert evaluate.load("exact_match").compute(predictions=preds, references=refs, ignore_case=True) == {
        "exact_match": expected}
    assert refscore.exact_match(preds, refs, ignore_case=True).score == 1.0


def test_long_lines_and_empty_strings():
    long = "x" * 9_999 + "İ"
    preds, refs = [long, "", "", "..."], [long.lower(), "", "a", ""]
    for options in ({}, {"ignore_case": True}, {"ignore_punctuation": True}):
        expected = evaluate_exact_match(preds, refs, **options)
        assert evaluate.load("exact_match").compute(predictions=preds, references=refs, **options) == expected
    # "..." emptied by ignore_punctuation does not match "": the original texts differ (evaluate's rule)
    assert refscore.exact_match(preds, refs, ignore_punctuation=True).segments["exact_match"].tolist() == [
        0.0, 1.0, 0.0, 0.0]


def test_wmt22_texts_equal_evaluate():
    directory = shared_data_path("wmt22", "en-de")
    refs = read_segments(directory / "ref.txt")[:800]
    systems = sorted((directory / "sys").glob("*.txt"))[:2]
    preds = read_segments(systems[0])[:400] + [r.upper() for r in refs[400:]]
    for options in ({}, {"ignore_case": True}, {"ignore_case": True, "ignore_punctuation": True,
                                                "ignore_numbers": True, "regexes_to_ignore": [r"\s+"]}):
        expected = evaluate_exact_match(preds, refs, **options)
        assert evaluate.load("exact_match").compute(predictions=preds, references=refs, **options) == expected
        assert refscore.exact_match(preds, refs, **options).score == pytest.approx(expected["exact_match"], abs=0)


def test_several_references_any_matches_and_statistics_merge():
    metric = ExactMatch(ignore_case=True)
    hyps, refs = ["Paris", "paris.", "Rome"], [["London", "PARIS"], ["Paris"], ["rome", "Roma"]]
    result = metric.corpus_score(hyps, refs)
    assert result.segments["exact_match"].tolist() == [1.0, 0.0, 1.0]
    assert result.values == {"matches": 2, "segments": 3} and result.score == 2 / 3
    parts = metric.statistics(hyps[:1], refs[:1]) + metric.statistics(hyps[1:], refs[1:])
    assert metric.score_from_statistics(parts).score == result.score
    interval = refscore.bootstrap_ci(metric, hyps, refs, n=50, seed=1).intervals["exact_match"]
    assert 0.0 <= interval.lower <= interval.score <= interval.upper <= 1.0
    paired = refscore.paired_test(metric, {"A": hyps, "B": ["x", "y", "z"]}, refs, n=50)
    assert [r.score for r in paired.results["exact_match"]] == [2 / 3, 0.0]
    assert refscore.sentence_exact_match("agent", ["x", "agent007"], ignore_numbers=True).score == 1.0


def test_bad_options_name_the_argument():
    with pytest.raises(InputTypeError, match=r"regexes_to_ignore must be a list.*\['the '\]"):
        ExactMatch(regexes_to_ignore="the ")
    with pytest.raises(InputError, match=r"regexes_to_ignore\[1\] '\(' is not a valid regular expression"):
        ExactMatch(regexes_to_ignore=("a", "("))
    with pytest.raises(InputTypeError, match="ignore_case"):
        ExactMatch(ignore_case="yes")
    with pytest.raises(InputTypeError, match=r"references\[1\] must be a str"):
        evaluate.load("exact_match").compute(predictions=["a", "b"], references=["a", 3])
