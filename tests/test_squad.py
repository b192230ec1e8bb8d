"""SQuAD F1 and exact match: refscore's metric and ``compat.evaluate.load("squad" | "squad_v2")`` against
evaluate 0.4.6's modules (their examples; the official scripts' oracle in tests/_squad_peer.py) and torchmetrics'
SQuAD (an installed peer) on random and real texts."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

import refscore
from _squad_peer import evaluate_squad, evaluate_squad_v2, f1_v1, f1_v2, normalize
from conftest import read_segments, shared_data_path
from refscore.compat import evaluate
from refscore.errors import InputError
from refscore.metrics.squad import SQuAD

WORDS = st.sampled_from(["the", "a", "an", "The", "cat", "Cat.", "theater", "an-", "1976", "猫", "猫。", "😀",
                         "e\u0301", "İ", ",", "!", "", "  ", "\t", "\u3000", "ano"])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)
QUESTION = st.tuples(TEXT, st.lists(TEXT, max_size=3), st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0, 0.3]))


def layouts(questions):
    predictions = [{"id": str(i), "prediction_text": p, "no_answer_probability": na}
                   for i, (p, _, na) in enumerate(questions)]
    references = [{"id": str(i), "answers": {"text": list(refs), "answer_start": [0] * len(refs)}}
                  for i, (_, refs, _) in enumerate(questions)]
    return predictions, references


def test_evaluate_module_examples():
    predictions = [{"prediction_text": "1976", "id": "56e10a3be3433e1400422b22", "no_answer_probability": 0.0}]
    references = [{"answers": {"answer_start": [97], "text": ["1976"]}, "id": "56e10a3be3433e1400422b22"}]
    v1 = [{k: v for k, v in p.items() if k != "no_answer_probability"} for p in predictions]
    assert evaluate.load("squad").compute(predictions=v1, references=references) == {
        "exact_match": 100.0, "f1": 100.0}
    assert evaluate.load("squad_v2").compute(predictions=predictions, references=references) == {
        "exact": 100.0, "f1": 100.0, "total": 1, "HasAns_exact": 100.0, "HasAns_f1": 100.0, "HasAns_total": 1,
        "best_exact": 100.0, "best_exact_thresh": 0.0, "best_f1": 100.0, "best_f1_thresh": 0.0}


@settings(max_examples=300, deadline=None)
@given(st.lists(QUESTION.filter(lambda q: q[1]), min_size=1, max_size=8))
def test_squad_drop_in_equals_evaluate(questions):
    predictions, references = layouts(questions)
    v1 = [{"id": p["id"], "prediction_text": p["prediction_text"]} for p in predictions]
    assert evaluate.load("squad").compute(predictions=v1, references=references) == evaluate_squad(v1, references)


@settings(max_examples=300, deadline=None)
@given(st.lists(QUESTION, min_size=1, max_size=8), st.sampled_from([1.0, 0.5, 0.0]))
def test_squad_v2_drop_in_equals_evaluate(questions, threshold):
    predictions, references = layouts(questions)
    expected = evaluate_squad_v2(predictions, references, no_answer_threshold=threshold)
    result = evaluate.load("squad_v2", no_answer_threshold=threshold).compute(predictions=predictions,
                                                                             references=references)
    assert result == expected and list(result) == list(expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(QUESTION.filter(lambda q: q[1]), min_size=1, max_size=8), st.sampled_from(["1.1", "2.0"]))
def test_metric_segments_equal_the_scripts(questions, version):
    hyps, refs = [q[0] for q in questions], [list(q[1]) for q in questions]
    metric = SQuAD(version=version)
    table = metric.segment_table(metric.statistics(hyps, refscore.per_segment(refs)))
    f1 = f1_v1 if version == "1.1" else (lambda p, t: f1_v2(t, p))
    for i, (hyp, golds) in enumerate(zip(hyps, refs)):
        if version == "2.0":
            golds = [g for g in golds if normalize(g)] or [""]
        assert table["f1"][i] == max(f1(hyp, g) for g in golds)
        assert table["exact_match"][i] == max(normalize(hyp) == normalize(g) for g in golds)


def test_torchmetrics_squad_agrees():
    from torchmetrics.functional.text import squad as tm_squad

    hyps = ["the cat sat", "1976", "a dog", "Paris, France", "猫 cat"]
    refs = [["a cat sat down", "cat"], ["in 1976"], ["the dog"], ["Paris"], ["猫"]]
    predictions = [{"id": str(i), "prediction_text": h} for i, h in enumerate(hyps)]
    targets = [{"id": str(i), "answers": {"text": r, "answer_start": [0] * len(r)}} for i, r in enumerate(refs)]
    expected = tm_squad(predictions, targets)   # float32 tensors, 0-100
    result = refscore.squad(hyps, refs, version="2.0")
    assert result.values["exact_match"] * 100 == pytest.approx(float(expected["exact_match"]), rel=1e-6)
    assert result.values["f1"] * 100 == pytest.approx(float(expected["f1"]), rel=1e-6)


def test_long_lines_cjk_and_empty_answers():
    long = " ".join(["the"] + ["word"] * 2_000 + ["猫😀"])[:10_000]
    questions = [(long, [long.upper()], 0.2), ("", [""], 0.9), ("", [], 0.1), ("x", [], 0.95), ("the", ["a"], 0.0)]
    predictions, references = layouts(questions)
    assert (evaluate.load("squad_v2").compute(predictions=predictions, references=references)
            == evaluate_squad_v2(predictions, references))
    v2 = refscore.squad([q[0] for q in questions], [q[1] or [""] for q in questions], version="2.0")
    assert v2.segments["f1"].tolist() == [1.0, 1.0, 1.0, 0.0, 1.0]
    assert v2.values["has_answer_total"] == 1 and v2.values["no_answer_total"] == 4
    v1 = refscore.squad(["", "the"], [[""], ["a"]])   # v1.1: no common token, F1 0; exact match 1
    assert v1.segments["f1"].tolist() == [0.0, 0.0] and v1.values["exact_match"] == 1.0


def test_wmt22_texts_equal_evaluate():
    directory = shared_data_path("wmt22", "en-zh")
    refs = read_segments(directory / "ref.txt")[:300] + read_segments(shared_data_path("wmt22", "en-de", "ref.txt"))[:300]
    hyps = [r.lower()[: len(r) // 2] for r in refs]
    predictions = [{"id": str(i), "prediction_text": h} for i, h in enumerate(hyps)]
    references = [{"id": str(i), "answers": {"text": [r], "answer_start": [0]}} for i, r in enumerate(refs)]
    expected = evaluate_squad(predictions, references)
    assert evaluate.load("squad").compute(predictions=predictions, references=references) == expected
    result = refscore.squad(hyps, refs)
    assert result.values["f1"] * 100 == pytest.approx(expected["f1"], rel=1e-12)
    assert result.values["exact_match"] * 100 == pytest.approx(expected["exact_match"], rel=1e-12)


def test_scores_intervals_and_checks():
    metric = SQuAD()
    hyps, refs = ["the Eiffel tower", "1976", "nothing"], [["Eiffel Tower", "tower"], ["in 1976"], ["Paris"]]
    result = metric.corpus_score(hyps, refs)
    assert result.score == result.values["f1"] == pytest.approx((1 + 2 / 3 + 0) / 3, abs=1e-15)
    assert metric.score_names == ("f1", "exact_match")
    parts = metric.statistics(hyps[:2], refs[:2]) + metric.statistics(hyps[2:], refs[2:])
    assert metric.score_from_statistics(parts).values == result.values
    interval = refscore.bootstrap_ci(metric, hyps, refs, n=50, seed=1).intervals
    assert set(interval) == {"f1", "exact_match"}
    scores, _ = refscore.testing.Check("squad").scores(hyps, refs)
    assert scores.tolist() == result.segments["f1"].tolist()
    assert "exact match 0" in metric.explain_case("nothing", ["Paris"])


def test_bad_input_names_the_position():
    with pytest.raises(InputError, match=r"references\[1\] \(id '1'\) has no answer text"):
        evaluate.load("squad").compute(predictions=[{"id": "0", "prediction_text": "a"},
                                                    {"id": "1", "prediction_text": "b"}],
                                       references=[{"id": "0", "answers": {"text": ["a"]}},
                                                   {"id": "1", "answers": {"text": []}}])
    with pytest.raises(InputError, match=r"predictions\[0\] must be a dict with 'prediction_text'"):
        evaluate.load("squad").compute(predictions=[{"id": "0"}], references=[{"id": "0", "answers": {"text": []}}])
    with pytest.raises(InputError, match="version"):
        SQuAD(version="3")
    assert math.isclose(refscore.sentence_squad("the cat sat", "a cat sat down").score, 0.8)
