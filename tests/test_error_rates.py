"""WER, CER, MER, WIL, WIP: the Levenshtein kernel against RapidFuzz's opcodes, the metrics against jiwer 4.0's
``process_words`` / ``process_characters`` (counts exactly, rates to the last bit) and torchmetrics, on random
text (CJK, combining marks, emoji, empty strings, 10,000-character lines) and WMT22 texts; workflows."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import refscore
from conftest import read_segments, shared_data_path
from refscore.errors import InputError
from refscore.metrics.edit_alignment import OPCODE_NAMES, align_characters, align_token_ids, align_words
from refscore.metrics.error_rates import CER, MER, WER, WIL, WIP

jiwer = pytest.importorskip("jiwer")
rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz.distance import Levenshtein  # noqa: E402

ALPHABET = st.sampled_from(list("abcab  ") + ["猫", "犬", "\u0301", "é", "😀", "\t", "\n", "\u3000", "\u00a0", "\x1c",
                                                 "\x85", "\u2028", "\u200b"])
TEXT = st.text(ALPHABET, max_size=30)
METRICS = {"wer": WER, "mer": MER, "wil": WIL, "wip": WIP}


def rapidfuzz_counts(ref, hyp):
    """(hits, substitutions, deletions, insertions), opcodes of RapidFuzz, as jiwer counts them."""
    counts = [0, 0, 0, 0]
    chunks = []
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(ref, hyp):
        counts[{"equal": 0, "replace": 1, "delete": 2, "insert": 3}[tag]] += (j2 - j1) if tag == "insert" else i2 - i1
        chunks.append((OPCODE_NAMES.index(tag), i1, i2, j1, j2))
    return counts, chunks


def kernel_pairs(pairs, num_threads=None):
    refs, hyps = [p[0] for p in pairs], [p[1] for p in pairs]
    ref_ids = np.array([x for r in refs for x in r], dtype=np.int64)
    hyp_ids = np.array([x for h in hyps for x in h], dtype=np.int64)
    ref_off = np.r_[0, np.cumsum([len(r) for r in refs])].astype(np.int64)
    hyp_off = np.r_[0, np.cumsum([len(h) for h in hyps])].astype(np.int64)
    return align_token_ids(ref_ids, ref_off, hyp_ids, hyp_off, chunks=True, num_threads=num_threads)


def random_pairs(seed, count, lengths):
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        alphabet = rng.choice([2, 3, 5, 20, 1000, 2**40])
        a = [rng.randrange(alphabet) for _ in range(rng.choice(lengths))]
        b = list(a)
        if rng.random() < 0.5:
            for _ in range(rng.randint(0, max(1, len(a) // 4))):
                position = rng.randint(0, len(b))
                op = rng.random()
                if op < 0.33 and b:
                    b[min(position, len(b) - 1)] = rng.randrange(alphabet)
                elif op < 0.66:
                    b.insert(position, rng.randrange(alphabet))
                elif b:
                    del b[min(position, len(b) - 1)]
        else:
            b = [rng.randrange(alphabet) for _ in range(rng.choice(lengths))]
        pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("seed", [0, 1])
def test_kernel_equals_rapidfuzz_opcodes(seed):
    # short, one-word, multi-word, and long enough for RapidFuzz's Hirschberg split (matrix over 1 MiB)
    pairs = random_pairs(seed, 400, [0, 1, 2, 7, 63, 64, 65, 130, 500, 2100, 3000])
    counts, chunks, offsets = kernel_pairs(pairs)
    for p, (a, b) in enumerate(pairs):
        expected_counts, expected_chunks = rapidfuzz_counts(a, b)
        assert counts[p].tolist() == expected_counts, (len(a), len(b))
        assert [tuple(c) for c in chunks[offsets[p]:offsets[p + 1]].tolist()] == expected_chunks


def test_kernel_long_lines_and_threads():
    rng = random.Random(7)
    text = "".join(rng.choice("ab cd猫😀\u0301") for _ in range(10_000))
    edited = "".join(c if rng.random() > 0.1 else rng.choice("xa ") for c in text)
    refs, hyps = [text, edited, "", text[:5000]], [edited, text, text[:300], ""]
    one = align_characters(refs, hyps, chunks=True, num_threads=1)
    two = align_characters(refs, hyps, chunks=True, num_threads=2)
    for left, right in zip(one, two):
        assert np.array_equal(left, right)
    for p, (r, h) in enumerate(zip(refs, hyps)):
        assert one[0][p].tolist() == rapidfuzz_counts(r, h)[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
def test_metrics_equal_jiwer_on_random_text(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    words = jiwer.process_words(refs, hyps)
    chars = jiwer.process_characters(refs, hyps)
    for name, cls in METRICS.items():
        score = cls().corpus_score(hyps, refs)
        assert score.score == getattr(words, name), name
    stats = WER().statistics(hyps, refs).totals().tolist()
    assert stats[:4] == [words.hits, words.substitutions, words.deletions, words.insertions]
    cer = CER().corpus_score(hyps, refs)
    assert cer.score == chars.cer
    assert cer.statistics.totals().tolist()[:4] == [chars.hits, chars.substitutions, chars.deletions,
                                                   chars.insertions]
    for segment, (h, r) in enumerate(pairs):
        assert CER().sentence_scores([h], [r])[0] == jiwer.cer(r, h)
        assert WER().sentence_scores([h], [r])[0] == jiwer.wer(r, h)


def test_empty_reference_rules_equal_jiwer():
    for refs, hyps in [([""], [""]), ([""], ["a b"]), (["", "a"], ["x y z", ""]), ([" "], ["\t"])]:
        words = jiwer.process_words(refs, hyps)
        for name, cls in METRICS.items():
            assert cls().corpus_score(hyps, refs).score == getattr(words, name), (refs, hyps, name)
        assert CER().corpus_score(hyps, refs).score == jiwer.process_characters(refs, hyps).cer
    assert refscore.wer(["a b c"], [""]).score == 3.0   # jiwer: the insertions without reference words


def test_wmt22_texts_equal_jiwer():
    directory = shared_data_path("wmt22", "en-de")
    refs = read_segments(directory / "ref.txt")[:600]
    systems = sorted((directory / "sys").iterdir())[:2]
    for path in systems:
        hyps = read_segments(path)[:600]
        words = jiwer.process_words(refs, hyps)
        chars = jiwer.process_characters(refs, hyps)
        for name, cls in METRICS.items():
            assert cls().corpus_score(hyps, refs).score == getattr(words, name)
        assert refscore.cer(hyps, refs).score == chars.cer
        counts = WER().statistics(hyps, refs).data
        for p in range(0, 600, 37):
            one = jiwer.process_words(refs[p], hyps[p])
            assert counts[p, :4].tolist() == [one.hits, one.substitutions, one.deletions, one.insertions]
    zh = shared_data_path("wmt22", "en-zh")
    refs = read_segments(zh / "ref.txt")[:300]
    hyps = read_segments(sorted((zh / "sys").iterdir())[0])[:300]
    assert refscore.cer(hyps, refs).score == jiwer.cer(refs, hyps)


def test_alignment_chunks_equal_jiwer():
    refs, hyps = ["the cat sat on the mat", "a b", ""], ["the cat sit on mat today", "b a", "x"]
    words = jiwer.process_words(refs, hyps)
    _, chunks, offsets = align_words([r.split() for r in refs], [h.split() for h in hyps], chunks=True)
    for p, expected in enumerate(words.alignments):
        got = [(OPCODE_NAMES[c[0]].replace("replace", "substitute"), *c[1:]) for c in
               chunks[offsets[p]:offsets[p + 1]].tolist()]
        assert got == [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in expected]


def test_torchmetrics_peer():
    torchmetrics = pytest.importorskip("torchmetrics.text")
    rng = random.Random(3)
    refs = ["the cat sat on the mat", "a  b\tc", "", "猫 犬 猫", " lead and trail ", "x"]
    hyps = ["the cat sit on mat", "a b c", "not empty", "猫 猫", "lead and  trail", ""]
    for _ in range(30):
        refs.append(" ".join(rng.choice(["a", "b", "c", "猫"]) for _ in range(rng.randint(1, 12))))
        hyps.append(" ".join(rng.choice(["a", "b", "c", "猫"]) for _ in range(rng.randint(0, 12))))
    peers = {WER: torchmetrics.WordErrorRate, CER: torchmetrics.CharErrorRate, MER: torchmetrics.MatchErrorRate,
             WIL: torchmetrics.WordInfoLost, WIP: torchmetrics.WordInfoPreserved}
    for subset in (slice(0, 2), slice(6, None), slice(None)):
        for cls, peer in peers.items():
            expected = float(peer()(hyps[subset], refs[subset]))
            got = cls(peer="torchmetrics").corpus_score(hyps[subset], refs[subset]).score
            assert got == expected or (np.isnan(got) and np.isnan(expected)), (cls.name, subset)


def test_thread_count_and_token_ids():
    directory = shared_data_path("wmt22", "de-en")
    refs = read_segments(directory / "ref.txt")[:500]
    hyps = read_segments(sorted((directory / "sys").iterdir())[0])[:500]
    one = CER().statistics(hyps, refs, num_threads=1).data
    assert np.array_equal(one, CER().statistics(hyps, refs, num_threads=2).data)
    ids = [[ord(c) for c in r.strip()] for r in refs]
    hyp_ids = [[ord(c) for c in h.strip()] for h in hyps]
    assert np.array_equal(CER().statistics(hyp_ids, ids).data, one)
    assert refscore.wer([[1, 2, 3]], [[1, 2, 4]]).score == 1 / 3


def test_multiple_references_take_the_fewest_edits():
    result = refscore.wer(["a b c", "x"], [["a x y", "a b d", "a b c d"], ["x"]])
    assert result.statistics.data[:, :4].tolist() == [[2, 1, 0, 0], [1, 0, 0, 0]]   # the first of two with 1 edit
    assert result.score == 1 / 4


def test_checks_bands_explanations_intervals_pairwise():
    check = refscore.testing.Check("wer", threshold=0.2)
    scores, _ = check.scores(["a b c d e", "a b c d x"], [["a b c d e"], ["a b c d e"]])
    assert scores.tolist() == [0.0, 0.2]
    assert check.passes(np.array([0.0, 0.2, 0.21])).tolist() == [True, True, False]   # at or below passes
    assert check.bands_of([0.0, 0.2, 0.4, 0.9]) == ["near exact", "minor errors", "major errors", None]
    assert refscore.testing.Check("wip", threshold=0.5).passes(np.array([0.5, 0.4])).tolist() == [True, False]
    assert WER.higher_is_better is False and WIP.higher_is_better is True
    assert "1 substituted" in WER().explain_case("a b x", ["a b c"])
    interval = refscore.bootstrap_ci(WER(), ["a b", "c d", "e"], ["a b", "c x", "f"], n=30, seed=1)
    assert interval.score == refscore.wer(["a b", "c d", "e"], ["a b", "c x", "f"]).score
    matrix = refscore.pairwise("cer", [["abc", "abd"]])
    assert matrix[0].tolist() == [[0.0, 1 / 3], [1 / 3, 0.0]]
    parts = WER().statistics(["a b"], ["a c"]) + WER().statistics(["x"], [""])
    assert WER().score_from_statistics(parts).score == jiwer.wer(["a c", ""], ["a b", "x"])


def test_bad_input_names_the_argument():
    with pytest.raises(InputError, match="peer"):
        WER(peer="sclite")
    with pytest.raises(Exception, match=r"hypotheses\[1\]"):
        refscore.wer(["a", 3], ["a", "b"])


def test_meta_evaluation_cli_and_mbr(tmp_path):
    import json
    import subprocess
    import sys

    from refscore.meta import MetricScores, meta_evaluate
    from refscore.meta.inputs import load_judgments

    rng = random.Random(5)
    words = "the cat sat on a mat and looked at the dog".split()
    path = tmp_path / "judgments.jsonl"
    with path.open("w", encoding="utf-8") as records:
        for system in range(4):
            for item in range(12):
                kept = [w for w in words if rng.random() > 0.15 * system]
                records.write(json.dumps({"system": f"s{system}", "seg_id": item, "hypothesis": " ".join(kept),
                                          "reference": " ".join(words), "mqm": -float(len(words) - len(kept))})
                              + "\n")
    judgments = load_judgments(str(path))
    scores = MetricScores.from_metric(WER(), judgments)
    assert (scores.systems <= 0).all()   # lower is better: negated, as TER
    entries = meta_evaluate(judgments.human["mqm"], [scores], n_bootstrap=0, k=0)
    system = [e for e in entries if e.level == "system" and e.metric == "wer"]
    assert system and all(e.value > 0.5 for e in system)   # more words lost: higher WER and worse MQM
    (tmp_path / "hyp.txt").write_text("the cat sit\nhello\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat sat\nhello world\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "refscore.cli.main", "score", "-m", "wer,cer,wip", "--format", "json",
                          "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "40" in run.stdout and "wip" in run.stdout
    best = refscore.mbr([["the cat sat", "the cat sat down", "a dog"]], metric="wip")
    # WIP of "the cat sat" against "the cat sat down" is (3/4)(3/3); against "a dog" 0
    assert best.utilities[0].tolist() == [0.375, 0.375, 0.0] and best.best == ["the cat sat"]


def test_distance_kernel_equals_rapidfuzz():
    from refscore._core import _levenshtein

    pairs = random_pairs(4, 300, [0, 1, 5, 64, 65, 200, 1500])
    refs = np.array([x for a, _ in pairs for x in a], dtype=np.int64)
    hyps = np.array([x for _, b in pairs for x in b], dtype=np.int64)
    ref_off = np.r_[0, np.cumsum([len(a) for a, _ in pairs])].astype(np.int64)
    hyp_off = np.r_[0, np.cumsum([len(b) for _, b in pairs])].astype(np.int64)
    got = _levenshtein.distance_ids(refs, ref_off, hyps, hyp_off, num_threads=2)
    assert got.tolist() == [Levenshtein.distance(a, b) for a, b in pairs]
    texts = ["kitten", "", "猫😀a\u0301", "x" * 5000]
    others = ["sitting", "abc", "猫a", "y" + "x" * 4998]
    assert _levenshtein.distance_text(texts, others).tolist() == [Levenshtein.distance(a, b)
                                                                  for a, b in zip(texts, others)]
    with pytest.raises(TypeError, match=r"hypotheses\[0\]"):
        _levenshtein.align_text(["a"], [b"a"])
