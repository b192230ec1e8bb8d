"""The one place where scalar arguments are checked: every metric, config, scorer and significance function uses
these, so the same mistake gets the same error class and message everywhere.

A wrong **type** raises :class:`~refscore.errors.InputTypeError` (a ``TypeError``), a wrong **value** of the right
type raises :class:`~refscore.errors.InputError` (a ``ValueError``). Every message names the argument (prefixed
by ``owner``, e.g. ``"CHRFConfig"``, when given), what it must be, and the value received. ``bool`` is never
accepted as a number (``True == 1`` would pass silently otherwise); numpy scalars are.

>>> check_int(3, "max_order", minimum=1)
3
>>> check_int(0, "max_order", minimum=1)
Traceback (most recent call last):
...
refscore.errors.InputError: max_order must be >= 1, got 0
>>> check_num_threads("2")
Traceback (most recent call last):
...
refscore.errors.InputTypeError: num_threads must be an int >= 1 or None (all cores), got '2' (str)
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError

__all__ = [
    "MAX_NGRAM_ORDER", "check_bool", "check_choice", "check_confidence", "check_count", "check_int",
    "check_num_threads", "check_number", "check_optional_int", "check_order", "check_resamples", "check_seed",
]

#: The largest n-gram order (BLEU's ``max_order``, chrF's ``char_order`` and ``word_order``, GLEU's ``max_len``,
#: ROUGE-N's n): far above any order a metric is used with, and small enough that a metric's column names and one
#: segment's statistics row stay small; the whole statistics table is checked against the memory budget
#: (:func:`refscore._memory.check_table_within_budget`) before a kernel allocates it.
MAX_NGRAM_ORDER = 10_000


def _label(name: str, owner: str | None) -> str:
    return f"{owner}: {name}" if owner else name


def _got(value: Any) -> str:
    return f"got {value!r} ({type(value).__name__})"


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_bool(value: Any, name: str, *, owner: str | None = None) -> bool:
    """``value`` as a ``bool``; only ``True``/``False`` (numpy's included) are accepted, not 0/1 or strings."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{_label(name, owner)} must be True or False, {_got(value)}")
    return bool(value)


def _bounds_text(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"in [{minimum}, {maximum}]"
    if minimum is not None:
        return f">= {minimum}"
    return f"<= {maximum}" if maximum is not None else ""


def check_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None,
              owner: str | None = None, hint: str = "") -> int:
    """``value`` as an ``int`` within ``[minimum, maximum]`` (either bound optional); ``hint`` is appended to the
    message (e.g. what 0 means, or the peer's flag)."""
    label = _label(name, owner)
    bounds = _bounds_text(minimum, maximum)
    extra = f" ({hint})" if hint else ""
    kind = "a non-negative int" if minimum == 0 and maximum is None else "an int" + (f" {bounds}" if bounds else "")
    if not _is_int(value):
        raise InputTypeError(f"{label} must be {kind}{extra}, {_got(value)}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise InputError(f"{label} must be {bounds}{extra}, got {value}")
    return int(value)


def check_optional_int(value: Any, name: str, *, minimum: int | None = None, none_means: str,
                       owner: str | None = None) -> int | None:
    """``None`` (meaning ``none_means``) or an int ``>= minimum``."""
    if value is None:
        return None
    label = _label(name, owner)
    if not _is_int(value):
        raise InputTypeError(f"{label} must be an int >= {minimum} or None ({none_means}), {_got(value)}")
    if minimum is not None and value < minimum:
        raise InputError(f"{label} must be >= {minimum} (or None for {none_means}), got {value}")
    return int(value)


def check_num_threads(value: Any) -> int | None:
    """The ``num_threads`` of every public function: ``None`` (all cores, or ``$REFSCORE_NUM_THREADS``) or >= 1."""
    return check_optional_int(value, "num_threads", minimum=1, none_means="all cores")


def check_number(value: Any, name: str, *, minimum: float | None = None, maximum: float | None = None,
                 above: float | None = None, below: float | None = None, owner: str | None = None,
                 hint: str = "") -> float:
    """``value`` as a finite ``float``: ``minimum``/``maximum`` are inclusive bounds, ``above``/``below`` exclusive."""
    label = _label(name, owner)
    if above is not None and below is not None:
        bounds = f"strictly between {above} and {below}"
    elif minimum is not None and maximum is not None:
        bounds = f"in [{minimum}, {maximum}]"
    else:
        bounds = " and ".join(text for text in (f">= {minimum}" if minimum is not None else "",
                                                f"> {above}" if above is not None else "",
                                                f"<= {maximum}" if maximum is not None else "",
                                                f"< {below}" if below is not None else "") if text)
    wanted = (f" {bounds}" if bounds else "") + (f" ({hint})" if hint else "")
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{label} must be a number{wanted}, {_got(value)}")
    number = float(value)
    if (not math.isfinite(number) or (minimum is not None and number < minimum)
            or (maximum is not None and number > maximum) or (above is not None and number <= above)
            or (below is not None and number >= below)):
        raise InputError(f"{label} must be a finite number{wanted}, got {value!r}")
    return number


def check_choice(value: Any, name: str, choices: Iterable[Any], *, owner: str | None = None,
                 hint: str = "") -> Any:
    """``value`` unchanged if it is one of ``choices`` (a string argument given another type is a type error)."""
    options = tuple(choices)
    listed = ", ".join(repr(c) for c in options)
    extra = f" ({hint})" if hint else ""
    if all(isinstance(c, str) for c in options) and not isinstance(value, str):
        raise InputTypeError(f"{_label(name, owner)} must be one of {listed}{extra}, {_got(value)}")
    if value not in options:
        prefix = f"{owner}: " if owner else ""
        raise InputError(f"{prefix}unknown {name} {value!r}{extra}: {name} must be one of {listed}")
    return value


def check_count(value: Any, name: str) -> int:
    """A number of resamples, trials or pairs: an int >= 1."""
    return check_int(value, name, minimum=1, hint=f"e.g. {name}=1000")


def check_order(value: Any, name: str, *, minimum: int = 1, owner: str | None = None) -> int:
    """An n-gram order: an int in ``[minimum, MAX_NGRAM_ORDER]``.

    >>> check_order(10 ** 9, "max_order", owner="BLEU")
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: BLEU: max_order must be in [1, 10000] (an n-gram order; at most MAX_NGRAM_ORDER = 10000), got 1000000000
    """
    return check_int(value, name, minimum=minimum, maximum=MAX_NGRAM_ORDER, owner=owner,
                     hint=f"an n-gram order; at most MAX_NGRAM_ORDER = {MAX_NGRAM_ORDER}")


def check_resamples(count: Any, name: str, *, bytes_each: int, what: str) -> int:
    """A number of resamples (an int >= 1) whose memory, ``count x bytes_each``, fits the memory budget (the rule
    of :mod:`refscore._memory`: refused before allocating, naming ``name``, the need and the budget).

    >>> check_resamples(1000, "k", bytes_each=16, what="PERM-BOTH samples")
    1000
    """
    from refscore._memory import METRIC_SETTING, check_within_budget, memory_budget

    value = check_count(count, name)
    check_within_budget(value * int(bytes_each), memory_budget(), f"{what} for {name}={value:,}",
                        setting=METRIC_SETTING, hint=f"or lower {name}")
    return value


def check_confidence(value: Any, name: str = "confidence") -> float:
    """A confidence level strictly between 0 and 1 (0.95 = a 95% interval)."""
    return check_number(value, name, above=0, below=1, hint="e.g. 0.95 for a 95% interval")


def check_seed(value: Any, name: str = "seed") -> int | None:
    """A random seed: a non-negative int (0 is a real seed) or ``None`` (fresh OS entropy)."""
    if value is None:
        return None
    if not _is_int(value):
        raise InputTypeError(f"{name} must be a non-negative int or None (fresh randomness), {_got(value)}")
    if value < 0:
        raise InputError(f"{name} must be >= 0 (numpy's default_rng rejects negative seeds), got {value}")
    return int(value)
