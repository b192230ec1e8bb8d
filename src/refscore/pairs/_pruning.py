"""Confidence-based pruning MBR (Cheng & Vlachos, 2023, "Faster Minimum Bayes Risk Decoding with Confidence-based
Pruning"), as mbrs 0.1.8's ``DecoderPruningMBR`` defines it (docs/mbr.md).

Per item, the pseudo-references are taken in growing prefixes (``sampling_scheduler``, e.g. 8, 16, 32, ...). At
each step the candidates still in the running are scored against the prefix (only the new columns are computed);
``num_bootstrap_samples`` bootstrap resamples of the prefix's columns (drawn as mbrs draws them: ``torch.randint``
of a CPU generator seeded with ``seed`` per item, reproduced in numpy by :mod:`refscore.pairs._random`) estimate
each candidate's chance of doing at least as well as the current best; candidates whose chance is not above
``1 - alpha`` are pruned. It stops when the schedule or the pseudo-references run out; the choice is the best
expected utility over the columns of the last step.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from refscore.checks import check_int, check_number
from refscore.errors import InputError, InputTypeError
from refscore.pairs._items import check_item_lists, resolve_metric
from refscore.pairs._matrix import pairwise
from refscore.pairs._mbr import MBRResult, select
from refscore.pairs._random import TorchCPUDraws
from refscore.pairs._utilities import sample_weights as check_sample_weights, utility_matrices

#: mbrs' default sample-size schedule.
DEFAULT_SCHEDULE = (8, 16, 32, 64, 128, 256)

Columns = Callable[[np.ndarray, int, int], np.ndarray]


def _schedule(value: Any) -> list[int]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
        raise InputTypeError(f"sampling_scheduler must be a non-empty list of ints >= 1 (the numbers of "
                             f"pseudo-references at each step, e.g. {list(DEFAULT_SCHEDULE)}), got {value!r}")
    return [check_int(v, f"sampling_scheduler[{i}]", minimum=1) for i, v in enumerate(value)]


def _bootstrap_means(scores: np.ndarray, samples: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    """(candidates, resamples): each candidate's (weighted) mean over each resample's columns, from the counts of
    each column in each resample. Identical rows (the same candidate sampled twice) are computed once, so that
    they tie exactly, as they do in mbrs."""
    first: dict[bytes, int] = {}
    inverse = np.array([first.setdefault(row.tobytes(), len(first)) for row in scores], dtype=np.int64)
    distinct = scores[np.unique(inverse, return_index=True)[1]]
    resamples, columns = samples.shape[0], scores.shape[1]
    cells = (np.arange(resamples)[:, None] * columns + samples).ravel()
    counts = np.bincount(cells, minlength=resamples * columns).reshape(resamples, columns).astype(np.float64)
    if weights is None:
        means = (distinct @ counts.T) / samples.shape[1]
    else:
        weighted = counts * weights[None, :columns]
        means = (distinct @ weighted.T) / weighted.sum(axis=1)[None, :]
    return means[inverse]


def _expected(scores: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    if scores.shape[1] == 0:
        return np.full(scores.shape[0], np.nan)
    if weights is None:
        return scores.mean(axis=1)
    w = weights[:scores.shape[1]]
    return (scores @ w) / w.sum()


def prune_item(count: int, references: int, columns: Columns, weights: np.ndarray | None, alpha: float,
               schedule: list[int], resamples: int, seed: int) -> np.ndarray:
    """One item's expected utilities (NaN for the pruned candidates). ``columns(kept, start, stop)`` scores the
    kept candidates against pseudo-references ``start:stop``; ``weights`` (summing to 1 over all pseudo-references)
    weigh them. The steps and draws of mbrs' ``decode_pruning`` with ``nbest=1``."""
    draws = TorchCPUDraws(seed)
    kept = np.arange(count)
    scores = np.zeros((count, 0))
    previous = 0
    for step in schedule:
        r = min(step, references)
        if r <= previous:
            break
        scores = np.concatenate([scores, columns(kept, previous, r)], axis=1)
        current_best = int(np.argmax(_expected(scores, weights)))   # the first of equal ones, as torch.argmax
        samples = draws.randint(r, (resamples, r))
        means = _bootstrap_means(scores, samples, weights)
        win_rates = np.mean(means >= means[current_best][None, :], axis=1)
        winners = np.flatnonzero(win_rates > 1 - alpha)
        if len(winners) < 1:
            break
        kept, scores, previous = kept[winners], scores[winners], r
    out = np.full(count, np.nan)
    if count:
        out[kept] = _expected(scores[:, :previous], weights)
    return out


