"""The per-call fast path of rouge-score's ``RougeScorer.score`` (:mod:`refscore.compat.rouge_score`): one
(prediction, target) pair of plain ``str`` per call, scored by the compiled single-pair entry point
(``_rouge.PairScorer``: the batch kernel's segment scorer on the calling thread, one reused worker) with the batch
path's numbers bit for bit (tests/test_compat_rouge_score_fast_path.py), without a batch, a statistics table or a
result object.

>>> pair = RougePair(("rouge1", "rougeL"), stemmer=False)
>>> pair.scores("the cat sat", "the cat sat down")
[(1.0, 0.75, 0.8571428571428571), (1.0, 0.75, 0.8571428571428571)]
"""
from __future__ import annotations

import numpy as np

from refscore._core._rouge import PairScorer
from refscore._memory import memory_budget
from refscore.metrics.rouge.memory import lsum_table_bytes
from refscore.metrics.rouge.types import rouge_type_code

__all__ = ["RougePair"]

#: Texts up to this many characters take the fast path with ROUGE-Lsum: the batch path's memory check of such a
#: pair (its largest Lsum table, for a line of ``(characters + 1) // 2`` tokens) is decided once per budget.
LSUM_FAST_CHARS = 4096


class RougePair:
    """rouge-score's ``(precision, recall, fmeasure)`` per type (rouge-score's names; each computed once) of one
    (prediction, target) pair per call, tokenized with rouge-score's tokenizer (``stemmer``: NLTK's Porter)."""

    __slots__ = ("_budget", "_lsum", "_lsum_bytes", "_scorer")

    def __init__(self, types: tuple[str, ...], *, stemmer: bool) -> None:
        self._scorer = PairScorer(np.array([rouge_type_code(t) for t in types], dtype=np.int64), stemmer)
        self._lsum = "rougeLsum" in types
        tokens = np.arange((LSUM_FAST_CHARS + 1) // 2 + 1, dtype=np.float64)
        self._lsum_bytes = float(lsum_table_bytes(tokens, tokens).max()) if self._lsum else 0.0
        self._budget: tuple[int, bool] = (-1, False)

    def _lsum_fits(self, prediction: str, target: str) -> bool:
        """Whether the batch path's ROUGE-Lsum memory check passes for this pair without looking at its lines."""
        if len(prediction) > LSUM_FAST_CHARS or len(target) > LSUM_FAST_CHARS:
            return False
        budget = memory_budget()   # read each call: $REFSCORE_MEMORY_BUDGET may change
        if self._budget[0] != budget:
            self._budget = (budget, self._lsum_bytes <= budget)
        return self._budget[1]

    def scores(self, prediction: object, target: object) -> list[tuple[float, float, float]] | None:
        """The scores per type, in the order given; None unless both texts are plain ``str`` (and, with
        ROUGE-Lsum, short enough for the memory check to pass unseen): the batch path's job."""
        if self._lsum and not (type(prediction) is str and type(target) is str
                               and self._lsum_fits(prediction, target)):
            return None
        return self._scorer.scores(prediction, target)
