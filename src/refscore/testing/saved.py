"""Saved runs: written atomically as JSON, read back as the baseline of a later run.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.json")
>>> write_json_atomic(path, {"refscore_test_run": FORMAT_VERSION, "checks": [], "cases": []})
>>> load_run(path).case_ids
[]
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.io.atomic import write_text_atomically
from refscore.errors import InputError
from refscore.io.limits import parse_bounded, read_text_within_budget
from refscore.protocol import Metric
from refscore.testing.checks import Check

FORMAT_VERSION = 1
#: How far (relative) a saved score may pass its metric's range: float32 rounding (BERTScore's cosines).
RANGE_SLACK = 1e-6


def json_text(data: Any) -> str:
    """``data`` as a saved run's JSON text (what :func:`write_json_atomic` writes).

    >>> json_text({"cases": []})
    '{\\n "cases": []\\n}\\n'
    """
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write_json_atomic(path: Any, data: Any) -> None:
    """Write ``data`` as JSON to a temporary file in the target's folder and rename it over ``path``, so a run
    interrupted midway (Ctrl-C, a crash) leaves the old file or none, never a partial one."""
    write_text_atomically(path, json_text(data))


def metric_settings(metric: Metric) -> dict[str, Any]:
    """A metric's settings by name, as JSON values (what a saved run records, to name a changed setting later).

    >>> from refscore.metrics.chrf import CHRF
    >>> metric_settings(CHRF(word_order=2))["word_order"]
    2
    """
    config = metric.config
    # BERTScore's numbers() leaves out the settings that do not change a number (device, batch size)
    values = config.numbers() if hasattr(config, "numbers") else dataclasses.asdict(config)
    return json.loads(json.dumps(values, default=repr, sort_keys=True))


@dataclass(frozen=True)
class SavedCheck:
    """One check of a saved run: its metric, the metric's config hash and settings (None in files saved before
    refscore recorded them), and the per-case scores in the run's case order."""

    metric: str
    config_hash: str
    settings: dict[str, Any] | None
    scores: np.ndarray


def _settings_difference(saved: SavedCheck, metric: Metric) -> str:
    """The settings that differ, by name: ``word_order 0 vs 2`` (baseline vs this run)."""
    declared = metric.baseline_declarations()
    if declared is not None and saved.settings is not None:
        return ", ".join(f"{name} {saved.settings.get(name)!r} vs {value!r}"
                         for name, value in declared.items() if saved.settings.get(name) != value)
    if saved.metric != metric.name:
        return f"metric {saved.metric} vs {metric.name}"
    now = metric_settings(metric)
    if saved.settings is not None:
        changed = [f"{name} {saved.settings.get(name)!r} vs {now.get(name)!r}"
                   for name in sorted(set(saved.settings) | set(now)) if saved.settings.get(name) != now.get(name)]
        if changed:
            return ", ".join(changed)
    return f"config hash {saved.config_hash} vs {metric.config_hash}"


def _comparable(saved: SavedCheck, check: Check) -> bool:
    """Whether a saved check's scores compare with ``check``'s: the same metric and configuration; for scores
    computed elsewhere, which each version brings in its own file, the same declarations (direction, range)."""
    declared = check.metric.baseline_declarations()
    if declared is not None and saved.settings is not None:
        return {name: saved.settings.get(name) for name in declared} == declared
    return (saved.metric, saved.config_hash) == (check.metric.name, check.metric.config_hash)


