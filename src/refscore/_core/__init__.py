"""The compiled core of refscore: tokenizers emitting integer ids, n-gram statistics, LCS, edit distance.

Every kernel takes contiguous buffers prepared once in Python and runs one ``with nogil:`` call per batch.
"""
from refscore._core._parallel import openmp_enabled, resolve_num_threads

__all__ = ["openmp_enabled", "resolve_num_threads"]
