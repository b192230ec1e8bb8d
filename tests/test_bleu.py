"""BLEU: parity with sacreBLEU 2.6 (random Unicode text, every smoothing x effective order), API and bad input."""
from __future__ import annotations

import itertools
import logging
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

import refscore
from refscore import BLEU, Statistics
from refscore.errors import IncompatibleStatisticsError, InputError, InputTypeError
from refscore.metrics.bleu import bleu_from_counts

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its sentence_score warns about effective_order

SMOOTHING = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5), ("exp", None)]

# Words that repeat (so n-grams match) from several scripts, with punctuation, digits and combining marks.
VOCABULARY = ["the", "The", "cat", "sat", "a", "mat", ".", ",", "3.14", "1,000", "don't", "e-mail", "(x)",
              "猫", "坐在", "垫子上", "。", "日本語", "ですね", "Straße", "ÉCOLE", "é", "naïve", "“quoted”",
              "—", "…", "Привет", "мир", "٣", "x²", "🙂"]
word = st.sampled_from(VOCABULARY)
separator = st.sampled_from([" ", " ", " ", "", "  ", "\t", "\u3000"])
text = st.one_of(
    st.lists(st.tuples(word, separator), max_size=12).map(lambda parts: "".join(w + s for w, s in parts)),
    st.text(max_size=20),
)
segment = st.tuples(text, st.lists(text, min_size=1, max_size=3))
corpus = st.lists(segment, min_size=1, max_size=6)


def streams_of(references: list[list[str]]) -> list[list[str | None]]:
    """Per-segment references -> sacreBLEU streams (None where a segment has fewer references)."""
    width = max(len(group) for group in references)
    return [[group[k] if k < len(group) else None for group in references] for k in range(width)]


@settings(max_examples=30, deadline=None)
@given(corpus, st.sampled_from(["13a", "intl", "zh", "char", "none"]), st.booleans())
def test_corpus_bleu_equals_sacrebleu_for_every_smoothing_and_effective_order(data, tokenize, lowercase):
    hyps = [h for h, _ in data]
    refs = refscore.per_segment([r for _, r in data])  # square corpora would otherwise be ambiguous
    for (method, value), effective in itertools.product(SMOOTHING, (False, True)):
        options = dict(tokenize=tokenize, lowercase=lowercase, smooth_method=method, smooth_value=value,
                       effective_order=effective)
        peer = SacreBLEU(**options)
        expected = peer.corpus_score(hyps, streams_of(refs))
        metric = BLEU(**options)
        stats = metric.statistics(hyps, refs, num_threads=2)
        got = metric.score_from_statistics(stats)
        assert 100 * got.score == pytest.approx(expected.score, abs=1e-9, rel=0), options
        assert (got.values["sys_len"], got.values["ref_len"]) == (expected.sys_len, expected.ref_len)
        if method != "add-k":  # sacreBLEU's add-k adds k to the counts it reports (refscore does not)
            assert list(got.values["counts"]) == list(expected.counts)
            assert list(got.values["totals"]) == list(expected.totals)
            assert np.allclose(100 * np.array(got.values["precisions"]), expected.precisions, atol=1e-9, rtol=0)
        assert got.values["bp"] == pytest.approx(expected.bp, abs=1e-12)
        sentence = metric.segment_scores(stats)
        peer_sentence = [peer.sentence_score(h, r).score for h, r in data]
        assert np.allclose(100 * sentence, peer_sentence, atol=1e-9, rtol=0), options


@settings(max_examples=25, deadline=None)
@given(corpus, st.integers(1, 6))
def test_max_order_equals_sacrebleu(data, order):
    hyps = [h for h, _ in data]
    refs = refscore.per_segment([r for _, r in data])  # square corpora would otherwise be ambiguous
    expected = SacreBLEU(max_ngram_order=order).corpus_score(hyps, streams_of(refs))
    got = refscore.bleu(hyps, refs, max_order=order)
    assert 100 * got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    assert list(got.values["counts"]) == list(expected.counts)


def test_smoothing_grid_golden_values():
    # anchors.md §5: hyp "the cat sat", ref "the dog sat" (sacreBLEU sentence_score)
    expected = {"none": (0.00, 0.00), "floor": (0.00, 14.94), "add-k": (57.74, 57.74), "exp": (0.00, 34.67)}
    for method, values in expected.items():
        for effective, value in zip((False, True), values):
            score = refscore.sentence_bleu("the cat sat", "the dog sat", smooth_method=method,
                                           effective_order=effective)
            assert round(100 * score.score, 2) == value, (method, effective)


