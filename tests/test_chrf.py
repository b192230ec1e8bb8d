"""chrF / chrF++: golden values, sacreBLEU parity on hand-picked cases, statistics protocol, errors, CLI, drop-ins."""
from __future__ import annotations

import json
import pickle
import re

import numpy as np
import pytest
import regex
import sacrebleu as peer_sacrebleu
from nltk.translate import chrf_score as peer_nltk
from sacrebleu.metrics import CHRF as PeerCHRF

import refscore
from refscore._core._chrf import SPACE_KEEP, SPACE_PYTHON, SPACE_REGEX, chrf_statistics
from refscore.cli.main import main as cli_main
from refscore.compat import evaluate as compat_evaluate
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu
from refscore.metrics.chrf import CHRF, CHRFConfig

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

ANCHOR_HYP = "The cat sat."
ANCHOR_REF = "The cat sat on the mat."


def peer_stats(hyps: list[str], refs_per_segment: list[list[str]], **options) -> np.ndarray:
    """sacreBLEU's per-segment statistics, with refscore's per-segment reference layout."""
    width = max(len(refs) for refs in refs_per_segment)
    streams = [[refs[k] if k < len(refs) else None for refs in refs_per_segment] for k in range(width)]
    return np.array(PeerCHRF(**options)._extract_corpus_statistics(hyps, streams), dtype=np.int64)


# -- golden values (anchors.md §5, produced by sacreBLEU 2.6.0; HF evaluate's documented examples) -------------------
@pytest.mark.parametrize(("options", "expected"), [({}, 49.26), ({"eps_smoothing": True}, 49.19),
                                                   ({"word_order": 2}, 49.41)])
def test_anchor_golden_values(options, expected):
    assert round(100 * refscore.sentence_chrf(ANCHOR_HYP, [ANCHOR_REF], **options).score, 2) == expected
    assert round(compat_sacrebleu.CHRF(**options).sentence_score(ANCHOR_HYP, [ANCHOR_REF]).score, 2) == expected


HF_PREDICTIONS = ["The relationship between cats and dogs is not exactly friendly.",
                  "a good bookshop is just a genteel black hole that knows how to read."]
HF_REFERENCES = [["The relationship between dogs and cats is not exactly friendly."],
                 ["A good bookshop is just a genteel Black Hole that knows how to read."]]


@pytest.mark.parametrize(("options", "expected"), [({}, 84.64214891738334), ({"word_order": 2}, 82.87263732906315),
                                                   ({"word_order": 2, "lowercase": True}, 92.12853119829202)])
def test_evaluate_documented_examples(options, expected):
    result = compat_evaluate.load("chrf").compute(predictions=HF_PREDICTIONS, references=HF_REFERENCES, **options)
    assert result == {"score": expected, "char_order": 6, "word_order": options.get("word_order", 0), "beta": 2}


# -- hand-picked parity cases ------------------------------------------------------------------------------------
EDGE_CASES = [
    ("", [""]), ("a", [""]), ("", ["a"]), ("日本語のテキスト", ["日本語テキストです"]),
    ("e\u0301te\u0301", ["\u00e9t\u00e9", "e\u0301te"]), ("😀 ok 😀!", ["😀 ok!", "ok 😀 😀"]),
    ("(hi) there, you.", ["(hi there) you .", "hi, there you"]), ("a\u3000b\xa0c\x1cd\u200be", ["abc d\u200be"]),
    ("Σίσυφος ΣΑΣ", ["σίσυφος σας", "ΣΊΣΥΦΟΣ"]), ("İstanbul ß", ["i̇stanbul ss"]), ("a b c", ["a b c", "a b c"]),
]


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"lowercase": True, "whitespace": True},
                                     {"eps_smoothing": True, "word_order": 1, "char_order": 3, "beta": 1}])
def test_edge_cases_match_sacrebleu(options):
    hyps = [hyp for hyp, _ in EDGE_CASES]
    refs = [refs for _, refs in EDGE_CASES]
    stats = CHRF(**options).statistics(hyps, refs)
    np.testing.assert_array_equal(stats.data, peer_stats(hyps, refs, **options))
    ours = CHRF(**options).sentence_scores(hyps, refs)
    for index, (hyp, seg_refs) in enumerate(EDGE_CASES):
        assert 100 * ours[index] == pytest.approx(PeerCHRF(**options).sentence_score(hyp, seg_refs).score, abs=1e-9)


