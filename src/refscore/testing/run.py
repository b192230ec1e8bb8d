"""``evaluate(cases, checks)``: every case scored by every check (one batch call per check), pass/fail, band,
explanation, per-check summaries and the suite gates.

>>> from refscore.testing import Check, TestCase, evaluate
>>> run = evaluate([TestCase("the cat sat on the mat", "the cat sat on the mat", id="same"),
...                 TestCase("a dog", "the cat sat on the mat", id="other")], [Check("chrf", threshold=0.5)])
>>> [(r.case_id, r.passed) for r in run.results()]
[('same', True), ('other', False)]
>>> run.summary["chrf"].pass_rate, run.ok
(0.5, False)
"""
from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.gc_pause import collection_paused
from refscore.progress import progress_bar
from refscore.errors import InputError
from refscore.testing.cases import TestCase, load_cases
from refscore.testing.checks import Check, as_checks
from refscore.testing.explain import explain
from refscore.testing.gates import GateResult, evaluate_gates
from refscore.testing.outcome import CaseResult, CheckOutcome
from refscore.testing.saved import FORMAT_VERSION, SavedCheck, SavedRun, load_run, metric_settings, write_json_atomic
from refscore.testing.summary import CheckSummary, summarize

NO_OUTPUT = "no output"
#: Rough cost of one explanation, for the progress bar's "long run" estimate.
SECONDS_PER_EXPLANATION = 0.0005
EXPLAIN_MODES = ("failing", "all", "none")


@dataclass(frozen=True)
class SummarySettings:
    """How :class:`TestRun` computes its intervals and gates (the arguments of :func:`evaluate`)."""

    confidence: float = 0.95
    n_bootstrap: int = 1000
    seed: int | None = 12345
    alpha: float = 0.05
    baseline: SavedRun | None = None
    num_threads: int | None = None


