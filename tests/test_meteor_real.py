"""METEOR on real text equals NLTK 3.10.4 segment by segment (WMT22 de-en, two references; XSum summaries), and
its Hugging Face flavor equals a transcription of ``evaluate``'s ``meteor`` script (``evaluate.load`` needs the
Hub), run with NLTK's own ``word_tokenize``."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.tokenize import word_tokenize as nltk_word_tokenize
from nltk.translate import meteor_score

import refscore
from refscore.metrics.meteor import METEOR
from refscore.metrics.meteor.word_tokenize import word_tokenize
from conftest import read_segments, shared_data_path
from _meteor_peer import nltk_meteor, nltk_wordnet  # noqa: F401  (the fixture)

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

SEGMENTS = 400   # of each WMT22 system: enough for every stage and odd case, quick under NLTK


@pytest.fixture(autouse=True)
def _oracle(nltk_wordnet):  # noqa: F811
    return nltk_wordnet


def hf_word_tokenize(text: str) -> list[str]:
    """``word_tokenize`` as the script calls it, without Punkt data (offline): one line, no sentence split."""
    return nltk_word_tokenize(text, preserve_line=True)


def evaluate_meteor_compute(predictions, references, alpha=0.9, beta=3, gamma=0.5):
    """Hugging Face evaluate's ``meteor._compute`` (NLTK >= 3.6.5 branch), with ``hf_word_tokenize``."""
    multiple_refs = isinstance(references[0], list)
    if multiple_refs:
        scores = [meteor_score.meteor_score([hf_word_tokenize(ref) for ref in refs], hf_word_tokenize(pred),
                                            alpha=alpha, beta=beta, gamma=gamma)
                  for refs, pred in zip(references, predictions)]
    else:
        scores = [meteor_score.single_meteor_score(hf_word_tokenize(ref), hf_word_tokenize(pred), alpha=alpha,
                                                   beta=beta, gamma=gamma)
                  for ref, pred in zip(references, predictions)]
    return {"meteor": np.mean(scores)}, scores


@pytest.mark.parametrize("system", ["Online-A", "LT22"])
@pytest.mark.parametrize("tokenize", ["whitespace", "word_tokenize"])
def test_wmt22_de_en_two_references_equal_nltk(system, tokenize):
    folder = shared_data_path("wmt22", "de-en")
    hypotheses = read_segments(folder / "sys" / f"{system}.txt")[:SEGMENTS]
    references = list(zip(read_segments(folder / "ref.txt"), read_segments(folder / "ref2.txt")))[:SEGMENTS]
    split = str.split if tokenize == "whitespace" else hf_word_tokenize
    expected = [nltk_meteor(h, list(refs), tokenize=split) for h, refs in zip(hypotheses, references)]
    score = refscore.meteor(hypotheses, [list(refs) for refs in references], tokenize=tokenize)
    assert score.segments["meteor"].tolist() == expected
    assert score.score == float(np.mean(expected))


def test_xsum_summaries_equal_nltk():
    path = shared_data_path("summ_xsum_maynez2020")
    records = [json.loads(line) for name in sorted(path.glob("*.jsonl"))[:1]
               for line in name.read_text(encoding="utf-8").splitlines()[:200]]
    hypotheses = [r["prediction"] for r in records]
    references = [r["references"] for r in records]
    expected = [nltk_meteor(h, refs) for h, refs in zip(hypotheses, references)]
    assert refscore.meteor(hypotheses, references).segments["meteor"].tolist() == expected


def test_word_tokenize_is_nltk_on_real_text():
    folder = shared_data_path("wmt22", "de-en")
    lines = read_segments(folder / "ref.txt") + read_segments(folder / "sys" / "Online-A.txt")
    assert [word_tokenize(line) for line in lines] == [hf_word_tokenize(line) for line in lines]


PROSE = st.lists(st.sampled_from(["The", "cat", "sat", "on", "the", "mat.", "Dogs", "barked", "--", "(loudly)",
                                  '"quick"', "'s", "won't", "can't", "cannot", "$3.88", "e.g.", "...", "U.S.",
                                  "rapid,", "fast;", "home!", "houses?", "«ja»", "“quoted”", "it's", "'tis"]),
                 max_size=14).map(" ".join)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(PROSE, st.lists(PROSE, min_size=1, max_size=3)), min_size=1, max_size=5),
       st.booleans())
def test_hugging_face_flavor_equals_the_evaluate_script(batch, single):
    predictions = [prediction for prediction, _ in batch]
    references = [refs[0] for _, refs in batch] if single else [refs for _, refs in batch]
    expected, scores = evaluate_meteor_compute(predictions, references)
    result = refscore.meteor(predictions, references if single else refscore.per_segment(references),
                             tokenize="word_tokenize")
    assert result.segments["meteor"].tolist() == scores
    assert result.score == float(expected["meteor"])
    assert [word_tokenize(p) for p in predictions] == [hf_word_tokenize(p) for p in predictions]


def test_hugging_face_flavor_keeps_evaluate_parameters():
    predictions, references = ["the quick dogs barked"], [["a fast dog barks", "the dogs barked"]]
    expected, _ = evaluate_meteor_compute(predictions, references, alpha=0.5, beta=2, gamma=0.25)
    metric = METEOR(tokenize="word_tokenize", alpha=0.5, beta=2, gamma=0.25)
    assert metric.corpus_score(predictions, references).score == float(expected["meteor"])


PUNCTUATED = st.text(alphabet=st.one_of(st.sampled_from(list("abnstdlrve '\".,;:!?()[]{}<>-`«»“”‘’$%&*#@\t\n09")
                                                        + ["\u0301", "é", "ß", "İ", "\u00a0", "\u2013", "_"]),
                                        st.characters(blacklist_categories=("Cs",))), max_size=40)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(PUNCTUATED)
def test_word_tokenize_is_nltk_on_any_text(text):
    # with the regex engine NLTK compiles its rules with (its dependency): \w takes combining marks there
    assert word_tokenize(text) == hf_word_tokenize(text)
