"""The compiled core of refscore: tokenizers emitting integer ids, n-gram statistics, LCS, edit distance.

Every kernel takes contiguous buffers prepared once in Python and runs one ``with nogil:`` call per batch.
"""
from refscore.hash_key import refuse_a_bad_hash_key as _refuse_a_bad_hash_key

# before any compiled module loads (refscore.hash_key); `import refscore` runs the same check
_refuse_a_bad_hash_key()

from refscore._core._parallel import openmp_enabled, resolve_num_threads  # noqa: E402

__all__ = ["openmp_enabled", "resolve_num_threads"]
