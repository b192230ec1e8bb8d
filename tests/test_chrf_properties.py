"""Property-based parity of chrF / chrF++ with sacreBLEU and of the NLTK drop-in with NLTK, on random Unicode text."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate import chrf_score as peer_nltk
from sacrebleu.metrics import CHRF as PeerCHRF

import refscore
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu
from refscore.metrics.chrf import CHRF

# Letters of several scripts, combining marks, astral characters, characters whose lowercase changes length,
# ASCII punctuation (peeled off words by chrF++), and whitespace that str.split() and regex's \s disagree on.
ALPHABET = ("abcAB" "日本語中文" "\u0301\u0308" "😀𝔸" "İΣσςß" "()!.,'-" "  \t\n\u3000\xa0\x1c\u2028\u200b")
TEXT = st.text(alphabet=ALPHABET, max_size=14)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def options(draw):
    char_order = draw(st.integers(0, 7))
    word_order = draw(st.integers(0 if char_order else 1, 3))
    return {"char_order": char_order, "word_order": word_order, "beta": draw(st.sampled_from([0, 1, 2, 3, 0.5, 2.5])),
            "lowercase": draw(st.booleans()), "whitespace": draw(st.booleans()),
            "eps_smoothing": draw(st.booleans())}


@st.composite
def corpus(draw):
    size = draw(st.integers(1, 4))
    hyps = draw(st.lists(TEXT, min_size=size, max_size=size))
    refs = draw(st.lists(st.lists(TEXT, min_size=1, max_size=3), min_size=size, max_size=size))
    return hyps, refscore.per_segment(refs)  # square corpora would otherwise be refused as ambiguous


def to_streams(refs: list[list[str]]) -> list[list[str | None]]:
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


@SETTINGS
@given(corpus(), options())
def test_statistics_and_scores_equal_sacrebleu(data, opts):
    hyps, refs = data
    peer = PeerCHRF(**opts)
    streams = to_streams(refs)
    metric = CHRF(**opts)
    stats = metric.statistics(hyps, refs, num_threads=2)
    np.testing.assert_array_equal(stats.data, np.array(peer._extract_corpus_statistics(hyps, streams),
                                                       dtype=np.int64).reshape(stats.data.shape))
    assert 100 * metric.score_from_statistics(stats).score == pytest.approx(
        peer.corpus_score(hyps, streams).score, abs=1e-9)
    sentence = metric.sentence_scores(hyps, refs, num_threads=1)
    expected = [peer.sentence_score(hyp, seg_refs).score for hyp, seg_refs in zip(hyps, refs)]
    np.testing.assert_allclose(100 * sentence, expected, rtol=0, atol=1e-9)


@SETTINGS
@given(corpus(), options())
def test_sacrebleu_dropin_is_bit_identical(data, opts):
    hyps, refs = data
    streams = to_streams(refs)
    ours, peer = compat_sacrebleu.CHRF(**opts).corpus_score(hyps, streams), PeerCHRF(**opts).corpus_score(hyps, streams)
    assert ours.score == peer.score and str(ours) == str(peer)


@SETTINGS
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4), st.integers(1, 4), st.integers(0, 4),
       st.sampled_from([3.0, 1.0, 0.5, 2]), st.booleans())
def test_nltk_dropin_equals_nltk(pairs, min_len, extra, beta, ignore_whitespace):
    refs = [ref for ref, _ in pairs]
    hyps = [hyp for _, hyp in pairs]
    options = {"min_len": min_len, "max_len": min_len + extra, "beta": beta, "ignore_whitespace": ignore_whitespace}
    assert compat_nltk.corpus_chrf(refs, hyps, **options) == pytest.approx(
        peer_nltk.corpus_chrf(refs, hyps, **options), rel=1e-12, abs=1e-300)
    assert compat_nltk.sentence_chrf(refs[0], hyps[0], **options) == pytest.approx(
        peer_nltk.sentence_chrf(refs[0], hyps[0], **options), rel=1e-12, abs=1e-300)
