"""Hugging Face ``evaluate``'s ``ter`` metric (``load("ter").compute(...)``) computed by refscore.

The HF script transposes per-prediction references into sacreBLEU streams, requires the same number of references
for every prediction, and returns sacreBLEU's ``score`` (0–100), ``num_edits`` and ``ref_length``.

>>> from refscore.compat import evaluate
>>> evaluate.load("ter").compute(predictions=["does this sentence match??", "what about this sentence?"],
...     references=[["does this sentence match", "does this sentence match!?!"],
...                 ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"]], case_sensitive=True)
{'score': 62.5, 'num_edits': 5, 'ref_length': 8.0}
"""
from __future__ import annotations

from typing import Any

from refscore.inputs import per_segment
from refscore.compat._evaluate_base import EvaluateModule, same_count_references
from refscore.metrics.advice import as_peer
from refscore.metrics.ter import TER


class Ter(EvaluateModule):
    """``evaluate.load("ter")``: ``compute(predictions, references, normalized, ignore_punct,
    support_zh_ja_chars, case_sensitive)``."""

    name = "ter"

    def _compute(self, predictions: list[Any], references: list[Any], normalized: bool = False,
                 ignore_punct: bool = False, support_zh_ja_chars: bool = False,
                 case_sensitive: bool = False) -> dict[str, Any]:
        per_prediction = same_count_references(references, "ter: Sacrebleu")
        metric = TER(normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
                     case_sensitive=case_sensitive)
        with as_peer():   # HF's script (sacreBLEU's TER) raises no tokenized-input warning
            result = metric.corpus_score(list(predictions), per_segment([list(refs) for refs in per_prediction]))
        return {"score": 100 * result.score, "num_edits": result.values["num_edits"],
                "ref_length": result.values["ref_length"]}