@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_zero_smoothing_value_equals_sacrebleu(method):
    hyps = ["the cat sat", "a", "the dog ran home", ""]
    refs = [["the dog sat"], ["a b"], ["the dog ran away home"], ["x"]]
    for effective in (False, True):
        peer = SacreBLEU(smooth_method=method, smooth_value=0, effective_order=effective)
        metric = BLEU(smooth_method=method, smooth_value=0, effective_order=effective)
        assert 100 * metric.corpus_score(hyps, refs).score == pytest.approx(
            peer.corpus_score(hyps, streams_of(refs)).score, abs=1e-9)
        expected = [peer.sentence_score(h, r).score for h, r in zip(hyps, refs)]
        assert np.allclose(100 * metric.sentence_scores(hyps, refs), expected, atol=1e-9, rtol=0)


def test_closest_reference_length_ties_to_the_shorter():
    score = refscore.bleu(["a b c d e f"], [["a b c d e f g", "a b c d e"]])
    assert score.values["ref_len"] == 5 and score.values["bp"] == 1.0


def test_empty_strings_score_like_sacrebleu():
    cases = [([""], [[""]]), (["", "a b"], [["x"], ["a b"]]), (["a"], [[""]])]
    for hyps, refs in cases:
        for effective in (False, True):
            expected = SacreBLEU(effective_order=effective).corpus_score(hyps, streams_of(refs)).score
            assert 100 * refscore.bleu(hyps, refs, effective_order=effective).score == expected
    assert refscore.sentence_bleu("", "").score == 0.0


def test_sentence_scores_vectorised_equal_sacrebleu_sentence_score():
    hyps = ["The cat sat on the mat.", "", "A dog.", "猫坐在垫子上。", "the the the the"]
    refs = [["The cat is on the mat.", "A cat sat on a mat."], "x", "A dog barked.", "猫坐在垫子上。", "the cat"]
    for effective in (False, True):
        peer = SacreBLEU(effective_order=effective, tokenize="zh")
        expected = [peer.sentence_score(h, r if isinstance(r, list) else [r]).score for h, r in zip(hyps, refs)]
        got = BLEU(effective_order=effective, tokenize="zh").sentence_scores(hyps, refs)
        assert got.dtype == np.float64 and got.shape == (5,)
        assert np.allclose(100 * got, expected, atol=1e-9, rtol=0)


def test_sentence_bleu_defaults_to_effective_order():
    expected = SacreBLEU(effective_order=True).sentence_score("the cat", ["the cat sat"]).score
    assert 100 * refscore.sentence_bleu("the cat", ["the cat sat"]).score == pytest.approx(expected, abs=1e-9)
    assert refscore.sentence_bleu("the cat", ["the cat sat"], effective_order=False).score == 0.0


def test_scores_from_totals_is_the_formula_on_rows():
    metric = BLEU()
    hyps = ["the cat sat on the mat", "a quick brown fox", "x"]
    refs = ["the cat sat on a mat", "the quick brown fox", "y"]
    stats = metric.statistics(hyps, refs)
    rows = np.vstack([stats.data, stats.totals()[None, :]])
    scores = metric.scores_from_totals(rows)
    assert scores.shape == (4, 1)
    assert scores[-1, 0] == pytest.approx(metric.score_from_statistics(stats).score, abs=1e-15)
    components = bleu_from_counts(stats.data[:, 2:6], stats.data[:, 6:], stats.data[:, 0], stats.data[:, 1])
    assert np.allclose(components.score / 100, scores[:3, 0], atol=1e-15, rtol=0)