class TestRun:
    """The result of :func:`evaluate`: per case and check a :class:`CaseResult`, per check a
    :class:`~refscore.testing.summary.CheckSummary`, and the gates (``ok`` when all pass).

    The summaries (their bootstrap intervals) and the gates are computed on first use: scores, pass/fail, bands
    and explanations are ready when :func:`evaluate` returns.
    """

    __test__ = False    # not a pytest test class despite its name

    def __init__(self, cases: list[TestCase], outcomes: dict[str, CheckOutcome],
                 settings: SummarySettings = SummarySettings()) -> None:
        self.cases = cases
        self.outcomes = outcomes
        self.settings = settings

    @functools.cached_property
    def summary(self) -> dict[str, CheckSummary]:
        """Per check: pass rate with its Wilson interval, mean with its bootstrap interval."""
        nrefs = {outcome.nrefs for outcome in self.outcomes.values()}
        settings = self.settings
        return summarize(self.checks, [o.scores for o in self.outcomes.values()],
                         [o.passed for o in self.outcomes.values()], nrefs.pop() if len(nrefs) == 1 else -1,
                         confidence=settings.confidence, n_bootstrap=settings.n_bootstrap, seed=settings.seed,
                         num_threads=settings.num_threads)

    @functools.cached_property
    def gates(self) -> list[GateResult]:
        """Every gate of every check (pass rate, mean, baseline), in check order."""
        settings = self.settings
        return evaluate_gates(self.outcomes, self.summary, [str(case.id) for case in self.cases], settings.baseline,
                              alpha=settings.alpha, n_bootstrap=settings.n_bootstrap, seed=settings.seed,
                              num_threads=settings.num_threads)

    @property
    def checks(self) -> list[Check]:
        return [outcome.check for outcome in self.outcomes.values()]

    @property
    def ok(self) -> bool:
        """Whether every gate passed (by default a check's pass-rate gate needs every case to pass)."""
        return all(gate.passed for gate in self.gates)

    def results(self, case_id: str | None = None) -> list[CaseResult]:
        """Every case × check result (case order, then check order), or those of one case."""
        indices = range(len(self.cases)) if case_id is None else [self.index(case_id)]
        return [self.result(index, name) for index in indices for name in self.outcomes]

    def failures(self) -> list[CaseResult]:
        return [result for result in self.results() if not result.passed]

    @functools.cached_property
    def positions(self) -> dict[str, int]:
        """Case id -> position in :attr:`cases`."""
        return {str(case.id): index for index, case in enumerate(self.cases)}

    def index(self, case_id: str) -> int:
        """The position of a case by its id."""
        try:
            return self.positions[case_id]
        except KeyError:
            raise KeyError(f"no case with id {case_id!r}") from None

    def result(self, index: int, check_name: str) -> CaseResult:
        outcome = self.outcomes[check_name]
        passed = bool(outcome.passed[index])
        return CaseResult(str(self.cases[index].id), check_name, float(outcome.scores[index]), outcome.threshold,
                          passed, outcome.bands[index], outcome.reasons[index], outcome.explanations.get(index),
                          not passed and outcome.check.min_pass_rate < 1)

    def subset(self, case_ids: list[str]) -> TestRun:
        """This run restricted to the cases ``case_ids`` (in that order): their scores, pass flags, bands, reasons
        and explanations as scored here, the summaries and gates computed anew over them.

        >>> run = evaluate([TestCase("a cat", "a cat", id="x"), TestCase("a dog", "a cat", id="y")], ["chrf"])
        >>> [(r.case_id, r.passed) for r in run.subset(["y"]).results()]
        [('y', False)]
        """
        indices = [self.index(case_id) for case_id in case_ids]
        outcomes = {name: CheckOutcome(outcome.check, outcome.scores[indices], outcome.passed[indices],
                                       [outcome.bands[i] for i in indices], [outcome.reasons[i] for i in indices],
                                       {new: outcome.explanations[old] for new, old in enumerate(indices)
                                        if old in outcome.explanations}, outcome.nrefs)
                    for name, outcome in self.outcomes.items()}
        return TestRun([self.cases[i] for i in indices], outcomes, self.settings)

    def case_passed(self, case_id: str) -> bool:
        return all(result.passed for result in self.results(case_id))

    def __iter__(self) -> Iterator[CaseResult]:
        return iter(self.results())

    def __repr__(self) -> str:
        rates = ", ".join(f"{name} {s.passed}/{s.cases}" for name, s in self.summary.items())
        return f"TestRun({len(self.cases)} cases; {rates}; {'ok' if self.ok else 'failed'})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: cases, checks (with their per-case scores, used as a baseline later), summaries, gates."""
        return {
            "refscore_test_run": FORMAT_VERSION,
            "scale": "0-1",     # test cases use the API's scale; refscore score prints built-in metrics 0-100
            "ok": self.ok,
            "checks": [{"name": o.check.name, "metric": o.check.spec.registry, "threshold": o.check.threshold,
                        "higher_is_better": o.check.higher_is_better, "config_hash": o.check.metric.config_hash,
                        "settings": metric_settings(o.check.metric), "scores": o.scores.tolist()}
                       for o in self.outcomes.values()],
            "cases": [{**case.to_dict(), "results": [self.result(index, name).to_dict() for name in self.outcomes]}
                      for index, case in enumerate(self.cases)],
            "summary": {name: s.to_dict() for name, s in self.summary.items()},
            "gates": [gate.to_dict() for gate in self.gates],
        }

    def to_saved(self) -> SavedRun:
        """This run's per-case scores, as :func:`~refscore.testing.saved.load_run` reads them back."""
        return SavedRun("<this run>", [str(case.id) for case in self.cases],
                        {name: SavedCheck(o.check.metric.name, o.check.metric.config_hash,
                                          metric_settings(o.check.metric), o.scores.copy())
                         for name, o in self.outcomes.items()},
                        {str(case.id): case.references for case in self.cases})

    def save(self, path: Any) -> None:
        """Write :meth:`to_dict` as JSON atomically (a temporary file renamed over ``path``): a baseline later."""
        write_json_atomic(path, self.to_dict())


