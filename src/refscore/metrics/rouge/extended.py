"""ROUGE-W, ROUGE-S and ROUGE-SU for the rouge-score flavor, on the ROUGE-1.5.5 kernels of ``_core._rouge155``.

rouge-score has no such types; here they follow Lin (2004) on rouge-score's tokens, with rouge-score's F
(``2PR / (P + R)``) and its multi-reference rule (the reference with the best F, first on ties):

* ``rougeW``: weighted LCS with ``f(k) = k ** w_weight``; ``R = (WLCS / f(len(ref))) ** (1 / w)``,
  ``P = (WLCS / f(len(hyp))) ** (1 / w)``.
* ``rougeS``: skip-bigrams at most ``skip_distance`` tokens apart (``None``: any distance), clipped hits over the
  reference's and the hypothesis's skip-bigram counts.
* ``rougeSU``: ``rougeS`` plus unigrams (every token, including the last).

ROUGE-1.5.5's own numbers for these measures (with its quirks) come from ``flavor="rouge155"``.

>>> import numpy as np
>>> ids, offsets = np.array([0, 1, 2, 0, 1, 2], dtype=np.uint32), np.array([0, 3, 6], dtype=np.int64)
>>> p, r, f = pair_scores("rougeW", ids, offsets, np.array([0]), np.array([1]), w_weight=1.2, skip_distance=4)
>>> float(f[0])
1.0
"""
from __future__ import annotations

import numpy as np

from refscore._core import _rouge155
from refscore._offsets import offsets_from_lengths


def gather_texts(ids: np.ndarray, offsets: np.ndarray, texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR (ids, offsets) of the selected texts, in the given order (texts may repeat)."""
    lengths = np.diff(offsets)[texts]
    new_offsets = offsets_from_lengths(lengths)
    positions = np.repeat(offsets[texts] - new_offsets[:-1], lengths) + np.arange(new_offsets[-1], dtype=np.int64)
    return np.ascontiguousarray(ids[positions], dtype=np.uint32), new_offsets


def _harmonic(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    total = precision + recall
    return np.divide(2 * precision * recall, total, out=np.zeros_like(total), where=total > 0)


def pair_scores(rouge_type: str, ids: np.ndarray, offsets: np.ndarray, hyp_texts: np.ndarray, ref_texts: np.ndarray,
                *, w_weight: float, skip_distance: int | None,
                num_threads: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F of ``rouge_type`` for each (hypothesis text, reference text) pair of a CSR batch."""
    hyp_ids, hyp_offsets = gather_texts(ids, offsets, hyp_texts)
    ref_ids, ref_offsets = gather_texts(ids, offsets, ref_texts)
    if rouge_type == "rougeW":
        wlcs = _rouge155.wlcs_pairs(ref_ids, ref_offsets, hyp_ids, hyp_offsets, w_weight, num_threads)
        ref_len, hyp_len = np.diff(ref_offsets).astype(np.float64), np.diff(hyp_offsets).astype(np.float64)
        recall = np.zeros_like(wlcs)
        precision = np.zeros_like(wlcs)
        np.divide(wlcs, ref_len ** w_weight, out=recall, where=ref_len > 0)
        np.divide(wlcs, hyp_len ** w_weight, out=precision, where=hyp_len > 0)
        recall, precision = recall ** (1.0 / w_weight), precision ** (1.0 / w_weight)
    else:
        max_skip = -1 if skip_distance is None else int(skip_distance)
        counts = _rouge155.skip_bigram_pairs(ref_ids, ref_offsets, hyp_ids, hyp_offsets, max_skip,
                                              rouge_type == "rougeSU", True, num_threads)
        hits = counts[:, 0].astype(np.float64)
        recall = np.divide(hits, counts[:, 1], out=np.zeros_like(hits), where=counts[:, 1] > 0)
        precision = np.divide(hits, counts[:, 2], out=np.zeros_like(hits), where=counts[:, 2] > 0)
    return precision, recall, _harmonic(precision, recall)


def best_per_document(fmeasure: np.ndarray, ref_offsets: np.ndarray) -> np.ndarray:
    """For each document, the index (within its references) of the reference with the highest F, first on ties."""
    starts = ref_offsets[:-1]
    best_value = np.maximum.reduceat(fmeasure, starts)
    document = np.repeat(np.arange(len(starts)), np.diff(ref_offsets))
    local = np.arange(len(fmeasure)) - np.repeat(starts, np.diff(ref_offsets))
    candidates = np.where(fmeasure == best_value[document], local, np.iinfo(np.int64).max)
    return np.minimum.reduceat(candidates, starts)
