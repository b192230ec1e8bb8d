"""The compiled core of refscore: tokenizers emitting integer ids, n-gram statistics, LCS, edit distance.

Every kernel takes contiguous buffers prepared once in Python and runs one ``with nogil:`` call per batch.
"""
import os as _os
import sys as _sys

from refscore.checks import hash_key_problem as _hash_key_problem


def _run_as_command_line() -> bool:
    """Whether this process is the ``refscore`` command (its script or ``python -m refscore.cli``)."""
    argv = getattr(_sys, "orig_argv", _sys.argv)
    return _os.path.basename(_sys.argv[0] or "") == "refscore" or "refscore.cli" in argv


# before any compiled module loads: each reads the key once, when it is loaded (_hash_table.hpp). The command
# line refuses a bad key with one line and exit 7 before any work (refscore.cli.main); a program gets the error here.
_PROBLEM = _hash_key_problem()
if _PROBLEM is not None and not _run_as_command_line():
    raise ValueError(_PROBLEM)

from refscore._core._parallel import openmp_enabled, resolve_num_threads  # noqa: E402

__all__ = ["openmp_enabled", "resolve_num_threads"]
