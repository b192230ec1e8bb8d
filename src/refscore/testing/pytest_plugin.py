"""pytest plugin (entry point ``pytest11: refscore``): one pytest test per test case, a summary of every check.

In a test module::

    import pytest

    @pytest.mark.refscore_cases("cases.jsonl", checks={"bleu": 0.3, "rougeL": 0.5})
    def test_translation(case, refscore_check):
        refscore_check(case)                 # or refscore_check(case, actual_output=my_app(case.input))

The marker parametrizes ``case`` with the file's cases (ids are the case ids; the path is relative to the test
file); without ``checks=`` the checks of ``[tool.refscore]`` in ``pyproject.toml`` apply. The cases of a file are
scored in one batch per check the first time one of them is checked. A failing case fails its test with the
case id, each score, threshold, band and explanation. The terminal summary lists every check's pass rate and mean
with their intervals and the gates; ``--refscore-baseline FILE`` fails the session when a check is significantly
worse than a saved run, ``--refscore-save FILE`` saves this run, ``--refscore-report FILE`` writes the report
(``.json``, ``.xml`` for JUnit XML, text otherwise). :func:`refscore_cases` is the same parametrization as a
helper for ``@pytest.mark.parametrize``.
"""
from __future__ import annotations

import sys
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# refscore.testing is imported on first use only: the plugin loads in every pytest run of an environment that has
# refscore installed, and most of those runs never check a case.
if TYPE_CHECKING:
    from refscore.testing.cases import TestCase
    from refscore.testing.checks import Check
    from refscore.testing.config import Settings
    from refscore.testing.run import TestRun

MARKER = "refscore_cases"
_STATE = pytest.StashKey["RefscoreSession"]()


def refscore_cases(path: Any) -> list[Any]:
    """``pytest.param(case, id=case.id)`` for each case of a file, for ``@pytest.mark.parametrize("case", ...)``.

    A relative ``path`` is relative to the file that calls this (the test module), as the marker's path is, so
    ``pytest sub/test_app.py`` finds ``sub/cases.jsonl`` from any working directory. Also importable as
    ``refscore.testing.refscore_cases``.
    """
    from refscore.testing.cases import load_cases

    caller = sys._getframe(1).f_globals.get("__file__")    # the test module calling this at import time
    if caller is not None and not Path(path).is_absolute():
        path = Path(caller).resolve().parent / path
    return [pytest.param(case, id=str(case.id)) for case in load_cases(path)]


