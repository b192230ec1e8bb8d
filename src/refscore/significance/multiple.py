"""Multiple-comparison corrections of p-values: Holm's step-down method (Holm 1979), which keeps the chance of any
false "significant" among a family of tests at the level alpha, for tests in any dependence, and rejects at least
what Bonferroni rejects.

>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""
from __future__ import annotations

from collections.abc import Sequence


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: the i-th smallest p-value times ``m - i + 1`` (``m`` tests,
    ``i`` from 1), made non-decreasing along that order and capped at 1. A test is significant at level ``alpha``
    after the correction exactly when its adjusted p-value is ``<= alpha``.

    >>> holm([0.2, 0.001])
    [0.2, 0.002]
    >>> holm([])
    []
    """
    values = [float(p) for p in p_values]
    bad = next((i for i, p in enumerate(values) if not 0.0 <= p <= 1.0), None)
    if bad is not None:
        raise ValueError(f"p_values[{bad}] is {values[bad]!r}; p-values lie between 0 and 1")
    m = len(values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: values[i])):
        running = max(running, min(1.0, (m - rank) * values[index]))
        adjusted[index] = running
    return adjusted


__all__ = ["holm"]
