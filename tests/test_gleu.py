"""Google-BLEU: parity with NLTK's corpus_gleu / sentence_gleu and the Hugging Face google_bleu metric card."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore
from refscore import GLEU, Statistics
from refscore.errors import InputError, InputTypeError

VOCABULARY = ["the", "cat", "sat", "on", "a", "mat", ".", ",", "猫", "坐", "。", "é", "Привет", "x²", "(", ")"]
word = st.sampled_from(VOCABULARY)
text = st.one_of(st.lists(word, max_size=10).map(" ".join), st.text(max_size=15))
corpus = st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(corpus, st.integers(1, 3), st.integers(0, 3))
def test_equals_nltk_on_whitespace_tokens_and_hf_13a(data, min_len, extra):
    hyps = [h for h, _ in data]
    refs = refscore.per_segment([r for _, r in data])  # square corpora would otherwise be ambiguous
    max_len = min_len + extra
    # tokenize="none": whitespace tokens, as NLTK users pass them
    expected = corpus_gleu([[r.split() for r in group] for group in refs], [h.split() for h in hyps],
                           min_len=min_len, max_len=max_len)
    metric = GLEU(tokenize="none", min_len=min_len, max_len=max_len)
    stats = metric.statistics(hyps, refs, num_threads=2)
    assert metric.score_from_statistics(stats).score == expected
    sentences = [sentence_gleu([r.split() for r in group], h.split(), min_len=min_len, max_len=max_len)
                 for h, group in data]
    assert metric.segment_scores(stats).tolist() == sentences
    # the default 13a: Hugging Face google_bleu = Tokenizer13a + corpus_gleu
    tokenizer = Tokenizer13a()
    expected_hf = corpus_gleu([[tokenizer(r).split() for r in group] for group in refs],
                              [tokenizer(h).split() for h in hyps], min_len=min_len, max_len=max_len)
    assert refscore.gleu(hyps, refs, min_len=min_len, max_len=max_len).score == expected_hf


RUBBER_DUCK_PREDICTIONS = [
    "It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat",
    "he read the book because he was interested in world history",
]
RUBBER_DUCK_REFERENCES = [
    ["It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat",
     "It is a guide to action that ensures that the rubber duck will never heed the cat commands",
     "It is the practical guide for the rubber duck army never to heed the directions of the cat"],
    ["he was interested in world history because he read the book"],
]


def test_hugging_face_metric_card_examples():
    assert refscore.sentence_gleu("the cat sat on the mat", ["the cat ate the mat"]).score == 1 / 3
    single = [RUBBER_DUCK_REFERENCES[0][:1], RUBBER_DUCK_REFERENCES[1]]
    assert round(refscore.gleu(RUBBER_DUCK_PREDICTIONS, single).score, 2) == 0.44
    assert round(refscore.gleu(RUBBER_DUCK_PREDICTIONS, RUBBER_DUCK_REFERENCES).score, 2) == 0.61
    assert round(refscore.gleu(RUBBER_DUCK_PREDICTIONS, RUBBER_DUCK_REFERENCES, min_len=2).score, 2) == 0.53
    assert round(refscore.gleu(RUBBER_DUCK_PREDICTIONS, RUBBER_DUCK_REFERENCES, min_len=2, max_len=6).score,
                 2) == 0.40


def test_best_reference_and_corpus_anchors():
    r1, r2 = "the cat sat", "a cat sat on the mat"
    assert refscore.sentence_gleu("the cat sat on the mat", [r1, r2]).score == pytest.approx(7 / 9)
    corpus = refscore.gleu(["the cat sat on the mat", "the cat"], [[r1, r2], [r1]])
    assert corpus.score == pytest.approx(0.708333333333, abs=1e-9)
    assert (corpus.values["matches"], corpus.values["n_all"]) == (17, 24)


def test_empty_pairs_are_skipped():
    assert refscore.sentence_gleu("", "").score == 0.0
    assert refscore.gleu(["", "a b"], ["", "a b"]).score == 1.0
    assert refscore.gleu(["a"], [["", "a"]]).score == corpus_gleu([[[], ["a"]]], [["a"]])


def test_token_ids_merge_and_pickle():
    metric = GLEU()
    ids = metric.statistics([[1, 2, 3], [4, 5]], [[[1, 2, 4], [1, 2, 3]], [5, 4]])
    assert ids.data.tolist() == [[6, 6], [2, 3]]
    parts = Statistics.concatenate([metric.statistics([[1, 2, 3]], [[[1, 2, 4], [1, 2, 3]]]),
                                    metric.statistics([[4, 5]], [[5, 4]])])
    assert np.array_equal(parts.data, ids.data)
    assert pickle.loads(pickle.dumps(ids)).data.tolist() == ids.data.tolist()
    assert metric.score_from_statistics(ids).score == 8 / 9
    assert str(metric.signature(2)).startswith("nrefs:2|case:mixed|tok:13a|ngram:1-4|refscore:")


@pytest.mark.parametrize("options, error, match", [
    ({"min_len": 0}, InputError, r"min_len must be in \[1, 10000\]"),
    ({"min_len": 3, "max_len": 2}, InputError, "max_len"),
    ({"max_len": "4"}, InputTypeError, "max_len"),
    ({"tokenize": "spm"}, InputError, r"unknown tokenize .spm. \(.spm. \(MeCab / SentencePiece\) is available to "
                                      r"BLEU only"),
])
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        GLEU(**options)


def test_bad_input():
    with pytest.raises(InputError, match="hypotheses has 1 segments but references has 2"):
        refscore.gleu(["a"], ["a", "b"])
    with pytest.raises(InputTypeError, match=r"references\[0\] is None"):
        refscore.gleu(["a"], [None])
