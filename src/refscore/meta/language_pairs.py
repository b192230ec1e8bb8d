"""Meta-evaluation over several language pairs at once: WMT's global pairwise accuracy (Kocmi et al. 2021; the
WMT22–24 metrics tasks' main system-level statistic), the share of the system pairs of *every* language pair that
a metric orders as the humans do, pooled over the pairs (not the mean of the per-pair accuracies): mt-metrics-eval
sums ``stats.Agreement``'s ``(agree, num_pairs)`` over the language pairs.

Within a language pair, a pair of systems agrees when the sign of the metric's difference equals the sign of the
humans' (a tie agrees with a tie only); a system without human ratings is left out, as ``stats.Agreement`` leaves
out ``None`` gold scores.

>>> human = {"en-de": [-1.0, -2.0, -3.0], "zh-en": [-5.0, -1.0, -2.0]}
>>> metric = {"en-de": [0.9, 0.8, 0.7], "zh-en": [0.5, 0.6, 0.7]}
>>> result = global_pairwise_accuracy(human, metric)
>>> result.agree, result.pairs, round(result.accuracy, 4)
(5, 6, 0.8333)
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError
from refscore.meta.evaluate import MetricScores, human_system_scores

__all__ = ["GlobalAccuracy", "global_accuracy_table", "global_pairwise_accuracy", "pairwise_agreement"]


@dataclasses.dataclass(frozen=True)
class GlobalAccuracy:
    """A metric's pooled pairwise accuracy: ``agree`` of ``pairs`` system pairs, and each language pair's share
    (``per_pair``: name -> (agree, pairs))."""

    metric: str
    agree: int
    pairs: int
    per_pair: dict[str, tuple[int, int]]

    @property
    def accuracy(self) -> float:
        return self.agree / self.pairs if self.pairs else float("nan")


def pairwise_agreement(human: Sequence[float], metric: Sequence[float]) -> tuple[int, int]:
    """``(agree, num_pairs)`` of one language pair's system scores, as ``stats.Agreement`` counts them (NaN human
    scores left out).

    >>> pairwise_agreement([3.0, 2.0, float("nan"), 1.0], [0.3, 0.1, 0.5, 0.2])
    (2, 3)
    """
    h, m = np.asarray(human, dtype=np.float64), np.asarray(metric, dtype=np.float64)
    if h.ndim != 1 or h.shape != m.shape:
        raise InputError(f"pairwise_agreement takes one score per system for both sides, got shapes {h.shape} "
                         f"and {m.shape}")
    rated = ~np.isnan(h)
    h, m = h[rated], m[rated]
    upper = np.triu_indices(h.size, 1)
    agree = np.sign(h[:, None] - h[None, :])[upper] == np.sign(m[:, None] - m[None, :])[upper]
    return int(agree.sum()), int(agree.size)


def global_pairwise_accuracy(human: Mapping[str, Sequence[float]], metric: Mapping[str, Sequence[float]],
                             name: str = "metric") -> GlobalAccuracy:
    """The pooled pairwise accuracy of one metric over the language pairs of ``human`` (pair name -> system
    scores); ``metric`` has the same pairs and systems, higher meaning better."""
    missing = [pair for pair in human if pair not in metric]
    if missing:
        raise InputError(f"global pairwise accuracy: {name} has no system scores for {', '.join(missing)}")
    per_pair = {pair: pairwise_agreement(human[pair], metric[pair]) for pair in human}
    return GlobalAccuracy(name, sum(a for a, _ in per_pair.values()), sum(n for _, n in per_pair.values()),
                          per_pair)


def global_accuracy_table(pairs: Mapping[str, tuple[np.ndarray, Sequence[MetricScores]]],
                          system_score: str = "corpus") -> list[GlobalAccuracy]:
    """Each metric's :class:`GlobalAccuracy` from every language pair's ``(human ratings (systems, items),
    metric scores)``: the human system score is the mean rating, the metric's its system score
    (:class:`~refscore.meta.evaluate.MetricScores`, lower-is-better metrics negated; ``system_score`` as
    :func:`~refscore.meta.evaluate.meta_evaluate`'s). Every pair must have the same metrics."""
    names = [scores.name for scores in next(iter(pairs.values()))[1]]
    human: dict[str, Any] = {}
    metric: dict[str, dict[str, Any]] = {name: {} for name in names}
    for pair, (ratings, scores) in pairs.items():
        if [s.name for s in scores] != names:
            raise InputError(f"global pairwise accuracy: {pair} has the metrics {[s.name for s in scores]}, the "
                             f"other pairs {names}; give every pair the same metrics")
        human[pair] = human_system_scores(np.asarray(ratings, dtype=np.float64))[0]
        for s in scores:
            metric[s.name][pair] = s.system_scores(ratings, system_score).systems
    return [global_pairwise_accuracy(human, metric[name], name) for name in names]
