"""Minimum Bayes risk (MBR) selection: each candidate's expected utility against pseudo-references (by default the
item's other candidates), and the candidate with the highest one (docs/pairwise.md).

The utility of a pair is a weighted sum of the metrics' sentence scores on the 0–1 scale (a metric whose lower
scores are better, such as TER, enters with its sign flipped); with ``standardize=True`` each metric's expected
utilities are first standardised per item (mean 0, standard deviation 1 across the item's candidates), so that
metrics of different spreads weigh as their weights say. A candidate is not its own pseudo-reference unless
``include_self=True``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.checks import check_bool, check_number
from refscore.errors import InputError
from refscore.pairs._items import check_items, resolve_metric
from refscore.pairs._matrix import pairwise


@dataclass(frozen=True)
class MBRResult:
    """The outcome of :func:`mbr`.

    Attributes:
        utilities: float64 ``(items, candidates)`` expected utility of each candidate (NaN: padding, or no
            pseudo-reference to score against).
        chosen: int64 ``(items,)`` index of the chosen candidate per item (the first of equal utilities; -1 for
            an item without candidates).
        best: the chosen candidate's text per item (None for an item without candidates).
        matrices: with ``return_matrices=True``, each metric's pairwise matrix (``refscore.pairwise``) by metric
            name, else None.
    """

    utilities: np.ndarray
    chosen: np.ndarray
    best: list[str | None]
    matrices: dict[str, np.ndarray] | None = None


def _metrics_and_weights(metric: Any, weights: Any) -> tuple[list[Any], np.ndarray]:
    metrics = list(metric) if isinstance(metric, Sequence) and not isinstance(metric, str) else [metric]
    if not metrics:
        raise InputError("mbr: metric is empty; give a metric or a list of metrics, e.g. metric='chrf'")
    metrics = [resolve_metric(m, f"metric[{i}]" if len(metrics) > 1 else "metric") for i, m in enumerate(metrics)]
    if weights is None:
        return metrics, np.full(len(metrics), 1.0 / len(metrics))
    if isinstance(weights, (int, float)) or not isinstance(weights, Sequence) or len(weights) != len(metrics):
        raise InputError(f"mbr: weights must be a list of {len(metrics)} number(s), one per metric, got {weights!r}")
    values = np.array([check_number(w, f"weights[{i}]", minimum=0.0) for i, w in enumerate(weights)])
    if not values.any():    # every utility 0: every candidate ties, and the choice would say nothing
        raise InputError(f"mbr: weights are all 0 ({', '.join(f'{w:g}' for w in values)}): every utility would be 0 "
                         f"and every candidate tie; give at least one metric a positive weight (the command line: "
                         f"--weights)")
    return metrics, values


def _expected(matrix: np.ndarray, self_pairs: bool, include_self: bool) -> np.ndarray:
    """Mean of each candidate's row over its pseudo-references (the diagonal left out when ``self_pairs`` and not
    ``include_self``); NaN where a candidate has none."""
    values = matrix.copy()
    if self_pairs and not include_self:
        diagonal = np.arange(min(values.shape[1], values.shape[2]))
        values[:, diagonal, diagonal] = np.nan
    counts = np.sum(~np.isnan(values), axis=2)
    totals = np.nansum(values, axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)


def _standardized(utilities: np.ndarray) -> np.ndarray:
    """Per item: (u - mean) / std over its candidates (0 where all are equal; NaN stays NaN)."""
    counts = np.sum(~np.isnan(utilities), axis=1, keepdims=True)
    safe = np.maximum(counts, 1)
    mean = np.nansum(utilities, axis=1, keepdims=True) / safe
    std = np.sqrt(np.nansum((utilities - mean) ** 2, axis=1, keepdims=True) / safe)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(std > 0, (utilities - mean) / np.where(std > 0, std, 1.0), utilities * 0.0)


def mbr(candidates: Any, metric: Any = "chrf", pseudo_references: Any = None, weights: Any = None,
        include_self: bool = False, standardize: bool = False, return_matrices: bool = False, *,
        num_threads: int | None = None, memory_budget: int | str | None = None,
        progress: bool | None = None) -> MBRResult:
    """MBR selection per item: the candidate with the highest expected utility.

    ``candidates[k]`` is item ``k``'s list of candidates; ``pseudo_references[k]`` its pseudo-references (None:
    the item's candidates, each scored against the others, and against itself too with ``include_self=True``).
    ``metric`` is a metric (object or registry name) or a list of them, combined with ``weights`` (default: equal
    weights summing to 1) after an optional per-item ``standardize``. ``memory_budget`` and ``num_threads`` are
    :func:`refscore.pairwise`'s.

    >>> result = mbr([["the cat sat on the mat", "the cat sat on a mat", "a dog barked"]],
    ...              metric=["chrf", "bleu"], weights=[0.7, 0.3])
    >>> result.chosen.tolist(), result.best, result.utilities.round(3).tolist()
    ([0], ['the cat sat on the mat'], [[0.353, 0.345, 0.047]])
    """
    include_self = check_bool(include_self, "include_self")
    standardize = check_bool(standardize, "standardize")
    return_matrices = check_bool(return_matrices, "return_matrices")
    metrics, weight_values = _metrics_and_weights(metric, weights)
    items = check_items(candidates, "candidates")
    if pseudo_references is not None and len(check_items(pseudo_references, "pseudo_references")) != len(items):
        raise InputError(f"pseudo_references has {len(pseudo_references)} item(s) but candidates has {len(items)}; "
                         f"give one list of pseudo-references per item (or None: the other candidates)")
    self_pairs = pseudo_references is None
    shape = (len(items), max((len(item) for item in items), default=0))
    utilities = np.zeros(shape)
    matrices: dict[str, np.ndarray] = {}
    for m, weight in zip(metrics, weight_values):
        matrix = pairwise(m, items, pseudo_references, num_threads=num_threads, memory_budget=memory_budget,
                          progress=progress)
        if return_matrices:
            matrices[m.name if m.name not in matrices else f"{m.name}_{len(matrices)}"] = matrix
        expected = _expected(matrix, self_pairs, include_self)[:, :shape[1]]
        expected = expected if m.higher_is_better else -expected
        utilities += weight * (_standardized(expected) if standardize else expected)
    for k, item in enumerate(items):
        utilities[k, len(item):] = np.nan
    chosen = np.array([(int(np.nanargmax(row)) if not np.all(np.isnan(row)) else 0) if len(item) else -1
                       for row, item in zip(utilities, items)], dtype=np.int64)
    best = [item[c] if c >= 0 else None for item, c in zip(items, chosen)]
    return MBRResult(utilities, chosen, best, matrices if return_matrices else None)
