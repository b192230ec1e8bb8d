import numpy as np
import numpy.typing as npt

MAX_TABLE_SLOTS: int

def bleu_statistics(ids: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int64],
                    ref_offsets: npt.NDArray[np.int64], max_order: int,
                    num_threads: int | None = ...) -> npt.NDArray[np.int64]: ...
def gleu_statistics(ids: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int64],
                    ref_offsets: npt.NDArray[np.int64], min_len: int, max_len: int,
                    num_threads: int | None = ...) -> npt.NDArray[np.int64]: ...
def bleu_text_statistics(hypotheses: list[str], references: list[str], ref_offsets: npt.NDArray[np.int64],
                         tokenizer: str, lowercase: bool, max_order: int,
                         num_threads: int | None = ..., shortest_ref: bool = ...) -> npt.NDArray[np.int64]: ...
def gleu_text_statistics(hypotheses: list[str], references: list[str], ref_offsets: npt.NDArray[np.int64],
                         tokenizer: str, lowercase: bool, min_len: int, max_len: int,
                         num_threads: int | None = ...) -> npt.NDArray[np.int64]: ...
