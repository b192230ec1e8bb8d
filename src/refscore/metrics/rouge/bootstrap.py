"""The corpus bootstraps of both ROUGE flavors, reproduced draw for draw: rouge-score's ``BootstrapAggregator``
(:func:`bootstrap_percentiles`) and ROUGE-1.5.5's printed ``Average_X`` lines (:func:`perl_averages`).

>>> import numpy as np
>>> low, mid, high = bootstrap_percentiles([np.array([[0.0], [1.0]])], n_samples=20, seed=0)[0][:, 0]
>>> float(low) <= float(mid) <= float(high)
True
>>> perl_averages(np.array([[1.0], [0.5]]), resamples=10)[0].average
0.775
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from refscore.checks import check_int, check_num_threads, check_number
from refscore._core._rouge155 import perl_bootstrap_means
from refscore.errors import InputError


def bootstrap_percentiles(matrices: Sequence[np.ndarray], n_samples: int = 1000, confidence_interval: float = 0.95,
                          seed: int | np.random.RandomState | None = None) -> list[np.ndarray]:
    """rouge-score's ``BootstrapAggregator._bootstrap_resample`` for each ``(documents, measures)`` matrix in turn,
    consuming the random stream in the same order; returns ``(3, measures)`` arrays (low, mid, high).

    ``seed=None`` draws from NumPy's global random state exactly as rouge-score does; an int seeds a private
    ``RandomState`` that draws what the global state draws after ``np.random.seed(seed)``.
    """
    check_number(confidence_interval, "confidence_interval", minimum=0, maximum=1)
    check_int(n_samples, "n_samples", minimum=1)
    rng = np.random.RandomState(seed) if isinstance(seed, (int, np.integer)) else (seed or np.random)
    delta = (1 - confidence_interval) / 2
    quantiles = 100 * np.array([delta, 0.5, 1 - delta])
    results = []
    for matrix in matrices:
        matrix = np.asarray(matrix, dtype=np.float64)
        n = matrix.shape[0]
        if n == 0:
            raise InputError("bootstrap needs at least one document")
        sample_mean = np.zeros((n_samples, matrix.shape[1]))
        for i in range(n_samples):
            sample_mean[i, :] = np.mean(matrix[rng.choice(n, size=n), :], axis=0)
        results.append(np.percentile(sample_mean, quantiles, axis=0))
    return results


@dataclasses.dataclass(frozen=True)
class PerlAverage:
    """One printed ``Average_X: value (95%-conf.int. low - high)`` line of ROUGE-1.5.5."""

    average: float
    low: float
    high: float


def _round5(value: float) -> float:
    return float(f"{value:.5f}")


def perl_averages(values: np.ndarray, *, eval_ids: Sequence[str] | None = None, confidence: float = 95.0,
                  resamples: int = 1000, num_threads: int | None = None) -> list[PerlAverage]:
    """ROUGE-1.5.5's ``computeAverages`` (``-t 0``) for the columns of ``values`` (documents x k).

    Rows are put in the script's instance order (test ids ``"<eval id>.<peer>"`` sorted as strings; the eval
    ids default to ``"1"``..``"n"`` as with ``-z``), resampled with its seeded bootstrap, and the printed
    average (the mean of the resample means) and interval are returned per column, rounded as printed.
    """
    num_threads = check_num_threads(num_threads)
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    ids = [str(i + 1) for i in range(n)] if eval_ids is None else [str(e) for e in eval_ids]
    if len(ids) != n:
        raise InputError(f"eval_ids has {len(ids)} entries for {n} documents")
    order = sorted(range(n), key=lambda i: (ids[i] + ".").encode("utf-8"))
    means = np.sort(perl_bootstrap_means(np.ascontiguousarray(values[order]), resamples, num_threads), axis=0)
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a

    def at(column: np.ndarray, index: int) -> float:
        return float(column[index]) if 0 <= index < len(column) else 0.0  # Perl: undef reads as 0

    results = []
    for k in range(values.shape[1]):
        column = means[:, k]
        total = 0.0
        for value in column.tolist():  # the script's summation order: ascending
            total += value
        low = at(column, lower_a) + (at(column, lower_a + 1) - at(column, lower_a)) * ratio
        high = at(column, upper_a) + (at(column, upper_a + 1) - at(column, upper_a)) * ratio
        results.append(PerlAverage(_round5(total / resamples), _round5(low), _round5(high)))
    return results
