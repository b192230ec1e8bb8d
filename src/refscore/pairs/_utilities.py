"""Outside utilities for MBR: precomputed candidates x pseudo-references matrices (COMET, MetricX, a file) and the
pseudo-references' sampling weights, checked once with errors that name the item, the shapes and the fix
(docs/mbr.md).

>>> [m.tolist() for m in utility_matrices([[[1.0, 0.5], [0.5, 1.0]]], [["a", "b"]])]
[[[1.0, 0.5], [0.5, 1.0]]]
>>> [w.tolist() for w in sample_weights([[1, 3]], None, [2])]
[[0.25, 0.75]]
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError


def _as_float_array(value: Any, where: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputTypeError(f"{where} must be a numeric array (candidates x pseudo-references), got "
                             f"{type(value).__name__} ({exc})") from None
    return array


def _trim_padding(matrix: np.ndarray, rows: int, columns: int | None, where: str) -> np.ndarray:
    """An item's slice of a NaN-padded (items, candidates, references) array (refscore.pairwise's result): its
    ``rows`` candidates, its ``columns`` pseudo-references (None: up to the last column with a value)."""
    if matrix.shape[0] < rows:
        raise InputError(f"{where} has {matrix.shape[0]} row(s) but the item has {rows} candidate(s); give one row "
                         f"per candidate")
    if np.any(~np.isnan(matrix[rows:])):
        raise InputError(f"{where} has values in rows beyond the item's {rows} candidate(s) (padding must be NaN); "
                         f"are the candidates and the matrix of the same items?")
    matrix = matrix[:rows]
    if columns is None:
        filled = np.flatnonzero(np.any(~np.isnan(matrix), axis=0))
        columns = int(filled[-1]) + 1 if len(filled) else (matrix.shape[1] if rows == 0 else 0)
    elif matrix.shape[1] < columns:
        raise InputError(f"{where} has {matrix.shape[1]} column(s) but the item has {columns} pseudo-reference(s)")
    elif np.any(~np.isnan(matrix[:, columns:])):
        raise InputError(f"{where} has values in columns beyond the item's {columns} pseudo-reference(s) (padding "
                         f"must be NaN)")
    return matrix[:, :columns]


def _check_values(matrix: np.ndarray, where: str) -> None:
    bad = np.argwhere(~np.isfinite(matrix))
    if len(bad):
        i, j = (int(v) for v in bad[0])
        raise InputError(f"{where}[{i}, {j}] is {matrix[i, j]} ({len(bad)} value(s) not finite); every utility "
                         f"must be a finite number (a pair without a score cannot be averaged: score it, or leave "
                         f"the pseudo-reference out)")


def utility_matrices(utilities: Any, candidates: list[list[str]], pseudo_references: list[list[str]] | None = None,
                     argument: str = "utilities") -> list[np.ndarray]:
    """One float64 ``(candidates, pseudo-references)`` matrix per item from ``utilities``: a list of 2-D arrays (one
    per item), a NaN-padded 3-D array ``(items, candidates, pseudo-references)`` (``refscore.pairwise``'s result),
    or, for a single item, one 2-D array. Rows must match the item's candidates, columns its pseudo-references
    (when given); every value must be finite."""
    if isinstance(utilities, (str, bytes, Mapping)) or not isinstance(utilities, (Sequence, np.ndarray)):
        raise InputTypeError(f"{argument} must be a list of 2-D arrays (candidates x pseudo-references, one per item) "
                             f"or a 3-D array (items x candidates x pseudo-references), got {type(utilities).__name__}")
    padded = isinstance(utilities, np.ndarray) and utilities.ndim == 3
    if isinstance(utilities, np.ndarray) and utilities.ndim == 2:
        utilities = [utilities]
    elif isinstance(utilities, np.ndarray) and not padded:
        raise InputError(f"{argument} has shape {utilities.shape}; give a 3-D array (items x candidates x "
                         f"pseudo-references), a 2-D array for one item, or a list of 2-D arrays")
    if len(utilities) != len(candidates):
        raise InputError(f"{argument} has {len(utilities)} item(s) but candidates has {len(candidates)}; give one "
                         f"matrix per item")
    matrices = []
    for k, (value, item) in enumerate(zip(utilities, candidates)):
        where = f"{argument}[{k}]"
        columns = None if pseudo_references is None else len(pseudo_references[k])
        matrix = _as_float_array(value, where)
        if matrix.ndim == 1 and matrix.size == 0 and not item:
            matrix = matrix.reshape(0, columns or 0)
        if matrix.ndim != 2:
            raise InputError(f"{where} has shape {matrix.shape}; each item's utilities are a 2-D array, candidates "
                             f"x pseudo-references ({len(item)} x {columns if columns is not None else 'R'})")
        if padded:
            matrix = _trim_padding(matrix, len(item), columns, where)
        elif matrix.shape[0] != len(item) or (columns is not None and matrix.shape[1] != columns):
            expected = f"{len(item)} x {columns if columns is not None else 'R'}"
            raise InputError(f"{where} has shape {matrix.shape[0]} x {matrix.shape[1]} but item {k} has "
                             f"{len(item)} candidate(s)" + ("" if columns is None else
                                                            f" and {columns} pseudo-reference(s)") +
                             f"; expected {expected} (rows: candidates, columns: pseudo-references)")
        _check_values(matrix, where)
        matrices.append(matrix)
    return matrices


def _weights_from_log_probs(value: np.ndarray, where: str) -> np.ndarray:
    if np.any(np.isnan(value)) or np.any(value == np.inf):
        raise InputError(f"{where} holds NaN or +inf; log-probabilities are finite numbers or -inf (probability 0)")
    if not np.any(np.isfinite(value)):
        return np.zeros_like(value)
    return np.exp(value - np.max(value))    # softmax without overflow: only ratios matter


def sample_weights(weights: Any, log_probs: Any, sizes: list[int]) -> list[np.ndarray] | None:
    """Per item the pseudo-references' weights normalised to sum 1 (None: equal weights). ``weights`` are
    non-negative (sampling probabilities or counts), ``log_probs`` log-probabilities (weights ``exp``, as mbrs'
    ``reference_lprobs``); one of them, a list per item of ``sizes[k]`` numbers."""
    if weights is not None and log_probs is not None:
        raise InputError("give sample_weights or sample_log_probs, not both (weights = exp(log-probabilities))")
    given, argument = (weights, "sample_weights") if weights is not None else (log_probs, "sample_log_probs")
    if given is None:
        return None
    if isinstance(given, (str, bytes)) or not isinstance(given, (Sequence, np.ndarray)) or len(given) != len(sizes):
        count = len(given) if isinstance(given, (Sequence, np.ndarray)) else type(given).__name__
        raise InputError(f"{argument} must be a list of {len(sizes)} item(s), one weight per pseudo-reference of each "
                         f"item, got {count}")
    normalised = []
    for k, (value, size) in enumerate(zip(given, sizes)):
        where = f"{argument}[{k}]"
        row = _as_float_array(value, where)
        if row.shape != (size,):
            raise InputError(f"{where} has shape {row.shape} but item {k} has {size} pseudo-reference(s); give one "
                             f"weight per pseudo-reference (per column of its utility matrix)")
        if log_probs is not None:
            row = _weights_from_log_probs(row, where)
        elif np.any(~np.isfinite(row)) or np.any(row < 0):
            j = int(np.flatnonzero(~np.isfinite(row) | (row < 0))[0])
            raise InputError(f"{where}[{j}] is {row[j]}; weights are finite numbers >= 0 (sampling probabilities or "
                             f"counts; for log-probabilities use sample_log_probs)")
        total = row.sum()
        if size and total <= 0:
            raise InputError(f"{where}: every weight is 0; give at least one pseudo-reference a positive weight")
        normalised.append(row / total if size else row)
    return normalised


def expected_utilities(matrix: np.ndarray, weights: np.ndarray | None, drop_diagonal: bool) -> np.ndarray:
    """Each row's (weighted) mean over its columns, the diagonal left out with ``drop_diagonal`` (weights then
    renormalised over the rest); NaN for a row with no column of positive weight."""
    mask = np.ones(matrix.shape, dtype=bool)
    if drop_diagonal:
        np.fill_diagonal(mask, False)
    column_weights = np.ones(matrix.shape[1]) if weights is None else weights
    w = mask * column_weights[None, :]
    totals = w.sum(axis=1)
    sums = np.where(mask, matrix, 0.0) @ column_weights if matrix.size else np.zeros(matrix.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, sums / np.where(totals > 0, totals, 1.0), np.nan)
