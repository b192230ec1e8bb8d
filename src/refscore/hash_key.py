"""The ``REFSCORE_HASH_KEY`` check, read before any compiled module loads (each reads the key once, when it is
loaded: _core/_hash_table.hpp). It imports nothing heavy, so ``import refscore`` can run it and stay cheap.

>>> hash_key_problem() is None or hash_key_problem().startswith("the environment variable REFSCORE_HASH_KEY=")
True
"""
from __future__ import annotations

import os
import sys

__all__ = ["hash_key_problem", "refuse_a_bad_hash_key"]


def hash_key_problem() -> str | None:
    """Why ``REFSCORE_HASH_KEY`` cannot be read by the compiled modules (they would draw a random key instead), or
    None when it is unset or a decimal integer in [0, 2**64).

    >>> problem = hash_key_problem()
    >>> problem is None or problem.startswith("the environment variable REFSCORE_HASH_KEY=")
    True
    """
    text = os.environ.get("REFSCORE_HASH_KEY")
    if text is None or (text.isascii() and text.isdigit() and int(text) < 2**64):
        return None
    shown = repr(text) if len(text) <= 40 else repr(text[:37]) + "..."
    return (f"the environment variable REFSCORE_HASH_KEY={shown} is not a decimal integer in [0, 2**64): set it to a "
            "fixed hash key (0: unkeyed, for tests) or unset it for a random per-process key")


def _run_as_command_line() -> bool:
    """Whether this process is the ``refscore`` command (its script or ``python -m refscore.cli``)."""
    argv = getattr(sys, "orig_argv", sys.argv)
    return os.path.basename(sys.argv[0] or "") == "refscore" or "refscore.cli" in argv


def refuse_a_bad_hash_key() -> None:
    """Raise ValueError for a bad key in a program; the command line refuses it itself with one line and exit 7
    before any work (refscore.cli.main).

    >>> refuse_a_bad_hash_key()   # the key is unset or valid here
    """
    problem = hash_key_problem()
    if problem is not None and not _run_as_command_line():
        raise ValueError(problem)
