"""The memory of BERTScore's greedy matching, checked against the memory budget (:mod:`refscore._memory`,
``REFSCORE_MEMORY_BUDGET``) before any sentence is embedded.

Matching a (candidate, reference) pair holds its ``layers x candidate tokens x reference tokens`` similarity matrix
in float64, a masked copy and a boolean mask (17 bytes a cell), plus both sides' padded float64 embeddings
(``layers x tokens x hidden size``, 8 bytes each, and a copy). Pairs are batched within
:data:`~refscore.metrics.bertscore.engine.MATCH_BUDGET`, but a pair larger than that is matched on its own, so the
largest pair (times the workers matching at once) is what must fit. Sentences are truncated to the model's
maximum input length (512 tokens for BERT-family models, as bert-score truncates), which bounds a pair at
``17 * layers * 512 * 512`` bytes (4.5 MiB a layer); models with longer inputs are where the check matters.

>>> int(similarity_bytes(np.array([512]), np.array([512]), layers=1, hidden=768)[0]) // 1024
16640
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from refscore._memory import check_segments_within_budget


def similarity_bytes(hyp_tokens: np.ndarray, ref_tokens: np.ndarray, *, layers: int, hidden: int) -> np.ndarray:
    """About the bytes matching one pair of ``hyp_tokens`` and ``ref_tokens`` tokens (special tokens included)
    holds at once."""
    hyp = np.asarray(hyp_tokens, dtype=np.float64)
    ref = np.asarray(ref_tokens, dtype=np.float64)
    return layers * (17 * hyp * ref + 16 * hidden * (hyp + ref))


def check_similarity_memory(hyp_tokens: list[int], ref_tokens: list[int], ref_offsets: np.ndarray, *, layers: int,
                            hidden: int, workers: int, hyp_label: Callable[[int], str],
                            ref_label: Callable[[int], str]) -> None:
    """Refuse a call whose largest pairs' similarity matrices (:func:`similarity_bytes`; ``workers`` pairs at once)
    exceed the memory budget, naming the pair, before the model runs. ``hyp_tokens[i]``: candidate ``i``'s token
    count; ``ref_tokens[j]``: flattened reference ``j``'s; candidate ``i``'s references are
    ``ref_offsets[i]:ref_offsets[i + 1]``."""
    owner = np.repeat(np.arange(len(hyp_tokens)), np.diff(ref_offsets))
    hyp = np.asarray(hyp_tokens, dtype=np.int64)[owner]
    ref = np.asarray(ref_tokens, dtype=np.int64)
    needs = similarity_bytes(hyp, ref, layers=layers, hidden=hidden)

    def what(k: int) -> str:
        return (f"BERTScore's similarity matrix of {hyp_label(int(owner[k]))} against {ref_label(k)} "
                f"({layers} layer(s) x {hyp[k]:,} x {ref[k]:,} tokens)")

    check_segments_within_budget(needs, what, concurrent=workers,
                                 hint="or shorten the texts (or use a model with a shorter maximum input length, "
                                      "which truncates them)")