@dataclass(frozen=True)
class SavedRun:
    """An earlier run: its case ids, each case's expected outputs and, per check, a :class:`SavedCheck`."""

    source: str
    case_ids: list[str]
    checks: dict[str, SavedCheck]
    references: dict[str, list[str]]

    def verify(self, case_ids: list[str], references: list[list[str]], checks: list[Check]) -> None:
        """Raise unless this run can be compared with the saved one: the same case ids, the same expected outputs
        for each case, and the same metric settings for each check both runs have (the error names what differs).
        """
        if sorted(case_ids) != sorted(self.case_ids):
            gone = sorted(set(self.case_ids) - set(case_ids))
            new = sorted(set(case_ids) - set(self.case_ids))
            raise InputError(f"baseline {self.source} has other cases than this run (only in the baseline: "
                             f"{gone[:5]}, only in this run: {new[:5]}); a paired comparison needs the same cases — "
                             f"save a new baseline")
        changed = [(case_id, self.references[case_id], refs) for case_id, refs in zip(case_ids, references)
                   if self.references[case_id] != refs]
        if changed:
            shown = "; ".join(f"{case_id!r}: {len(now)} expected outputs now, {len(before)} in the baseline"
                              if len(now) != len(before) else f"{case_id!r}: another expected output"
                              for case_id, before, now in changed[:3])
            raise InputError(f"baseline {self.source} was scored against other expected outputs for "
                             f"{len(changed)} of {len(case_ids)} cases ({shown}{'; ...' if len(changed) > 3 else ''}); "
                             f"scores against other references are not comparable — save a new baseline")
        for check in checks:
            saved = self.checks.get(check.name)
            if saved is not None and not _comparable(saved, check):
                raise InputError(f"baseline {self.source}: check {check.name!r} was computed with other metric "
                                 f"settings ({_settings_difference(saved, check.metric)}; baseline vs this run); "
                                 f"save a new baseline with the current settings")
            if saved is not None:
                self._check_range(check, saved.scores)

    def _check_range(self, check: Check, scores: np.ndarray) -> None:
        """Refuse a score outside the check's score range: no run of the metric writes one, so the file was edited
        or saved on another scale (a 0–100 score). NaN (a case the metric gives no number) is not refused."""
        low, high = check.score_range
        slack = RANGE_SLACK * max([1.0, *(abs(bound) for bound in (low, high) if math.isfinite(bound))])
        with np.errstate(invalid="ignore"):
            outside = np.flatnonzero((scores < low - slack) | (scores > high + slack))
        if len(outside):
            index = int(outside[0])
            raise InputError(f"baseline {self.source}: check {check.name!r}, case {self.case_ids[index]!r}: score "
                             f"{scores[index]:g} is outside {check.label}'s range [{low:g}, {high:g}] "
                             f"({len(outside)} of {len(scores)} scores outside); the file was edited or saved on "
                             f"another scale — save a new baseline")

    def scores_for(self, check_name: str, case_ids: list[str]) -> np.ndarray | None:
        """The baseline scores of one check in the order of ``case_ids`` (checked by :meth:`verify`); None when
        the baseline lacks the check."""
        if check_name not in self.checks:
            return None
        position = {case_id: index for index, case_id in enumerate(self.case_ids)}
        return self.checks[check_name].scores[[position[case_id] for case_id in case_ids]]


def _scores(values: Any, check: str, case_ids: list[str], source: str) -> np.ndarray:
    """One check's saved scores as floats: a number, or null / NaN for a case the metric gave no number (the gate
    leaves it out); a string, a boolean, an infinity or anything else is refused, naming the check and the case."""
    if not isinstance(values, list):
        raise InputError(f"baseline {source} is damaged: check {check!r} has no list of scores; save it again")
    scores = np.empty(len(values), dtype=np.float64)
    for index, value in enumerate(values):
        number = math.nan
        # bool is an int to Python, and a JSON true is never a score
        if value is not None and not isinstance(value, bool) and isinstance(value, (int, float)):
            try:
                number = float(value)
            except OverflowError:   # an integer of hundreds of digits
                number = math.inf
        if value is not None and not math.isfinite(number) and not (isinstance(value, float) and math.isnan(value)):
            case = f"case {case_ids[index]!r}" if index < len(case_ids) else f"score {index + 1}"
            shown = json.dumps(value)
            raise InputError(f"baseline {source} is damaged: check {check!r}, {case}: the score is "
                             f"{shown if len(shown) <= 40 else shown[:37] + '...'}, not a finite number (or null "
                             f"for a case without a score); save the baseline again")
        scores[index] = number
    return scores


def _references(case: dict[str, Any]) -> list[str]:
    expected = case["expected_output"]
    return [expected] if isinstance(expected, str) else list(expected)


def load_run(path: Any) -> SavedRun:
    """A run saved by :meth:`refscore.testing.TestRun.save` (or ``refscore check --save``)."""
    source = str(path)
    try:
        data = parse_bounded(json.loads, read_text_within_budget(path), f"baseline {source}")
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read the baseline {source}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"baseline {source} is not valid JSON ({exc}); give a file written by --save") from None
    if not isinstance(data, dict) or data.get("refscore_test_run") != FORMAT_VERSION:
        raise InputError(f"baseline {source} is not a saved refscore test run (format {FORMAT_VERSION}); give a file "
                         f"written by TestRun.save or refscore check --save")
    try:
        case_ids = [str(case["id"]) for case in data["cases"]]
        references = {str(case["id"]): _references(case) for case in data["cases"]}
        checks = {check["name"]: SavedCheck(check["metric"], check["config_hash"], check.get("settings"),
                                            _scores(check["scores"], check["name"], case_ids, source))
                  for check in data["checks"]}
    except InputError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"baseline {source} is damaged ({type(exc).__name__}: {exc}); save it again") from None
    for name, saved in checks.items():
        if len(saved.scores) != len(case_ids):
            raise InputError(f"baseline {source} is damaged: check {name!r} has {len(saved.scores)} scores for "
                             f"{len(case_ids)} cases")
    return SavedRun(source, case_ids, checks, references)


__all__ = ["FORMAT_VERSION", "SavedCheck", "SavedRun", "json_text", "load_run", "metric_settings",
           "write_json_atomic"]
