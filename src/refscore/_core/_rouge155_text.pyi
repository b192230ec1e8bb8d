"""Type stubs of ROUGE-1.5.5's text reading (``_rouge155_text.pyx``)."""
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

class LoneSurrogate(ValueError):
    text_index: int
    position: int
    def __init__(self, text_index: int, position: int) -> None: ...

@disjoint_base  # a cdef class: it cannot share a subclass with another C-layout base
class ScriptText:
    def __init__(self, stopwords: Iterable[bytes], exceptions: dict[bytes, bytes]) -> None: ...
    def tokenize(
        self, texts: list[str], split_lines: bool, stemming: bool, remove_stopwords: bool
    ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
    def tokenize_bytes(
        self, chunks: list[bytes], split_lines: bool, stemming: bool, remove_stopwords: bool
    ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

def porter_stem_words(words: list[bytes]) -> list[bytes]: ...
