"""BERTScore token-similarity heatmaps for the segment browser (when BERTScore is one of the report's metrics).

Each heatmap is the cosine similarity of every hypothesis token with every token of the segment's first reference,
from ``BERTScorer.similarity_matrix`` (what bert-score's ``plot_example`` draws). Encoding each pair again costs
model time, so heatmaps are made for a capped number of segments: those listed under Differences first, then the
first embedded segments.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from refscore.reporting.data import ReportData

#: Segments that get heatmaps (each system's hypothesis against the first reference).
MAX_HEATMAP_SEGMENTS = 12
#: Tokens kept per side of one heatmap (longer texts are cut).
MAX_TOKENS = 80


def similarity_source(data: ReportData) -> Any:
    """The token similarities of the first report metric that has them (BERTScore's loaded scorer:
    :meth:`~refscore.protocol.Metric.token_similarities`), or None when no such metric was run."""
    for metric in data.metrics:
        source = metric.token_similarities()
        if callable(getattr(source, "similarity_matrix", None)):
            return source
    return None


def choose_segments(priority: list[int], shown: list[int], limit: int = MAX_HEATMAP_SEGMENTS) -> list[int]:
    """``priority`` segments first, then the other shown ones, at most ``limit``, all among ``shown``.

    >>> choose_segments([5, 2, 5], [0, 1, 2, 5, 7], limit=3)
    [5, 2, 0]
    """
    available = set(shown)
    ordered = [i for i in dict.fromkeys(priority) if i in available]
    ordered += [i for i in shown if i not in set(ordered)]
    return ordered[:limit]


def heatmaps(data: ReportData, segments: list[int]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{segment: {system: {"hyp": tokens, "ref": tokens, "sim": row-major similarities ×100 (ints)}}}``."""
    scorer = similarity_source(data)
    if scorer is None:
        return {}
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for segment in segments:
        reference = data.references[segment][0]
        per_system = {}
        for system in data.systems:
            sim, hyp_tokens, ref_tokens = scorer.similarity_matrix(data.hypotheses[system][segment], reference)
            sim = np.asarray(sim, dtype=np.float64)[:MAX_TOKENS, :MAX_TOKENS]
            per_system[system] = {"hyp": list(hyp_tokens[:MAX_TOKENS]), "ref": list(ref_tokens[:MAX_TOKENS]),
                                  "sim": np.rint(100 * np.nan_to_num(sim)).astype(int).ravel().tolist()}
        out[str(segment)] = per_system
    return out
