import numpy as np
from typing_extensions import disjoint_base

SPACE_KEEP: int
SPACE_PYTHON: int
SPACE_REGEX: int

def chrf_statistics(
    hypotheses: list[str],
    references: list[str],
    ref_offsets: np.ndarray,
    char_order: int,
    word_order: int,
    factor: float,
    eps_smoothing: bool,
    space_mode: int,
    num_threads: int | None = ...,
    *,
    lowercase: bool = ...,
) -> np.ndarray: ...
def chrf_f_scores(totals: np.ndarray, order: int, factor: float, eps_smoothing: bool) -> np.ndarray: ...

@disjoint_base  # a cdef class: it cannot share a subclass with another C-layout base
class PairScorer:
    def __init__(self, char_order: int, word_order: int, factor: float, eps_smoothing: bool, space_mode: int,
                 lowercase: bool = ...) -> None: ...
    def score(self, hypothesis: object, references: object) -> float | None: ...
