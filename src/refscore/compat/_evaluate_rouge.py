"""Hugging Face ``evaluate.load("rouge")`` without the hub: the same ``compute`` keys, defaults and values.

``use_aggregator=True`` (the default) returns, per type, the ``mid`` F of rouge-score's ``BootstrapAggregator``
drawn under ``evaluate``'s seed handling (``seed`` given to ``load`` or taken from NumPy's global state when the
module is created, applied with a temporary ``np.random.seed`` during ``compute``); ``use_aggregator=False``
returns per-prediction F lists.

>>> from refscore.compat import evaluate
>>> rouge = evaluate.load("rouge")
>>> rouge.compute(predictions=["hello there", "general kenobi"], references=["hello there", "general kenobi"])
{'rouge1': np.float64(1.0), 'rouge2': np.float64(1.0), 'rougeL': np.float64(1.0), 'rougeLsum': np.float64(1.0)}
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from refscore.compat._evaluate_base import EvaluateModule
from refscore.compat.rouge_score import rouge_scorer, scoring


class _CallableTokenizer:
    """evaluate's wrapper turning a callable into an object with ``tokenize``."""

    def __init__(self, tokenizer_func: Callable[[str], list[str]]) -> None:
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text: str) -> list[str]:
        return self.tokenizer_func(text)


@contextlib.contextmanager
def _temp_seed(seed: int) -> Iterator[None]:
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)


class Rouge(EvaluateModule):
    """``evaluate.load("rouge")``: ``compute(predictions, references, rouge_types=None, use_aggregator=True,
    use_stemmer=False, tokenizer=None)``; ``add``/``add_batch`` queue examples (:class:`EvaluateModule`)."""

    name = "rouge"

    def __init__(self, *args: Any, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if seed is None:
            _, keys, pos, *_ = np.random.get_state()  # the legacy tuple: ("MT19937", keys, pos, ...)
            seed = int(keys[pos] if pos < 624 else keys[0])  # type: ignore[index, operator]  # see above
        self.seed = seed

    def _compute(self, predictions: Sequence[str], references: Sequence[Any], rouge_types: Sequence[str] | None = None,
                use_aggregator: bool = True, use_stemmer: bool = False,
                tokenizer: Callable[[str], list[str]] | None = None) -> dict[str, Any]:
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        multi_ref = isinstance(references[0], list)
        wrapped = _CallableTokenizer(tokenizer) if tokenizer is not None else None
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=wrapped)
        targets = [list(r) for r in references] if multi_ref else [r for r in references]
        if not len(predictions):
            return {}
        # by columns: the values evaluate's loop over rouge-score's per-example Score tuples gives
        columns = scorer.score_columns(targets, list(predictions))
        if not use_aggregator:
            return {key: column.fmeasure.tolist() for key, column in columns.items()}
        with _temp_seed(self.seed):
            aggregator = scoring.BootstrapAggregator()
            aggregator.add_score_columns(columns)
            result = aggregator.aggregate()
        return {key: value.mid.fmeasure for key, value in result.items()}
