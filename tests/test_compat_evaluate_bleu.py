"""refscore.compat.evaluate bleu / google_bleu / sacrebleu: equal to what the HF metric scripts compute.

HF's scripts cannot be downloaded here, so each is compared with the libraries it calls: ``google_bleu`` = the 13a
tokenizer + NLTK ``corpus_gleu``; ``sacrebleu`` = ``sacrebleu.corpus_bleu`` on transposed references; ``bleu`` =
the 13a tokenizer + ``compute_bleu`` of HF's ``metrics/bleu/nmt_bleu.py`` (tensorflow/nmt), transcribed below.
"""
from __future__ import annotations

import collections
import logging
import math

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from refscore.compat import evaluate
from refscore.errors import InputError

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def _get_ngrams(segment, max_order):
    ngram_counts = collections.Counter()
    for order in range(1, max_order + 1):
        for i in range(0, len(segment) - order + 1):
            ngram_counts[tuple(segment[i:i + order])] += 1
    return ngram_counts


def nmt_compute_bleu(reference_corpus, translation_corpus, max_order=4, smooth=False):
    """tensorflow/nmt ``compute_bleu`` as shipped in HF evaluate's ``metrics/bleu/nmt_bleu.py``."""
    matches_by_order = [0] * max_order
    possible_matches_by_order = [0] * max_order
    reference_length = 0
    translation_length = 0
    for (references, translation) in zip(reference_corpus, translation_corpus):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        merged_ref_ngram_counts = collections.Counter()
        for reference in references:
            merged_ref_ngram_counts |= _get_ngrams(reference, max_order)
        translation_ngram_counts = _get_ngrams(translation, max_order)
        overlap = translation_ngram_counts & merged_ref_ngram_counts
        for ngram in overlap:
            matches_by_order[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            possible_matches = len(translation) - order + 1
            if possible_matches > 0:
                possible_matches_by_order[order - 1] += possible_matches
    precisions = [0] * max_order
    for i in range(0, max_order):
        if smooth:
            precisions[i] = ((matches_by_order[i] + 1.) / (possible_matches_by_order[i] + 1.))
        else:
            if possible_matches_by_order[i] > 0:
                precisions[i] = (float(matches_by_order[i]) / possible_matches_by_order[i])
            else:
                precisions[i] = 0.0
    if min(precisions) > 0:
        p_log_sum = sum((1. / max_order) * math.log(p) for p in precisions)
        geo_mean = math.exp(p_log_sum)
    else:
        geo_mean = 0
    if reference_length == 0 or translation_length == 0:
        ratio = 0.0
        bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    bleu = geo_mean * bp
    return (bleu, precisions, bp, ratio, translation_length, reference_length)


def hf_bleu(predictions, references, tokenizer, max_order=4, smooth=False):
    """HF ``bleu._compute`` around the transcription."""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    score = nmt_compute_bleu([[tokenizer(r) for r in ref] for ref in references], [tokenizer(p) for p in predictions],
                             max_order=max_order, smooth=smooth)
    keys = ("bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length")
    return dict(zip(keys, score))


def tokenize_13a(line: str) -> list[str]:
    return Tokenizer13a()(line).split()


VOCABULARY = ["the", "cat", "sat", "on", "a", "mat", ".", ",", "猫", "(x)", "don't", "3.14"]
text = st.one_of(st.lists(st.sampled_from(VOCABULARY), max_size=9).map(" ".join), st.text(max_size=10))
corpus = st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=5)
CARD_PREDICTIONS = ["It is a guide to action which ensures that the rubber duck always disobeys the commands of the "
                    "cat",
                    "he read the book because he was interested in world history"]
CARD_REFERENCES = [["It is the guiding principle which guarantees the rubber duck forces never being under the command "
                    "of the cat", "It is a guide to action that ensures that the rubber duck will never heed the cat "
                    "commands", "It is the practical guide for the rubber duck army never to heed the directions of "
                    "the cat"], ["he was interested in world history because he read the book"]]


@settings(max_examples=30, deadline=None)
@given(corpus, st.integers(1, 5), st.booleans(), st.integers(1, 3), st.integers(0, 2))
def test_bleu_and_google_bleu_equal_the_hf_scripts(data, max_order, smooth, min_len, extra):
    predictions = [p for p, _ in data]
    references = [refs for _, refs in data]
    expected = hf_bleu(predictions, references, tokenize_13a, max_order, smooth)
    assert evaluate.load("bleu").compute(predictions=predictions, references=references, max_order=max_order,
                                         smooth=smooth) == expected
    expected = hf_bleu(predictions, references, str.split, max_order, smooth)
    assert evaluate.load("bleu").compute(predictions=predictions, references=references, tokenizer=str.split,
                                         max_order=max_order, smooth=smooth) == expected
    gleu = corpus_gleu([[tokenize_13a(r) for r in refs] for refs in references],
                       [tokenize_13a(p) for p in predictions], min_len=min_len, max_len=min_len + extra)
    assert evaluate.load("google_bleu").compute(predictions=predictions, references=references, min_len=min_len,
                                                max_len=min_len + extra) == {"google_bleu": gleu}


