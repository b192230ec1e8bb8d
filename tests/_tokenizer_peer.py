"""sacreBLEU's side of the tokenizer parity tests, and random Hangul / Japanese / mixed text."""
from __future__ import annotations

from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

import refscore


def sacrebleu_tokens(name: str, texts: list[str], lowercase: bool = False) -> list[str]:
    """sacreBLEU's own BLEU preprocessing (``BLEU._preprocess_segment``) of every text."""
    metric = SacreBLEU(tokenize=name, lowercase=lowercase)
    return [metric._preprocess_segment(text) for text in texts]


def assert_bleu_equal(hypotheses: list[str], references: list[list[str]], **options) -> None:
    """refscore's corpus BLEU equals sacreBLEU's: statistics exactly, the score to 1e-9 on the 0–100 scale (the
    0–1 score is sacreBLEU's divided by 100, an ulp apart at most), and the signature."""
    ours = refscore.bleu(hypotheses, refscore.from_streams(references), **options)
    peer_metric = SacreBLEU(**options)
    peer = peer_metric.corpus_score(hypotheses, references)
    assert (list(ours.values["counts"]), list(ours.values["totals"])) == (peer.counts, peer.totals)
    assert (ours.values["sys_len"], ours.values["ref_len"]) == (peer.sys_len, peer.ref_len)
    assert abs(100 * ours.score - peer.score) <= 1e-9
    assert ours.signature.split("|refscore:")[0] == peer_metric.get_signature().format()
    segment_metric, peer_segment = refscore.BLEU(effective_order=True, **options), SacreBLEU(effective_order=True,
                                                                                             **options)
    ours_segments = 100 * segment_metric.sentence_scores(hypotheses, refscore.from_streams(references))
    for k, hypothesis in enumerate(hypotheses):    # sentence BLEU: the same tokens segment by segment
        expected = peer_segment.sentence_score(hypothesis, [stream[k] for stream in references]).score
        assert abs(ours_segments[k] - expected) <= 1e-9, k


#: Hangul syllables, kana, some kanji, Latin, digits, punctuation and Unicode spaces (the separators of str.split).
HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
KANA = st.characters(min_codepoint=0x3041, max_codepoint=0x30FF)
KANJI = st.sampled_from("日本語文字猫犬好学生先東京大会社人時間年月")
OTHER = st.sampled_from("abcXYZ019 ,.!?「」。、・ー()-'\"\t\u3000\xa0\u2003\n")
MIXED_TEXT = st.text(st.one_of(HANGUL, KANA, KANJI, OTHER), max_size=30)
