"""A short run of fuzz/hostile_families.py (issue 40's families of items 3, 10, 12, 13 and 15): a few variants of
each family, every one clean. docs/reliability.md's rows come from the long run (40 variants a family)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
from hostile_families import FAMILIES, run_family  # noqa: E402

VARIANTS = {"extreme-options": 3}   # a process each


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_variant_of_a_family_is_clean(family):
    result = run_family(family, VARIANTS.get(family, 6), seed=7)
    assert result["clean"] == result["tried"], result["unclean"]


def test_a_family_can_find_something(tmp_path, monkeypatch):
    """The classification can fail: a gate that passes a regression is counted unclean."""
    import hostile_families

    hostile_families.baseline_values(random.Random(1), tmp_path)     # saves the baseline
    monkeypatch.setattr(hostile_families, "_cli", lambda args: (0, "", ""))
    clean, detail = hostile_families.baseline_values(random.Random(1), tmp_path)
    assert not clean and "exit 0" in detail