def test_split_statistics_merge_equals_one_pass_and_pickles():
    hyps = ["The cat sat on the mat.", "A dog.", "", "Hello world!", "It is raining."] * 3
    refs = [["The cat is on the mat."], ["A dog barked."], ["Nothing."], ["Hello, world!"], ["It rains."]] * 3
    metric = BLEU()
    whole = metric.statistics(hyps, refs)
    parts = [metric.statistics(hyps[i:i + 4], refs[i:i + 4]) for i in range(0, len(hyps), 4)]
    merged = Statistics.concatenate(parts)
    assert np.array_equal(merged.data, whole.data)
    assert metric.score_from_statistics(merged) == metric.score_from_statistics(whole)
    streamed = metric.corpus_score_chunks((hyps[i:i + 4], refs[i:i + 4]) for i in range(0, len(hyps), 4))
    assert streamed == metric.score_from_statistics(whole)
    restored = pickle.loads(pickle.dumps(whole))
    assert np.array_equal(restored.data, whole.data) and restored.config_hash == whole.config_hash
    metric_copy = pickle.loads(pickle.dumps(metric))
    assert metric_copy.score_from_statistics(restored) == metric.score_from_statistics(whole)
    with pytest.raises(IncompatibleStatisticsError):
        whole + BLEU(lowercase=True).statistics(hyps, refs)
    with pytest.raises(InputError, match="config hash"):
        BLEU(smooth_method="floor").score_from_statistics(whole)


def test_token_ids_skip_tokenization():
    ids_hyps = [[5, 6, 7, 8], np.array([1, 2, 3], dtype=np.int32), []]
    ids_refs = [[[5, 6, 7, 9], [5, 6]], np.array([1, 2, 3]), [[4]]]
    text_hyps = ["5 6 7 8", "1 2 3", ""]
    text_refs = [["5 6 7 9", "5 6"], "1 2 3", ["4"]]
    expected = refscore.bleu(text_hyps, text_refs, tokenize="none")
    got = refscore.bleu(ids_hyps, ids_refs)
    assert got.score == expected.score and got.values["counts"] == expected.values["counts"]
    huge = [[2**40, -3, 2**40, 9], [7, -3]]   # ids outside uint32 are interned first
    small = [[1, 2, 1, 9], [7, 2]]
    huge_refs = [[[2**40, -3, 2**40, 7]], [[7, 2**40]]]
    small_refs = [[[1, 2, 1, 7]], [[7, 1]]]
    assert (refscore.bleu(huge, huge_refs).values["counts"] == refscore.bleu(small, small_refs).values["counts"]
            == (4, 2, 1, 0))
    with pytest.raises(InputError, match="lowercase"):
        refscore.bleu(ids_hyps, ids_refs, lowercase=True)
    # a batch of model outputs as one 2-D array (RL rewards): one row per segment
    batch = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=np.int32)
    targets = np.array([[1, 2, 3, 4], [5, 6, 7, 9]], dtype=np.int64)
    expected_rows = BLEU(tokenize="none").sentence_scores(["1 2 3 4", "5 6 7 8"], ["1 2 3 4", "5 6 7 9"])
    assert np.array_equal(BLEU().sentence_scores(batch, targets), expected_rows)


def test_signature_and_format():
    score = refscore.bleu(["The cat sat on the mat."], [["The cat sat on a mat."]])
    assert score.signature == f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0|refscore:{refscore.__version__}"
    peer = SacreBLEU()
    expected = peer.corpus_score(["The cat sat on the mat."], [["The cat sat on a mat."]])
    assert score.format() == expected.format()
    assert str(BLEU(smooth_method="floor", lowercase=True, effective_order=True, tokenize="zh").signature(-1)) == (
        f"nrefs:var|case:lc|eff:yes|tok:zh|smooth:floor[0.10]|version:2.6.0|refscore:{refscore.__version__}")
    assert BLEU(smooth_method="add-k", smooth_value=2).signature(2).format(short=True).startswith(
        "#:2|c:mixed|e:no|tok:13a|s:add-k[2.00]|v:2.6.0")
    assert "order:3" in str(BLEU(max_order=3).signature())
    assert list(score.to_dict()["counts"]) == list(expected.counts)


@pytest.mark.parametrize("options, error, match", [
    ({"tokenize": "moses"}, InputError, "unknown tokenize 'moses'"),
    ({"spm_model": "x.model"}, InputError, "spm_model applies to the SentencePiece tokenizers"),
    ({"max_order": 0}, InputError, r"max_order must be in \[1, 10000\]"),
    ({"max_order": -2}, InputError, "max_order"),
    ({"max_order": 2.5}, InputTypeError, "max_order"),
    ({"smooth_method": "laplace"}, InputError, "unknown smooth_method"),
    ({"smooth_value": -0.1}, InputError, "smooth_value must be a finite number >= 0"),
    ({"smooth_value": "x"}, InputTypeError, "smooth_value"),
    ({"lowercase": "yes"}, InputTypeError, "lowercase"),
    ({"ngram": 3}, InputError, "valid options"),
])
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        BLEU(**options)


