"""Exact pairwise sentence-score matrices: every candidate of an item against every reference (or every other
candidate), equal to the metric's sentence score of each pair (docs/pairwise.md).

How the pairs are scored is the metric's own capability, asked for once per call (``metric.pair_scoring(texts)``,
:mod:`refscore._pair_scoring`): counts-based for the n-gram metrics that share counts (chrF/chrF++, BLEU with
sacreBLEU's own tokenizers, Google-BLEU, a plug-in that declares ``count_streams``), a native matrix where the
metric matches all pairs itself (BERTScore), else the metric's sentence scores of the pairs. This module numbers
the texts, groups the items and keeps the memory within the budget of :mod:`refscore._memory`: items are computed
in groups that fit, and an item or a padded result that cannot fit stops with :class:`MemoryBudgetError` first.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from refscore.checks import check_num_threads
from refscore._memory import check_within_budget, memory_budget as resolve_budget
from refscore.progress import progress_bar
from refscore.pairs._items import PairItems, pair_items, resolve_metric
from refscore.protocol import Metric


def _distinct(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct text indices of an item in order of first appearance, and each position's place among them
    (a dict: faster than ``np.unique`` on the short lists items hold)."""
    places: dict[int, int] = {}
    inverse = [places.setdefault(index, len(places)) for index in indices.tolist()]
    return np.fromiter(places, dtype=np.int64, count=len(places)), np.array(inverse, dtype=np.int64)


def _item_matrices(metric: Metric, items: PairItems, num_threads: int | None, budget: int,
                   progress: bool | None) -> Iterator[np.ndarray]:
    """Each item's (candidates, references) matrix in item order, computed in groups that fit the budget."""
    scoring = metric.pair_scoring(items.texts)
    against_references = items.references is not None
    pairs = sum(len(items.candidates[k]) * len(items.reference_indices(k)) for k in range(len(items)))
    bar = progress_bar(total=len(items), description=f"pairwise {metric.name}", enabled=progress,
                       expected_seconds=pairs * scoring.seconds_per_pair, unit="item")
    with bar:
        start = 0
        while start < len(items):
            group: list[int] = []
            distinct: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
            used = 0
            for k in range(start, len(items)):
                cand, cand_inverse = _distinct(items.candidates[k])
                ref, ref_inverse = ((cand, cand_inverse) if items.references is None
                                    else _distinct(items.references[k]))
                need = scoring.item_bytes(k, cand, ref, against_references)
                check_within_budget(need, budget, f"item {k} ({len(cand)} distinct candidates x {len(ref)} "
                                    f"distinct references, {metric.name})")
                scoring.check_item(k, cand, ref, against_references)
                if group and used + need > budget // 2:
                    break
                group.append(k)
                distinct.append((cand, cand_inverse, ref, ref_inverse))
                used += need
            refs = [d[2] for d in distinct] if against_references else None
            matrices = scoring.matrices([d[0] for d in distinct], refs, num_threads=num_threads,
                                        memory_budget=budget)
            for (cand, cand_inverse, ref, ref_inverse), matrix in zip(distinct, matrices):
                repeated = len(cand) < len(cand_inverse) or len(ref) < len(ref_inverse)
                yield matrix[np.ix_(cand_inverse, ref_inverse)] if repeated else matrix
                bar.update(1)
            start = group[-1] + 1


def pairwise_items(metric: Any, candidates: Any, references: Any = None, *, num_threads: int | None = None,
                   memory_budget: int | str | None = None, progress: bool | None = None) -> Iterator[np.ndarray]:
    """Like :func:`pairwise`, one ``(candidates, references)`` matrix per item, without padding: memory holds
    one group of items at a time (the budget), never the whole result.

    >>> [m.round(4).tolist() for m in pairwise_items("chrf", [["a cat", "the cat"], ["dog"]])]
    [[[1.0, 0.3125], [0.4228, 1.0]], [[1.0]]]
    """
    metric = resolve_metric(metric)
    items = pair_items(candidates, references)
    yield from _item_matrices(metric, items, check_num_threads(num_threads), resolve_budget(memory_budget),
                              progress)


def pairwise(metric: Any, candidates: Any, references: Any = None, *, num_threads: int | None = None,
             memory_budget: int | str | None = None, progress: bool | None = None) -> np.ndarray:
    """Sentence scores of every candidate against every reference, per item: float64 ``(items, candidates,
    references)``, each value equal to ``metric.sentence_scores([candidate], [reference])``.

    ``candidates[k]`` is item ``k``'s list of candidate texts, ``references[k]`` its list of references; with
    ``references=None`` each item's candidates are scored against each other (MBR), the diagonal included
    (a candidate against itself). Items of different sizes are padded with NaN up to the largest. ``metric`` is a
    metric object or a registry name (``"chrf"``, ``"bleu"``, ...). ``memory_budget`` (bytes, or ``"4GiB"``;
    default ``$REFSCORE_MEMORY_BUDGET`` or 2 GiB) bounds the working memory; a padded result larger than it is an
    error that names the budget (stream with :func:`pairwise_items` instead).

    >>> import refscore
    >>> matrix = refscore.pairwise("chrf", [["a cat", "the cat"], ["dog"]], [["the cat"], ["dog", "a dog"]])
    >>> matrix.shape, matrix[0, :, 0].round(4).tolist(), bool(np.isnan(matrix[0, 0, 1]))
    ((2, 2, 2), [0.3125, 1.0], True)
    """
    metric = resolve_metric(metric)
    items = pair_items(candidates, references)
    budget = resolve_budget(memory_budget)
    shape = (len(items), items.max_candidates, items.max_references)
    check_within_budget(8 * shape[0] * shape[1] * shape[2], budget,
                        f"the padded pairwise matrix {shape[0]} x {shape[1]} x {shape[2]}",
                        hint="or stream one item at a time with refscore.pairs.pairwise_items")
    out = np.full(shape, np.nan)
    for k, matrix in enumerate(_item_matrices(metric, items, check_num_threads(num_threads), budget, progress)):
        out[k, :matrix.shape[0], :matrix.shape[1]] = matrix
    return out
