"""Hugging Face ``evaluate``'s ``bertscore`` metric: ``compute(predictions=..., references=..., ...)`` ->
``{"precision": [...], "recall": [...], "f1": [...], "hashcode": str}``, with bert-score's values.

The loaded metric keeps the scorer it builds, as HF's script keeps its ``cached_bertscorer``: a later ``compute``
reuses it while bert-score's hash of the call's settings (model, layer, IDF on/off, rescaling, custom baseline,
fast tokenizer) is the scorer's own, and builds a new one only when that hash differs. The reused scorer keeps
everything it was built with, in particular the IDF weights of the references of the call that built it (HF's
behaviour, reproduced on purpose: the drop-in's contract is the peer's output). refscore's own API computes IDF
from each call's references (``refscore.bertscore(..., idf=True)``).
"""
from __future__ import annotations

from typing import Any

from refscore.metrics.bertscore.config import BERTScoreConfig, bert_score_hash
from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.models import resolve_model_type
from refscore.metrics.bertscore.scorer import BERTScorer
from refscore.metrics.bertscore.tables import MODEL_LAYERS
from refscore.inputs import per_segment, prepare_batch
from refscore.compat._evaluate_base import EvaluateModule
from refscore.compat.bert_score.score import peer_config
from refscore.errors import InputError


def settings_hash(config: BERTScoreConfig) -> str | None:
    """bert-score's hash of ``config`` as HF's script computes it before deciding to reuse its scorer (the layer
    defaults to bert-score's table); None when the layer is unknown (building the scorer then says so)."""
    model_type = resolve_model_type(config.model_type, config.lang)
    num_layers = config.num_layers if config.num_layers is not None else MODEL_LAYERS.get(model_type)
    if num_layers is None:
        return None
    _, transformers = torch_and_transformers()
    return bert_score_hash(config, num_layers, transformers.__version__, model_type)


class BERTScore(EvaluateModule):
    """``refscore.compat.evaluate.load("bertscore")``: ``add``/``add_batch`` queue examples, ``compute`` scores them
    with the scorer cached as HF's script caches it (see the module docstring).

    >>> from refscore.compat import evaluate
    >>> bertscore = evaluate.load("bertscore")
    >>> bertscore.add_batch(predictions=["the cat sat"], references=[["a cat sat"]])
    >>> bertscore.compute(model_type="roberta-large")["f1"]  # doctest: +SKIP
    """

    name = "bertscore"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: HF's ``cached_bertscorer``: the scorer of the first call, replaced when the settings' hash changes.
        self.cached_bertscorer: BERTScorer | None = None

    def _compute(self, predictions: list[Any], references: list[Any], *, lang: str | None = None,
                 model_type: str | None = None, num_layers: int | None = None, verbose: bool = False,
                 idf: bool = False, device: Any = None, batch_size: int = 64, nthreads: int = 4,
                 all_layers: bool = False, rescale_with_baseline: bool = False, baseline_path: str | None = None,
                 use_fast_tokenizer: bool = False) -> dict[str, Any]:
        if model_type is None and lang is None:
            raise InputError("Either 'lang' (e.g. 'en') or 'model_type' (e.g. 'microsoft/deberta-xlarge-mnli') "
                             "must be specified")
        references = per_segment(references)
        batch = prepare_batch(predictions, references, hyp_name="predictions", ref_name="references")
        # HF: IDF (any true idf, a dict too) from all references of the call that builds the scorer
        config = peer_config(model_type=model_type, num_layers=num_layers, all_layers=all_layers, idf=bool(idf),
                             idf_sents=batch.references if idf else None, device=device, lang=lang,
                             rescale_with_baseline=rescale_with_baseline, baseline_path=baseline_path,
                             use_fast_tokenizer=use_fast_tokenizer, verbose=verbose)
        hashcode = settings_hash(config)
        scorer = self.cached_bertscorer
        if scorer is None or hashcode is None or scorer.hash != hashcode:
            scorer = self.cached_bertscorer = BERTScorer(config=config)
        result = scorer.score_pairs(predictions, references, hyp_name="predictions", ref_name="references")
        return {"precision": result.precision.tolist(), "recall": result.recall.tolist(), "f1": result.f1.tolist(),
                "hashcode": scorer.hash}
