"""Test cases of LLM and generation applications: thresholds, bands, explanations, suite gates, pytest and CI.

See ``docs/testing.md``. Names are imported on first use, so the pytest plugin costs nothing in test runs that
do not check cases.

>>> from refscore.testing import Check, evaluate
>>> run = evaluate([{"actual_output": "Paris is the capital of France.",
...                  "expected_output": "The capital of France is Paris."}], [Check("chrf", threshold=0.4)])
>>> run.ok, run.results()[0].case_id
(True, 'case-1')
"""
from __future__ import annotations

from refscore.lazy import LazyNames

_LAZY = LazyNames(__name__, globals(), {
    "refscore.testing.assertions": ("assert_scores",),
    "refscore.testing.cases": ("TestCase", "load_cases"),
    "refscore.testing.checks": ("BLEU_BANDS", "Check", "UnknownCheckError"),
    "refscore.testing.gates": ("GateResult",),
    "refscore.testing.pytest_plugin": ("refscore_cases",),
    "refscore.testing.outcome": ("CaseResult",),
    "refscore.testing.run": ("TestRun", "evaluate"),
    "refscore.testing.saved": ("SavedRun", "load_run"),
    "refscore.testing.summary": ("CheckSummary", "wilson_interval"),
})
__getattr__ = _LAZY.getattr
__dir__ = _LAZY.dir
__all__ = _LAZY.names
