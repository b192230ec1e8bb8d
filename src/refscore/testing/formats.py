"""The output formats of a :class:`~refscore.testing.run.TestRun` (``refscore check``, the pytest plugin): a
readable table (failing cases first), JSON and JUnit XML. (The HTML report of systems is :mod:`refscore.reporting`.)

>>> from refscore.testing import evaluate
>>> run = evaluate([{"actual_output": "a b c", "expected_output": "a b c"}], ["chrf"])
>>> print(junit_xml(run).splitlines()[1])
<testsuites name="refscore" tests="2" failures="0">
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

from refscore.wording import counted, fixed
from refscore.testing.run import TestRun

# XML 1.0 forbids most control characters even when escaped; case texts may contain them.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: The scale note of every report header: test cases use the API's 0–1 scale, unlike ``refscore score``; scores
#: from outside (``file:`` checks) are as given there and everywhere.
SCALE_NOTE = ("scores on the 0–1 scale, as in the Python API; scores from outside as given (refscore score, compare "
              "and report print 0–1 scores as 0–100)")


def _interval(interval: tuple[float, float], percent: bool = False) -> str:
    low, high = interval
    return f"{low:.1%}–{high:.1%}" if percent else f"{fixed(low, 3)}–{fixed(high, 3)}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in [header, *rows]]


def text_report(run: TestRun) -> str:
    """Failing cases first (with their reasons and explanations), then passing ones, per-check summaries with
    their intervals, and the gates."""
    results = run.results()
    ordered = [r for r in results if not r.passed] + [r for r in results if r.passed]
    rows, notes = [], {}
    for result in ordered:
        rows.append([result.case_id, result.check, fixed(result.score, 3), result.threshold, result.band or "",
                     result.status])
        if not result.passed:
            notes[len(rows) - 1] = result.reason or result.explanation or ""
    lines = [f"refscore check: {counted(len(run.cases), 'case')} x {counted(len(run.outcomes), 'check')}; "
             f"{SCALE_NOTE}"]
    for index, line in enumerate(_table(["case", "check", "score", "threshold", "band", "result"], rows)):
        lines.append(line)
        note = notes.get(index - 1)
        if note:
            lines.append(f"    {note}")
    lines.append("")
    summary_rows = [[name, f"{s.passed}/{s.cases}", f"{s.pass_rate:.1%}", _interval(s.pass_rate_interval, True),
                     fixed(s.mean, 3), _interval(s.mean_interval)] for name, s in run.summary.items()]
    confidence = next(iter(run.summary.values())).confidence if run.summary else 0.95
    lines += _table(["check", "passed", "pass rate", f"{confidence:.0%} Wilson", "mean", f"{confidence:.0%} bootstrap"],
                    summary_rows)
    lines.append("")
    lines += [f"gate {gate.check} {gate.kind}: {'ok' if gate.passed else 'FAILED'} — {gate.message}"
              for gate in run.gates]
    lines.append(f"result: {'ok' if run.ok else 'FAILED'}")
    return "\n".join(lines)


def json_report(run: TestRun) -> str:
    return json.dumps(run.to_dict(), ensure_ascii=False, indent=1)


def _clean(text: Any) -> str:
    return _XML_INVALID.sub("\ufffd", str(text))


def _testcase(parent: ElementTree.Element, classname: str, name: str, failure: str | None, detail: str,
              outcome: str = "failure") -> None:
    """A ``<testcase>``; with a ``failure`` message, a ``<failure>`` (or ``<skipped>``: a tolerated case, as
    pytest writes an xfail) holding ``detail``."""
    element = ElementTree.SubElement(parent, "testcase", classname=_clean(classname), name=_clean(name), time="0")
    if failure is not None:
        ElementTree.SubElement(element, outcome, message=_clean(failure), type="refscore.check").text = \
            _clean(detail)
    else:
        ElementTree.SubElement(element, "system-out").text = _clean(detail)


def junit_xml(run: TestRun) -> str:
    """JUnit XML: one ``<testcase>`` per case and check (classname ``refscore.CHECK``), one per gate. A case under
    its threshold is a ``<failure>``, or ``<skipped>`` when tolerated (``min_pass_rate`` below 1: the gates decide,
    and a failed gate is a failure)."""
    results = {name: [run.result(index, name) for index in range(len(run.cases))] for name in run.outcomes}
    failures = (sum(r.status == "FAILED" for rows in results.values() for r in rows)
                + sum(not g.passed for g in run.gates))
    total = len(run.cases) * len(run.outcomes) + len(run.gates)
    root = ElementTree.Element("testsuites", name="refscore", tests=str(total), failures=str(failures))
    for name, check_results in results.items():
        suite = ElementTree.SubElement(root, "testsuite", name=f"refscore.{name}", tests=str(len(check_results)),
                                       failures=str(sum(r.status == "FAILED" for r in check_results)), errors="0",
                                       skipped=str(sum(r.tolerated for r in check_results)), time="0")
        for result in check_results:
            _testcase(suite, f"refscore.{name}", result.case_id,
                      None if result.passed else f"{name} {fixed(result.score, 3)} (threshold {result.threshold})"
                      + (f": {result.reason}" if result.reason else "")
                      + ("; tolerated (min_pass_rate below 1: the gates decide)" if result.tolerated else ""),
                      result.describe(), "skipped" if result.tolerated else "failure")
    gates = ElementTree.SubElement(root, "testsuite", name="refscore.gates", tests=str(len(run.gates)),
                                   failures=str(sum(not g.passed for g in run.gates)), errors="0", skipped="0",
                                   time="0")
    for gate in run.gates:
        _testcase(gates, "refscore.gates", f"{gate.check} {gate.kind}", None if gate.passed else gate.message,
                  gate.message)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


__all__ = ["SCALE_NOTE", "json_report", "junit_xml", "text_report"]
