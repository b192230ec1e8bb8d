"""Saved runs: written atomically as JSON, read back as the baseline of a later run.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.json")
>>> write_json_atomic(path, {"refscore_test_run": FORMAT_VERSION, "checks": [], "cases": []})
>>> load_run(path).case_ids
[]
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from refscore._atomic import write_text_atomically
from refscore.errors import InputError

FORMAT_VERSION = 1


def write_json_atomic(path: Any, data: Any) -> None:
    """Write ``data`` as JSON to a temporary file in the target's folder and rename it over ``path``, so a run
    interrupted midway (Ctrl-C, a crash) leaves the old file or none, never a partial one."""
    write_text_atomically(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


@dataclass(frozen=True)
class SavedRun:
    """Per check ``(metric, metric config hash, per-case scores)`` of an earlier run and its case ids."""

    source: str
    case_ids: list[str]
    checks: dict[str, tuple[str, str, np.ndarray]]

    def scores_for(self, check_name: str, metric: str, config_hash: str, case_ids: list[str]) -> np.ndarray | None:
        """The baseline scores of one check in the order of ``case_ids``; None when the baseline lacks the check.
        Raises when the cases differ or the check was computed with other metric settings."""
        if check_name not in self.checks:
            return None
        saved_metric, saved_hash, scores = self.checks[check_name]
        if (saved_metric, saved_hash) != (metric, config_hash):
            raise InputError(f"baseline {self.source}: check {check_name!r} was computed with other metric settings "
                             f"({saved_metric}, config {saved_hash}; now {metric}, config {config_hash}); save a new "
                             f"baseline with the current settings")
        if sorted(case_ids) != sorted(self.case_ids):
            gone = sorted(set(self.case_ids) - set(case_ids))
            new = sorted(set(case_ids) - set(self.case_ids))
            raise InputError(f"baseline {self.source} has other cases than this run (only in the baseline: "
                             f"{gone[:5]}, only in this run: {new[:5]}); a paired comparison needs the same cases — "
                             f"save a new baseline")
        position = {case_id: index for index, case_id in enumerate(self.case_ids)}
        return scores[[position[case_id] for case_id in case_ids]]


def load_run(path: Any) -> SavedRun:
    """A run saved by :meth:`refscore.testing.TestRun.save` (or ``refscore check --save``)."""
    source = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read the baseline {source}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"baseline {source} is not valid JSON ({exc}); give a file written by --save") from None
    if not isinstance(data, dict) or data.get("refscore_test_run") != FORMAT_VERSION:
        raise InputError(f"baseline {source} is not a saved refscore test run (format {FORMAT_VERSION}); give a file "
                         f"written by TestRun.save or refscore check --save")
    try:
        case_ids = [str(case["id"]) for case in data["cases"]]
        checks = {check["name"]: (check["metric"], check["config_hash"], np.asarray(check["scores"], dtype=float))
                  for check in data["checks"]}
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"baseline {source} is damaged ({type(exc).__name__}: {exc}); save it again") from None
    for name, (_, _, scores) in checks.items():
        if len(scores) != len(case_ids):
            raise InputError(f"baseline {source} is damaged: check {name!r} has {len(scores)} scores for "
                             f"{len(case_ids)} cases")
    return SavedRun(source, case_ids, checks)


__all__ = ["FORMAT_VERSION", "SavedRun", "load_run", "write_json_atomic"]
