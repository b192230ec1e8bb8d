"""How a metric scores every (candidate, reference) pair of an item at once: the capability that
:func:`refscore.pairwise` and :func:`refscore.mbr` ask a metric for (``metric.pair_scoring(texts)``,
:class:`refscore._metric_facts.MetricFacts`), so that ``refscore.pairs`` chooses nothing and calls no kernel.

Three strategies, each equal to the metric's sentence score of every pair:

* :class:`CountPairs` (counts-based: chrF/chrF++, BLEU with sacreBLEU's own tokenizers, Google-BLEU, and any
  plug-in that declares ``count_streams`` + ``statistics_from_counts``): each distinct text of a call cut into
  units once, each item's texts counted once and the counts matched in one compiled call
  (``refscore._core._pairwise``); the statistics rows go through the metric's own formula (``scores_from_totals``).
* :class:`NativePairs` (a metric's own all-pairs matching: BERTScore, one similarity product per item).
* :class:`SentencePairs` (the default): the item's distinct pairs through ``metric.sentence_scores``.

An item is two arrays of indices into ``texts``, its distinct candidates and its distinct references;
``references=None`` means each item's candidates are scored against each other.

>>> from refscore.metrics import get_metric_class
>>> scoring = get_metric_class("chrf")().pair_scoring(["a cat", "the cat"])
>>> type(scoring).__name__, scoring.matrices([np.arange(2)], None)[0].round(4).tolist()
('CountPairs', [[1.0, 0.3125], [0.4228, 1.0]])
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from refscore._core._pairwise import MAX_ITEM_UNITS, pairwise_matches
from refscore._memory import memory_budget as resolve_budget
from refscore._offsets import concatenate
from refscore.errors import InputError

#: Bytes of the kernel's counts per unit and order (ids, distinct n-grams, postings, hash slots), an upper bound.
_COUNT_BYTES_PER_UNIT_ORDER = 96
#: Pairs per call of ``sentence_scores`` for metrics that do not share counts.
_FALLBACK_CHUNK_PAIRS = 1 << 15

Item = np.ndarray
#: A native matcher: ``(texts, [(candidates, references), ...], num_threads=, memory_budget=)`` -> one matrix per
#: item, or None when it cannot give each pair its own score (then the pairs go through sentence scores).
Matcher = Callable[..., Any]


class PairScoring:
    """The default strategy: every distinct pair of an item through ``metric.sentence_scores`` on the flattened
    pairs. Subclasses override what differs."""

    #: Seconds per pair assumed when deciding whether a run is long enough for a progress bar.
    seconds_per_pair = 5e-5

    def __init__(self, metric: Any, texts: list[str]) -> None:
        self.metric = metric
        self.texts = texts

    def item_bytes(self, k: int, cand: Item, ref: Item, against_references: bool) -> int:
        """Working memory of item ``k`` (its distinct candidates and references): the scores and their pairs."""
        return len(cand) * len(ref) * 64

    def check_item(self, k: int, cand: Item, ref: Item, against_references: bool) -> None:
        """Refuse an item the strategy cannot score (after the memory check); the default refuses none."""

    def matrices(self, cands: list[Item], refs: list[Item] | None, *, num_threads: int | None = None,
                 memory_budget: int | None = None) -> list[np.ndarray]:
        """Score matrices (distinct candidates x distinct references) of a group of items."""
        pairs = zip(cands, cands if refs is None else refs)
        return [self._sentence_matrix(cand, ref, num_threads) for cand, ref in pairs]

    def _sentence_matrix(self, cand: Item, ref: Item, num_threads: int | None) -> np.ndarray:
        from refscore.inputs import per_segment

        grid_rows, grid_cols = np.meshgrid(np.arange(len(cand)), np.arange(len(ref)), indexing="ij")
        rows, cols = grid_rows.ravel(), grid_cols.ravel()
        scores = np.empty(rows.shape[0], dtype=np.float64)
        for start in range(0, rows.shape[0], _FALLBACK_CHUNK_PAIRS):
            part = slice(start, start + _FALLBACK_CHUNK_PAIRS)
            hyps = [self.texts[i] for i in cand[rows[part]]]
            refs = per_segment([[self.texts[j]] for j in ref[cols[part]]])
            scores[part] = self.metric.sentence_scores(hyps, refs, num_threads=num_threads)
        return scores.reshape(len(cand), len(ref))


class SentencePairs(PairScoring):
    """The default strategy by name: the item's distinct pairs through ``metric.sentence_scores``."""


