"""Threshold calibration: the threshold of a check that best agrees with human pass/fail labels.

Given per-case scores of a metric on its 0–1 test-case scale and a human label per case (pass or fail, or a rating
turned into a label by a cut-off, :func:`labels_from_ratings`), :func:`calibrate` tries every threshold that
changes a decision and keeps the one with the best agreement:

* ``objective="accuracy"``: the share of cases where the check and the human agree;
* ``objective="f1"``: F1 of "passes" (human pass = positive);
* ``objective="precision"`` with ``target_precision=P``: among the thresholds whose precision (the share of
  human passes among the cases the check passes) reaches P, the one that passes the most cases (best recall).

A case passes when its score is >= the threshold (lower-is-better metrics, TER: <=; the direction and
``threshold_range`` come from the metric class). The candidates are the midpoints between consecutive distinct
scores, plus the lower end of the range (every case passes) and the midpoint between the best score and the upper
end (none passes) when it lies inside the range; among thresholds of equal agreement the most lenient (the one
that passes the most cases) wins. The threshold reported is the number with the fewest decimals that makes the
same decisions as the chosen candidate (0.3 rather than 0.2889...). Cases with a missing label are left out
(counted in ``missing``).

The *baseline* is the objective's value of the better constant rule, "pass everything" or "fail everything" (for
accuracy: the majority's share; F1 and precision: passing everything): a threshold that does not beat it adds
nothing.

The interval is a percentile bootstrap over the cases (``n_bootstrap`` resamples drawn by
``numpy.random.default_rng(seed)``; 0: no interval) of the agreement *at the chosen threshold*. It is measured on
the cases that chose the threshold, so it is optimistic: :func:`refscore.meta.holdout.held_out` gives the figure on
held-out systems.

>>> result = calibrate([0.1, 0.4, 0.5, 0.8, 0.9], [False, False, True, True, True], n_bootstrap=200)
>>> result.threshold, result.agreement     # the candidate 0.45 decides as 0.5 does
(0.5, 1.0)
>>> result.baseline, result.baseline_rule   # 3 of 5 are human passes
(0.6, 'pass everything')
>>> round(agreement([0.1, 0.4, 0.5, 0.8], [False, True, True, True], 0.45), 2)
0.75
"""
from __future__ import annotations

import math
import operator
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.errors import InputError
from refscore.io.limits import parse_bounded, read_text_within_budget