def pruning_mbr(candidates: Any, metric: Any = None, pseudo_references: Any = None, *, utilities: Any = None,
                sample_weights: Any = None, sample_log_probs: Any = None, alpha: float = 0.99,
                sampling_scheduler: Sequence[int] = DEFAULT_SCHEDULE, num_bootstrap_samples: int = 500,
                seed: int = 0, num_threads: int | None = None, memory_budget: int | str | None = None) -> MBRResult:
    """MBR with confidence-based pruning, as mbrs' ``pruning_mbr`` decoder: the same steps, bootstrap draws and
    choices on the same utilities and seed.

    The utilities come from ``metric`` (one metric or registry name, default ``"chrf"``; only the pairs a step needs
    are scored) against ``pseudo_references`` (None: the item's candidates, each against itself too, as mbrs is
    called with the samples as references), or from precomputed ``utilities`` (per item a candidates x
    pseudo-references matrix, as :func:`refscore.mbr` takes them). ``sample_weights`` / ``sample_log_probs`` weigh
    the pseudo-references as in :func:`refscore.mbr`. ``alpha`` (0 < alpha <= 1) is the confidence threshold,
    ``sampling_scheduler`` the prefix sizes, ``num_bootstrap_samples`` the resamples per step, ``seed`` the seed of
    each item's draws. In the result, pruned candidates have NaN utilities; the others their expected utility over
    the last step's pseudo-references.

    >>> result = pruning_mbr([["a b c", "a b d", "x y z", "a b c"]], metric="chrf", sampling_scheduler=[2, 4])
    >>> result.chosen.tolist(), result.best
    ([0], ['a b c'])
    """
    alpha = check_number(alpha, "alpha", minimum=0.0, maximum=1.0)
    if alpha == 0:
        raise InputError("alpha must be > 0 (with 0 no candidate survives the first step); mbrs' default is 0.99")
    schedule = _schedule(sampling_scheduler)
    resamples = check_int(num_bootstrap_samples, "num_bootstrap_samples", minimum=1)
    seed = check_int(seed, "seed", minimum=0, maximum=2**32 - 1, hint="torch's CPU generator seeds with 32 bits")
    items, refs = check_item_lists(candidates, pseudo_references, references_name="pseudo_references",
                                   without="None: the candidates")
    if utilities is not None:
        if metric is not None:
            raise InputError("pruning_mbr: give metric or utilities, not both")
        if isinstance(utilities, Mapping):
            raise InputError(f"pruning_mbr takes one utility matrix per item, got {len(utilities)} by name "
                             f"({', '.join(map(str, utilities))}); combine them first (a weighted sum), or use mbr")
        matrices = utility_matrices(utilities, items, refs)
        sizes = [m.shape[1] for m in matrices]
    else:
        resolved = resolve_metric("chrf" if metric is None else metric)
        sign = 1.0 if resolved.higher_is_better else -1.0
        sizes = [len(item if refs is None else refs[k]) for k, item in enumerate(items)]
    weights = check_sample_weights(sample_weights, sample_log_probs, sizes)
    out = np.full((len(items), max((len(item) for item in items), default=0)), np.nan)
    for k, item in enumerate(items):
        if utilities is not None:
            matrix = matrices[k]

            def columns(kept: np.ndarray, start: int, stop: int) -> np.ndarray:
                return matrix[kept, start:stop]
        else:
            references = item if refs is None else refs[k]

            def columns(kept: np.ndarray, start: int, stop: int) -> np.ndarray:
                scored = pairwise(resolved, [[item[i] for i in kept]], [references[start:stop]],
                                  num_threads=num_threads, memory_budget=memory_budget, progress=False)
                return sign * scored[0]
        out[k, :len(item)] = prune_item(len(item), sizes[k], columns, None if weights is None else weights[k],
                                        alpha, schedule, resamples, seed)
    chosen, best = select(out, items)
    return MBRResult(out, chosen, best)