class NativePairs(PairScoring):
    """A metric's own all-pairs matching (``matcher``, e.g. BERTScore's ``pair_matrices``), falling back to
    sentence scores for a group it declines (returns None)."""

    def __init__(self, metric: Any, texts: list[str], matcher: Matcher) -> None:
        super().__init__(metric, texts)
        self.matcher = matcher

    def matrices(self, cands: list[Item], refs: list[Item] | None, *, num_threads: int | None = None,
                 memory_budget: int | None = None) -> list[np.ndarray]:
        items = list(zip(cands, cands if refs is None else refs))
        found = self.matcher(self.texts, items, num_threads=num_threads, memory_budget=memory_budget)
        return found if found is not None else super().matrices(cands, refs, num_threads=num_threads)


class CountPairs(PairScoring):
    """Counts-based: the call's texts cut into units once (``streams``, the metric's ``count_streams``), each
    text's n-gram count per order, the clipped matches from the compiled kernel, and each pair's statistics row
    from the metric's ``statistics_from_counts``."""

    seconds_per_pair = 2e-7

    def __init__(self, metric: Any, texts: list[str], streams: Sequence[tuple[np.ndarray, np.ndarray, int]]) -> None:
        super().__init__(metric, texts)
        self.streams = list(streams)
        totals = []
        self.text_units = np.zeros(len(self.streams[0][1]) - 1, dtype=np.int64)
        for _, offsets, max_order in self.streams:
            lengths = np.diff(offsets)
            self.text_units += lengths
            totals += [np.maximum(lengths - (n - 1), 0) for n in range(1, max_order + 1)]
        self.totals = np.stack(totals, axis=1)      # (texts, orders)
        self.orders = self.totals.shape[1]

    def _units(self, cand: Item, ref: Item, against_references: bool) -> int:
        return int(self.text_units[cand].sum()) + (int(self.text_units[ref].sum()) if against_references else 0)

    def item_bytes(self, k: int, cand: Item, ref: Item, against_references: bool) -> int:
        """The kernel's counts, and per pair its int32 matches, its two int64 text indices, its float64 score and
        the score's copy in the result."""
        units = self._units(cand, ref, against_references)
        return units * self.orders * _COUNT_BYTES_PER_UNIT_ORDER + len(cand) * len(ref) * (4 * self.orders + 32)

    def check_item(self, k: int, cand: Item, ref: Item, against_references: bool) -> None:
        units = self._units(cand, ref, against_references)
        if units > MAX_ITEM_UNITS:   # the kernel's n-gram ids and counts are 32-bit
            raise InputError(f"item {k} holds {units:,} characters/tokens; an item may hold at most "
                             f"{MAX_ITEM_UNITS:,}: split it into several items")

    def matrices(self, cands: list[Item], refs: list[Item] | None, *, num_threads: int | None = None,
                 memory_budget: int | None = None) -> list[np.ndarray]:
        chunk_bytes = max(resolve_budget(memory_budget) // 8, 1 << 20)
        cand_texts, cand_offsets = concatenate(cands, np.int64)
        ref_texts = ref_offsets = None
        if refs is not None:
            ref_texts, ref_offsets = concatenate(refs, np.int64)
        flat, out_offsets = pairwise_matches(self.streams, len(self.text_units), cand_texts,
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


def default_pair_scoring(metric: Any, texts: list[str]) -> PairScoring:
    """A metric's strategy unless it overrides ``pair_scoring``: counts-based when its ``count_streams`` gives
    streams for these texts (the declared opt-in), else sentence scores."""
    streams = metric.count_streams(texts)
    return CountPairs(metric, texts, streams) if streams else SentencePairs(metric, texts)
