"""Property-based parity of refscore's TER with sacreBLEU 2.6 on random Unicode text, every tokenizer option."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from _ter_peer import sacrebleu_ter_with_edits, to_streams  # noqa: E402

import refscore  # noqa: E402
from refscore.metrics.ter import TER  # noqa: E402

OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, values)) for values in itertools.product((False, True), repeat=4)]

# Words that exercise every tokenizer rule: XML entities, possessives, numbers with separators, dashes, CJK
# ideographs, kana, CJK and full-width punctuation, case-sensitive letters (final sigma, dotted I), whitespace.
VOCABULARY = [
    "the", "The", "cat", "CAT", "sat", "on", "a", "mat", "dog", "'s", "it's", "John's", "&quot;", "&amp;",
    "&amp;quot;", "&lt;", "&gt;", "3.14", "1,000", "a.b", "x,y", ".", ",", "..", "?", "!", ":", ";", "\"", "(",
    ")", "-", "2020-01", "e-mail", "a/b", "{x}", "[y]", "@", "#1", "_", "~", "`", "ΟΔΟΣ", "İstanbul", "Straße",
    "猫", "我爱你", "ねこ", "ネコ", "ｱｲｳ", "。", "、", "「", "」", "，", "．", "？", "！", "（", "）", "㈠", "㍻",
    "豈", "︰", "ㇰ", "⺀", "\u0301", "\ud800", "\n-", "\n",
]
SEPARATORS = [" ", " ", " ", "  ", "", "\t", "\n", "\u3000", "\xa0", "\x1c", "\x85", "\u2028"]

word = st.one_of(st.sampled_from(VOCABULARY), st.text(min_size=1, max_size=4))
sentence = st.builds(
    lambda words, seps: "".join(w + s for w, s in zip(words, seps)),
    st.lists(word, max_size=14), st.lists(st.sampled_from(SEPARATORS), min_size=14, max_size=14),
)
# references are often a permutation of (part of) the hypothesis, so that shifts happen
segment = st.tuples(sentence, st.lists(sentence, min_size=1, max_size=3), st.randoms(use_true_random=False))


def shuffled_variant(text: str, rng) -> str:
    words = text.split(" ")
    rng.shuffle(words)
    return " ".join(words[: max(1, len(words) - rng.randint(0, 2))])


def build_batch(draws) -> tuple[list[str], list[list[str]]]:
    hyps, refs = [], []
    for hyp, references, rng in draws:
        hyps.append(hyp)
        refs.append([shuffled_variant(hyp, rng) if rng.random() < 0.5 else ref for ref in references])
    return hyps, refscore.per_segment(refs)  # square corpora would otherwise be refused as ambiguous


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(draws=st.lists(segment, min_size=1, max_size=4))
def test_random_text_matches_sacrebleu(options, draws):
    hyps, refs = build_batch(draws)
    metric = TER(**options)
    ours = metric.reference_edits(hyps, refs, num_threads=1)
    peer, peer_edits, peer_lengths = sacrebleu_ter_with_edits(hyps, to_streams(refs), **options)
    assert ours.edits.tolist() == peer_edits
    assert ours.ref_lengths.tolist() == peer_lengths
    score = metric.corpus_score(hyps, refs, num_threads=1)
    assert score.values["num_edits"] == peer.num_edits
    assert score.values["ref_length"] == pytest.approx(peer.ref_length, abs=1e-9)
    assert 100 * score.score == pytest.approx(peer.score, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(draws=st.lists(segment, min_size=1, max_size=6), cut=st.integers(min_value=0, max_value=6))
def test_split_statistics_merge_to_one_pass(draws, cut):
    hyps, refs = build_batch(draws)
    cut = min(cut, len(hyps) - 1) if len(hyps) > 1 else 1
    metric = TER()
    whole = metric.statistics(hyps, refs, num_threads=1)
    if cut < len(hyps) and cut > 0:
        merged = metric.statistics(hyps[:cut], refs[:cut]) + metric.statistics(hyps[cut:], refs[cut:])
        np.testing.assert_array_equal(merged.data, whole.data)
        assert metric.score_from_statistics(merged) == metric.score_from_statistics(whole)