# Pieces that meet HF's 13a clean-up (no strip of trailing whitespace) at the end of a text.
MARKUP = st.lists(st.sampled_from(["d", "-", "\n", " ", "\t", "<skipped>", "<skip", "ped>", "&amp;", "lt;", "3", "."]),
                  max_size=8).map("".join)
markup_corpus = st.lists(st.tuples(MARKUP, st.lists(MARKUP, min_size=1, max_size=2)), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(markup_corpus)
def test_bleu_and_google_bleu_tokenize_like_hf_where_trailing_whitespace_matters(data):
    """HF's 13a copy does not strip trailing whitespace: "d-\\n" loses its "-" there, unlike in sacreBLEU."""
    predictions = [p for p, _ in data]
    # the first reference of each is the prediction's HF tokens: any token HF makes differently is a lost match
    references = [[" ".join(tokenize_13a(p))] + refs for p, refs in data]
    assert evaluate.load("bleu").compute(predictions=predictions, references=references) == hf_bleu(
        predictions, references, tokenize_13a)
    gleu = corpus_gleu([[tokenize_13a(r) for r in refs] for refs in references],
                       [tokenize_13a(p) for p in predictions], min_len=1, max_len=2)
    assert evaluate.load("google_bleu").compute(predictions=predictions, references=references, max_len=2) == {
        "google_bleu": gleu}


def test_hf_13a_drops_the_dash_before_a_trailing_newline():
    bleu = evaluate.load("bleu")
    result = bleu.compute(predictions=["a b c d-\n"], references=[["a b c d"]])
    assert result["bleu"] == 1.0 and result["translation_length"] == 4
    assert tokenize_13a("a b c d-\n") == ["a", "b", "c", "d"]


@settings(max_examples=20, deadline=None)
@given(corpus, st.integers(1, 3), st.sampled_from([("exp", None), ("floor", 0.2), ("add-k", None), ("none", None)]),
       st.booleans(), st.sampled_from([None, "none", "intl"]))
def test_sacrebleu_equals_sacrebleu_corpus_bleu(data, nrefs, smoothing, lowercase, tokenize):
    predictions = [p for p, _ in data]
    references = [(refs * 3)[:nrefs] for _, refs in data]
    output = sacrebleu.corpus_bleu(predictions, [[refs[k] for refs in references] for k in range(nrefs)],
                                   smooth_method=smoothing[0], smooth_value=smoothing[1], lowercase=lowercase,
                                   **({"tokenize": tokenize} if tokenize else {}))
    ours = evaluate.load("sacrebleu").compute(predictions=predictions, references=references,
                                              smooth_method=smoothing[0], smooth_value=smoothing[1],
                                              lowercase=lowercase, tokenize=tokenize)
    assert list(ours) == ["score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"]
    assert ours["score"] == pytest.approx(output.score, abs=1e-9, rel=0)
    assert [ours[k] for k in ("counts", "totals", "bp", "sys_len", "ref_len")] == [
        output.counts, output.totals, output.bp, output.sys_len, output.ref_len]


@pytest.mark.parametrize("count, options, expected", [(1, {}, 0.44), (2, {}, 0.61), (2, {"min_len": 2}, 0.53),
                                                      (2, {"min_len": 2, "max_len": 6}, 0.4)])
def test_google_bleu_metric_card_examples(count, options, expected):
    references = [CARD_REFERENCES[0][:1] if count == 1 else CARD_REFERENCES[0], CARD_REFERENCES[1]]
    result = evaluate.load("google_bleu").compute(predictions=CARD_PREDICTIONS, references=references, **options)
    assert round(result["google_bleu"], 2) == expected


def test_metric_card_examples_and_edge_cases():
    bleu = evaluate.load("bleu")
    assert bleu.compute(predictions=["hello there general kenobi", "foo bar foobar"],
                        references=[["hello there general kenobi", "hello there!"], ["foo bar foobar"]])["bleu"] == 1.0
    sacre = evaluate.load("sacrebleu")
    result = sacre.compute(predictions=["hello there general kenobi", "on our way to ankh morpork"],
                           references=[["hello there general kenobi", "hello there !"],
                                       ["goodbye ankh morpork", "ankh morpork"]])
    assert round(result["score"], 1) == 39.8
    # empty translation / empty shortest reference: HF's nmt_bleu.py returns ratio = bp = 0.0
    for predictions, references in ((["", ""], ["a b", "c"]), (["a b"], [["", "a b"]])):
        assert bleu.compute(predictions=predictions, references=references) == hf_bleu(predictions, references,
                                                                                       tokenize_13a)
    with pytest.raises(InputError, match="same number of references"):
        sacre.compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])
    with pytest.raises(InputError, match="max_order"):
        bleu.compute(predictions=["a"], references=["a"], max_order=0)
    bleu.add_batch(predictions=["a b c"], references=[["a b c"]])
    bleu.add(prediction="d e", reference="d e")
    assert bleu.compute(max_order=2)["bleu"] == 1.0
