"""refscore.compat.sacrebleu BLEU: identical to sacreBLEU 2.6 (scores, counts, printing, signatures, bootstrap)."""
from __future__ import annotations

import importlib.util

import logging

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import read_segments, shared_data_path
from refscore.compat import sacrebleu as compat

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # sentence_score's effective-order advice

VOCABULARY = ["the", "The", "cat", "sat", "a", "mat", ".", ",", "3.14", "don't", "猫", "坐在", "。", "é", "Привет",
              "(x)"]
text = st.one_of(st.lists(st.sampled_from(VOCABULARY), max_size=10).map(" ".join), st.text(max_size=12))
corpus = st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=5)
SMOOTHING = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5), ("exp", None)]


def streams_of(references: list[list[str]]) -> list[list[str | None]]:
    width = max(len(group) for group in references)
    return [[group[k] if k < len(group) else None for group in references] for k in range(width)]


def assert_same(ours, peer) -> None:
    assert ours.score == pytest.approx(peer.score, abs=1e-9, rel=0)
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (peer.counts, peer.totals, peer.sys_len,
                                                                      peer.ref_len)
    assert ours.precisions == pytest.approx(peer.precisions, abs=1e-9, rel=0)
    assert (ours.bp, ours.ratio) == (peer.bp, peer.ratio)
    assert str(ours) == str(peer) and ours.name == peer.name
    assert ours.format(signature="nrefs:1|x:y", is_json=True) == peer.format(signature="nrefs:1|x:y", is_json=True)


@settings(max_examples=30, deadline=None)
@given(corpus, st.sampled_from(SMOOTHING), st.booleans(), st.sampled_from(["13a", "intl", "char", "none"]),
       st.booleans())
def test_functions_equal_sacrebleu(data, smoothing, effective, tokenize, lowercase):
    hyps = [hyp for hyp, _ in data]
    streams = streams_of([group for _, group in data])
    method, value = smoothing
    options = dict(smooth_method=method, smooth_value=value, lowercase=lowercase, tokenize=tokenize,
                   use_effective_order=effective)
    assert_same(compat.corpus_bleu(hyps, streams, **options), sacrebleu.corpus_bleu(hyps, streams, **options))
    first = [stream[0] for stream in streams if stream[0] is not None]
    assert_same(compat.sentence_bleu(hyps[0], first, **options), sacrebleu.sentence_bleu(hyps[0], first, **options))
    if value is None or method == "floor":
        assert_same(compat.raw_corpus_bleu(hyps, streams, **({"smooth_value": value} if value else {})),
                     sacrebleu.raw_corpus_bleu(hyps, streams, **({"smooth_value": value} if value else {})))


def test_class_bootstrap_signature_cache_and_order(monkeypatch):
    hyps = ["the cat sat on the mat", "a cat", "", "The cat sat.", "猫坐在垫子上。"] * 6
    streams = [["the cat sat on a mat", "a dog", "x", "The cat sat .", "猫坐在垫子上"] * 6,
               ["a cat sat on the mat", None, "", "the cat", "猫"] * 6]
    for options in ({}, {"smooth_method": "add-k", "max_ngram_order": 5}, {"trg_lang": "zh"},
                    {"smooth_method": "floor", "smooth_value": 0.2, "effective_order": True, "lowercase": True}):
        ours, peer = compat.BLEU(**options), sacrebleu.BLEU(**options)
        monkeypatch.setenv("SACREBLEU_SEED", "7")
        ours_score = ours.corpus_score(hyps, streams, n_bootstrap=200)
        peer_score = peer.corpus_score(hyps, streams, n_bootstrap=200)
        assert_same(ours_score, peer_score)
        assert (ours_score._mean, ours_score._ci) == (peer_score._mean, peer_score._ci)   # float32 replicates
        assert str(ours.get_signature()) == str(peer.get_signature())
        assert ours.get_signature().format(short=True) == peer.get_signature().format(short=True)
        assert_same(ours.sentence_score(hyps[3], [streams[0][3], None]), peer.sentence_score(hyps[3],
                                                                                             [streams[0][3]]))
        assert str(ours.get_signature()) == str(peer.get_signature())
    cached, peer_cached = compat.BLEU(references=streams), sacrebleu.BLEU(references=streams)
    assert_same(cached.corpus_score(hyps, None), peer_cached.corpus_score(hyps, None))
    with pytest.raises(ValueError, match="evaluate the metric first"):
        compat.BLEU().get_signature()
    with pytest.raises(ValueError, match="no references given"):
        compat.BLEU().corpus_score(hyps, None)
    if importlib.util.find_spec("MeCab") and importlib.util.find_spec("ipadic"):   # the 'ja' extra
        japanese = ["猫が好きです。", "これはペンです"]
        ours, peer = compat.BLEU(trg_lang="ja"), sacrebleu.BLEU(trg_lang="ja")
        assert_same(ours.corpus_score(japanese, [japanese[::-1]]), peer.corpus_score(japanese, [japanese[::-1]]))
        assert str(ours.get_signature()) == str(peer.get_signature())       # tok:ja-mecab-0.996-IPA
    with pytest.raises(TypeError, match="`hyp` should be a string"):
        compat.BLEU().sentence_score(None, ["a"])
    with pytest.raises(ValueError, match="BLEU: got 2 hypotheses and 1 reference stream of 1 segment;"):
        compat.corpus_bleu(["a", "b"], [["a"]])


def test_wmt22_systems_equal_sacrebleu():
    root = shared_data_path("wmt22")
    for pair, system, reference_files, tokenize in (("en-de", "Online-B", ["ref.txt", "ref2.txt"], "13a"),
                                                    ("en-zh", "Online-B", ["ref.txt"], "zh")):
        streams = [read_segments(root / pair / name) for name in reference_files]
        hyps = read_segments(root / pair / "sys" / f"{system}.txt")
        ours_metric, peer_metric = compat.BLEU(tokenize=tokenize), sacrebleu.BLEU(tokenize=tokenize)
        ours, peer = ours_metric.corpus_score(hyps, streams), peer_metric.corpus_score(hyps, streams)
        assert_same(ours, peer)
        assert str(ours_metric.get_signature()) == str(peer_metric.get_signature())
        assert ours.format(signature=str(ours_metric.get_signature())) == peer.format(
            signature=str(peer_metric.get_signature()))