def _score_check(check: Check, outputs: list[str], references: list[list[str]], missing: list[bool], explain_mode: str,
                 num_threads: int | None, ids: list[str]) -> CheckOutcome:
    # only scores read by key take the case ids (a Check subclass may override scores() without them)
    scores, stats = (check.scores(outputs, references, num_threads=num_threads, ids=ids)
                     if check.metric.keyed_scores else check.scores(outputs, references, num_threads=num_threads))
    passed = check.passes(scores) & ~np.asarray(missing, dtype=bool)
    reasons = [NO_OUTPUT if gone else None for gone in missing]
    explanations = {}
    if explain_mode != "none":
        chosen = [index for index in range(len(outputs))
                  if not missing[index] and (explain_mode == "all" or not passed[index])]
        # explanations run in Python, one case at a time: a bar when there are many
        with progress_bar(len(chosen), f"explaining {check.name}", expected_seconds=SECONDS_PER_EXPLANATION
                          * len(chosen), unit="case") as bar:
            for index in chosen:
                explanations[index] = explain(check, outputs[index], references[index], ids[index])
                bar.update(1)
    return CheckOutcome(check, scores, passed, check.bands_of(scores), reasons, explanations,
                        stats.nrefs)


def evaluate(cases: Any, checks: Any, *, baseline: SavedRun | TestRun | str | None = None, alpha: float = 0.05,
             explain: str = "failing", confidence: float = 0.95, n_bootstrap: int = 1000, seed: int | None = 12345,
             no_output_is_error: bool = False, num_threads: int | None = None) -> TestRun:
    """Score every case with every check.

    Args:
        cases: test cases (:class:`TestCase` objects, mappings, a table, or a file path for :func:`load_cases`).
        checks: :class:`Check` objects, metric names, or a mapping name -> threshold.
        baseline: an earlier run of the same cases (a :class:`TestRun`, or the path of one saved with
            :meth:`TestRun.save`): a check's gate fails when this run is worse and a paired bootstrap says the
            difference is significant at ``alpha``.
        explain: explain ``"failing"`` cases (default), ``"all"`` or ``"none"``.
        confidence: level of the pass-rate (Wilson) and mean (bootstrap) intervals.
        n_bootstrap: resamples of the bootstrap interval and the paired bootstrap.
        seed: seed of those resamples.
        no_output_is_error: raise on a case whose ``actual_output`` is missing instead of failing it.
        num_threads: threads of the compiled core.

    A case with no output is scored as the empty string (so the means stay defined) and fails with the reason
    "no output".
    """
    if explain not in EXPLAIN_MODES:
        raise InputError(f"explain must be one of {EXPLAIN_MODES}, got {explain!r}")
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise InputError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    # a suite of many cases builds several objects per case and check, none of them in a cycle
    with collection_paused():
        case_list = load_cases(cases)
        if not case_list:
            source = f"{os.fspath(cases)}: " if isinstance(cases, (str, os.PathLike)) else ""
            raise InputError(f"{source}no test cases: give at least one case (actual_output, expected_output)")
        check_list = as_checks(checks)
        missing = [case.actual_output is None for case in case_list]
        if no_output_is_error and any(missing):
            case = case_list[missing.index(True)]
            raise InputError(f"{case.source or 'case ' + repr(case.id)}: actual_output is null or missing (case "
                             f"{case.id!r}); give the application's output (without no_output_is_error a missing "
                             f"output is a failed case)")
        outputs = ["" if case.actual_output is None else case.actual_output for case in case_list]
        references = [case.references for case in case_list]
        if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 1:
            raise InputError(f"n_bootstrap must be an int >= 1, got {n_bootstrap!r}")
        if not (isinstance(confidence, float) and 0 < confidence < 1):
            raise InputError(f"confidence must be a float between 0 and 1 (e.g. 0.95), got {confidence!r}")
        saved = baseline.to_saved() if isinstance(baseline, TestRun) else (
            load_run(baseline) if baseline is not None else None)
        if saved is not None:   # a baseline of other cases, references or settings is an error now, not at the gates
            saved.verify([str(case.id) for case in case_list], references, check_list)
        ids = [str(case.id) for case in case_list]     # the join key of scores computed elsewhere
        outcomes = {check.name: _score_check(check, outputs, references, missing, explain, num_threads, ids)
                    for check in check_list}
    return TestRun(case_list, outcomes, SummarySettings(confidence, n_bootstrap, seed, alpha, saved, num_threads))
