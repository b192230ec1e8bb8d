import numpy as np

MAX_ITEM_UNITS: int

def pairwise_matches(
    streams: list[tuple[np.ndarray, np.ndarray, int]],
    n_texts: int,
    cand_texts: np.ndarray,
    cand_offsets: np.ndarray,
    ref_texts: np.ndarray | None,
    ref_offsets: np.ndarray | None,
    symmetric: bool,
    num_threads: int | None = ...,
) -> tuple[np.ndarray, np.ndarray]: ...
