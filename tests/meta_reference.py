"""mt-metrics-eval's ``stats.py`` (Google's reference for the WMT statistics), imported by path from
../shared/reference; tests that need it skip with the reason when it is absent. Plus small score matrices."""
from __future__ import annotations

import importlib
import json
import sys
from types import ModuleType

import numpy as np
import pytest

from conftest import SHARED_DATA

REFERENCE_ROOT = SHARED_DATA.parent / "reference"


def reference_stats() -> ModuleType:
    """The reference ``mt_metrics_eval.stats`` module; skips the calling test when ../shared is absent."""
    if not (REFERENCE_ROOT / "mt_metrics_eval" / "stats.py").exists():
        pytest.skip(f"reference implementation not available: {REFERENCE_ROOT / 'mt_metrics_eval'} "
                    "(set REFSCORE_SHARED_DATA so that ../reference lies beside it)")
    if str(REFERENCE_ROOT) not in sys.path:
        sys.path.insert(0, str(REFERENCE_ROOT))
    return importlib.import_module("mt_metrics_eval.stats")


def packed(matrix: np.ndarray) -> list:
    """A (systems, items) matrix as stats.py's packed vector: system blocks, NaN -> None."""
    return [None if value != value else float(value) for value in np.asarray(matrix, dtype=float).ravel()]


def synthetic(systems: int = 6, items: int = 15, seed: int = 0, missing: float = 0.1,
              metrics: int = 2) -> tuple[np.ndarray, list[np.ndarray]]:
    """Human ratings with ties (MQM-like steps) and gaps, and metric scores correlated with them (some ties)."""
    rng = np.random.default_rng(seed)
    human = -rng.choice([0.0, 1.0, 2.0, 5.0, 6.0, 10.0, 25.0], size=(systems, items))
    scores = [np.round(human + rng.normal(0, 4 + 2 * k, human.shape), 1) for k in range(metrics)]
    human[rng.random(human.shape) < missing] = np.nan
    return human, scores


def mqm_slice(pair: str = "ende", systems: int = 13, items: int = 60) -> tuple[list[str], np.ndarray, list[str]]:
    """System names, the MQM matrix (systems, items) and the items' ids of the first ``items`` segments."""
    from conftest import shared_data_path

    path = shared_data_path("mqm_ted", f"{pair}.jsonl")
    rows: dict[str, dict[int, float | None]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            rows.setdefault(record["system"], {})[record["seg_id"]] = record["mqm"]
    names = sorted(rows)[:systems]
    ids = sorted(rows[names[0]])[:items]
    matrix = np.array([[np.nan if rows[n].get(i) is None else rows[n][i] for i in ids] for n in names])
    return names, matrix, [str(i) for i in ids]
