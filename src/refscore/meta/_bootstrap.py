"""Bootstrap replicates of a correlation over item resamples, many resamples per numpy call: the intervals of
:func:`refscore.meta.evaluate.meta_evaluate`.

A resample draws items with replacement; ``counts`` holds how often each item is drawn (one row per resample).
Each replicate is the statistic of the resampled matrix, as computing it on ``human[:, picks]`` and
``metric[:, picks]`` would give (``picks``: the drawn items in item order, each as often as drawn):

* system level: the resampled system scores of every resample are rows of one matrix, and the statistic of each
  row is computed at once (:func:`refscore.meta.correlations.row_values`): the same numbers as one call each;
* grouping ``"item"``: an item's correlation does not change when it is drawn again, so a replicate is the mean
  of the items' correlations weighted by their counts (one matrix product; the sum runs in another order than the
  one over repeated rows, within a few units of the last place);
* groupings ``"none"`` and ``"sys"``: the resampled matrices of a block of resamples are stacked and the statistic
  computed for all of them at once, in blocks of about ``_BLOCK_CELLS`` cells.

Statistics without such a form (the tie-calibrated Kendall, which re-calibrates on every resample, WMT20's
Kendall-like without item grouping) return None: the caller computes them one resample at a time.

>>> human = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0]])
>>> metric = np.array([[0.1, 0.3, 0.2, 0.4], [0.2, 0.1, 0.4, 0.3]])
>>> counts = np.array([[1, 1, 1, 1], [2, 0, 2, 0]])   # the items themselves; items 0 and 2 twice each
>>> segment_replicates("pearson", human, metric, "none", {}, counts).round(4).tolist()
[0.9, 0.9234]
>>> round(float(np.corrcoef(human[:, [0, 0, 2, 2]].ravel(), metric[:, [0, 0, 2, 2]].ravel())[0, 1]), 4)
0.9234
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from refscore.meta._rows import Rows, rows_of
from refscore.meta.correlations import row_values
from refscore.progress import timed_map

#: Cells (resamples x systems x items) stacked at once for groupings "none" and "sys" (each array of a block is
#: 8 MiB; the statistic holds a few of them).
_BLOCK_CELLS = 1 << 20
#: The statistics computed for many rows at once; the others are one resample at a time.
_BATCHED = ("pearson", "spearman", "kendall")


def system_replicates(statistic: str, gold: np.ndarray, metric: np.ndarray, options: Mapping[str, Any]
                      ) -> np.ndarray | None:
    """The system-level ``statistic`` of each resample: ``gold`` and ``metric`` are ``(resamples, systems)``
    system scores (NaN: a system without a rated item in the resample). None: no batched form."""
    if statistic == "pairwise_accuracy":   # the share of agreeing pairs: Kendall's acc23 over the systems
        statistic, options = "kendall", {"variant": "acc23"}
    if statistic not in _BATCHED:
        return None
    values, _ = row_values(statistic, Rows(gold, metric, ~np.isnan(gold)), **options)
    return values


def segment_replicates(statistic: str, human: np.ndarray, metric: np.ndarray, grouping: str,
                       options: Mapping[str, Any], counts: np.ndarray, description: str = "bootstrap",
                       progress: bool | None = None) -> np.ndarray | None:
    """The segment-level ``statistic`` (``grouping``) of each resample of ``counts`` (``(resamples, items)``
    draws per item) of the ``(systems, items)`` matrices. None: no batched form. Blocks of resamples show a
    :func:`refscore.progress.timed_map` bar with its estimate when they run long."""
    if statistic == "kendall_ties_opt" or (statistic == "kendall_like" and grouping != "item"):
        return None
    if grouping == "item":
        values, weights = row_values(statistic, rows_of(human, metric, "item"), **dict(options))
        weights = np.ones(values.shape) if weights is None else np.asarray(weights, dtype=np.float64)
        defined = ~np.isnan(values) & (weights > 0)
        total = counts @ np.where(defined, values * weights, 0.0)
        mass = counts @ np.where(defined, weights, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mass > 0, total / mass, np.nan)
    if statistic not in _BATCHED:
        return None
    items = human.shape[1]
    picks = np.repeat(np.tile(np.arange(items), counts.shape[0]), counts.ravel().astype(np.intp)).reshape(-1, items)
    step = max(1, _BLOCK_CELLS // human.size)
    blocks = [picks[start:start + step] for start in range(0, picks.shape[0], step)]
    results = timed_map(lambda block: _stacked(statistic, human, metric, grouping, options, block), blocks,
                        description, progress)
    return np.concatenate(results) if results else np.zeros(0)


def _stacked(statistic: str, human: np.ndarray, metric: np.ndarray, grouping: str, options: Mapping[str, Any],
             picks: np.ndarray) -> np.ndarray:
    """The statistic of each resample of a block (``picks``: its drawn items), the resampled matrices stacked."""
    h = np.moveaxis(human[:, picks], 1, 0)    # (resamples, systems, items)
    m = np.moveaxis(metric[:, picks], 1, 0)
    if grouping == "none":    # one row per resample, system by system as rows_of flattens
        h, m = h.reshape(h.shape[0], 1, -1), m.reshape(m.shape[0], 1, -1)
    values, _ = row_values(statistic, Rows(h, m, ~np.isnan(h)), **dict(options))
    defined = ~np.isnan(values)
    count = defined.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, np.where(defined, values, 0.0).sum(-1) / count, np.nan)


__all__ = ["segment_replicates", "system_replicates"]
