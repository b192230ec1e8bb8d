"""The results of a test run that the run, its gates and its reports share: one case under one check
(:class:`CaseResult`) and one check over every case (:class:`CheckOutcome`). Below both :mod:`refscore.testing.run`
and :mod:`refscore.testing.gates`, so neither imports the other's module for its types.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.testing.checks import Check


@dataclass(frozen=True)
class CaseResult:
    """One case under one check. ``tolerated``: the case is under its threshold in a check whose
    ``min_pass_rate`` is below 1, so it is reported (an xfail in pytest) and the check's gates decide the run."""

    case_id: str
    check: str
    score: float
    threshold: str
    passed: bool
    band: str | None
    reason: str | None
    explanation: str | None
    tolerated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.case_id, "check": self.check, "score": self.score, "threshold": self.threshold,
                "passed": self.passed, "tolerated": self.tolerated, "band": self.band, "reason": self.reason,
                "explanation": self.explanation}

    @property
    def status(self) -> str:
        """``passed``, ``FAILED``, or ``tolerated`` (under the threshold; the gates decide)."""
        return "passed" if self.passed else "tolerated" if self.tolerated else "FAILED"

    def describe(self) -> str:
        """One line: score, threshold, band, and the reason or explanation."""
        status = self.status
        band = f", {self.band}" if self.band else ""
        detail = self.reason or self.explanation
        return (f"{self.check}: {self.score:.3f} (threshold {self.threshold}{band}) {status}"
                + (f" — {detail}" if detail else ""))


@dataclass
class CheckOutcome:
    """A check over all cases: scores, pass flags, bands, reasons and explanations by case index."""

    check: Check
    scores: np.ndarray
    passed: np.ndarray
    bands: list[str | None]
    reasons: list[str | None]
    explanations: dict[int, str]
    nrefs: int

    @functools.cached_property
    def threshold(self) -> str:
        """The threshold as shown, e.g. ``>= 0.3``."""
        return self.check.describe_threshold()