def test_helpers_reuse_metrics_but_still_check_every_option():
    refscore.sentence_bleu("a b", "a b", lowercase=True, max_order=4)
    with pytest.raises(InputTypeError, match="lowercase"):
        refscore.sentence_bleu("a b", "a b", lowercase=1, max_order=4)
    with pytest.raises(InputTypeError, match="max_order"):
        refscore.sentence_bleu("a b", "a b", lowercase=True, max_order=4.0)
    assert refscore.sentence_bleu("a b", "A b", lowercase=True).score == pytest.approx(1.0)
    assert refscore.sentence_bleu("a b", "A b").score < 1.0


def test_bad_input_names_argument_and_position():
    with pytest.raises(InputError, match="hypotheses has 2 segments but references has 1"):
        refscore.bleu(["a", "b"], ["a"])
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\] is None .*empty string"):
        refscore.bleu(["a", None], ["a", "b"])
    with pytest.raises(InputTypeError, match=r"references\[0\]\[1\] is 3"):
        refscore.bleu(["a"], [["a", 3]])
    with pytest.raises(InputError, match="from_streams"):
        refscore.bleu(["a", "b", "c"], [["a", "b", "c"], ["a", "b", "c"]])
    with pytest.raises(InputError, match="empty"):
        refscore.bleu([], [])
    with pytest.raises(InputTypeError, match="single str"):
        refscore.bleu("a b c", "a b c")
    with pytest.raises(InputTypeError, match="one string"):
        refscore.sentence_bleu(["a b", "c"], ["a b"])


@pytest.mark.parametrize("options", [dict(), dict(effective_order=True), dict(smooth_method="floor"),
                                     dict(smooth_method="floor", smooth_value=0.3, effective_order=True),
                                     dict(smooth_method="add-k", effective_order=True), dict(smooth_method="none"),
                                     dict(smooth_method="add-k", smooth_value=0.0),
                                     dict(smooth_method="add-k", smooth_value=0.5), dict(max_order=2)])
def test_formula_equals_sacrebleu_compute_bleu_to_the_last_bit(options):
    # many rows: the compiled loop remembers log and exp of small integer counts (below 128), which rows of
    # larger counts and non-integer add-k smoothing do not use
    options = dict(options)
    max_order = options.pop("max_order", 4)
    rng = np.random.default_rng(3)
    scale = np.where(rng.random(3000) < 0.3, 40, 1)[:, None]
    totals = np.sort(rng.integers(0, 6, size=(3000, max_order)) * scale, axis=1)[:, ::-1].copy()
    matches = np.minimum(totals, rng.integers(0, 5, size=totals.shape) * scale)
    sys_len, ref_len = rng.integers(0, 8, 3000) * scale[:, 0], rng.integers(0, 8, 3000) * scale[:, 0]
    ours = bleu_from_counts(matches, totals, sys_len, ref_len, **options)   # int64, read in place
    as_float = bleu_from_counts(matches.astype(float), totals.astype(float), sys_len.astype(float),
                                ref_len.astype(float), **options)
    np.testing.assert_array_equal(as_float.score, ours.score)
    np.testing.assert_array_equal(as_float.precisions, ours.precisions)
    method = options.get("smooth_method", "exp")
    for row in range(3000):
        expected = SacreBLEU.compute_bleu(matches[row].tolist(), totals[row].tolist(), int(sys_len[row]),
                                          int(ref_len[row]), smooth_method=method,
                                          smooth_value=options.get("smooth_value"),
                                          effective_order=options.get("effective_order", False),
                                          max_ngram_order=max_order)
        assert ours.score[row] == expected.score, row
        assert ours.precisions[row].tolist() == expected.precisions, row
        assert ours.bp[row] == expected.bp, row


@pytest.mark.parametrize("module", ["refscore._core._bleu", "refscore._core._ngrams", "refscore.metrics.bleu",
                                    "refscore.metrics.bleu.metric", "refscore.metrics.bleu.formula",
                                    "refscore.metrics.bleu.flavors", "refscore.metrics.bleu.arithmetic",
                                    "refscore.metrics.bleu.explain", "refscore.metrics._explaining",
                                    "refscore.protocol", "refscore.metrics.gleu"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0
