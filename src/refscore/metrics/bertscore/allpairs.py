"""Greedy matching of every candidate against every reference of an item with one matrix product: the cosine
similarities of all the candidates' tokens with all the references' tokens, then maxima and weighted sums per
text (``refscore.pairwise``, MBR). Each value is the pair's :func:`~refscore.metrics.bertscore.engine.greedy_match`
value: the same float64 similarities (products of float32 embeddings, exact in float64, summed over the embedding),
maxima over the same tokens, weighted sums in float64 rounded to float32 once, and F = 2PR/(P+R) in float32.

>>> import torch
>>> unit = torch.eye(2)[:, None, :]                      # two tokens, orthogonal
>>> match_all_pairs([unit, unit[:1]], [np.ones(2, np.float32), np.ones(1, np.float32)],
...                 [unit[:1]], [np.ones(1, np.float32)])[:, 0].tolist()
[[0.5, 1.0, 0.6666666865348816], [1.0, 1.0, 1.0]]
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._offsets import offsets_from_lengths

from refscore.metrics.bertscore.deps import torch_and_transformers

__all__ = ["match_all_pairs"]


def _stacked(embeddings: Sequence[Any], weights: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tokens x dim float64 embeddings of the first state, each text's weights normalised to sum 1, text offsets)."""
    torch, _ = torch_and_transformers()
    tokens = torch.cat([embedding[:, 0] for embedding in embeddings]).double().cpu().numpy()
    with np.errstate(invalid="ignore", divide="ignore"):   # an empty text's weights are all 0: NaN, as bert-score
        normalised = np.concatenate([w.astype(np.float64) / w.astype(np.float64).sum() for w in weights])
    return tokens, normalised, offsets_from_lengths([embedding.shape[0] for embedding in embeddings])


def match_all_pairs(cand_embeddings: Sequence[Any], cand_weights: Sequence[np.ndarray],
                    ref_embeddings: Sequence[Any], ref_weights: Sequence[np.ndarray]) -> np.ndarray:
    """P, R, F of every (candidate, reference) pair: ``(candidates, references, 3)`` float32 (one hidden state)."""
    cands, cand_w, cand_offsets = _stacked(cand_embeddings, cand_weights)
    refs, ref_w, ref_offsets = _stacked(ref_embeddings, ref_weights)
    similarity = cands @ refs.T                                                   # (candidate tokens, reference tokens)
    word_precision = np.maximum.reduceat(similarity, ref_offsets[:-1], axis=1)   # (candidate tokens, references)
    word_recall = np.maximum.reduceat(similarity, cand_offsets[:-1], axis=0)     # (candidates, reference tokens)
    precision = np.add.reduceat(word_precision * cand_w[:, None], cand_offsets[:-1], axis=0).astype(np.float32)
    recall = np.add.reduceat(word_recall * ref_w[None, :], ref_offsets[:-1], axis=1).astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.float32(2) * precision * recall / (precision + recall)
    return np.stack((precision, recall, np.where(np.isnan(f1), np.float32(0), f1)), axis=-1)