class RefscoreSession:
    """The session's settings, the batch runs of each cases file and every case a test checked."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.batches: dict[tuple[str, tuple[str, ...]], TestRun] = {}
        self.checked: dict[str, tuple[TestCase, list[Check]]] = {}
        self.runs: list[TestRun] = []
        self.error: str | None = None

    @cached_property
    def settings(self) -> Settings:
        """``[tool.refscore]`` of the rootdir's ``pyproject.toml``."""
        from refscore.errors import InputError
        from refscore.testing.config import Settings, load_settings

        pyproject = Path(self.config.rootpath) / "pyproject.toml"
        try:
            return load_settings(pyproject) if pyproject.is_file() else Settings()
        except (InputError, OSError) as exc:
            raise pytest.UsageError(f"refscore: {exc}") from None

    def checks_for(self, node: pytest.Item) -> list[Check]:
        from refscore.testing.checks import as_checks

        marker = node.get_closest_marker(MARKER)
        chosen = marker.kwargs.get("checks") if marker is not None else None
        if chosen is not None:
            return as_checks(chosen)
        if not self.settings.checks:
            raise pytest.UsageError("refscore: no checks; pass checks= to @pytest.mark.refscore_cases or configure "
                                    "[tool.refscore.checks] in pyproject.toml")
        return self.settings.checks

    def batch(self, node: pytest.Item, checks: list[Check]) -> TestRun | None:
        """The batch run of the cases file the marker names (scored once per file and set of checks)."""
        marker = node.get_closest_marker(MARKER)
        if marker is None or not marker.args:
            return None
        from refscore.testing.run import evaluate

        path = str(Path(node.path).parent / marker.args[0])
        key = (path, tuple(repr(check) for check in checks))
        if key not in self.batches:
            self.batches[key] = evaluate(path, checks, alpha=self.settings.alpha, explain=self.settings.explain,
                                         no_output_is_error=self.settings.no_output_is_error)
        return self.batches[key]

    def check(self, node: pytest.Item, case: TestCase, actual_output: Any) -> None:
        from refscore.testing.cases import TestCase
        from refscore.testing.run import evaluate

        from refscore.errors import RefscoreError

        try:
            checks = self.checks_for(node)
        except (pytest.UsageError, RefscoreError) as exc:   # a failed test with the message, not a traceback
            pytest.fail(str(exc), pytrace=False)
        if actual_output is not None:
            case = TestCase(actual_output, case.expected_output, case.input, case.id, case.metadata, case.source)
        batch = self.batch(node, checks)
        position = batch.positions.get(str(case.id)) if batch is not None else None
        if batch is not None and position is not None and batch.cases[position] == case:     # the file's own output: batch result
            results = batch.results(str(case.id))
        else:   # an output produced by the test itself: scored on its own
            external = [check.name for check in checks if check.metric.keyed_scores]
            if external:    # their scores belong to the cases file's outputs
                pytest.fail(f"refscore case {case.id!r}: the checks {', '.join(external)} read scores computed "
                            f"elsewhere for the outputs of the cases file; an output the test produces has none "
                            f"(check the file's own case, or give this test checks= without them)", pytrace=False)
            results = evaluate([case], checks, explain=self.settings.explain, n_bootstrap=1,
                               no_output_is_error=self.settings.no_output_is_error).results()
        key = str(case.id) if str(case.id) not in self.checked else f"{node.nodeid}::{case.id}"
        self.checked[key] = (case, checks)
        failed = [result for result in results if not result.passed]
        if not failed:
            return
        from refscore.wording import counted

        tolerated = all(result.tolerated for result in failed)
        verdict = ("under its threshold, tolerated: the pass-rate gate (min_pass_rate < 1) decides the session"
                   if tolerated else "failed")
        lines = [f"refscore case {case.id!r}: {len(failed)} of {counted(len(results), 'check')} {verdict}"]
        lines += [f"  {result.describe()}" for result in results]
        if tolerated:   # reported (xfail, with the explanation), not failed: the gates decide
            pytest.xfail("\n".join(lines))
        pytest.fail("\n".join(lines), pytrace=False)

    def finish(self, options: Any) -> None:
        """One run per set of checks the tests used (summary, gates, baseline); write the requested files."""
        if not self.checked:
            return
        from refscore.testing.cases import TestCase
        from refscore.testing.formats import json_report, junit_xml, text_report
        from refscore.testing.run import evaluate
        from refscore.io.atomic import write_text_atomically

        groups: dict[tuple[str, ...], list[tuple[str, TestCase, list[Check]]]] = {}
        for key, (case, checks) in self.checked.items():
            groups.setdefault(tuple(map(repr, checks)), []).append((key, case, checks))
        wants_files = options.refscore_baseline or options.refscore_save or options.refscore_report
        if wants_files and len(groups) > 1:
            raise ValueError(f"the tests used {len(groups)} different sets of checks "
                             f"({'; '.join(', '.join(g) for g in groups)}); --refscore-baseline, --refscore-save and "
                             f"--refscore-report need one: configure the checks once in [tool.refscore]")
        for signature, members in groups.items():
            cases = [case for _, case, _ in members]
            checks = members[0][2]
            same = [run for key, run in self.batches.items()
                    if key[1] == signature and run.cases == cases and options.refscore_baseline is None]
            if not same and options.refscore_baseline is None:     # some cases of a file (-k): its batch's scores
                same = [run.subset([str(case.id) for case in cases]) for key, run in self.batches.items()
                        if key[1] == signature and all(run.positions.get(str(case.id)) is not None and
                                                       run.cases[run.positions[str(case.id)]] == case
                                                       for case in cases)][:1]
            self.runs.append(same[0] if same else evaluate(
                [TestCase(c.actual_output, c.expected_output, c.input, key, c.metadata) for key, c, _ in members],
                checks, baseline=options.refscore_baseline, alpha=self.settings.alpha, explain="none"))
        run = self.runs[0]
        if options.refscore_save:
            run.save(options.refscore_save)
        if options.refscore_report:
            target = str(options.refscore_report)
            text = (json_report(run) if target.endswith(".json") else
                    junit_xml(run) if target.endswith(".xml") else text_report(run))
            write_text_atomically(target, text + ("" if text.endswith("\n") else "\n"))


