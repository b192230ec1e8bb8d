"""ROUGE type names of both flavors: rouge-score's (``rouge<n>``, ``rougeL``, ``rougeLsum`` and refscore's
``rougeW``/``rougeS``/``rougeSU``) and ROUGE-1.5.5's measures (``ROUGE-2``, ``ROUGE-W-1.2``, ``ROUGE-SU4`` ...).

>>> rouge_type_code("rouge3"), rouge_type_code("rougeLsum")
(3, -1)
>>> parse_type("rougeSU4").name, rouge155_measure("rougeW", w_weight=1.2, skip_distance=4)
('ROUGE-SU4', 'ROUGE-W-1.2')
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from refscore._core._rouge155 import KIND_LCS, KIND_NGRAM, KIND_SKIP, KIND_WLCS
from refscore.checks import check_order
from refscore.errors import InputError, InputTypeError

# -- rouge-score flavor ----------------------------------------------------------------------------------------
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: rouge-score flavor types computed on the ROUGE-1.5.5 kernels (see :mod:`refscore.metrics.rouge.extended`).
EXTENDED_TYPES = ("rougeW", "rougeS", "rougeSU")

_ROUGE_N = re.compile(r"rouge([0-9]+)$")


def rouge_type_code(name: str) -> int:
    """The kernel code of a rouge-score type: n for ``rouge<n>`` (any n >= 1), 0 for rougeL, -1 for rougeLsum."""
    if name == "rougeL":
        return 0
    if name == "rougeLsum":
        return -1
    match = _ROUGE_N.match(name) if isinstance(name, str) else None
    if match is None or int(match.group(1)) < 1:
        raise InputError(f"unknown ROUGE type {name!r} for flavor 'rouge-score'; it computes 'rouge<n>' for any "
                         f"n >= 1 ('rouge1', 'rouge2', ...), 'rougeL', 'rougeLsum', 'rougeW', 'rougeS' and "
                         f"'rougeSU'; other flavors (flavor=...) may compute more types: rouge155")
    return check_order(int(match.group(1)), f"the n-gram order of ROUGE type {name!r}")


def parse_types(value: Any) -> tuple[str, ...]:
    """rouge-score flavor types from a sequence or a comma-separated string, checked (no repeats)."""
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    try:
        types = tuple(value)
    except TypeError:
        raise InputTypeError(f"types must be a sequence of ROUGE type names, got {type(value).__name__}") from None
    if not types:
        raise InputError(f"types is empty; give at least one ROUGE type, e.g. {DEFAULT_TYPES}")
    for name in types:
        if name not in EXTENDED_TYPES:
            rouge_type_code(name)
    if len(set(types)) != len(types):
        raise InputError(f"types lists a ROUGE type twice: {types}")
    return types


# -- ROUGE-1.5.5 flavor ----------------------------------------------------------------------------------------
ROUGE155_DEFAULT_TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")

_NGRAM = re.compile(r"^(\d+)$")
_WLCS = re.compile(r"^w-?(\d+(?:\.\d*)?|\.\d+)$")
_SKIP = re.compile(r"^(su|s)(\*|-?\d+)$")


@dataclasses.dataclass(frozen=True)
class RougeType:
    """One ROUGE-1.5.5 measure: its printed name and the kernel parameters."""

    name: str
    kind: int
    int_param: int = 0
    weight: float = 0.0
    unigrams: bool = False


def parse_type(name: Any, *, where: str = "types") -> RougeType:
    """``"ROUGE-2"``/``"rouge2"``/``"2"``, ``"L"``, ``"W-1.2"``, ``"S4"``, ``"S*"``, ``"SU*"``, ``"SU-1"`` ...

    >>> parse_type("rougeSU4"), parse_type("W-1.2").name, parse_type("s-1").name
    (RougeType(name='ROUGE-SU4', kind=3, int_param=4, weight=0.0, unigrams=True), 'ROUGE-W-1.2', 'ROUGE-S*')
    """
    if not isinstance(name, str):
        raise InputTypeError(f"{where}: each ROUGE type must be a string such as 'ROUGE-1', got {name!r}")
    key = name.strip().lower()
    key = key[len("rouge"):] if key.startswith("rouge") else key
    key = key.lstrip("-_")
    if m := _NGRAM.match(key):
        n = int(m.group(1))
        if n < 1:
            raise InputError(f"{where}: {name!r}: the n-gram order must be >= 1")
        check_order(n, f"the n-gram order of {name!r}", owner=where)
        return RougeType(f"ROUGE-{n}", KIND_NGRAM, int_param=n)
    if key == "l":
        return RougeType("ROUGE-L", KIND_LCS)
    if m := _WLCS.match(key):
        weight = float(m.group(1))
        if weight <= 0:
            raise InputError(f"{where}: {name!r}: the ROUGE-W weight must be > 0 (ROUGE-1.5.5's -w)")
        return RougeType(f"ROUGE-W-{weight:g}", KIND_WLCS, weight=weight)
    if m := _SKIP.match(key):
        unigrams = m.group(1) == "su"
        distance = -1 if m.group(2) == "*" else int(m.group(2))
        label = "*" if distance < 0 else str(distance)
        return RougeType(f"ROUGE-{m.group(1).upper()}{label}", KIND_SKIP, int_param=distance, unigrams=unigrams)
    hint = " (ROUGE-1.5.5's ROUGE-L is already summary-level over the lines of a text)" if "sum" in key else ""
    raise InputError(f"{where}: unknown ROUGE-1.5.5 type {name!r}{hint}; use 'ROUGE-<n>', 'ROUGE-L', "
                     f"'ROUGE-W-<weight>', 'ROUGE-S<distance>', 'ROUGE-S*', 'ROUGE-SU<distance>' or 'ROUGE-SU*'")


def split_types(value: str) -> tuple[str, ...]:
    """ROUGE-1.5.5 measure names from a string separated by commas or whitespace."""
    return tuple(part for part in re.split(r"[,\s]+", value) if part)


def rouge155_measure(name: str, *, w_weight: float, skip_distance: int | None) -> str:
    """The ROUGE-1.5.5 measure spelled by a rouge-score flavor name (``rougeW`` with ``w_weight``,
    ``rougeS``/``rougeSU`` with ``skip_distance``); other names are returned as given, for :func:`parse_type`."""
    if name == "rougeW":
        return f"ROUGE-W-{w_weight}"
    if name in ("rougeS", "rougeSU"):
        return f"ROUGE-{name[5:]}{'*' if skip_distance is None else skip_distance}"
    return name