def test_whitespace_is_pythons_for_every_code_point():
    candidates = list(range(0x3100)) + [0x200B, 0xFEFF, 0x180E, 0xD800, 0x10FFFF]
    hyps = [f"x{chr(c)}y" for c in candidates]
    refs = ["xy"] * len(hyps)
    offsets = np.arange(len(refs) + 1, dtype=np.int64)
    removed = chrf_statistics(hyps, refs, offsets, 1, 1, 4.0, False, SPACE_PYTHON, 2)
    regex_removed = chrf_statistics(hyps, refs, offsets, 1, 0, 4.0, False, SPACE_REGEX, 2)
    kept = chrf_statistics(hyps, refs, offsets, 1, 0, 4.0, False, SPACE_KEEP, 2)
    python_space = np.array([chr(c).isspace() for c in candidates])
    regex_space = np.array([regex.fullmatch(r"\s", chr(c)) is not None for c in candidates])
    assert removed[:, 0].tolist() == np.where(python_space, 2, 3).tolist()       # chars counted
    words = chrf_statistics(hyps, hyps, offsets, 1, 1, 4.0, False, SPACE_PYTHON, 2)[:, 3]
    assert words.tolist() == np.where(python_space, 2, 1).tolist()                 # str.split() boundaries
    assert regex_removed[:, 0].tolist() == np.where(regex_space, 2, 3).tolist()
    assert (kept[:, 0] == 3).all()


def test_code_points_not_bytes_in_every_string_kind():
    # 1-, 2- and 4-byte PEP 393 kinds; lengths in code points
    for text in ("abc", "aβc", "a😀c"):
        data = chrf_statistics([text], [text], np.array([0, 1]), 3, 0, 4.0, False, SPACE_PYTHON)
        assert data[0].tolist() == [3, 3, 3, 2, 2, 2, 1, 1, 1]


@pytest.mark.parametrize("options", [{}, {"whitespace": True}, {"char_order": 3, "beta": 1}])
def test_kernel_paths_match_sacrebleu(options):
    # the kernel's paths for characters: read straight from 1-, 2- and 4-byte strings (character chrF, not
    # lowercased) with removed spaces taking table ids (texts mostly whitespace), wide characters hashed, and
    # orders too large for the direct-mapped n-gram table (a long segment of 160 distinct characters)
    spaces = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0"
    rng = np.random.default_rng(7)
    alphabet = [chr(c) for c in range(0x21, 0x7F)] + [chr(c) for c in range(0x4E00, 0x4E40)]
    long_text = "".join(rng.choice(alphabet, 3000))
    hyps, refs = [], []
    for wide in ("", "β", "😀"):
        hyps += [spaces * 3 + "ab" + wide, wide + "a b" + spaces, spaces, long_text + wide, ""]
        refs += [["ab" + spaces * 2 + wide], [spaces + "ab", "b a" + wide], [spaces + wide],
                 [long_text[1500:] + long_text[:1500]], [wide]]
    np.testing.assert_array_equal(CHRF(**options).statistics(hyps, refs).data, peer_stats(hyps, refs, **options))


def test_best_reference_is_chosen_first_on_ties():
    metric = CHRF()
    stats = metric.statistics(["abc"], [["xyz", "abd", "abd", "abc"]])
    assert stats.data[0].tolist() == peer_stats(["abc"], [["xyz", "abd", "abd", "abc"]])[0].tolist()
    assert metric.segment_scores(stats)[0] == 1.0
    # equal F for different references: the first one's statistics are kept
    tie = metric.statistics(["ab"], [["abx", "xab"]])
    assert tie.data[0].tolist() == peer_stats(["ab"], [["abx", "xab"]])[0].tolist()


# -- statistics protocol ------------------------------------------------------------------------------------------
def test_columns_signature_and_score_object():
    metric = CHRF(word_order=2, beta=3)
    assert metric.columns[:3] == ("char1_hyp", "char1_ref", "char1_match")
    assert metric.columns[-1] == "word2_match" and len(metric.columns) == 24
    score = metric.corpus_score([ANCHOR_HYP], [ANCHOR_REF])
    values = score.values
    assert values["name"] == "chrF3++" and (values["char_order"], values["word_order"], values["beta"]) == (6, 2, 3)
    assert str(score) == f"chrF3++ = {100 * score.score:.2f}"
    assert score.signature.startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0|refscore:")
    assert str(CHRF(lowercase=True, whitespace=True, eps_smoothing=True).signature(-1)).startswith(
        "nrefs:var|case:lc|eff:no|nc:6|nw:0|space:yes|version:2.6.0")
    assert CHRF().signature(2).format(short=True).startswith("#:2|c:mixed|e:yes|nc:6|nw:0|s:no|v:2.6.0")