def _has_refscore_table(pyproject: Path) -> bool:
    """Whether ``pyproject`` has ``[tool.refscore]`` (a cheap look, without importing refscore's metrics)."""
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return "tool.refscore" in text


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refscore", "refscore test cases")
    group.addoption("--refscore-baseline", metavar="FILE", default=None,
                    help="fail the session when a check is significantly worse than this saved run")
    group.addoption("--refscore-save", metavar="FILE", default=None, help="save this run (a later baseline)")
    group.addoption("--refscore-report", metavar="FILE", default=None,
                    help="write the refscore report (.json, .xml = JUnit XML, else text)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(path, checks=None): one test per test case of the file "
                                       f"(parametrizes the 'case' argument)")
    state = config.stash[_STATE] = RefscoreSession(config)
    outputs = {"--refscore-save": config.getoption("refscore_save"),
               "--refscore-report": config.getoption("refscore_report")}
    if any(outputs.values()):   # an unwritable output stops the run now, before any test, with one line
        from refscore.io.atomic import UnwritableOutputError, check_output_paths

        try:
            check_output_paths(outputs)
        except UnwritableOutputError as exc:
            raise pytest.UsageError(f"refscore: {exc}") from None
    if _has_refscore_table(Path(config.rootpath) / "pyproject.toml"):
        state.settings    # a bad [tool.refscore] stops the run here, with its message


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is None:
        return
    if not marker.args:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: @pytest.mark.{MARKER} needs the cases file path")
    if "case" not in metafunc.fixturenames:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: a test marked {MARKER} takes a 'case' argument")
    from refscore.errors import RefscoreError

    path = Path(metafunc.definition.path).parent / marker.args[0]
    state: RefscoreSession = metafunc.config.stash[_STATE]
    chosen = marker.kwargs.get("checks")
    try:    # bad checks= are one collection error of this test, not a traceback per case
        if chosen is not None:
            state.checks_for(metafunc.definition)
    except (RefscoreError, TypeError) as exc:
        raise pytest.Collector.CollectError(f"refscore: {metafunc.definition.nodeid}: checks={chosen!r}: {exc} (fix "
                                            f"checks= in @pytest.mark.{MARKER})") from None
    try:
        cases = refscore_cases(path)
    except (RefscoreError, OSError) as exc:    # a collection error with the message, no traceback
        raise pytest.Collector.CollectError(f"refscore: {exc}") from None
    metafunc.parametrize("case", cases)


@pytest.fixture
def refscore_check(request: pytest.FixtureRequest) -> Any:
    """``refscore_check(case, actual_output=None)``: fail the test unless the case passes every check."""
    state: RefscoreSession = request.config.stash[_STATE]

    def check(case: TestCase, actual_output: str | None = None) -> None:
        state.check(request.node, case, actual_output)

    return check


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state: RefscoreSession = session.config.stash[_STATE]
    try:
        state.finish(session.config.option)
    except Exception as exc:    # a bad baseline or an unwritable file: report it, fail the session
        state.error = f"{type(exc).__name__}: {exc}"
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    if any(not run.ok for run in state.runs) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state: RefscoreSession = config.stash[_STATE]
    if state.error is None and not state.runs:
        return
    terminalreporter.section("refscore")
    if state.error is not None:
        terminalreporter.write_line(f"refscore error: {state.error}", red=True)
        return
    from refscore.testing.formats import SCALE_NOTE

    terminalreporter.write_line(SCALE_NOTE)
    for run in state.runs:
        if len(state.runs) > 1:
            terminalreporter.write_line(f"checks {', '.join(map(repr, run.checks))}:")
        for name, summary in run.summary.items():
            low, high = summary.pass_rate_interval
            mean_low, mean_high = summary.mean_interval
            terminalreporter.write_line(
                f"{name}: {summary.passed}/{summary.cases} passed ({summary.pass_rate:.1%}, {summary.confidence:.0%} "
                f"Wilson interval {low:.1%}–{high:.1%}); mean {summary.mean:.3f} (bootstrap {mean_low:.3f}–"
                f"{mean_high:.3f})")
        for gate in run.gates:
            terminalreporter.write_line(f"gate {gate.check} {gate.kind}: {'ok' if gate.passed else 'FAILED'} — "
                                        f"{gate.message}", red=not gate.passed)
