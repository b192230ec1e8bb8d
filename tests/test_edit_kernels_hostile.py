"""The one bit-parallel Levenshtein kernel (``_bitparallel.hpp``) on hostile input, through each of its users (the
WER family's ``_levenshtein``, the edit-distance metric's ``_edit_distance``, EED): 100,000-character and
40,000-word lines, a pattern of 100,000 distinct code points (its dense mask table would be 10^11 entries: the
memory-linear one takes over), NUL bytes, lone surrogates, many references per segment; every number equal to
RapidFuzz's (or jiwer's), on 2 threads. The fuzz targets (fuzz/edit_targets.py; 1 against 3 threads) run on random
bytes in test_fuzz_smoke.py; these are the sizes a fuzzer does not reach."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import refscore
from refscore._core import _edit_distance, _levenshtein
from refscore.metrics._edit_symbols import text_symbols
from refscore.metrics.edit_distance import EditDistance

rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz import process  # noqa: E402
from rapidfuzz.distance import Indel, Levenshtein  # noqa: E402

PEERS = {"levenshtein": Levenshtein, "indel": Indel}


def mutated(text: str, rng: random.Random, edits: int, alphabet: str) -> str:
    chars = list(text)
    for _ in range(edits):
        at = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0 and at < len(chars):
            chars[at] = rng.choice(alphabet)
        elif op == 1 and at < len(chars):
            del chars[at]
        else:
            chars.insert(at, rng.choice(alphabet))
    return "".join(chars)


@pytest.fixture(scope="module")
def long_pairs() -> list[tuple[str, str]]:
    rng = random.Random(43)
    alphabet = "ab c\x00\ud800\udfff猫😀\u3000"
    base = "".join(rng.choice(alphabet) for _ in range(100_000))
    many = "".join(chr(0x100 + k) for k in range(100_000))   # 100,000 distinct code points
    return [(base, mutated(base, rng, 3000, alphabet)), (many, mutated(many, rng, 500, "xyz")),
            (base[:70_000], many[:30_000]), ("\x00" * 5000, "\x00" * 4999 + "\ud800")]


def test_100k_character_lines_equal_rapidfuzz_in_every_kernel(long_pairs):
    refs, hyps = [r for r, _ in long_pairs], [h for _, h in long_pairs]
    expected = [Levenshtein.distance(r, h) for r, h in long_pairs]
    assert _levenshtein.distance_text(refs, hyps, num_threads=2).tolist() == expected
    owner = np.arange(len(hyps), dtype=np.int64)
    for kind, peer in ((_edit_distance.LEVENSHTEIN, Levenshtein), (_edit_distance.INDEL, Indel)):
        found, hyp_length, ref_length = _edit_distance.text_pair_distances(
            hyps, refs, owner, kind, _edit_distance.CHARACTERS, 2)
        assert found.tolist() == (expected if peer is Levenshtein else [Indel.distance(h, r) for r, h in long_pairs])
        assert hyp_length.tolist() == [len(h) for h in hyps] and ref_length.tolist() == [len(r) for r in refs]
    symbols, offsets, alphabet = text_symbols(hyps + refs, "characters")   # corpus-wide symbols
    rows, cols = np.arange(len(hyps)), np.arange(len(hyps), 2 * len(hyps))
    found = _edit_distance.pair_distances(symbols, offsets, rows, cols, _edit_distance.LEVENSHTEIN, alphabet, 2)
    assert found.tolist() == expected


def test_the_alignment_of_long_lines_is_rapidfuzz_s():
    rng = random.Random(7)
    base = "".join(rng.choice("abcd \x00\ud800") for _ in range(20_000))   # past the 1 MiB matrix: Hirschberg
    pairs = [(base, mutated(base, rng, 800, "abcde")), (base[:3000], mutated(base[:3000], rng, 2000, "xy"))]
    counts, chunks, offsets = _levenshtein.align_text([r for r, _ in pairs], [h for _, h in pairs], chunks=True)
    for p, (r, h) in enumerate(pairs):
        expected = [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end) for op in Levenshtein.opcodes(r, h)]
        found = [(_levenshtein.OPCODE_NAMES[c[0]], *map(int, c[1:])) for c in chunks[offsets[p]:offsets[p + 1]]]
        assert found == expected


def test_40k_word_lines_equal_rapidfuzz():
    rng = random.Random(11)
    vocabulary = [f"w{k}" for k in range(5000)] + ["\x00", "\ud800x", "猫", "😀"]
    words = [rng.choice(vocabulary) for _ in range(40_000)]   # 250,000 characters (RapidFuzz: seconds)
    ref = " ".join(words)
    for _ in range(2000):
        words[rng.randrange(len(words))] = rng.choice(vocabulary + ["new"])
    hyp = "\u3000 ".join(words[:20_000]) + "\t" + "\u2003".join(words[20_000:])   # str.split() separators
    for measure, peer in PEERS.items():
        stats = EditDistance(measure=measure, unit="words").statistics([hyp], [ref], num_threads=2)
        assert stats.column("distance").tolist() == [peer.distance(hyp.split(), ref.split())]
    jiwer = pytest.importorskip("jiwer")
    assert refscore.wer([hyp], [ref]).score == jiwer.wer(ref, hyp)


def test_many_references_take_the_best_one():
    rng = random.Random(5)
    hyps = ["the cat sat on the mat", "\x00\ud800", ""]
    refs = [[mutated(h, rng, rng.randrange(6), "abc \x00\ud800") for _ in range(1000)] for h in hyps]
    for measure, peer in PEERS.items():
        scores = EditDistance(measure=measure).sentence_scores(hyps, refscore.per_segment(refs), num_threads=2)
        assert scores.tolist() == [max(peer.normalized_similarity(h, r) for r in segment)
                                   for h, segment in zip(hyps, refs)]


def test_a_matrix_of_long_and_wide_texts_equals_cdist(long_pairs):
    texts = [t[:5000] for pair in long_pairs for t in pair] + ["", "\x00"]
    for measure, peer in PEERS.items():
        expected = process.cdist(texts, texts, scorer=peer.normalized_similarity, dtype=np.float64)
        found = refscore.pairwise(EditDistance(measure=measure), [texts], num_threads=2)[0]
        np.testing.assert_array_equal(found, expected)


def test_eed_of_long_lines_is_a_score_on_any_thread_count():
    rng = random.Random(3)
    ref = " ".join("".join(rng.choice("abc\x00\ud800猫") for _ in range(rng.randrange(1, 8))) for _ in range(600))
    hyp = mutated(ref, rng, 300, "ab ")
    one = refscore.eed([hyp, ""], [ref, ref], num_threads=1)
    two = refscore.eed([hyp, ""], [ref, ref], num_threads=2)
    assert one.score == two.score and 0 <= one.score <= 1
    assert list(one.segments["eed"]) == list(two.segments["eed"])


HOSTILE = st.text(st.sampled_from(list("ab \x00\t") + ["\ud800", "\udfff", "\u3000", "猫", "😀", "\u0301"]),
                  max_size=200)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(HOSTILE, st.lists(HOSTILE, min_size=1, max_size=5)), min_size=1, max_size=6),
       st.sampled_from(["levenshtein", "indel"]), st.sampled_from(["characters", "words"]))
def test_hostile_random_text_equals_rapidfuzz(segments, measure, unit):
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    split = (lambda t: t) if unit == "characters" else str.split
    peer = PEERS[measure]
    metric = EditDistance(measure=measure, unit=unit)
    stats = metric.statistics(hyps, refscore.per_segment(refs), num_threads=2)
    best = [max(segment, key=lambda r: peer.normalized_similarity(split(h), split(r))) for h, segment in segments]
    assert stats.column("similarity").tolist() == [peer.normalized_similarity(split(h), split(r))
                                                   for h, r in zip(hyps, best)]
    assert stats.column("distance").tolist() == [peer.distance(split(h), split(r)) for h, r in zip(hyps, best)]
    assert _levenshtein.distance_text(best, hyps).tolist() == [Levenshtein.distance(r, h) for r, h in zip(best, hyps)]
