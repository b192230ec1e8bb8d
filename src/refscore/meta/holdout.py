"""Held-out evaluation of a calibrated threshold: k-fold cross-validation by system.

:func:`refscore.meta.calibration.calibrate` measures a threshold on the cases that chose it, which flatters it.
:func:`held_out` deals the systems into ``folds`` folds (shuffled by ``numpy.random.default_rng(seed)``, then
dealt round-robin, so fold sizes differ by at most one system), calibrates on the cases of every other fold and
decides the cases of the fold with that threshold. Every labelled case is decided once by a threshold that never
saw its system; the figure is the objective over all these decisions pooled (one confusion table, not a mean of
fold figures). Splitting by system rather than by case keeps a system's style out of its own threshold: the
question a user asks is how the threshold does on the next system. ``folds`` equal to the number of systems is
leave-one-system-out. The pooled cases are all the labelled cases, so the baseline
(:func:`refscore.meta.calibration.baseline`) is the in-sample one.

>>> scores = [0.1, 0.7, 0.8, 0.2, 0.6, 0.9, 0.3, 0.65, 0.85]
>>> labels = [0, 1, 1, 0, 1, 1, 0, 0, 1]
>>> systems = ["A", "A", "A", "B", "B", "B", "C", "C", "C"]
>>> result = held_out(scores, labels, systems, folds=3)    # leave one system out
>>> result.systems, result.thresholds     # without B, 0.7 separates; B's 0.6 (a pass) then fails
((('A',), ('C',), ('B',)), (0.4, 0.4, 0.7))
>>> round(result.agreement, 3)            # 7 of 9 decided as the humans did (C's 0.65 passes, a human fail)
0.778
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.errors import InputError
from refscore.meta.calibration import _rates, calibrate, labels_from_ratings


@dataclass(frozen=True)
class HeldOut:
    """The objective (``agreement``) and the confusion rates of the held-out decisions pooled over the folds, each
    fold's systems and the threshold calibrated without them."""

    objective: str
    agreement: float
    accuracy: float
    precision: float
    recall: float
    f1: float
    folds: int
    systems: tuple[tuple[str, ...], ...]
    thresholds: tuple[float, ...]
    cases: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"objective": self.objective, "agreement": self.agreement, "accuracy": self.accuracy,
                "precision": self.precision, "recall": self.recall, "f1": self.f1, "folds": self.folds,
                "systems": [list(names) for names in self.systems], "thresholds": list(self.thresholds),
                "cases": self.cases}


def system_folds(systems: Sequence[str], folds: int, seed: int | None = 12345) -> list[tuple[str, ...]]:
    """The distinct ``systems`` (sorted, then shuffled by ``default_rng(seed)``) dealt round-robin into ``folds``.

    >>> system_folds(["A", "B", "C", "D", "E"], 2, seed=1)
    [('B', 'D', 'E'), ('A', 'C')]
    """
    distinct = sorted(set(systems))
    if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)) or not 2 <= folds <= len(distinct):
        raise InputError(f"folds must be an integer from 2 to the number of systems with a label ({len(distinct)}), "
                         f"got {folds!r}" + ("; a held-out split needs at least 2 systems" if len(distinct) < 2
                                             else ""))
    shuffled = [distinct[i] for i in np.random.default_rng(seed).permutation(len(distinct))]
    return [tuple(sorted(shuffled[start::folds])) for start in range(folds)]


def held_out(scores: Any, labels: Any, systems: Sequence[str], folds: int, *, higher_is_better: bool = True,
             threshold_range: tuple[float, float] = (0.0, 1.0), objective: str = "accuracy",
             target_precision: float | None = None, seed: int | None = 12345) -> HeldOut:
    """k-fold cross-validation by system of :func:`~refscore.meta.calibration.calibrate` (see the module
    docstring): ``systems`` names the system of each case; cases with a missing label are left out."""
    values = np.asarray(scores, dtype=np.float64).ravel()
    truth = labels_from_ratings(labels)
    names = np.asarray(systems, dtype=object).ravel()
    if not values.shape == truth.shape == names.shape:
        raise InputError(f"{values.size} scores, {truth.size} labels and {names.size} systems; give one of each "
                         "per case")
    known = ~np.isnan(truth)
    values, truth, names = values[known], truth[known], names[known]
    passed = np.zeros(values.size, dtype=bool)
    groups = system_folds(list(names), folds, seed)
    thresholds = []
    for index, group in enumerate(groups, 1):
        test = np.isin(names, group)
        try:
            fitted = calibrate(values[~test], truth[~test], higher_is_better=higher_is_better,
                               threshold_range=threshold_range, objective=objective,
                               target_precision=target_precision, n_bootstrap=0)
        except InputError as exc:
            raise InputError(f"fold {index} of {folds} (held out: {', '.join(group)}): {exc}") from None
        thresholds.append(fitted.threshold)
        passed[test] = (values[test] >= fitted.threshold if higher_is_better else
                        values[test] <= fitted.threshold)
    positives = int(truth.sum())
    rates = _rates(np.array([int((passed & (truth == 1)).sum())]), np.array([int(passed.sum())]), positives,
                   values.size)
    return HeldOut(objective, float(rates[objective][0]), float(rates["accuracy"][0]), float(rates["precision"][0]),
                   float(rates["recall"][0]), float(rates["f1"][0]), folds, tuple(groups), tuple(thresholds),
                   int(values.size))


__all__ = ["HeldOut", "held_out", "system_folds"]
