"""The one memory budget: how much working memory a run whose memory grows with a *product* of input sizes (an
items x candidates x references matrix, all pairs of a corpus) may take before it streams or stops.

One setting, read in this order: the ``memory_budget=`` argument of the function that runs the work (pairwise
scoring), the environment variable ``REFSCORE_MEMORY_BUDGET``, then :data:`DEFAULT_MEMORY_BUDGET` (2 GiB).
Metrics whose kernels hold a table per segment that grows with a product of its sizes (TER's banded edit-distance
matrix, ROUGE-S skip-bigrams, ROUGE-Lsum's match masks, BERTScore's similarity matrices) check their largest
segments against the budget from the environment variable (:func:`check_segments_within_budget`). Sizes are bytes,
or a number with a unit (``"512MB"``, ``"1.5GiB"``, ``"800k"``; k/M/G/T are powers of 1024, as memory is
counted). Work beyond the budget streams in parts that fit, or, when one indivisible part does not fit, stops
with :class:`~refscore.errors.MemoryBudgetError` naming the budget and how to raise it, before allocating:
never an out-of-memory kill.

>>> memory_budget("64MiB")
67108864
>>> format_bytes(3 * 1024 ** 3)
'3.0 GiB'
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from refscore.errors import InputError, MemoryBudgetError

#: The environment variable that sets the budget when no ``memory_budget=`` argument is given.
ENV_VAR = "REFSCORE_MEMORY_BUDGET"
#: The budget when neither the argument nor the environment variable sets one: 2 GiB.
DEFAULT_MEMORY_BUDGET = 2 * 1024 ** 3

_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_size(value: Any, source: str) -> int:
    """Bytes from an int or a size text (``"2GiB"``); ``source`` names the argument or variable in errors.

    >>> parse_size("1.5k", "memory_budget")
    1536
    """
    if isinstance(value, bool):
        raise InputError(f"{source} must be a size in bytes or a text such as '4GiB', got {value!r}")
    if isinstance(value, int):
        number = value
    else:
        match = _SIZE.match(value) if isinstance(value, str) else None
        if match is None:
            raise InputError(f"{source} must be a size in bytes or a text such as '4GiB', '512MB', got {value!r}")
        number = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if number <= 0:
        raise InputError(f"{source} must be a positive size, got {value!r}")
    return number


def memory_budget(value: int | str | None = None) -> int:
    """The budget in bytes: ``value`` when given, else ``$REFSCORE_MEMORY_BUDGET``, else the default."""
    if value is not None:
        return parse_size(value, "memory_budget")
    text = os.environ.get(ENV_VAR, "").strip()
    return parse_size(text, f"the environment variable {ENV_VAR}") if text else DEFAULT_MEMORY_BUDGET


def format_bytes(size: float) -> str:
    """``size`` bytes in the largest binary unit that keeps it >= 1 (``'1.5 MiB'``)."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"


#: How a pairwise run's budget is raised (its functions take ``memory_budget=``).
PAIRWISE_SETTING = "memory_budget=... (command line: --memory-budget) or the environment variable"
#: How a metric's budget is raised (metrics read the environment variable only).
METRIC_SETTING = "the environment variable"


def check_within_budget(needed: int, budget: int, what: str, *, hint: str = "",
                        setting: str = PAIRWISE_SETTING) -> None:
    """Raise :class:`MemoryBudgetError` when ``what`` needs more than ``budget`` bytes (checked before allocating).

    >>> check_within_budget(10, 100, "a matrix")
    """
    if needed > budget:
        more = f"; {hint}" if hint else ""
        raise MemoryBudgetError(
            f"{what} needs about {format_bytes(needed)}, more than the memory budget of {format_bytes(budget)}; "
            f"raise it with {setting} "
            f"{ENV_VAR} (e.g. {ENV_VAR}={format_bytes(2 * needed).replace(' ', '').replace('.0', '')}){more}")


def check_segments_within_budget(needs: np.ndarray, what: Callable[[int], str], *, concurrent: int = 1,
                                 budget: int | None = None, hint: str = "") -> None:
    """Refuse, before a kernel allocates, work whose per-segment tables do not fit the budget.

    ``needs[i]``: the bytes segment ``i``'s table takes (an estimate from its sizes); ``concurrent``: how many
    segments are worked on at once (threads), each keeping its own table, so the ``concurrent`` largest needs are
    added. ``what(i)`` names segment ``i`` in the error (``"TER of segment 3 (hypotheses[3], 120,000 words)"``).
    ``budget``: bytes (default: :func:`memory_budget` of the environment).

    >>> check_segments_within_budget(np.array([10, 500]), lambda i: f"segment {i}", budget=1000)
    >>> check_segments_within_budget(np.array([10, 500]), lambda i: f"segment {i}", concurrent=2, budget=400)
    Traceback (most recent call last):
    ...
    refscore.errors.MemoryBudgetError: segment 1 needs about 500 B, more than the memory budget of 400 B; raise it with the environment variable REFSCORE_MEMORY_BUDGET (e.g. REFSCORE_MEMORY_BUDGET=1000B); or split the segment
    """
    needs = np.asarray(needs, dtype=np.float64)
    if needs.size == 0:
        return
    budget = memory_budget() if budget is None else budget
    largest = int(np.argmax(needs))
    check_within_budget(int(needs[largest]), budget, what(largest), setting=METRIC_SETTING,
                        hint=hint or "or split the segment")
    together = min(max(int(concurrent), 1), needs.size)
    if together > 1:
        total = float(np.sort(needs)[-together:].sum())
        check_within_budget(int(total), budget, f"{what(largest)} and the {together - 1} next largest segments "
                            f"at once ({together} threads)", setting=METRIC_SETTING,
                            hint="or use fewer threads (num_threads=..., command line: --num-threads)")


def check_table_within_budget(rows: int, columns: int, what: str, *, hint: str) -> None:
    """Refuse, before a kernel allocates it, a statistics table of ``rows x columns`` 8-byte cells over the budget
    of the environment (``what`` names the table, ``hint`` the setting that shrinks it).

    >>> check_table_within_budget(2, 20_002, "BLEU statistics", hint="or lower max_order")
    """
    check_within_budget(8 * int(rows) * int(columns), memory_budget(), what, setting=METRIC_SETTING, hint=hint)
