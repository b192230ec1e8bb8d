"""Hugging Face ``evaluate``'s ``bleu``, ``google_bleu`` and ``sacrebleu`` metrics (``load(name).compute(...)``)
computed by refscore, with the HF scripts' arguments, checks and output dicts.

- ``google_bleu``: the 13a tokenizer (or the ``tokenizer`` callable) then NLTK's ``corpus_gleu``.
- ``bleu``: :class:`refscore.metrics.bleu.BLEU` with ``flavor="evaluate"``: the 13a tokenizer (or ``tokenizer``)
  then tensorflow/nmt's ``compute_bleu`` as HF ships it in ``metrics/bleu/nmt_bleu.py``: clipping by the max count
  over references, the **shortest** reference length, ``smooth=True`` adds one to matches and possible matches of
  **every** order (unigrams too), geometric mean 0 when any precision is 0, and ``length_ratio = brevity_penalty =
  0.0`` when the translation or the shortest reference length is 0 (the original tensorflow/nmt script raised
  ZeroDivisionError there, evaluate#601).
- ``sacrebleu``: sacreBLEU's ``corpus_bleu`` on the transposed references; every prediction needs the same number
  of references.

>>> from refscore.compat import evaluate
>>> bleu = evaluate.load("bleu")
>>> bleu.compute(predictions=["hello there general kenobi", "foo bar foobar"],
...              references=[["hello there general kenobi", "hello there!"], ["foo bar foobar"]])["bleu"]
1.0
>>> round(evaluate.load("google_bleu").compute(predictions=["the cat sat on the mat"],
...                                            references=[["the cat ate the mat"]])["google_bleu"], 4)
0.3333
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from refscore.checks import check_int
from refscore.inputs import per_segment
from refscore.compat._evaluate_base import EvaluateModule, same_count_references
from refscore.compat._sacrebleu_bleu import BLEU as SacreBLEU
from refscore.errors import InputTypeError
from refscore.metrics.word_batch import count_ngrams, ngram_statistics
from refscore.metrics.bleu import BLEU
from refscore.metrics.bleu.flavors import encode_token_lists
from refscore.text.tokenizer_registry import HF_13A
from refscore.protocol import metric_with

Tokenizer = Callable[[str], Any]


def _per_prediction(references: list[Any]) -> list[Any]:
    """HF's references: a string or a list of strings per prediction, as a list of strings per prediction."""
    return per_segment([[ref] if isinstance(ref, str) else ref for ref in references])


def _tokenized(predictions: list[Any], references: list[Any], tokenizer: Tokenizer) -> tuple[list[Any], list[Any]]:
    """HF's ``tokenizer`` called on every string, as HF does: token lists per prediction and per reference."""
    if not callable(tokenizer):
        raise InputTypeError(f"tokenizer must be a callable str -> list of tokens (or None for 13a), got "
                         f"{type(tokenizer).__name__}")
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise InputTypeError(f"predictions[{index}] is {type(prediction).__name__}, expected str")
    tokenized_refs = []
    for index, refs in enumerate(_per_prediction(references)):
        if not isinstance(refs, (list, tuple)) or not all(isinstance(ref, str) for ref in refs):
            raise InputTypeError(f"references[{index}] must be a string or a list of strings")
        tokenized_refs.append([tokenizer(ref) for ref in refs])
    return [tokenizer(p) for p in predictions], tokenized_refs


class GoogleBleu(EvaluateModule):
    """``evaluate.load("google_bleu")``: ``compute(predictions, references, tokenizer=13a, min_len=1, max_len=4)``
    -> ``{"google_bleu": float}``."""

    name = "google_bleu"

    def _compute(self, predictions: list[Any], references: list[Any], tokenizer: Tokenizer | None = None,
                 min_len: int = 1, max_len: int = 4) -> dict[str, float]:
        check_int(min_len, "min_len", minimum=1, owner="google_bleu")
        check_int(max_len, "max_len", minimum=1, owner="google_bleu")
        if max_len < min_len:
            return {"google_bleu": 0.0}   # NLTK: no n-gram order to count
        if tokenizer is None:   # 13a text: tokenized and counted in one compiled pass
            _, rows = ngram_statistics("gleu", predictions, _per_prediction(references), tokenize=HF_13A,
                                       lowercase=False, orders=(int(min_len), int(max_len)))
        else:
            ids, offsets, ref_offsets = encode_token_lists(*_tokenized(predictions, references, tokenizer))
            rows = count_ngrams("gleu", ids, offsets, ref_offsets, orders=(int(min_len), int(max_len)))
        matches, n_all = (int(v) for v in rows.sum(0))
        return {"google_bleu": 0.0 if n_all == 0 else matches / n_all}


class Bleu(EvaluateModule):
    """``evaluate.load("bleu")``: ``compute(predictions, references, tokenizer=13a, max_order=4, smooth=False)``
    -> ``bleu``, ``precisions``, ``brevity_penalty``, ``length_ratio``, ``translation_length``,
    ``reference_length`` (tensorflow/nmt ``compute_bleu``)."""

    name = "bleu"

    def _compute(self, predictions: list[Any], references: list[Any], tokenizer: Tokenizer | None = None,
                 max_order: int = 4, smooth: bool = False) -> dict[str, Any]:
        check_int(max_order, "max_order", minimum=1, owner="bleu")
        metric = metric_with(BLEU, {"flavor": "evaluate", "max_order": int(max_order), "smooth": bool(smooth)})
        if tokenizer is None:   # HF's 13a in the compiled tokenizer
            stats = metric.statistics(predictions, _per_prediction(references))
        else:
            stats = metric.token_list_statistics(*_tokenized(predictions, references, tokenizer))
        result = metric.score_from_statistics(stats)
        values = result.values
        return {"bleu": result.score, "precisions": list(values["precisions"]), "brevity_penalty": values["bp"],
                "length_ratio": values["ratio"], "translation_length": values["sys_len"],
                "reference_length": values["ref_len"]}


class Sacrebleu(EvaluateModule):
    """``evaluate.load("sacrebleu")``: ``compute(predictions, references, smooth_method="exp", smooth_value=None,
    force=False, lowercase=False, tokenize=None, use_effective_order=False)`` -> ``score``, ``counts``,
    ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len`` (0–100 scale, no signature, as in HF)."""

    name = "sacrebleu"

    def _compute(self, predictions: list[Any], references: list[Any], smooth_method: str = "exp",
                 smooth_value: float | None = None, force: bool = False, lowercase: bool = False,
                 tokenize: str | None = None, use_effective_order: bool = False) -> dict[str, Any]:
        per_prediction = same_count_references(references, "Sacrebleu")
        metric = SacreBLEU(smooth_method=smooth_method, smooth_value=smooth_value, force=force, lowercase=lowercase,
                           effective_order=use_effective_order,
                           **({"tokenize": tokenize} if tokenize else {}))  # type: ignore[arg-type]  # a str option
        output = metric._corpus_score_per_segment(predictions, per_prediction)
        return {"score": output.score, "counts": output.counts, "totals": output.totals,
                "precisions": output.precisions, "bp": output.bp, "sys_len": output.sys_len,
                "ref_len": output.ref_len}
