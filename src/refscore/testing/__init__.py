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

import importlib
from typing import Any

_PUBLIC: dict[str, tuple[str, ...]] = {
    "refscore.testing.assertions": ("assert_scores",),
    "refscore.testing.cases": ("TestCase", "load_cases"),
    "refscore.testing.checks": ("BLEU_BANDS", "Check", "UnknownCheckError"),
    "refscore.testing.gates": ("GateResult",),
    "refscore.testing.run": ("CaseResult", "TestRun", "evaluate"),
    "refscore.testing.saved": ("SavedRun", "load_run"),
    "refscore.testing.summary": ("CheckSummary", "wilson_interval"),
}
_LAZY: dict[str, str] = {name: module for module, names in _PUBLIC.items() for name in names}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'refscore.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