def test_merged_split_statistics_equal_one_pass_and_pickle():
    hyps = [hyp for hyp, _ in EDGE_CASES] * 3
    refs = [refs for _, refs in EDGE_CASES] * 3
    metric = CHRF(word_order=2)
    whole = metric.statistics(hyps, refs)
    parts = metric.statistics(hyps[:7], refs[:7]) + metric.statistics(hyps[7:], refs[7:])
    np.testing.assert_array_equal(parts.data, whole.data)
    assert metric.score_from_statistics(parts).score == metric.score_from_statistics(whole).score
    restored = pickle.loads(pickle.dumps(whole))
    assert metric.score_from_statistics(restored).score == metric.corpus_score(hyps, refs).score
    with pytest.raises(ValueError, match="different configurations"):
        whole + CHRF().statistics(hyps, refs)


def test_thread_count_does_not_change_statistics():
    hyps = [hyp for hyp, _ in EDGE_CASES] * 40
    refs = [refs for _, refs in EDGE_CASES] * 40
    metric = CHRF(word_order=2)
    one = metric.statistics(hyps, refs, num_threads=1).data
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(metric.statistics(hyps, refs, num_threads=threads).data, one)


def test_scores_from_totals_is_vectorised_and_matches_sacrebleu():
    hyps = [hyp for hyp, _ in EDGE_CASES]
    refs = [refs for _, refs in EDGE_CASES]
    for options in ({}, {"eps_smoothing": True, "word_order": 2}):
        metric, peer = CHRF(**options), PeerCHRF(**options)
        data = metric.statistics(hyps, refs).data
        rng = np.random.default_rng(0)
        totals = np.stack([data[rng.integers(0, len(data), len(data))].sum(0) for _ in range(5)])
        expected = [peer._compute_f_score(list(row)) / 100 for row in totals]
        np.testing.assert_allclose(metric.scores_from_totals(totals)[:, 0], expected, rtol=0, atol=1e-11)


