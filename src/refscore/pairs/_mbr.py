"""Minimum Bayes risk (MBR) selection: each candidate's expected utility against pseudo-references (by default the
item's other candidates), and the candidate with the highest one (docs/pairwise.md, docs/mbr.md).

The utility of a pair is a weighted sum of the metrics' sentence scores on the 0–1 scale (a metric whose lower
scores are better, such as TER, enters with its sign flipped), or of outside utility matrices (``utilities=``:
COMET, MetricX, a file; higher is better); with ``standardize=True`` each source's expected utilities are first
standardised per item (mean 0, standard deviation 1 across the item's candidates), so that sources of different
spreads weigh as their weights say. The expectation is the mean over the pseudo-references, or their weighted mean
under ``sample_weights`` / ``sample_log_probs`` (sampling probabilities; mbrs' ``reference_lprobs``). A candidate
is not its own pseudo-reference unless ``include_self=True``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.checks import check_bool, check_number
from refscore.errors import InputError
from refscore.pairs._items import check_item_lists, resolve_metric
from refscore.pairs._matrix import pairwise
from refscore.pairs._utilities import expected_utilities, sample_weights as check_sample_weights, utility_matrices


@dataclass(frozen=True)
class MBRResult:
    """The outcome of :func:`mbr` (and of :func:`~refscore.pairs.pruning_mbr`, :func:`~refscore.pairs.centroid_mbr`).

    Attributes:
        utilities: float64 ``(items, candidates)`` expected utility of each candidate (NaN: padding, no
            pseudo-reference to score against, or a candidate a pruning decoder left out).
        chosen: int64 ``(items,)`` index of the chosen candidate per item (the first of equal utilities; -1 for
            an item without candidates).
        best: the chosen candidate's text per item (None for an item without candidates).
        matrices: with ``return_matrices=True``, each metric's pairwise matrix (``refscore.pairwise``) by metric
            name (or the ``utilities`` given, NaN-padded), else None.
    """

    utilities: np.ndarray
    chosen: np.ndarray
    best: list[str | None]
    matrices: dict[str, np.ndarray] | None = None


def _source_weights(count: int, weights: Any, what: str) -> np.ndarray:
    """The weights of ``count`` metrics (or utility matrices): equal by default, else numbers >= 0, not all 0."""
    if weights is None:
        return np.full(count, 1.0 / count)
    if isinstance(weights, (int, float)) or not isinstance(weights, Sequence) or len(weights) != count:
        raise InputError(f"mbr: weights must be a list of {count} number(s), one per {what}, got {weights!r}")
    values = np.array([check_number(w, f"weights[{i}]", minimum=0.0) for i, w in enumerate(weights)])
    if not values.any():    # every utility 0: every candidate ties, and the choice would say nothing
        raise InputError(f"mbr: weights are all 0 ({', '.join(f'{w:g}' for w in values)}): every utility would be 0 "
                         f"and every candidate tie; give at least one {what} a positive weight (the command line: "
                         f"--weights)")
    return values


def _metric_sources(metric: Any, items: list[list[str]], pseudo_references: list[list[str]] | None,
                    options: dict[str, Any]) -> tuple[dict[str, list[np.ndarray]], dict[str, np.ndarray]]:
    """Each metric's per-item matrices (sign flipped for a lower-is-better metric), and its padded pairwise
    matrix by name."""
    metrics = list(metric) if isinstance(metric, Sequence) and not isinstance(metric, str) else [metric]
    if not metrics:
        raise InputError("mbr: metric is empty; give a metric or a list of metrics, e.g. metric='chrf'")
    metrics = [resolve_metric(m, f"metric[{i}]" if len(metrics) > 1 else "metric") for i, m in enumerate(metrics)]
    sources: dict[str, list[np.ndarray]] = {}
    padded: dict[str, np.ndarray] = {}
    for m in metrics:
        matrix = pairwise(m, items, pseudo_references, **options)
        name = m.name if m.name not in padded else f"{m.name}_{len(padded)}"
        padded[name] = matrix
        sign = 1.0 if m.higher_is_better else -1.0
        sources[name] = [sign * matrix[k, :len(item), :len(item if pseudo_references is None
                                                            else pseudo_references[k])]
                         for k, item in enumerate(items)]
    return sources, padded


def _utility_sources(utilities: Any, items: list[list[str]],
                     pseudo_references: list[list[str]] | None) -> dict[str, list[np.ndarray]]:
    named = utilities if isinstance(utilities, Mapping) else {"utilities": utilities}
    if not named:
        raise InputError("mbr: utilities is empty; give a matrix per item (or a dict of them by name)")
    sources = {str(name): utility_matrices(value, items, pseudo_references,
                                           f"utilities[{name!r}]" if isinstance(utilities, Mapping) else "utilities")
               for name, value in named.items()}
    first = next(iter(sources))
    for name, matrices in sources.items():
        for k, (a, b) in enumerate(zip(sources[first], matrices)):
            if a.shape != b.shape:
                raise InputError(f"mbr: utilities[{name!r}][{k}] is {b.shape[0]} x {b.shape[1]} but "
                                 f"utilities[{first!r}][{k}] is {a.shape[0]} x {a.shape[1]}; every source scores "
                                 f"the same candidates against the same pseudo-references")
    return sources


def _padded(matrices: list[np.ndarray]) -> np.ndarray:
    shape = (len(matrices), max((m.shape[0] for m in matrices), default=0),
             max((m.shape[1] for m in matrices), default=0))
    out = np.full(shape, np.nan)
    for k, m in enumerate(matrices):
        out[k, :m.shape[0], :m.shape[1]] = m
    return out


def _standardized(utilities: np.ndarray) -> np.ndarray:
    """Per item: (u - mean) / std over its candidates (0 where all are equal; NaN stays NaN)."""
    counts = np.sum(~np.isnan(utilities), axis=1, keepdims=True)
    safe = np.maximum(counts, 1)
    mean = np.nansum(utilities, axis=1, keepdims=True) / safe
    std = np.sqrt(np.nansum((utilities - mean) ** 2, axis=1, keepdims=True) / safe)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(std > 0, (utilities - mean) / np.where(std > 0, std, 1.0), utilities * 0.0)


def select(utilities: np.ndarray, items: list[list[str]]) -> tuple[np.ndarray, list[str | None]]:
    """The first highest utility per item (0 where all are NaN, -1 for an item without candidates), and its text."""
    chosen = np.array([(int(np.nanargmax(row)) if not np.all(np.isnan(row)) else 0) if len(item) else -1
                       for row, item in zip(utilities, items)], dtype=np.int64)
    return chosen, [item[c] if c >= 0 else None for item, c in zip(items, chosen)]


def mbr(candidates: Any, metric: Any = None, pseudo_references: Any = None, weights: Any = None,
        include_self: bool | None = None, standardize: bool = False, return_matrices: bool = False, *,
        utilities: Any = None, sample_weights: Any = None, sample_log_probs: Any = None,
        num_threads: int | None = None, memory_budget: int | str | None = None,
        progress: bool | None = None) -> MBRResult:
    """MBR selection per item: the candidate with the highest expected utility.

    ``candidates[k]`` is item ``k``'s list of candidates; ``pseudo_references[k]`` its pseudo-references (None:
    the item's candidates, each scored against the others, and against itself too with ``include_self=True``).
    ``metric`` is a metric (object or registry name; default ``"chrf"``) or a list of them, combined with
    ``weights`` (default: equal weights summing to 1) after an optional per-item ``standardize``.
    ``memory_budget`` and ``num_threads`` are :func:`refscore.pairwise`'s.

    ``utilities`` replaces the metrics by precomputed utility matrices (higher is better): per item a 2-D array
    ``(candidates, pseudo-references)`` (a list of them, or a NaN-padded 3-D array as ``refscore.pairwise``
    returns), or a dict of such by name, combined with ``weights`` as metrics are. With ``utilities`` every column
    counts unless ``include_self=False`` (each item's matrix square, its diagonal left out).

    ``sample_weights[k]`` (numbers >= 0, e.g. sampling probabilities) or ``sample_log_probs[k]`` (their logs, as
    mbrs' ``reference_lprobs``) weigh item ``k``'s pseudo-references: the expected utility is the weighted mean
    (mbrs' ``softmax(lprobs)``-weighted sum), renormalised over the columns that count.

    >>> result = mbr([["the cat sat on the mat", "the cat sat on a mat", "a dog barked"]],
    ...              metric=["chrf", "bleu"], weights=[0.7, 0.3])
    >>> result.chosen.tolist(), result.best, result.utilities.round(3).tolist()
    ([0], ['the cat sat on the mat'], [[0.353, 0.345, 0.047]])
    >>> mbr([["a", "b"]], utilities=[[[0.2, 0.9], [0.6, 0.3]]], sample_weights=[[0.25, 0.75]]).chosen.tolist()
    [0]
    """
    if include_self is not None:
        include_self = check_bool(include_self, "include_self")
    standardize = check_bool(standardize, "standardize")
    return_matrices = check_bool(return_matrices, "return_matrices")
    items, refs = check_item_lists(candidates, pseudo_references, references_name="pseudo_references",
                                   without="None: the other candidates")
    if utilities is not None:
        if metric is not None:
            raise InputError("mbr: give metric or utilities, not both (utilities are the precomputed scores)")
        sources = _utility_sources(utilities, items, refs)
        padded = {name: _padded(matrices) for name, matrices in sources.items()} if return_matrices else {}
        drop_diagonal = include_self is False
        if drop_diagonal:
            for k, matrix in enumerate(next(iter(sources.values()))):
                if refs is not None or matrix.shape[0] != matrix.shape[1]:
                    raise InputError(f"mbr: include_self=False leaves out each candidate's pair with itself, which "
                                     f"needs the candidates as pseudo-references (no pseudo_references, square "
                                     f"matrices); item {k} is {matrix.shape[0]} x {matrix.shape[1]}")
    else:
        options = {"num_threads": num_threads, "memory_budget": memory_budget, "progress": progress}
        sources, padded = _metric_sources("chrf" if metric is None else metric, items, refs, options)
        drop_diagonal = refs is None and not include_self
    source_weights = _source_weights(len(sources), weights, "metric" if utilities is None else "utility matrix")
    columns = [m.shape[1] for m in next(iter(sources.values()))]
    item_weights = check_sample_weights(sample_weights, sample_log_probs, columns)
    shape = (len(items), max((len(item) for item in items), default=0))
    total = np.zeros(shape)
    for matrices, weight in zip(sources.values(), source_weights):
        expected = np.full(shape, np.nan)
        for k, matrix in enumerate(matrices):
            expected[k, :matrix.shape[0]] = expected_utilities(
                matrix, None if item_weights is None else item_weights[k], drop_diagonal)
        total += weight * (_standardized(expected) if standardize else expected)
    for k, item in enumerate(items):
        total[k, len(item):] = np.nan
    chosen, best = select(total, items)
    return MBRResult(total, chosen, best, padded if return_matrices else None)
