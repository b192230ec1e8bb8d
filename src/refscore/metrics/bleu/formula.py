"""sacreBLEU 2.6's BLEU formula, the default flavor of :class:`refscore.metrics.bleu.BLEU`: ``compute_bleu`` for
many rows at once (compiled, in float64; or with numpy in float32, as sacreBLEU scores its bootstrap resamples),
its smoothing defaults and checks, and the counts it reports with ``add-k``. ``bleu_score_one`` (compiled) is
``compute_bleu`` of one row of summed statistics: ``(score, precisions, bp)`` on the 0–100 scale.

>>> r = bleu_from_counts(np.array([[3, 2, 1, 0]]), np.array([[3, 2, 1, 0]]), np.array([3]), np.array([3]),
...                      effective_order=True)
>>> round(float(r.score[0]), 6)
100.0
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from refscore.checks import check_choice, check_number
from refscore._core._bleu import PYTHON_SUM_COMPENSATED, bleu_score_one, bleu_scores
from refscore.errors import InputError

__all__ = ["BLEUComponents", "LOG_ZERO", "SMOOTH_DEFAULTS", "bleu_from_counts", "bleu_score_one", "check_smoothing",
           "sacrebleu_reported_counts", "sum_like_python"]

#: Default smoothing values (Chen & Cherry 2014), as sacreBLEU's ``BLEU.SMOOTH_DEFAULTS``.
SMOOTH_DEFAULTS: dict[str, float | int | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: sacreBLEU's ``my_log(0)``.
LOG_ZERO = -9999999999


def _float32_bleu(matches: np.ndarray, totals: np.ndarray, sys_len: np.ndarray, ref_len: np.ndarray,
                  smooth_method: str, value: float | int | None, effective_order: bool,
                  dtype: type = np.float32, compensated: bool = PYTHON_SUM_COMPENSATED
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(score, precisions, bp)`` on the 0–100 scale; ``matches``/``totals`` ``(m, max_order)``, lengths ``(m,)``;
    the logs added as ``sum()`` adds floats, compensated (CPython >= 3.12) or not (:func:`bleu_from_counts`)."""
    rows, max_order = matches.shape
    sys_len, ref_len = sys_len.astype(np.float64), ref_len.astype(np.float64)

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # bp = 1 if sys_len >= ref_len else (exp(1 - ref_len / sys_len) if sys_len > 0 else 0)
        bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)

        correct: np.ndarray = matches.astype(dtype)
        total: np.ndarray = totals.astype(dtype)
        if smooth_method == "add-k":
            correct[:, 1:] += value
            total[:, 1:] += value

        precisions = np.zeros((rows, max_order), dtype=np.float64)
        stopped = np.zeros(rows, dtype=bool)        # sacreBLEU's `break` at the first order with total 0
        eff_order = np.full(rows, max_order, dtype=np.int64)
        smooth_mteval: np.ndarray = np.ones(rows, dtype=dtype)
        for n in range(max_order):
            stopped |= total[:, n] == 0
            live = ~stopped
            if effective_order:
                eff_order = np.where(live, n + 1, eff_order)
            no_match = live & (correct[:, n] == 0)
            precision = np.where(live & ~no_match, 100. * correct[:, n] / total[:, n], 0.0)
            if smooth_method == "exp":
                smooth_mteval = np.where(no_match, smooth_mteval * 2, smooth_mteval)
                precision = np.where(no_match, 100. / (smooth_mteval * total[:, n]), precision)
            elif smooth_method == "floor":
                precision = np.where(no_match, 100. * value / total[:, n], precision)  # type: ignore[operator]  # set
            precisions[:, n] = precision

        # score = bp * exp(sum(my_log(p) for p in precisions[:eff_order]) / eff_order)
        logs = np.where(precisions == 0, float(LOG_ZERO), np.log(np.where(precisions == 0, 1.0, precisions)))
        score = bp * np.exp(sum_like_python(logs, eff_order, compensated) / eff_order)

    no_matches = ~np.any(matches != 0, axis=1)        # early zero (sacreBLEU #141): precisions reported as 0
    score[no_matches] = 0.0
    precisions[no_matches] = 0.0
    return score, precisions, bp


def sum_like_python(terms: np.ndarray, counts: np.ndarray, compensated: bool = PYTHON_SUM_COMPENSATED) -> np.ndarray:
    """Per row ``i``, ``sum(terms[i, :counts[i]])`` as ``sum()`` adds floats: left to right before CPython 3.12, with
    Neumaier's compensation (added once at the end unless zero or not finite) from 3.12 on (``compensated``).

    >>> terms = np.array([[1e100, 1.0, -1e100]])
    >>> sum_like_python(terms, np.array([3]), compensated=False), sum_like_python(terms, np.array([3]), True)
    (array([0.]), array([1.]))
    """
    total = np.zeros(terms.shape[0], dtype=np.float64)
    compensation = np.zeros_like(total)
    with np.errstate(invalid="ignore", over="ignore"):
        for n in range(terms.shape[1]):
            term, live = terms[:, n], n < counts
            step = total + term
            if compensated:
                lost = np.where(np.abs(total) >= np.abs(term), (total - step) + term, (term - step) + total)
                compensation = np.where(live, compensation + lost, compensation)
            total = np.where(live, step, total)
        if compensated:
            total = np.where((compensation != 0) & np.isfinite(compensation), total + compensation, total)
    return total