# -- bad input ----------------------------------------------------------------------------------------------------
def test_bad_input_errors_name_argument_and_fix():
    metric = CHRF()
    with pytest.raises(ValueError, match="hypotheses has 2 segments but references has 1"):
        metric.statistics(["a", "b"], ["a"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is None.*empty string"):
        metric.statistics(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is None"):
        metric.statistics(["a"], [["a", None]])
    with pytest.raises(TypeError, match="token ids.*text only"):
        metric.statistics([[1, 2, 3]], [[1, 2]])
    with pytest.raises(ValueError, match="from_streams"):
        metric.statistics(["a", "b", "c"], [["x", "y", "z"]])
    with pytest.raises(ValueError, match=r"char_order must be in \[0, 10000\]"):
        CHRF(char_order=-1)
    with pytest.raises(ValueError, match="at least|must be >= 1"):
        CHRF(char_order=0, word_order=0)
    with pytest.raises(TypeError, match="beta must be a number"):
        CHRF(beta=True)
    with pytest.raises(ValueError, match="beta must be a finite number"):
        CHRF(beta=1e200)
    with pytest.raises(TypeError, match="lowercase must be True or False"):
        CHRF(lowercase="yes")
    with pytest.raises(ValueError, match="valid options"):
        CHRF(order=3)


# -- command line -------------------------------------------------------------------------------------------------
def test_cli_scores_segments_and_json(tmp_path, capsys):
    hyps = [hyp for hyp, _ in EDGE_CASES]
    ref_a = [refs[0] for _, refs in EDGE_CASES]
    ref_b = [refs[-1] for _, refs in EDGE_CASES]
    for name, lines in (("hyp.txt", hyps), ("a.txt", ref_a), ("b.txt", ref_b)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["score", "-m", "chrf", "-r", str(tmp_path / "a.txt"), "-r", str(tmp_path / "b.txt"),
            "-i", str(tmp_path / "hyp.txt"), "-cw", "2", "--chrf-beta", "3", "--chrf-lowercase", "--format", "json",
            "--segments"]
    assert cli_main(args) == 0
    payload = json.loads(capsys.readouterr().out)[0]
    peer = PeerCHRF(word_order=2, beta=3, lowercase=True)
    assert payload["scores"]["chrf"]["score"] == peer.corpus_score(hyps, [ref_a, ref_b]).score  # 0–100 as sacreBLEU
    assert payload["scores"]["chrf"]["name"] == "chrF3++"
    segments = payload["segments"]["chrf"]["chrf"]
    assert segments == [peer.sentence_score(h, [a, b]).score for h, a, b in zip(hyps, ref_a, ref_b)]
    assert cli_main(["score", "-m", "chrf", "-r", str(tmp_path / "a.txt"), "-i", str(tmp_path / "hyp.txt"),
                     "-cc", "4", "--chrf-whitespace", "--chrf-eps-smoothing"]) == 0
    out = capsys.readouterr().out
    expected = PeerCHRF(char_order=4, whitespace=True, eps_smoothing=True).corpus_score(hyps, [ref_a]).score
    assert f"{expected:.2f}" in out and "nc:4|nw:0|space:yes" in out


# -- drop-ins -----------------------------------------------------------------------------------------------------
def test_sacrebleu_dropin_is_identical():
    hyps = [hyp for hyp, _ in EDGE_CASES]
    streams = [[refs[0] for _, refs in EDGE_CASES], [refs[1] if len(refs) > 1 else None for _, refs in EDGE_CASES]]
    for options in ({}, {"word_order": 2, "lowercase": True}, {"eps_smoothing": True, "beta": 1}):
        ours, peer = compat_sacrebleu.CHRF(**options), PeerCHRF(**options)
        ours_score, peer_score = ours.corpus_score(hyps, streams), peer.corpus_score(hyps, streams)
        assert ours_score.score == peer_score.score
        assert str(ours_score) == str(peer_score) and ours_score.name == peer_score.name
        assert str(ours.get_signature()) == str(peer.get_signature())
        assert ours.get_signature().format(short=True) == peer.get_signature().format(short=True)
        signature = str(peer.get_signature())
        assert ours_score.format(signature=signature, is_json=True) == peer_score.format(signature=signature,
                                                                                          is_json=True)
        assert ours.sentence_score(hyps[3], [streams[0][3], streams[1][3]]).score == \
            peer.sentence_score(hyps[3], [streams[0][3], streams[1][3]]).score
    assert compat_sacrebleu.corpus_chrf(hyps, streams, remove_whitespace=False, word_order=1).score == \
        peer_sacrebleu.corpus_chrf(hyps, streams, remove_whitespace=False, word_order=1).score
    assert compat_sacrebleu.sentence_chrf(ANCHOR_HYP, [ANCHOR_REF], beta=3).score == \
        peer_sacrebleu.sentence_chrf(ANCHOR_HYP, [ANCHOR_REF], beta=3).score


def test_sacrebleu_dropin_cache_bootstrap_and_errors(monkeypatch):
    hyps = [hyp for hyp, _ in EDGE_CASES] * 5
    streams = [[refs[0] for _, refs in EDGE_CASES] * 5]
    ours, peer = compat_sacrebleu.CHRF(references=streams), PeerCHRF(references=streams)
    assert ours.corpus_score(hyps, None).score == peer.corpus_score(hyps, None).score
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    ours_bs, peer_bs = ours.corpus_score(hyps, streams, n_bootstrap=100), peer.corpus_score(hyps, streams,
                                                                                           n_bootstrap=100)
    assert (ours_bs._mean, ours_bs._ci) == (peer_bs._mean, peer_bs._ci)   # sacreBLEU's float32 arithmetic
    assert str(ours.get_signature()) == str(peer.get_signature())
    with pytest.raises(ValueError, match="evaluate the metric first"):
        compat_sacrebleu.CHRF().get_signature()
    with pytest.raises(TypeError, match="`hyp` should be a string"):
        compat_sacrebleu.CHRF().sentence_score(None, ["a"])
    with pytest.raises(TypeError, match="`refs` should be a sequence"):
        compat_sacrebleu.CHRF().sentence_score("a", "a")
    with pytest.raises(ValueError, match="no references given"):
        compat_sacrebleu.CHRF().corpus_score(["a"], None)
    with pytest.raises(ValueError, match="CHRF: got 2 hypotheses and 1 reference stream of 1 segment;"):
        compat_sacrebleu.corpus_chrf(["a", "b"], [["a"]])


def test_evaluate_dropin_layouts_and_reference_count_check():
    chrf = compat_evaluate.load("chrf")
    flat = chrf.compute(predictions=["a b", "c"], references=["a b", "c d"], eps_smoothing=True, whitespace=True)
    peer = PeerCHRF(eps_smoothing=True, whitespace=True).corpus_score(["a b", "c"], [["a b", "c d"]]).score
    assert flat == {"score": peer, "char_order": 6, "word_order": 0, "beta": 2}
    with pytest.raises(ValueError, match="same number of references for each prediction"):
        chrf.compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])
    with pytest.raises(ValueError, match="predictions"):
        chrf.compute(references=[["a"]])


def test_nltk_dropin_matches_nltk():
    refs = ["the cat sat on the mat", "日本語 の テキスト", "", "a\x1cb c"]
    hyps = ["the cat is on the mat", "日本語のテキスト", "x", "a\x1cb  c"]
    for options in ({}, {"min_len": 2, "max_len": 4, "beta": 1.0}, {"ignore_whitespace": False}):
        assert compat_nltk.corpus_chrf(refs, hyps, **options) == pytest.approx(
            peer_nltk.corpus_chrf(refs, hyps, **options), rel=1e-13)
        for ref, hyp in zip(refs, hyps):
            assert compat_nltk.sentence_chrf(ref.split(), hyp.split(), **options) == pytest.approx(
                peer_nltk.sentence_chrf(ref.split(), hyp.split(), **options), rel=1e-13)
    assert compat_nltk.sentence_chrf("", "") == peer_nltk.sentence_chrf("", "")
    with pytest.raises(ValueError, match="should be the same"):
        compat_nltk.corpus_chrf(["a"], ["a", "b"])
    with pytest.raises(TypeError, match="one reference per hypothesis"):
        compat_nltk.corpus_chrf([["a b".split(), "a c".split()]], ["a b"])
    with pytest.raises(ValueError, match=re.escape("min_len (3) must not exceed max_len (2)")):
        compat_nltk.sentence_chrf("a", "a", min_len=3, max_len=2)


def test_public_api_and_config_defaults():
    assert refscore.CHRFConfig() == CHRFConfig(char_order=6, word_order=0, beta=2, lowercase=False,
                                               whitespace=False, eps_smoothing=False)
    score = refscore.chrf([ANCHOR_HYP, "a"], [ANCHOR_REF, ["b", "a"]], num_threads=1)
    peer = PeerCHRF().corpus_score([ANCHOR_HYP, "a"], [[ANCHOR_REF, "b"], [None, "a"]])
    assert 100 * score.score == pytest.approx(peer.score, abs=1e-12)
    assert score.signature.startswith("nrefs:var|")


def test_numpy_string_arrays_are_text():
    hyps = np.array([ANCHOR_HYP, "a"])
    assert CHRF().sentence_scores(hyps, [ANCHOR_REF, "a"]).tolist() == \
        CHRF().sentence_scores([ANCHOR_HYP, "a"], [ANCHOR_REF, "a"]).tolist()


def test_evaluate_dropin_add_batch_then_compute():
    chrf = compat_evaluate.load("chrf")
    chrf.add_batch(predictions=HF_PREDICTIONS[:1], references=HF_REFERENCES[:1])
    chrf.add(prediction=HF_PREDICTIONS[1], reference=HF_REFERENCES[1])
    assert chrf.compute()["score"] == 84.64214891738334
    with pytest.raises(ValueError, match="add_batch first"):
        chrf.compute()
    with pytest.raises(TypeError, match="references must be a list"):
        chrf.add_batch(predictions=["a"], references="a")


@pytest.mark.parametrize("module", ["refscore.metrics.chrf", "refscore.metrics.chrf.metric",
                                    "refscore.metrics.chrf.arithmetic", "refscore._core._chrf"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0


def test_nltk_chrf_formula_lives_in_the_metric_module():
    """NLTK's corpus chrF is refscore.metrics.chrf's counts and formula (the drop-in only adapts arguments)."""
    from refscore.metrics.chrf import nltk_chrf_from_statistics, nltk_chrf_statistics

    refs, hyps = ["the cat sat on the mat", "a b", "x"], ["the cat is on the mat", "a b", "y"]
    for min_len, max_len, beta in ((1, 6, 3.0), (2, 4, 2.0)):
        data = nltk_chrf_statistics(hyps, refs, max_len, beta, True)
        assert nltk_chrf_from_statistics(data, min_len, max_len, beta) == peer_nltk.corpus_chrf(
            refs, hyps, min_len=min_len, max_len=max_len, beta=beta)
