"""Hugging Face ``evaluate``'s ``bertscore`` metric: ``compute(predictions=..., references=..., ...)`` ->
``{"precision": [...], "recall": [...], "f1": [...], "hashcode": str}``, with bert-score's values.

Unlike the HF script, IDF weights are recomputed from each call's references: HF caches its ``BERTScorer`` by hash
and the hash does not cover the IDF corpus, so later calls with ``idf=True`` reuse the first call's IDF weights.
The loaded model is still cached between calls with the same model settings.
"""
from __future__ import annotations

from typing import Any

from refscore._bertscore.models import resolve_model_type
from refscore._bertscore.scorer import BERTScorer
from refscore.compat.bert_score.score import peer_config
from refscore._inputs import per_segment
from refscore.compat._evaluate_base import EvaluateModule
from refscore.errors import InputError


class BERTScore(EvaluateModule):
    """``refscore.compat.evaluate.load("bertscore")``: ``add``/``add_batch`` queue examples, ``compute`` scores them.

    >>> from refscore.compat import evaluate
    >>> bertscore = evaluate.load("bertscore")
    >>> bertscore.add_batch(predictions=["the cat sat"], references=[["a cat sat"]])
    >>> bertscore.compute(model_type="roberta-large")["f1"]  # doctest: +SKIP
    """

    name = "bertscore"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._scorers: dict[tuple[Any, ...], BERTScorer] = {}

    def _compute(self, predictions: list[Any], references: list[Any], *, lang: str | None = None,
                 model_type: str | None = None, num_layers: int | None = None, verbose: bool = False,
                 idf: bool = False, device: Any = None, batch_size: int = 64, nthreads: int = 4,
                 all_layers: bool = False, rescale_with_baseline: bool = False, baseline_path: str | None = None,
                 use_fast_tokenizer: bool = False) -> dict[str, Any]:
        if model_type is None and lang is None:
            raise InputError("Either 'lang' (e.g. 'en') or 'model_type' (e.g. 'microsoft/deberta-xlarge-mnli') "
                             "must be specified")
        config = peer_config(model_type=model_type, num_layers=num_layers, all_layers=all_layers, idf=bool(idf),
                             device=device, lang=lang, rescale_with_baseline=rescale_with_baseline,
                             baseline_path=baseline_path, use_fast_tokenizer=use_fast_tokenizer, verbose=verbose)
        model_type = resolve_model_type(model_type, lang)
        key = (model_type, num_layers, bool(idf), device, all_layers, lang, rescale_with_baseline, baseline_path,
               use_fast_tokenizer)
        scorer = self._scorers.get(key)
        if scorer is None:
            self._scorers.clear()  # one model at a time, as the HF script
            scorer = BERTScorer(config=config)
            self._scorers[key] = scorer
        result = scorer.score_pairs(predictions, per_segment(references), hyp_name="predictions", ref_name="references")
        return {"precision": result.precision.tolist(), "recall": result.recall.tolist(), "f1": result.f1.tolist(),
                "hashcode": scorer.hash}
