import numpy as np

from collections.abc import Sequence
from typing import Any

SMOOTHING_CODES: dict[str, int]
PYTHON_SUM_COMPENSATED: bool

def bleu_score_one(correct: Sequence[float], total: Sequence[float], sys_len: float, ref_len: float,
                   smooth_method: str, smooth_value: float, effective_order: bool, python_sum: bool | None = None
                   ) -> tuple[float, list[float], float]: ...

def bleu_scores(correct: np.ndarray, total: np.ndarray, sys_len: np.ndarray, ref_len: np.ndarray,
                smooth_method: str, smooth_value: float, effective_order: bool, python_sum: bool | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def nltk_sentence_score(row: list[int], weights: Sequence[float], method: int, epsilon: object,
                        auto_reweigh: bool, default_weights: tuple[float, ...]) -> float | int | None: ...
def sacrebleu_sentence(row: list[int], max_order: int, smooth_method: str, smooth_value: float,
                       effective_order: bool) -> tuple[float, dict[str, Any]]: ...
