import numpy as np

SMOOTHING_CODES: dict[str, int]

def bleu_scores(correct: np.ndarray, total: np.ndarray, sys_len: np.ndarray, ref_len: np.ndarray,
                smooth_method: str, smooth_value: float, effective_order: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
