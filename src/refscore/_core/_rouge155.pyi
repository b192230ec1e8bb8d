"""Type stubs of the ROUGE-1.5.5 kernels (``_rouge155.pyx``)."""
from typing import Final

import numpy as np
import numpy.typing as npt

KIND_NGRAM: Final[int]
KIND_LCS: Final[int]
KIND_WLCS: Final[int]
KIND_SKIP: Final[int]
RESULT_COLUMNS: Final[tuple[str, ...]]
MAX_SKIP_BIGRAMS: Final[int]

def skip_bigram_count(length: int, max_skip: int, unigrams: bool = False) -> int: ...
def check_skip_bigram_size(offsets: npt.NDArray[np.int64], max_skip: int, unigrams: bool, name: str) -> None: ...

def score_documents(
    flat_tokens: npt.NDArray[np.uint32],
    flat_offsets: npt.NDArray[np.int64],
    unit_tokens: npt.NDArray[np.uint32],
    unit_offsets: npt.NDArray[np.int64],
    text_units: npt.NDArray[np.int64],
    peer_text: npt.NDArray[np.int64],
    model_offsets: npt.NDArray[np.int64],
    model_texts: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int64],
    int_params: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    unigram_flags: npt.NDArray[np.int64],
    best_model: bool = False,
    alpha: float = 0.5,
    num_threads: int | None = None,
) -> npt.NDArray[np.float64]: ...
def lcs_hit_mask(
    model: npt.NDArray[np.uint32], peer: npt.NDArray[np.uint32], weight: float | None = None, block_cells: int = ...
) -> npt.NDArray[np.bool_]: ...
def wlcs_pairs(
    ref_tokens: npt.NDArray[np.uint32],
    ref_offsets: npt.NDArray[np.int64],
    hyp_tokens: npt.NDArray[np.uint32],
    hyp_offsets: npt.NDArray[np.int64],
    weight: float,
    num_threads: int | None = None,
) -> npt.NDArray[np.float64]: ...
def skip_bigram_pairs(
    ref_tokens: npt.NDArray[np.uint32],
    ref_offsets: npt.NDArray[np.int64],
    hyp_tokens: npt.NDArray[np.uint32],
    hyp_offsets: npt.NDArray[np.int64],
    max_skip: int = -1,
    unigrams: bool = False,
    last_unigram: bool = False,
    num_threads: int | None = None,
) -> npt.NDArray[np.int64]: ...
def perl_bootstrap_means(
    values: npt.NDArray[np.float64], resamples: int, num_threads: int | None = None
) -> npt.NDArray[np.float64]: ...
