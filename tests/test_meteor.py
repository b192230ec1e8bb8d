"""METEOR equals NLTK 3.10.4's ``meteor_score`` (the real package, reading the same WordNet 3.0 files): random
English-like text whose vocabulary has synonyms and inflections (so the exact, stem and WordNet stages all fire),
several references, empty strings; the stemmer and WordNet lookups on their own; the errors."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.metrics.meteor import METEOR, METEORConfig
from refscore.metrics.meteor.align import stem
from refscore.metrics.meteor.wordnet import load_wordnet
from _meteor_peer import nltk_meteor, nltk_wordnet  # noqa: F401  (the fixture)

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

# words with synonyms (car/auto/automobile, big/large, kill/murder...), inflections (sat/sitting, geese, better),
# case variants, repeats and punctuation: every stage and NLTK's handling of duplicates is exercised
VOCABULARY = ("the The a cat cats Cat sat sit sitting sits on mat mats dog dogs barked barks bark quick fast "
              "rapid speedy big large huge house home houses car cars auto automobile walk walked walking "
              "happy glad felicitous kill killed murder slay geese goose better good well went go goes gone "
              "children child ran run running . , ! 's café cafés naïve über").split()
words = st.lists(st.sampled_from(VOCABULARY), max_size=14).map(" ".join)
segments = st.lists(st.tuples(words, st.lists(words, min_size=1, max_size=3)), min_size=1, max_size=6)


@pytest.fixture(autouse=True)
def _oracle(nltk_wordnet):  # noqa: F811  every test here needs NLTK's WordNet (skips without the packages)
    return nltk_wordnet


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(segments)
def test_segment_scores_equal_nltk_meteor_score(batch):
    hypotheses = [hypothesis for hypothesis, _ in batch]
    references = [refs for _, refs in batch]
    ours = METEOR().sentence_scores(hypotheses, refscore.per_segment(references))
    assert ours.tolist() == [nltk_meteor(h, refs) for h, refs in batch]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(segments, st.floats(0, 1), st.floats(0, 6), st.floats(0, 1))
def test_other_parameters_equal_nltk(batch, alpha, beta, gamma):
    metric = METEOR(alpha=alpha, beta=beta, gamma=gamma)
    ours = metric.sentence_scores([h for h, _ in batch], refscore.per_segment([refs for _, refs in batch]))
    assert ours.tolist() == [nltk_meteor(h, refs, alpha=alpha, beta=beta, gamma=gamma) for h, refs in batch]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8), max_size=10)
       .map(" ".join), st.lists(st.text(max_size=8), max_size=10).map(" ".join))
def test_arbitrary_unicode_equals_nltk(hypothesis, reference):
    assert refscore.sentence_meteor(hypothesis, reference).score == nltk_meteor(hypothesis, [reference])


def test_corpus_score_is_the_mean_of_nltk_segment_scores():
    hypotheses = ["It is a guide to action which ensures that the military always obeys the commands of the party",
                  "the cat sat on the mat", ""]
    references = [["It is a guide to action that ensures that the military will forever heed Party commands",
                   "It is the guiding principle which guarantees the military forces always being under the "
                   "command of the Party"], ["the cats sat on a mat"], ["Nothing."]]
    expected = [nltk_meteor(h, refs) for h, refs in zip(hypotheses, references)]
    score = refscore.meteor(hypotheses, references)
    assert round(expected[0], 4) == 0.6944   # NLTK's own doctest value
    assert score.score == float(np.mean(expected))
    assert score.segments["meteor"].tolist() == expected and score.values["documents"] == 3
    merged = METEOR().corpus_score_chunks([(hypotheses[:2], references[:2]), (hypotheses[2:], references[2:])])
    assert merged.score == pytest.approx(np.mean(expected), rel=1e-15)


def test_empty_strings_score_zero_as_in_nltk():
    assert METEOR().sentence_scores(["", "a", ""], ["a", "", ""]).tolist() == [0.0, 0.0, 0.0]
    assert nltk_meteor("", ["a"]) == nltk_meteor("a", [""]) == 0.0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from("abcdeilnorstuyzwxjqké ßöüç"), min_size=1, max_size=14).map(str.lower))
def test_stem_is_nltk_porter_stemmer(word):
    assert stem(word) == PorterStemmer().stem(word)


def test_synonyms_are_nltk_synsets_lemma_names(nltk_wordnet):
    wordnet = load_wordnet()
    for word in [*VOCABULARY, "leaves", "axes", "men", "wolves", "indices", "oxen", "best", "hardest", "fishing",
                 "u.s.", "galore", "aboard", "xyzzy", "dies", "dying", "boxes", "churches"]:
        word = word.lower()
        expected = {lemma.name() for synset in nltk_wordnet.synsets(word) for lemma in synset.lemmas()
                    if "_" not in lemma.name()} | {word}
        assert wordnet.synonyms(word) == expected, word


def test_config_errors_name_the_option():
    with pytest.raises(InputError, match=r"METEOR.*alpha must be a finite number in \[0, 1\]"):
        METEOR(alpha=1.5)
    with pytest.raises(InputTypeError, match="beta must be a number"):
        METEOR(beta="3")
    with pytest.raises(InputError, match="tokenize must be one of 'whitespace', 'word_tokenize'"):
        METEORConfig(tokenize="13a")
    with pytest.raises(InputError, match="valid options"):
        METEOR(stemmer=False)


def test_signature_names_the_tokenizer_and_nltk():
    signature = str(METEOR(tokenize="word_tokenize").signature(2))
    assert signature.startswith("nrefs:2|case:lc|tok:word_tokenize|stages:exact+stem+wordnet|alpha:0.9|beta:3.0|"
                                "gamma:0.5|wordnet:3.0|nltk:3.10.4|refscore:")


@pytest.mark.parametrize("module", ["metric", "align", "wordnet", "word_tokenize"])
def test_docstring_examples(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(f"refscore.metrics.meteor.{module}"))
    assert attempted > 0 and failures == 0


def test_synonym_cache_stays_bounded(monkeypatch):
    from refscore.metrics.meteor import wordnet as module

    wordnet = load_wordnet()
    expected = {word: wordnet.synonyms(word) for word in ("cars", "geese", "xyzzy")}
    monkeypatch.setattr(module, "SYNONYM_CACHE_WORDS", 2)
    wordnet._synonyms.clear()
    assert {word: wordnet.synonyms(word) for word in expected} == expected
    assert len(wordnet._synonyms) <= 2