def check_smoothing(smooth_method: Any, smooth_value: Any) -> None:
    """Raise a clear error for an unknown smoothing method or a negative / non-numeric smoothing value."""
    check_choice(smooth_method, "smooth_method", SMOOTH_DEFAULTS, owner="BLEU")
    if smooth_value is not None:
        check_number(smooth_value, "smooth_value", minimum=0, owner="BLEU", hint="or None for the method's default")


def sacrebleu_reported_counts(counts: list, totals: list, smooth_method: str, smooth_value: float | None) -> None:
    """sacreBLEU's ``compute_bleu`` adds the ``add-k`` value to the ``counts``/``totals`` it reports, in place: orders
    >= 2, up to the first order without n-grams, unless nothing matches (its loop, which the formula does not need).

    >>> counts, totals = [2, 1, 0], [3, 2, 1]
    >>> sacrebleu_reported_counts(counts, totals, "add-k", None); counts, totals
    ([2, 2, 1], [3, 3, 2])
    """
    if smooth_method != "add-k" or not any(counts):
        return
    value = SMOOTH_DEFAULTS["add-k"] if smooth_value is None else smooth_value
    for n in range(len(counts)):
        if n > 0:
            counts[n] += value
            totals[n] += value
        if totals[n] == 0:
            break


class BLEUComponents(NamedTuple):
    """Vectorised BLEU results on sacreBLEU's 0–100 scale: one entry (or row) per input row."""

    score: np.ndarray       # (m,)
    precisions: np.ndarray  # (m, max_order)
    bp: np.ndarray          # (m,)


def bleu_from_counts(matches: np.ndarray, totals: np.ndarray, sys_len: np.ndarray, ref_len: np.ndarray, *,
                     smooth_method: str = "exp", smooth_value: float | None = None,
                     effective_order: bool = False, dtype: type = np.float64,
                     python_sum: bool | None = None) -> BLEUComponents:
    """sacreBLEU's ``BLEU.compute_bleu`` for many rows at once, on the 0–100 scale, without mutating its inputs.

    ``matches`` and ``totals`` are ``(m, max_order)``; ``sys_len`` and ``ref_len`` are ``(m,)``. In float64 (the
    default) every row runs sacreBLEU's statements compiled (``refscore._core._bleu``), with the C library's
    ``log``/``exp`` that Python's ``math`` module calls: equal to sacreBLEU to the last bit.
    ``dtype=np.float32`` evaluates the counts and precisions in float32 with numpy, in sacreBLEU's order of
    operations, as sacreBLEU does for its float32 bootstrap resamples. sacreBLEU adds the logs of the precisions
    with ``sum()``, compensated from CPython 3.12 on; ``python_sum`` adds them as that (True) or as earlier Pythons'
    ``sum()`` (False); None (the default) as the running interpreter's, so the numbers are those of sacreBLEU
    running under the same Python.

    >>> r = bleu_from_counts(np.array([[2, 1, 0]]), np.array([[3, 2, 1]]), np.array([3]), np.array([3]),
    ...                      smooth_method="add-k")
    >>> [round(float(x), 2) for x in r.precisions[0]], round(float(r.score[0]), 2)
    ([66.67, 66.67, 50.0], 60.57)
    """
    check_smoothing(smooth_method, smooth_value)
    value = SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
    matches = np.atleast_2d(np.asarray(matches))
    totals = np.atleast_2d(np.asarray(totals))
    sys_len, ref_len = np.asarray(sys_len).reshape(-1), np.asarray(ref_len).reshape(-1)
    rows, max_order = matches.shape
    if totals.shape != matches.shape or sys_len.shape[0] != rows or ref_len.shape[0] != rows:
        raise InputError(f"bleu_from_counts: matches {matches.shape} and totals {totals.shape} must have the same "
                         f"(rows, max_order) shape, sys_len and ref_len one entry per row")
    if dtype is np.float64:     # sacreBLEU's scalar statements in one compiled loop
        arrays = (matches, totals, sys_len, ref_len)
        if not all(array.dtype == np.int64 for array in arrays):   # int64 statistics are read in place
            arrays = tuple(array.astype(np.float64, copy=False) for array in arrays)  # type: ignore[assignment]  # 4
        return BLEUComponents(*bleu_scores(*arrays, smooth_method, 0.0 if value is None else float(value),
                                           effective_order, python_sum=python_sum))
    compensated = PYTHON_SUM_COMPENSATED if python_sum is None else bool(python_sum)
    return BLEUComponents(*_float32_bleu(matches, totals, sys_len, ref_len, smooth_method, value, effective_order,
                                        dtype, compensated))


