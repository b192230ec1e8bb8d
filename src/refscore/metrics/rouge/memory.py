"""What ROUGE's kernels hold per segment where it grows with a product of sizes, checked against the memory budget
(:mod:`refscore._memory`, ``REFSCORE_MEMORY_BUDGET``) before they allocate it:

* ROUGE-S / ROUGE-SU: every skip-bigram of a text as an 8-byte key (``skip_bigram_keys``), for the hypothesis and
  its reference at once (rouge-score flavor) or for a document's peer and all its models (ROUGE-1.5.5), sorted in
  place. Without a skip distance (ROUGE-S*) that is ``len * (len - 1) / 2`` keys: quadratic in the text's tokens.
  ROUGE-1.5.5 counts documents of at most 2,048 distinct tokens in a dense ``tokens x tokens`` table instead.
* ROUGE-Lsum of texts with several sentences (``_rouge_lcs.hpp``): per prediction sentence of ``m`` tokens, one
  ``ceil(m / 64)``-word match mask per distinct token, and per reference sentence of ``n`` tokens
  the DP table's bit rows (``n + 1`` rows up to 32 MiB, else checkpoints: about ``2 * sqrt(n)`` rows).
  ROUGE-L and ROUGE-W (LCS lengths only) and one-sentence ROUGE-Lsum are linear in memory.

>>> int(skip_bigram_counts(np.array([0, 1, 5, 1000]), None, False)[-1])
499500
>>> int(skip_bigram_counts(np.array([5]), 1, True, last_unigram=True)[0])
12
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from refscore._memory import check_segments_within_budget, memory_budget

#: ``_rouge_lcs.hpp``'s ``table_limit_words_``: ROUGE-Lsum tables up to 4 Mi 64-bit words are kept whole.
LSUM_TABLE_LIMIT_WORDS = 1 << 22
#: ``_rouge155_kernel.hpp``'s ``DENSE_SKIP_CELLS``: ROUGE-1.5.5 documents whose ``width * (width - 1)`` (width:
#: distinct tokens + 1) is at most this count skip-bigrams in two dense int32 tables instead of keys.
DENSE_SKIP_CELLS = 1 << 22


def skip_bigram_counts(lengths: np.ndarray, skip_distance: int | None, unigrams: bool, *,
                       last_unigram: bool = False) -> np.ndarray:
    """Skip-bigrams (plus unigrams) of texts of ``lengths`` tokens, as ``skip_bigram_keys`` makes them, float64."""
    length = np.asarray(lengths, dtype=np.float64)
    pairs = length * (length - 1) / 2
    if skip_distance is not None and skip_distance >= 0:
        window = float(skip_distance + 1)
        banded = window * (length - 1) - window * skip_distance / 2
        pairs = np.where(window >= length - 1, pairs, banded)
    pairs = np.where(length < 2, 0.0, pairs)
    if unigrams:
        pairs = pairs + np.maximum(length - (0 if last_unigram else 1), 0)
    return pairs


def check_skip_bigram_pairs(lengths: np.ndarray, hyp_texts: np.ndarray, ref_texts: np.ndarray,
                            skip_distance: int | None, unigrams: bool, threads: int,
                            what: Callable[[int], str]) -> None:
    """Refuse (hypothesis, reference) pairs whose skip-bigram keys (8 bytes each, both texts at once, one pair per
    thread) exceed the memory budget; ``what(k)`` names pair ``k``."""
    counts = skip_bigram_counts(lengths, skip_distance, unigrams, last_unigram=unigrams)
    needs = 8 * (counts[hyp_texts] + counts[ref_texts])
    check_segments_within_budget(needs, what, concurrent=threads,
                                 hint="or give a skip distance (skip_distance=4: ROUGE-S4), or split the segment")


def check_skip_bigram_documents(flat_tokens: np.ndarray, flat_offsets: np.ndarray, doc_texts: list[np.ndarray],
                                skip_distance: int | None, unigrams: bool, threads: int,
                                what: Callable[[int], str]) -> None:
    """ROUGE-1.5.5: refuse documents whose skip-bigram keys (all their texts at once) exceed the memory budget;
    ``doc_texts[d]``: the text indices of document ``d`` (peer and models). Documents that the kernel counts in
    its dense table (few distinct tokens) need ``8 * width**2`` bytes instead."""
    counts = skip_bigram_counts(np.diff(flat_offsets), skip_distance, unigrams)
    needs = np.array([8 * counts[texts].sum() for texts in doc_texts], dtype=np.float64)
    for d in np.flatnonzero(needs > DENSE_SKIP_CELLS * 8):
        tokens = np.concatenate([flat_tokens[flat_offsets[t]:flat_offsets[t + 1]] for t in doc_texts[d]])
        width = len(np.unique(tokens)) + 1
        if width * (width - 1) <= DENSE_SKIP_CELLS:
            needs[d] = 8.0 * width * width
    check_segments_within_budget(needs, what, concurrent=threads,
                                 hint="or give a skip distance (ROUGE-S4), or split the document")


def lsum_table_bytes(hyp_sentence: np.ndarray | float, ref_sentence: np.ndarray | float,
                     hyp_distinct: np.ndarray | float | None = None) -> np.ndarray:
    """Bytes of ROUGE-Lsum's match masks and DP rows for a prediction sentence of ``hyp_sentence`` tokens
    (``hyp_distinct`` of them distinct; default: all) against a reference sentence of ``ref_sentence`` tokens.

    >>> int(lsum_table_bytes(64, 10)), int(lsum_table_bytes(100_000, 100_000, 5_000)) // 2**20   # bytes, MiB
    (600, 67)
    """
    m = np.asarray(hyp_sentence, dtype=np.float64)
    n = np.asarray(ref_sentence, dtype=np.float64)
    distinct = m if hyp_distinct is None else np.asarray(hyp_distinct, dtype=np.float64)
    words = np.ceil(m / 64)
    rows = np.where((n + 1) * words <= LSUM_TABLE_LIMIT_WORDS, n + 1, 2 * np.ceil(np.sqrt(n)) + 2)
    return 8 * words * (distinct + rows)


def check_lsum(sentences: Sequence[Sequence[Sequence[Any] | np.ndarray]], ref_offsets: np.ndarray, threads: int,
               what: Callable[[int], str]) -> None:
    """Refuse segments whose ROUGE-Lsum tables exceed the memory budget: :func:`lsum_table_bytes` of each
    prediction sentence (its tokens and distinct tokens) against the segment's longest reference sentence, the
    largest per segment. ``sentences``: the token lists of each text's sentences, predictions then the flattened
    references. A segment whose prediction and references are one sentence each needs no table (the LCS length
    is linear)."""
    n_docs = len(ref_offsets) - 1
    needs = np.zeros(n_docs)
    for i in range(n_docs):
        hyp = [s for s in sentences[i] if len(s)]
        refs = [[s for s in sentences[n_docs + j] if len(s)] for j in range(ref_offsets[i], ref_offsets[i + 1])]
        if not hyp or not any(refs) or (len(hyp) == 1 and all(len(r) <= 1 for r in refs)):
            continue
        longest_ref = max(len(s) for r in refs for s in r)
        needs[i] = max(float(lsum_table_bytes(len(s), longest_ref, len(set(s)))) for s in hyp)
    check_segments_within_budget(needs, what, concurrent=threads,
                                 hint="or split the prediction's long sentences (ROUGE-Lsum's sentences are its "
                                      "lines)")


def check_lsum_texts(texts: list[str], ref_offsets: np.ndarray,
                     sentences: Callable[[list[str]], Sequence[Sequence[Sequence[Any]]]],
                     threads: int, what: Callable[[int], str]) -> None:
    """:func:`check_lsum` for texts (predictions, then the flattened references) whose sentences are their lines:
    first with every line taken as ``(characters + 1) // 2`` distinct tokens (a token and a space each), which
    clears ordinary batches at the cost of one ``len`` per text; only beyond the budget are the lines tokenized
    (``sentences(texts)``: per text, its sentences' tokens)."""
    n_docs = len(ref_offsets) - 1
    longest = (max(map(len, texts), default=0) + 1) // 2
    if float(lsum_table_bytes(longest, longest)) * min(threads, max(n_docs, 1)) <= memory_budget():
        return
    check_lsum(sentences(texts), ref_offsets, threads, what)


def segment_namer(rouge_type: str, hyp_name: str = "predictions") -> Callable[[int], str]:
    """Names segment ``i`` in a budget error: ``"rougeLsum of segment 3 (predictions[3] and its references)"``."""
    return lambda i: f"{rouge_type} of segment {i} ({hyp_name}[{i}] and its references)"


def pair_namer(rouge_type: str, hyp_texts: np.ndarray, ref_offsets: np.ndarray) -> Callable[[int], str]:
    """Names (prediction, reference) pair ``k`` in a budget error: ``"rougeS of predictions[3] against
    references[3][1]"``."""
    def name(k: int) -> str:
        segment = int(hyp_texts[k])
        return (f"{rouge_type} of segment {segment} (predictions[{segment}] against "
                f"references[{segment}][{k - int(ref_offsets[segment])}])")
    return name
