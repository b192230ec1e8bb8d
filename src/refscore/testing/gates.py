"""Suite gates: per check a minimum pass rate (default: every case), an optional minimum mean score, and — given a
baseline run — "not significantly worse than the baseline" (a paired bootstrap on the per-case scores).

A pass rate or a mean moves from run to run with the cases that happen to be hard; comparing the same cases
paired, and failing only when the drop is larger than resampling the cases would produce (p < ``alpha``), tells a
real regression from noise.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.testing.checks import external_check_name
from refscore.testing.outcome import CheckOutcome
from refscore.testing.saved import SavedRun
from refscore.testing.summary import CheckSummary, Comparison, compare_with_baseline


@dataclass(frozen=True)
class GateResult:
    """One gate of one check: its kind (``pass_rate``, ``mean``, ``baseline``), whether it passed, and why."""

    check: str
    kind: str
    passed: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "gate": self.kind, "passed": self.passed, "message": self.message}


def _rate_gate(summary: CheckSummary, minimum: float) -> GateResult:
    low, high = summary.pass_rate_interval
    text = (f"pass rate {summary.passed}/{summary.cases} = {summary.pass_rate:.1%} "
            f"({summary.confidence:.0%} Wilson interval {low:.1%}–{high:.1%}), required >= {minimum:.1%}")
    return GateResult(summary.check, "pass_rate", summary.pass_rate >= minimum, text)


def _left_out(before: np.ndarray, now: np.ndarray, kept: np.ndarray) -> str:
    """Which cases the comparison leaves out and why (no score in the baseline, in this run)."""
    if kept.all():
        return ""
    total, dropped = len(kept), int(np.count_nonzero(~kept))
    why = [f"{count} without a score (NaN or null) in {where}" for count, where in
           ((int(np.count_nonzero(~np.isfinite(before))), "the baseline"),
            (int(np.count_nonzero(~np.isfinite(now))), "this run")) if count]
    return (f"; compared on the {total - dropped} of {total} cases both runs scored ({dropped} left out: "
            f"{', '.join(why)})")


def _naming_hint(outcome: CheckOutcome) -> str:
    """How to compare a check on scores computed elsewhere with the baseline's: by one declared name, since its
    default name is its file's stem, which each version's scores file has its own of."""
    check = outcome.check
    if not check.metric.keyed_scores or check.name != external_check_name(check.given):   # a declared name: as given
        return ""
    return (f" (a check on a scores file is named by the file's stem: to compare it with the baseline's check on "
            f"its own scores file, give both the same name: --check-option {check.name}.name=NAME, "
            f"Check(..., name=NAME), or the table name of [tool.refscore.checks.NAME])")


def _baseline_gates(outcomes: Mapping[str, CheckOutcome], case_ids: list[str], baseline: SavedRun, *, alpha: float,
                    n_bootstrap: int, seed: int | None, num_threads: int | None) -> dict[str, GateResult]:
    previous = {name: baseline.scores_for(name, case_ids) for name in outcomes}
    gates = {name: GateResult(name, "baseline", True, f"not in the baseline {baseline.source}; not compared"
                              f"{_naming_hint(outcomes[name])}")
             for name, scores in previous.items() if scores is None}
    # a NaN on either side would make both means NaN and every comparison false (the gate passing whatever the
    # scores): compare the cases both runs scored; checks that keep the same cases share one draw of resamples
    groups: dict[bytes, list[str]] = {}
    kept = {}
    baselines = {name: before for name, before in previous.items() if before is not None}
    for name, before in previous.items():
        if before is None:
            continue
        kept[name] = np.isfinite(before) & np.isfinite(np.asarray(outcomes[name].scores, dtype=np.float64))
        if not kept[name].any():
            gates[name] = GateResult(name, "baseline", False,
                                     f"no case has a score in both this run and the baseline {baseline.source} (NaN "
                                     f"or null in one of them for all {len(case_ids)}): cannot compare; save a new "
                                     f"baseline")
            continue
        groups.setdefault(kept[name].tobytes(), []).append(name)
    for names in groups.values():
        mask = kept[names[0]]
        compared = [outcomes[name] for name in names]
        nrefs = {outcome.nrefs for outcome in compared}
        comparisons = compare_with_baseline([o.check for o in compared],
                                            [np.asarray(o.scores, dtype=np.float64)[mask] for o in compared],
                                            [baselines[name][mask] for name in names],
                                            nrefs.pop() if len(nrefs) == 1 else -1, n_bootstrap=n_bootstrap,
                                            seed=seed, num_threads=num_threads)
        for name, comparison in comparisons.items():
            now = np.asarray(outcomes[name].scores, dtype=np.float64)
            gates[name] = _gate(name, comparison, alpha, _left_out(baselines[name], now, mask))
    return gates


def _gate(name: str, comparison: Comparison, alpha: float, left_out: str) -> GateResult:
    significant = comparison.p_value < alpha
    if comparison.mean == comparison.baseline_mean:
        detail = "equal to the baseline"
    else:
        verdict = ("significantly worse" if comparison.worse and significant else
                   "worse, but not significantly" if comparison.worse else "not worse")
        detail = f"{verdict} (paired bootstrap p = {comparison.p_value:.4f}, alpha {alpha:g})"
    return GateResult(name, "baseline", not (comparison.worse and significant),
                      f"mean {comparison.mean:.3f} vs baseline {comparison.baseline_mean:.3f}: {detail}{left_out}")


def evaluate_gates(outcomes: Mapping[str, CheckOutcome], summary: Mapping[str, CheckSummary], case_ids: list[str],
                   baseline: SavedRun | None, *, alpha: float, n_bootstrap: int, seed: int | None,
                   num_threads: int | None = None) -> list[GateResult]:
    """Every gate of every check, in check order."""
    compared = {} if baseline is None else _baseline_gates(outcomes, case_ids, baseline, alpha=alpha,
                                                           n_bootstrap=n_bootstrap, seed=seed,
                                                           num_threads=num_threads)
    gates = []
    for name, outcome in outcomes.items():
        check, this = outcome.check, summary[name]
        gates.append(_rate_gate(this, check.min_pass_rate))
        if check.min_mean is not None:
            low, high = this.mean_interval
            op = ">=" if check.higher_is_better else "<="
            gates.append(GateResult(name, "mean", check.reaches(this.mean, check.min_mean),
                                    f"mean {this.mean:.3f} (bootstrap interval {low:.3f}–{high:.3f}), required "
                                    f"{op} {check.min_mean:g}"))
        if name in compared:
            gates.append(compared[name])
    return gates


__all__ = ["GateResult", "evaluate_gates"]
