"""A short run of every fuzz target (fuzz/targets.py), and of the runner itself (fuzz/run.py); the long runs are
documented in docs/reliability.md."""
from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))
from targets import TARGETS  # noqa: E402

#: Inputs per target: a few random byte strings of every length class (empty, short, the runner's largest).
INPUTS = [b"", b"\x00", b"\xff" * 64] + [random.Random(seed).randbytes(length)
                                         for seed, length in enumerate([8, 40, 200, 600, 2048])]
SLOW = {"tokenize-ja-mecab", "tokenize-ko-mecab", "ter"}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_fuzz_target_holds_its_properties_on_random_inputs(target):
    if target.endswith("mecab") and importlib.util.find_spec("MeCab" if "ja" in target else "mecab_ko") is None:
        pytest.skip("MeCab is not installed")
    for data in INPUTS[:4] if target in SLOW else INPUTS:
        TARGETS[target](data)


def test_the_runner_runs_a_target_and_writes_its_summary(tmp_path):
    summary = tmp_path / "summary.json"
    command = [sys.executable, str(FUZZ / "run.py"), "--seconds", "3", "--target", "records-jsonl", "--summary",
               str(summary), "--artifacts", str(tmp_path / "artifacts")]
    if importlib.util.find_spec("atheris") is None:
        command.append("--random")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    [result] = json.loads(summary.read_text())
    assert result["target"] == "records-jsonl" and result["executions"] > 0 and result["crashes"] == 0

