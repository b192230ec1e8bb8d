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
INPUTS = [b"", b"\xff" * 64] + [random.Random(seed).randbytes(length) for seed, length in enumerate([40, 600, 2048])]
SLOW = {"tokenize-ja-mecab", "tokenize-ko-mecab", "ter"}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_fuzz_target_holds_its_properties_on_random_inputs(target):
    if target.endswith("mecab") and importlib.util.find_spec("MeCab" if "ja" in target else "mecab_ko") is None:
        pytest.skip("MeCab is not installed")
    for data in INPUTS[:3] if target in SLOW else INPUTS:
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
    table = subprocess.run([sys.executable, str(FUZZ / "run.py"), "--markdown", str(summary)], capture_output=True,
                           text=True, timeout=120, check=True).stdout
    assert "| `records-jsonl` | " in table and f"| {result['executions']:,} |" in table



# -- findings, kept as regression tests --------------------------------------------------------------------------
@pytest.mark.parametrize("tokenize", ["ja-mecab", "ko-mecab"])
def test_mecab_bleu_keeps_square_reference_streams_per_segment(tokenize):
    # tokenize-ko-mecab found it: two segments with two references each were re-checked for their layout after
    # MeCab tokenized them, so refscore.from_streams(...) input raised "references can be read two ways"
    pytest.importorskip("MeCab" if tokenize == "ja-mecab" else "mecab_ko")
    import refscore
    from sacrebleu.metrics.bleu import BLEU as SacreBLEU

    hypotheses, streams = ["猫が 好き です", "犬 です"], [["猫 が 好き", "犬 だ"], ["猫 です", "犬 です"]]
    ours = refscore.bleu(hypotheses, refscore.from_streams(streams), tokenize=tokenize)
    peer = SacreBLEU(tokenize=tokenize).corpus_score(hypotheses, streams)
    assert list(ours.values["counts"]) == peer.counts and abs(100 * ours.score - peer.score) <= 1e-9


def test_a_statistics_file_whose_zip_claims_an_unknown_version_is_refused():
    # statistics-file found it: a valid file with bytes overwritten so that zipfile reads "version 18.8" raised
    # NotImplementedError, not refscore's InputError; the input is the fuzzer's (base64 KQC8vLzdLQ==)
    TARGETS["statistics-file"](bytes([0x29, 0x00, 0xBC, 0xBC, 0xBC, 0xDD, 0x2D]))
