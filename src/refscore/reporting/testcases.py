"""The test-case view: a ``refscore.testing`` run (pass/fail per check, bands, explanations), failing cases first.

It reads the run's JSON form (``TestRun.to_dict()``, or the file ``TestRun.save(path)`` writes: format
``refscore_test_run`` 1), so the report needs nothing from ``refscore.testing`` but its output. Every text is
escaped.

>>> html = test_cases_html({"refscore_test_run": 1, "ok": False, "checks": [{"name": "chrf"}], "summary": {},
...     "gates": [], "cases": [{"id": "c1", "input": "q", "actual_output": "a", "expected_output": "b",
...     "results": [{"check": "chrf", "score": 0.2, "threshold": ">= 0.5", "passed": False, "band": None,
...                  "reason": None, "explanation": "few matches"}]}]})
>>> "FAILED" in html and "few matches" in html
True
"""
from __future__ import annotations

import html
import os
from collections.abc import Mapping
from typing import Any

from refscore.errors import InputError, InputTypeError
from refscore.reporting.saved_json import read_saved_json

FORMAT_KEY = "refscore_test_run"
SUPPORTED_FORMATS = (1,)
#: Cases listed (failing cases first); the summary and gates always cover every case.
MAX_CASES = 2000


def e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def load_test_run(test_run: Any) -> dict[str, Any]:
    """A test run as its JSON dict: a ``TestRun`` (its ``to_dict()``), such a dict, or the path of a saved run."""
    if hasattr(test_run, "to_dict") and callable(test_run.to_dict):
        value = test_run.to_dict()
    elif isinstance(test_run, (str, os.PathLike)):
        value = read_saved_json(test_run, "test_run", "TestRun.save()")
    elif isinstance(test_run, Mapping):
        value = dict(test_run)
    else:
        raise InputTypeError(f"test_run must be a refscore.testing TestRun, its to_dict() or the path of a saved "
                             f"run, got {type(test_run).__name__}")
    if not isinstance(value, dict) or value.get(FORMAT_KEY) not in SUPPORTED_FORMATS:
        raise InputError(f"test_run is not a refscore test run (format {FORMAT_KEY!r} "
                         f"{' or '.join(map(str, SUPPORTED_FORMATS))}); give TestRun.to_dict() or a saved run")
    if not isinstance(value.get("cases"), list):
        raise InputError("test_run has no 'cases' list; give TestRun.to_dict() or a saved run")
    return value


def _failed(case: Mapping[str, Any]) -> bool:
    return any(not result.get("passed", True) for result in case.get("results", []))


def _interval(values: Any) -> str:
    try:
        low, high = values
        return f"{low:.1%}–{high:.1%}"
    except (TypeError, ValueError):
        return ""


def _summary_html(run: Mapping[str, Any]) -> str:
    rows = []
    for name, summary in (run.get("summary") or {}).items():
        interval = _interval(summary.get("pass_rate_interval"))
        rows.append(f"<tr><th scope=row>{e(name)}</th><td>{e(summary.get('passed'))}/{e(summary.get('cases'))}</td>"
                    f"<td>{summary.get('pass_rate', 0):.1%} <span class=ci>[{interval}]</span></td>"
                    f"<td>{summary.get('mean', 0):.3f}</td></tr>")
    gates = "".join(f'<li class="{"pass" if g.get("passed") else "fail"}">{"✓" if g.get("passed") else "✗ FAILED"} '
                    f'<b>{e(g.get("check"))}</b> ({e(g.get("gate"))}): {e(g.get("message"))}</li>'
                    for g in run.get("gates") or [])
    table = (f'<table class="checks"><caption>Per check: passed cases, pass rate with its interval, mean score'
             f'</caption><thead><tr><th scope=col>check</th><th scope=col>passed</th><th scope=col>pass rate</th>'
             f'<th scope=col>mean</th></tr></thead><tbody>{"".join(rows)}</tbody></table>') if rows else ""
    return table + (f'<ul class="gates">{gates}</ul>' if gates else "")


def _result_cell(result: Mapping[str, Any]) -> str:
    passed = bool(result.get("passed"))
    score = result.get("score")
    detail = result.get("reason") or result.get("explanation")
    band = f" <span class=tag>{e(result.get('band'))}</span>" if result.get("band") else ""
    text = f"{score:.3f}" if isinstance(score, (int, float)) else e(score)
    return (f'<td class="{"pass" if passed else "fail"}">{"✓" if passed else "✗"} {text} '
            f'<span class=p>({e(result.get("threshold"))})</span>{band}'
            f'{f"<div class=why>{e(detail)}</div>" if detail else ""}</td>')


def test_cases_html(run: Mapping[str, Any], max_cases: int = MAX_CASES) -> str:
    """The section's HTML: overall status, gates, per-check summary, then the cases, failing ones first."""
    cases = sorted(run["cases"], key=lambda case: not _failed(case))  # stable: input order within each group
    checks = [str(check.get("name")) for check in run.get("checks", [])]
    failing = sum(_failed(case) for case in cases)
    head = "".join(f"<th scope=col>{e(name)}</th>" for name in checks)
    rows = []
    for case in cases[:max_cases]:
        by_check = {str(result.get("check")): result for result in case.get("results", [])}
        cells = "".join(_result_cell(by_check[name]) if name in by_check else "<td></td>" for name in checks)
        texts = "".join(f"<dt>{label}</dt><dd>{e(case.get(key))}</dd>"
                        for label, key in (("input", "input"), ("output", "actual_output"),
                                           ("expected", "expected_output")) if case.get(key) not in (None, ""))
        status = "FAILED" if _failed(case) else "passed"
        rows.append(f'<tr class="{status.lower()}"><th scope=row>{e(case.get("id"))}<div class=status>{status}</div>'
                    f'</th><td class=text><details><summary>texts</summary><dl>{texts}</dl></details></td>{cells}</tr>')
    note = (f"<p class=note>The first {max_cases} of {len(cases)} cases are listed (failing ones first).</p>"
            if len(cases) > max_cases else "")
    status = "all gates passed" if run.get("ok") else "FAILED"
    return (f'<p class="run-status {"pass" if run.get("ok") else "fail"}">Test run: <b>{status}</b> · {len(cases)} '
            f'cases, {failing} failing</p>{_summary_html(run)}{note}<table class="cases"><caption>Cases, failing '
            f'first: score per check (threshold), band, and the reason or explanation</caption><thead><tr>'
            f'<th scope=col>case</th><th scope=col>texts</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
            f'</table>')
