"""BERTScore's explanation of one case's score (its :meth:`~refscore.metrics.bertscore.BERTScore.explain_case`):
the least-matched tokens of the reference and of the output, by their best cosine similarity.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from refscore.metrics._explaining import best_reference
from refscore.protocol import Metric

__all__ = ["explain_bertscore"]


def explain_bertscore(metric: Metric, output: str, references: Sequence[str]) -> str:
    reference = references[best_reference(metric, output, references)]
    similarity, output_tokens, reference_tokens = metric.token_similarities().similarity_matrix(output, reference)
    parts = []
    for side, tokens, best in (("reference", reference_tokens, similarity.max(axis=0, initial=-1.0)),
                               ("output", output_tokens, similarity.max(axis=1, initial=-1.0))):
        if len(tokens):
            order = np.argsort(best, kind="stable")[:3]
            listed = ", ".join(f"'{tokens[k].strip()}' {best[k]:.2f}" for k in order)
            parts.append(f"least-matched {side} tokens: {listed}")
    return "; ".join(parts)
