"""The compiled core of refscore: tokenizers emitting integer ids, n-gram statistics, LCS, edit distance.

Every kernel takes contiguous buffers prepared once in Python and runs one ``with nogil:`` call per batch.
"""
import os as _os


def _check_hash_key() -> None:
    """Refuse a REFSCORE_HASH_KEY the compiled modules could not read (they would draw a random key instead)."""
    text = _os.environ.get("REFSCORE_HASH_KEY")
    if text is not None and not (text.isascii() and text.isdigit() and int(text) < 2**64):
        raise ValueError(f"REFSCORE_HASH_KEY={text!r} is not a decimal integer in [0, 2**64): set it to a fixed "
                         "hash key (0: unkeyed, for tests) or unset it for a random per-process key")


# before any compiled module loads: each reads the key once, when it is loaded (_hash_table.hpp)
_check_hash_key()

from refscore._core._parallel import openmp_enabled, resolve_num_threads  # noqa: E402

__all__ = ["openmp_enabled", "resolve_num_threads"]