OBJECTIVES = ("accuracy", "f1", "precision")
#: Comparisons of a cut-off (``">= -1"``): a rating that satisfies it is a human pass.
CUTOFF_OPERATORS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq}
_CUTOFF = re.compile(r"^\s*(>=|<=|==|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


@dataclass(frozen=True)
class Curve:
    """Agreement at every candidate threshold, in increasing threshold order."""

    thresholds: np.ndarray
    accuracy: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    passed: np.ndarray

    def values(self, objective: str) -> np.ndarray:
        return getattr(self, "precision" if objective == "precision" else objective)


@dataclass(frozen=True)
class Calibration:
    """The chosen ``threshold``, its ``agreement`` (the objective's value) with a bootstrap ``interval`` (NaNs
    without resamples), the confusion counts at the threshold, the whole :class:`Curve` and the ``baseline``: the
    objective's value of the better constant rule (``baseline_rule``: pass or fail everything)."""

    threshold: float
    objective: str
    agreement: float
    interval: tuple[float, float]
    accuracy: float
    precision: float
    recall: float
    f1: float
    cases: int
    human_passes: int
    check_passes: int
    missing: int
    higher_is_better: bool
    curve: Curve
    target_precision: float | None = None
    baseline: float = math.nan
    baseline_rule: str = "pass everything"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: everything but the curve's arrays, which come as lists."""
        curve = {name: getattr(self.curve, name).tolist() for name in
                 ("thresholds", "accuracy", "precision", "recall", "f1", "passed")}
        return {"threshold": self.threshold, "objective": self.objective, "agreement": self.agreement,
                "interval": list(self.interval), "accuracy": self.accuracy, "precision": self.precision,
                "recall": self.recall, "f1": self.f1, "cases": self.cases, "human_passes": self.human_passes,
                "check_passes": self.check_passes, "missing": self.missing,
                "higher_is_better": self.higher_is_better, "target_precision": self.target_precision,
                "baseline": self.baseline, "baseline_rule": self.baseline_rule, "curve": curve}


def parse_cutoff(text: str) -> tuple[str, float]:
    """A cut-off such as ``">= -1"`` as (operator, value).

    >>> parse_cutoff(">= -1")
    ('>=', -1.0)
    """
    match = _CUTOFF.match(text) if isinstance(text, str) else None
    if match is None:
        raise InputError(f"cut-off {text!r} is not a comparison with a number; write e.g. '>= -1' (MQM: at most one "
                         f"minor error) or '> 3' (operators {', '.join(CUTOFF_OPERATORS)})")
    return match.group(1), float(match.group(2))


def labels_from_ratings(ratings: Any, cutoff: str | None = None) -> np.ndarray:
    """Human labels as floats (1 pass, 0 fail, NaN missing): ratings that satisfy ``cutoff``
    (``">= -1"``) pass; without a cut-off the ratings must already be labels (0/1, booleans).

    >>> labels_from_ratings([-0.0, -1.0, -5.0, None], ">= -1").tolist()
    [1.0, 1.0, 0.0, nan]
    """
    values = np.array([math.nan if value is None else value for value in np.asarray(ratings, dtype=object).ravel()],
                      dtype=np.float64)
    missing = np.isnan(values)
    if cutoff is None:
        odd = values[~missing & (values != 0) & (values != 1)]
        if odd.size:
            raise InputError(f"the human scores are ratings (e.g. {odd[0]:g}), not pass/fail labels; give a cut-off "
                             f"that makes a rating a pass (pass_if='>= -1', --pass-if '>= -1')")
        return values
    name, bound = parse_cutoff(cutoff)
    labels = CUTOFF_OPERATORS[name](values, bound).astype(np.float64)
    labels[missing] = math.nan
    return labels


def _counts(scores: np.ndarray, labels: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(true passes, check passes) at each threshold (higher-is-better scores: a pass is score >= threshold)."""
    order = np.argsort(scores, kind="stable")
    sorted_scores = scores[order]
    positives_above = np.concatenate([np.cumsum(labels[order][::-1])[::-1], [0]])
    first = np.searchsorted(sorted_scores, thresholds, side="left")
    return positives_above[first], len(scores) - first


def _rates(true_passes: np.ndarray, passes: np.ndarray, positives: int, cases: int) -> dict[str, np.ndarray]:
    true_fails = (cases - passes) - (positives - true_passes)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(passes > 0, true_passes / np.maximum(passes, 1), math.nan)
        recall = np.where(positives > 0, true_passes / max(positives, 1), math.nan)
        f1 = np.where(passes + positives > 0, 2 * true_passes / np.maximum(passes + positives, 1), math.nan)
    return {"accuracy": (true_passes + true_fails) / cases, "precision": precision, "recall": recall, "f1": f1}


def baseline(objective: str, positives: int, cases: int) -> tuple[float, str]:
    """The objective's value of the better constant rule on ``cases`` cases of which ``positives`` are human
    passes, and the rule: passing everything, or failing everything where that is better (accuracy with a
    minority of passes); ties go to passing everything.

    >>> baseline("accuracy", 3, 10), baseline("f1", 3, 10)
    ((0.7, 'fail everything'), (0.46153846153846156, 'pass everything'))
    """
    if objective not in OBJECTIVES:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    rates = _rates(np.array([positives, 0]), np.array([cases, 0]), positives, cases)
    values = np.nan_to_num(rates[objective], nan=-1.0)
    index = int(np.argmax(values))
    return float(rates[objective][index]), ("pass everything", "fail everything")[index]


def _candidates(scores: np.ndarray, low: float, high: float) -> np.ndarray:
    distinct = np.unique(scores)
    middle = (distinct[:-1] + distinct[1:]) / 2
    top = [(distinct[-1] + high) / 2] if distinct[-1] < high else []
    return np.concatenate([[min(low, distinct[0])], middle, top])


def _shortest(candidate: float, scores: np.ndarray, low: float, high: float) -> float:
    """The value with the fewest decimals that makes the same decisions as ``candidate`` (lies above the scores
    below it and at or below the scores at or above it, inside the range): a threshold people can read.

    >>> _shortest(0.28890320900, np.array([0.1, 0.2731, 0.3047]), 0.0, 1.0)
    0.3
    """
    below = scores[scores < candidate]
    above = scores[scores >= candidate]
    floor = float(below.max()) if below.size else -math.inf
    ceiling = float(above.min()) if above.size else high
    for digits in range(0, 16):
        rounded = round(float(candidate), digits)
        if floor < rounded <= ceiling and low <= rounded <= high:
            return rounded
    return float(candidate)


def calibrate(scores: Any, labels: Any, *, higher_is_better: bool = True,
              threshold_range: tuple[float, float] = (0.0, 1.0), objective: str = "accuracy",
              target_precision: float | None = None, n_bootstrap: int = 1000, confidence: float = 0.95,
              seed: int | None = 12345) -> Calibration:
    """The threshold that best agrees with ``labels`` (1/True pass, 0/False fail, NaN/None missing); see the
    module docstring for the objectives, the candidates and the interval."""
    if objective not in OBJECTIVES:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if (objective == "precision") != (target_precision is not None):
        raise InputError("target_precision goes with objective='precision' and only there; give both or neither")
    if target_precision is not None and not 0 < target_precision <= 1:
        raise InputError(f"target_precision must be in (0, 1], got {target_precision}")
    if not 0 < confidence < 1:
        raise InputError(f"confidence must be between 0 and 1, got {confidence}")
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, (int, np.integer)) or n_bootstrap < 0:
        raise InputError(f"n_bootstrap must be a non-negative integer (0: no interval), got {n_bootstrap!r}")
    raw_scores = np.asarray(scores, dtype=np.float64).ravel()
    label_values = labels_from_ratings(labels)
    if raw_scores.shape != label_values.shape:
        raise InputError(f"{raw_scores.size} scores but {label_values.size} labels; give one label per case")
    if np.isnan(raw_scores).any():
        raise InputError(f"{int(np.isnan(raw_scores).sum())} scores are NaN; every case needs a score")
    known = ~np.isnan(label_values)
    if not known.any():
        raise InputError("no case has a label; give each case a pass/fail label or a rating and a cut-off")
    sign = 1.0 if higher_is_better else -1.0
    low, high = sorted((sign * threshold_range[0], sign * threshold_range[1]))
    oriented, truth = sign * raw_scores[known], label_values[known]
    candidates = _candidates(oriented, low, high)
    true_passes, passes = _counts(oriented, truth, candidates)
    positives, cases = int(truth.sum()), len(truth)
    rates = _rates(true_passes, passes, positives, cases)
    curve = Curve(sign * candidates, rates["accuracy"], rates["precision"], rates["recall"], rates["f1"], passes)
    best = _best(rates, passes, objective, target_precision)
    threshold = float(sign * _shortest(candidates[best], oriented, low, high))
    agreement_value = float(curve.values(objective)[best])
    interval = (_bootstrap(oriented, truth, float(candidates[best]), objective, n_bootstrap, confidence, seed)
                if n_bootstrap else (math.nan, math.nan))
    base, rule = baseline(objective, positives, cases)
    if not higher_is_better:
        curve = Curve(*(array[::-1] for array in (curve.thresholds, curve.accuracy, curve.precision, curve.recall,
                                                  curve.f1, curve.passed)))
    return Calibration(threshold, objective, agreement_value, interval, float(rates["accuracy"][best]),
                       float(rates["precision"][best]), float(rates["recall"][best]), float(rates["f1"][best]),
                       cases, positives, int(passes[best]), int((~known).sum()), higher_is_better, curve,
                       target_precision, base, rule)


def _best(rates: dict[str, np.ndarray], passes: np.ndarray, objective: str, target: float | None) -> int:
    """Index of the chosen candidate: the best value, ties to the most lenient (lowest oriented) threshold."""
    if objective == "precision":
        reached = np.flatnonzero(np.nan_to_num(rates["precision"], nan=-1.0)
                                 >= target - 1e-12)  # type: ignore[operator]  # precision: target given
        if not reached.size:
            best = np.nanmax(rates["precision"])
            raise InputError(f"no threshold reaches precision {target:g}; the best is {best:.3f} (lower "
                             f"target_precision, or use objective='accuracy' or objective='f1')")
        return int(reached[np.argmax(passes[reached])])
    values = np.nan_to_num(rates[objective], nan=-1.0)
    return int(np.argmax(values))   # the first maximum: candidates run from the most lenient up


def agreement(scores: Any, labels: Any, threshold: float, *, higher_is_better: bool = True,
              objective: str = "accuracy") -> float:
    """The agreement (accuracy, F1 or precision) of a fixed threshold with the labels (NaN labels left out)."""
    signed, truth, sign = _labelled(scores, labels, higher_is_better, objective)
    true_passes, passes = _counts(signed, truth, np.array([sign * threshold]))
    rates = _rates(true_passes, passes, int(truth.sum()), len(truth))
    return float(rates[objective][0])


def agreement_interval(scores: Any, labels: Any, threshold: float, *, higher_is_better: bool = True,
                       objective: str = "accuracy", n_bootstrap: int = 1000, confidence: float = 0.95,
                       seed: int | None = 12345) -> tuple[float, float]:
    """The bootstrap interval of :func:`agreement` (the same resampling as :func:`calibrate`'s interval), e.g. on
    held-out cases.

    >>> low, high = agreement_interval([0.1, 0.4, 0.5, 0.8], [0, 1, 1, 1], 0.45, n_bootstrap=200)
    >>> 0 <= low <= 0.75 <= high <= 1
    True
    """
    signed, truth, sign = _labelled(scores, labels, higher_is_better, objective)
    return _bootstrap(signed, truth, sign * threshold, objective, n_bootstrap, confidence, seed)


def _labelled(scores: Any, labels: Any, higher_is_better: bool, objective: str) -> tuple[np.ndarray, np.ndarray, float]:
    """(the labelled cases' scores, signed so that higher passes; their 0/1 labels; the sign), NaN labels left out,
    after checking ``objective``."""
    if objective not in OBJECTIVES:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    values = np.asarray(scores, dtype=np.float64).ravel()
    truth = labels_from_ratings(labels)
    known = ~np.isnan(truth)
    sign = 1.0 if higher_is_better else -1.0
    return sign * values[known], truth[known], sign


def _bootstrap(scores: np.ndarray, truth: np.ndarray, threshold: float, objective: str, n: int, confidence: float,
               seed: int | None) -> tuple[float, float]:
    """Percentile interval of the objective at ``threshold`` over ``n`` resamples of the cases."""
    if n < 1:
        raise InputError(f"n_bootstrap must be a positive integer, got {n}")
    rng = np.random.default_rng(seed)
    passed = (scores >= threshold).astype(np.int64)
    positive = truth.astype(np.int64)
    cases = len(scores)
    values = np.empty(n)
    for start in range(0, n, 256):   # blocks of resamples bound the memory of the index matrix
        rows = rng.integers(0, cases, size=(min(256, n - start), cases))
        true_passes = (passed[rows] & positive[rows]).sum(axis=1)
        passes = passed[rows].sum(axis=1)
        positives = positive[rows].sum(axis=1)
        true_fails = cases - passes - positives + true_passes
        with np.errstate(invalid="ignore", divide="ignore"):
            values[start:start + len(rows)] = {
                "accuracy": (true_passes + true_fails) / cases,
                "precision": true_passes / passes,
                "f1": 2 * true_passes / (passes + positives)}[objective]
    tail = 100 * (1 - confidence) / 2
    low, high = np.nanpercentile(values, [tail, 100 - tail])
    return float(low), float(high)


_TABLE_HEADER = re.compile(r"^\s*\[")


def write_threshold(path: str | os.PathLike[str], check: str, threshold: float) -> str:
    """Set ``threshold`` of the check ``check`` in ``[tool.refscore.checks.<check>]`` of a ``pyproject.toml``
    (created when missing), keeping every other line as it is; the file is replaced atomically. Returns the new
    text. The edited text is read back with ``tomllib`` and must hold the new threshold: a layout this edit cannot
    handle (the check defined as an inline table or a dotted key elsewhere) is refused, and the file left as it was.
    """
    from refscore.io.atomic import write_text_atomically

    name = os.fspath(path)
    try:
        text = read_text_within_budget(name) if os.path.exists(name) else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the configuration {name}: {exc}") from None
    key = check if re.fullmatch(r"[A-Za-z0-9_-]+", check) else '"' + check.replace('"', '\\"') + '"'
    value = repr(float(threshold))
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    header = re.compile(r"^\s*\[\s*tool\s*\.\s*refscore\s*\.\s*checks\s*\.\s*" + re.escape(key) + r"\s*\]\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if _TABLE_HEADER.match(lines[i])), len(lines))
        existing = next((i for i in range(start + 1, end) if re.match(r"^\s*threshold\s*=", lines[i])), None)
        if existing is not None:
            lines[existing] = f"threshold = {value}\n"
        else:
            lines.insert(start + 1, f"threshold = {value}\n")
    else:
        shorthand = re.compile(r"^\s*" + re.escape(key) + r"\s*=\s*[-+0-9.eE]+\s*(#.*)?$")
        table = re.compile(r"^\s*\[\s*tool\s*\.\s*refscore\s*\.\s*checks\s*\]")
        checks = next((i for i, line in enumerate(lines) if table.match(line)), None)
        end = len(lines) if checks is None else next((i for i in range(checks + 1, len(lines))
                                                      if _TABLE_HEADER.match(lines[i])), len(lines))
        found = None if checks is None else next((i for i in range(checks + 1, end) if shorthand.match(lines[i])),
                                                 None)
        if found is not None:
            lines[found] = f"{key} = {value}\n"
        else:
            lines += ["\n" if lines and lines[-1].strip() else "", f"[tool.refscore.checks.{key}]\n",
                      f"threshold = {value}\n"]
    new_text = "".join(lines)
    _verify(new_text, name, check, float(threshold))
    write_text_atomically(name, new_text)
    return new_text


def _verify(text: str, name: str, check: str, threshold: float) -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 has the tomli backport (a dependency there)
        import tomli as tomllib

    try:
        table = parse_bounded(tomllib.loads, text, name)["tool"]["refscore"]["checks"][check]
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise InputError(f"{name}: cannot write the threshold of check {check!r} into this file ({exc}); set "
                         f"threshold = {threshold!r} in [tool.refscore.checks.{check}] by hand") from None
    written = table if isinstance(table, (int, float)) else table.get("threshold") if isinstance(table, dict) else None
    if written != threshold:
        raise InputError(f"{name}: cannot write the threshold of check {check!r} into this file (its layout "
                         f"defines the check elsewhere); set threshold = {threshold!r} in "
                         f"[tool.refscore.checks.{check}] by hand")


__all__ = ["CUTOFF_OPERATORS", "Calibration", "Curve", "OBJECTIVES", "agreement", "agreement_interval", "baseline",
           "calibrate", "labels_from_ratings", "parse_cutoff", "write_threshold"]
