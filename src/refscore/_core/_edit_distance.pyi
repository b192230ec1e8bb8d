import numpy as np
import numpy.typing as npt

LEVENSHTEIN: int
INDEL: int

def char_symbols(texts: list[str]) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64], int]: ...
def dense_symbols(symbols: npt.NDArray[np.uint32]) -> int: ...
def pair_distances(symbols: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int64], left: npt.NDArray[np.int64],
                   right: npt.NDArray[np.int64], kind: int, alphabet: int,
                   num_threads: int | None = ...) -> npt.NDArray[np.int64]: ...
def similarity_matrix(symbols: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int64],
                      rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64], kind: int, alphabet: int,
                      num_threads: int | None = ...) -> npt.NDArray[np.float64]: ...
def eed_pairs(symbols: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int64], hyps: npt.NDArray[np.int64],
              refs: npt.NDArray[np.int64], alpha: float, rho: float, deletion: float, insertion: float,
              num_threads: int | None = ...) -> npt.NDArray[np.float64]: ...
