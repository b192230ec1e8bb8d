"""Exact pairwise sentence-score matrices: every candidate of an item against every reference (or every other
candidate), equal to the metric's sentence score of each pair (docs/pairwise.md).

The n-gram metrics that share counts (chrF/chrF++, BLEU with sacreBLEU's own tokenizers, Google-BLEU: their
``count_streams`` hook, :mod:`refscore.metrics._pair_counts`) cut each distinct text of a call into units once,
count each item's texts once and match the counts in one compiled call (``refscore._core._pairwise``); their
statistics rows then go through the metric's own formula (``scores_from_totals``). Every other metric (TER,
ROUGE, METEOR, MeCab/SentencePiece BLEU) scores the item's distinct pairs through ``metric.sentence_scores``,
except where the metric matches all pairs itself (a ``pair_matrices`` method: BERTScore, one similarity product per
item). Memory stays within the budget of :mod:`refscore._memory`: items are computed in groups that fit, and an
item or a padded result that cannot fit stops with :class:`MemoryBudgetError` first.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from refscore.checks import check_num_threads
from refscore._core._pairwise import MAX_ITEM_UNITS, pairwise_matches
from refscore._memory import check_within_budget, memory_budget as resolve_budget
from refscore.progress import progress_bar
from refscore.errors import InputError
from refscore.pairs._items import PairItems, pair_items, resolve_metric
from refscore.protocol import Metric

#: Bytes of the kernel's counts per unit and order (ids, distinct n-grams, postings, hash slots), an upper bound.
_COUNT_BYTES_PER_UNIT_ORDER = 96
#: Pairs per call of ``sentence_scores`` for metrics that do not share counts.
_FALLBACK_CHUNK_PAIRS = 1 << 15
#: Seconds per pair assumed when deciding whether a run is long enough for a progress bar.
_SECONDS_PER_PAIR = {True: 2e-7, False: 5e-5}


class _SharedCounts:
    """A call's texts cut into units once (a metric's ``count_streams``), and each text's n-gram count per order."""

    def __init__(self, metric: Metric, streams: list[tuple[np.ndarray, np.ndarray, int]]) -> None:
        self.metric = metric
        self.streams = streams
        totals = []
        self.text_units = np.zeros(len(streams[0][1]) - 1, dtype=np.int64)
        for _, offsets, max_order in streams:
            lengths = np.diff(offsets)
            self.text_units += lengths
            totals += [np.maximum(lengths - (n - 1), 0) for n in range(1, max_order + 1)]
        self.totals = np.stack(totals, axis=1)      # (texts, orders)
        self.orders = self.totals.shape[1]

    def item_bytes(self, n_cands: int, n_refs: int, units: int) -> int:
        """Working memory of one item: the kernel's counts, and per pair its int32 matches, its two int64 text
        indices, its float64 score and the score's copy in the result."""
        return units * self.orders * _COUNT_BYTES_PER_UNIT_ORDER + n_cands * n_refs * (4 * self.orders + 32)

    def matrices(self, cands: list[np.ndarray], refs: list[np.ndarray] | None, num_threads: int | None,
                 chunk_bytes: int) -> list[np.ndarray]:
        """Score matrices of distinct candidates x distinct references for a group of items."""
        cand_offsets = np.zeros(len(cands) + 1, dtype=np.int64)
        np.cumsum([len(c) for c in cands], out=cand_offsets[1:])
        ref_texts = ref_offsets = None
        if refs is not None:
            ref_offsets = np.zeros(len(refs) + 1, dtype=np.int64)
            np.cumsum([len(r) for r in refs], out=ref_offsets[1:])
            ref_texts = np.concatenate(refs) if refs else np.zeros(0, np.int64)
        flat, out_offsets = pairwise_matches(self.streams, len(self.text_units),
                                             np.concatenate(cands) if cands else np.zeros(0, np.int64),
                                             cand_offsets, ref_texts, ref_offsets, refs is None, num_threads)
        # Every pair of the group in the kernel's order (item, candidate, reference): the texts of its two sides.
        sizes = [(len(cand), len(cand if refs is None else refs[k])) for k, cand in enumerate(cands)]
        pair_cands = np.concatenate([np.repeat(cand, n_refs) for cand, (_, n_refs) in zip(cands, sizes)]
                                    or [np.zeros(0, np.int64)])
        pair_refs = np.concatenate([np.tile(cand if refs is None else refs[k], n_cands)
                                    for k, (cand, (n_cands, _)) in enumerate(zip(cands, sizes))]
                                   or [np.zeros(0, np.int64)])
        matches = flat.reshape(-1, self.orders)
        scores = np.empty(len(pair_cands), dtype=np.float64)
        step = max(1, chunk_bytes // (self.orders * 8 * 7))   # hyp, ref, match, the rows and their copies
        for first in range(0, len(scores), step):
            part = slice(first, first + step)
            statistics = self.metric.statistics_from_counts(self.totals[pair_cands[part]],
                                                            self.totals[pair_refs[part]],
                                                            matches[part].astype(np.int64))
            scores[part] = self.metric.scores_from_totals(statistics)[:, 0]
        bounds = out_offsets // max(self.orders, 1)
        return [scores[bounds[k]:bounds[k + 1]].reshape(shape) for k, shape in enumerate(sizes)]


def _pair_scores(metric: Metric, texts: list[str], cand: np.ndarray, ref: np.ndarray,
                 num_threads: int | None) -> np.ndarray:
    """Distinct candidates x distinct references through ``metric.sentence_scores`` on the flattened pairs."""
    from refscore.inputs import per_segment

    grid_rows, grid_cols = np.meshgrid(np.arange(len(cand)), np.arange(len(ref)), indexing="ij")
    rows, cols = grid_rows.ravel(), grid_cols.ravel()
    scores = np.empty(rows.shape[0], dtype=np.float64)
    for start in range(0, rows.shape[0], _FALLBACK_CHUNK_PAIRS):
        part = slice(start, start + _FALLBACK_CHUNK_PAIRS)
        hyps = [texts[i] for i in cand[rows[part]]]
        refs = per_segment([[texts[j]] for j in ref[cols[part]]])
        scores[part] = metric.sentence_scores(hyps, refs, num_threads=num_threads)
    return scores.reshape(len(cand), len(ref))


def _distinct(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct text indices of an item in order of first appearance, and each position's place among them
    (a dict: faster than ``np.unique`` on the short lists items hold)."""
    places: dict[int, int] = {}
    inverse = [places.setdefault(index, len(places)) for index in indices.tolist()]
    return np.fromiter(places, dtype=np.int64, count=len(places)), np.array(inverse, dtype=np.int64)


def _item_matrices(metric: Metric, items: PairItems, num_threads: int | None, budget: int,
                   progress: bool | None) -> Iterator[np.ndarray]:
    """Each item's (candidates, references) matrix in item order, computed in groups that fit the budget."""
    streams = metric.count_streams(items.texts)
    shared = _SharedCounts(metric, streams) if streams else None
    pairs = sum(len(items.candidates[k]) * len(items.reference_indices(k)) for k in range(len(items)))
    bar = progress_bar(total=len(items), description=f"pairwise {metric.name}", enabled=progress,
                       expected_seconds=pairs * _SECONDS_PER_PAIR[shared is not None], unit="item")
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
                units = (int(shared.text_units[cand].sum()) + (int(shared.text_units[ref].sum())
                                                               if items.references is not None else 0)
                         if shared else 0)
                need = (shared.item_bytes(len(cand), len(ref), units) if shared
                        else len(cand) * len(ref) * 64)
                check_within_budget(need, budget, f"item {k} ({len(cand)} distinct candidates x {len(ref)} "
                                    f"distinct references, {metric.name})")
                if units > MAX_ITEM_UNITS:   # the kernel's n-gram ids and counts are 32-bit
                    raise InputError(f"item {k} holds {units:,} characters/tokens; an item may hold at most "
                                     f"{MAX_ITEM_UNITS:,}: split it into several items")
                if group and used + need > budget // 2:
                    break
                group.append(k)
                distinct.append((cand, cand_inverse, ref, ref_inverse))
                used += need
            if shared is not None:
                refs = None if items.references is None else [d[2] for d in distinct]
                matrices = shared.matrices([d[0] for d in distinct], refs, num_threads, max(budget // 8, 1 << 20))
            else:   # a metric's own all-pairs matching (BERTScore), else its sentence scores of the pairs
                hook = getattr(metric, "pair_matrices", None)
                found = hook(items.texts, [(d[0], d[2]) for d in distinct], num_threads=num_threads,
                             memory_budget=budget) if hook is not None else None
                matrices = found if found is not None else [_pair_scores(metric, items.texts, d[0], d[2], num_threads)
                                                            for d in distinct]
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
