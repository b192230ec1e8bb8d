"""The compiled n-gram kernel against a direct Python count (token ids, no tokenizer involved)."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore._core._ngrams import bleu_statistics, gleu_statistics


def layout(hyps: list[list[int]], refs: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    texts = hyps + [r for group in refs for r in group]
    ids = np.array([t for text in texts for t in text], dtype=np.uint32)
    offsets = np.cumsum([0] + [len(t) for t in texts]).astype(np.int64)
    ref_offsets = np.cumsum([0] + [len(g) for g in refs]).astype(np.int64)
    return ids, offsets, ref_offsets


def ngram_counts(tokens: list[int], low: int, high: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for n in range(low, high + 1) for i in range(len(tokens) - n + 1))


def expected_bleu_row(hyp: list[int], refs: list[list[int]], order: int) -> list[int]:
    hyp_counts = ngram_counts(hyp, 1, order)
    ref_max: Counter = Counter()
    for ref in refs:
        ref_max |= ngram_counts(ref, 1, order)
    ref_len = min((len(r) for r in refs), key=lambda length: (abs(length - len(hyp)), length))
    matches, totals = [0] * order, [0] * order
    for gram, count in hyp_counts.items():
        totals[len(gram) - 1] += count
        matches[len(gram) - 1] += min(count, ref_max[gram])
    return [len(hyp), ref_len, *matches, *totals]


def expected_gleu_row(hyp: list[int], refs: list[list[int]], low: int, high: int) -> list[int]:
    hyp_counts = ngram_counts(hyp, low, high)
    candidates = []
    for ref in refs:
        ref_counts = ngram_counts(ref, low, high)
        n_all = max(sum(hyp_counts.values()), sum(ref_counts.values()))
        if n_all > 0:
            candidates.append((sum((ref_counts & hyp_counts).values()), n_all))
    return list(max(candidates, key=lambda c: c[0] / c[1])) if candidates else [0, 0]


tokens = st.lists(st.integers(0, 5), max_size=14)
segments = st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=4)), min_size=1, max_size=8)


@settings(max_examples=100, deadline=None)
@given(segments, st.integers(1, 7), st.integers(1, 3), st.integers(0, 3))
def test_kernels_equal_direct_counts(data, order, low, extra):
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    ids, offsets, ref_offsets = layout(hyps, refs)
    expected = np.array([expected_bleu_row(h, r, order) for h, r in data], dtype=np.int64)
    expected_gleu = np.array([expected_gleu_row(h, r, low, low + extra) for h, r in data], dtype=np.int64)
    for threads in (1, 2):
        assert np.array_equal(bleu_statistics(ids, offsets, ref_offsets, order, num_threads=threads), expected)
        assert np.array_equal(gleu_statistics(ids, offsets, ref_offsets, low, low + extra, num_threads=threads),
                              expected_gleu)


def test_equal_hashes_never_merge_distinct_ngrams():
    # Distinct n-grams sharing every prefix but the last token, over the full uint32 range, many orders.
    hyp = [0xFFFFFFFF, 0, 0xFFFFFFFE, 1, 0xFFFFFFFF, 0]
    refs = [[0xFFFFFFFF, 0, 0xFFFFFFFE, 2], [0, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0]]
    ids, offsets, ref_offsets = layout([hyp], [refs])
    got = bleu_statistics(ids, offsets, ref_offsets, 6, num_threads=1)
    assert got.tolist() == [expected_bleu_row(hyp, refs, 6)]


def test_thread_count_never_changes_results():
    rng = np.random.default_rng(7)
    hyps = [rng.integers(0, 50, rng.integers(0, 60)).tolist() for _ in range(3000)]
    refs = [[rng.integers(0, 50, rng.integers(0, 60)).tolist() for _ in range(rng.integers(1, 4))]
            for _ in range(3000)]
    ids, offsets, ref_offsets = layout(hyps, refs)
    one = bleu_statistics(ids, offsets, ref_offsets, 4, num_threads=1)
    assert np.array_equal(one, bleu_statistics(ids, offsets, ref_offsets, 4, num_threads=2))
    assert np.array_equal(one, bleu_statistics(ids, offsets, ref_offsets, 4, num_threads=7))
    assert np.array_equal(gleu_statistics(ids, offsets, ref_offsets, 1, 4, num_threads=1),
                          gleu_statistics(ids, offsets, ref_offsets, 1, 4, num_threads=3))
    assert one[:50].tolist() == [expected_bleu_row(h, r, 4) for h, r in zip(hyps[:50], refs[:50])]


def test_long_segment_and_high_order():
    hyp = list(range(500)) * 4
    ref = list(range(500)) * 3
    ids, offsets, ref_offsets = layout([hyp], [[ref]])
    got = bleu_statistics(ids, offsets, ref_offsets, 30, num_threads=1)
    assert got.tolist() == [expected_bleu_row(hyp, [ref], 30)]


def test_layout_errors():
    ids, offsets, ref_offsets = layout([[1, 2]], [[[1, 2]]])
    with pytest.raises(ValueError, match="max_order"):
        bleu_statistics(ids, offsets, ref_offsets, 0)
    with pytest.raises(ValueError, match="min_len"):
        gleu_statistics(ids, offsets, ref_offsets, 3, 2)
    with pytest.raises(ValueError, match="offsets"):
        bleu_statistics(ids, offsets[:-1], ref_offsets, 4)
    with pytest.raises(ValueError, match="offsets"):
        bleu_statistics(ids[:1], offsets, ref_offsets, 4)
    two_ids, two_offsets, two_ref_offsets = layout([[1, 2], [3]], [[[1, 2]], [[3]]])
    with pytest.raises(ValueError, match="offsets must start at 0, be non-decreasing"):
        bleu_statistics(two_ids, np.array([0, 3, 2, 5, 6], dtype=np.int64), two_ref_offsets, 4)
    with pytest.raises(ValueError, match="ref_offsets must start at 0 and be non-decreasing"):
        bleu_statistics(two_ids, two_offsets, np.array([0, 3, 2], dtype=np.int64), 4)
