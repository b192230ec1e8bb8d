"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator``,
``fmeasure`` — the same names, fields and numbers."""
from __future__ import annotations

import abc
import collections
from typing import Any

import numpy as np

from refscore.metrics.rouge.bootstrap import bootstrap_percentiles


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores."""


class BaseScorer(metaclass=abc.ABCMeta):
    """Base class for Scorer objects."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Calculates score between the target and prediction."""


class BootstrapAggregator:
    """rouge-score's aggregator: for each score type, ``n_samples`` resamples of the documents (drawn with
    ``np.random.choice`` from NumPy's global state, in the same order as rouge-score), then the percentiles of the
    resampled means as ``AggregateScore(low, mid, high)``.

    ``seed`` (refscore extension): an int draws from a private ``RandomState(seed)`` instead, which gives the
    numbers rouge-score gives after ``np.random.seed(seed)``.
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000, seed: int | None = None) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._seed = seed
        self._scores: dict[str, list[Any]] = collections.defaultdict(list)
        self._classes: dict[str, type] = {}   # per type, the class of the first score added (the result's class)

    def add_scores(self, scores: dict[str, Any]) -> None:
        """Adds a sample for future aggregation (a dict of score type to ``Score``-like tuples)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)
            self._classes.setdefault(score_type, score.__class__)

    def add_score_columns(self, columns: dict[str, Any]) -> None:
        """refscore extension: many samples at once, per type a ``Score`` of equally long arrays (precision,
        recall, fmeasure), as :meth:`RougeScorer.score_columns` returns them. The same aggregate as
        :meth:`add_scores` of each sample's ``Score``, without a tuple per sample.

        >>> aggregator = BootstrapAggregator(seed=1)
        >>> aggregator.add_score_columns({"rouge1": Score(np.array([1.0, 0.5]), np.array([1.0, 0.5]),
        ...                                               np.array([1.0, 0.5]))})
        >>> aggregator.aggregate()["rouge1"].low.fmeasure
        np.float64(0.5)
        """
        for score_type, (precision, recall, f) in columns.items():
            # float64 as rouge-score's vstack of Python floats: the bootstrap means are summed in this dtype
            self._scores[score_type].append(np.column_stack((precision, recall, f)).astype(np.float64, copy=False))
            self._classes.setdefault(score_type, Score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """A dict mapping score_type to AggregateScore objects."""
        types = list(self._scores)
        matrices = [np.vstack(tuple(self._scores[t])) for t in types]
        bounds = bootstrap_percentiles(matrices, self._n_samples, self._confidence_interval, self._seed)
        result = {}
        for score_type, percentiles in zip(types, bounds):
            cls = self._classes[score_type]
            intervals = tuple(cls(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=intervals[0], mid=intervals[1], high=intervals[2])
        return result


def fmeasure(precision: float, recall: float) -> float:
    """Computes f-measure given precision and recall values."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
