"""unbabel-comet 2.2.7's unified family (``unified_metric``: ``wmt22-cometkiwi-da`` and kin) on joint inputs.

As ``UnifiedMetric.prepare_sample`` / ``concat_inputs`` / ``Encoder.concat_sequences`` / ``predict_step``: each
text is tokenized on its own (truncated at ``max_positions - 2`` tokens), the hypothesis is joined with the source
and/or reference as XLM-R's pairs are (``<s> mt </s></s> src </s>``, then ``</s></s> ref </s>``), a joint sequence
longer than the encoder allows is cut at ``max_positions`` tokens; the estimator reads the mixed state of the first
token. With both a source and a reference in the model's ``input_segments`` the score is the mean of the three
joint inputs' scores (mt+src, mt+ref, mt+src+ref); otherwise the one joint input's score. Each distinct text is
tokenized once and each distinct joint sequence encoded once per metric.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["input_segments", "joint_sequence", "unified_scores"]


def input_segments(model: Any) -> tuple[str, ...]:
    """The model's ``input_segments`` (unbabel-comet's default: mt, src, ref)."""
    return tuple(model.hparams.get("input_segments", ["mt", "src", "ref"]))


def joint_sequence(parts: Sequence[Sequence[int]], cls_id: int, sep_id: int, max_positions: int) -> tuple[int, ...]:
    """``Encoder.concat_sequences`` for one row: ``parts`` are each text's ids with their special tokens.

    >>> joint_sequence([[0, 5, 6, 2], [0, 7, 2]], 0, 2, 512)
    (0, 5, 6, 2, 2, 7, 2)
    """
    lengths = sum(len(part) - 2 for part in parts)
    sequence = list(parts[0])
    for part in parts[1:]:   # XLM-R's build_inputs_with_special_tokens(a, b): <s> a </s></s> b </s>
        sequence = [cls_id, *sequence[1:-1], sep_id, sep_id, *part[1:-1], sep_id]
    if lengths > max_positions - (1 + len(parts) * 2):   # XLM-R's separator is two tokens
        sequence = sequence[:max_positions]
    return tuple(sequence)


def unified_scores(model: Any, hyps: list[str], sources: Sequence[str] | None, refs: Sequence[str] | None,
                   num_threads: int | None) -> np.ndarray:
    """Per-segment scores of a unified checkpoint (float32 computed, float64 returned)."""
    segments = input_segments(model)
    use_src, use_ref = "src" in segments and sources is not None, "ref" in segments and refs is not None
    texts = list(dict.fromkeys([*hyps, *(sources if use_src and sources else []), *(refs if use_ref and refs else [])]))
    ids = dict(zip(texts, model.tokenize(texts))) if texts else {}
    combos: list[list[Sequence[str]]] = []
    if use_src and use_ref:
        assert sources is not None and refs is not None
        combos = [[hyps, sources], [hyps, refs], [hyps, sources, refs]]
    elif use_src:
        assert sources is not None
        combos = [[hyps, sources]]
    else:
        assert refs is not None
        combos = [[hyps, refs]]
    scores = []
    for combo in combos:
        sequences = [joint_sequence([ids[column[row]] for column in combo], model.cls_id, model.sep_id,
                                    model.max_positions) for row in range(len(hyps))]
        vectors = model.joint_vectors(sequences, num_threads)
        with model.torch.inference_mode():
            scores.append(model.estimator(vectors.to(model.device)).view(-1).float())
    # predict_step: torch.stack(...).mean(dim=0) of the float32 scores
    return model.torch.stack(scores, dim=0).mean(dim=0).cpu().numpy().astype(np.float64)
