"""``refscore score --segments`` equals sacreBLEU's sentence-level command line (``sacrebleu -sl``) on WMT22.

sacreBLEU's ``-sl`` builds each metric from its command-line arguments after setting ``bleu_effective_order =
True`` (sacrebleu/sacrebleu.py: "For sentence-BLEU we now need to explicitly enable it"), then prints
``metric.sentence_score(hypothesis, references)`` per line. The in-process peer below is configured exactly so
(``BLEU(effective_order=True)``, ``CHRF()``, ``TER()``); a live ``sacrebleu -sl`` run checks that configuration.
Values are compared exactly (the command line prints sacreBLEU's own 0–100 numbers).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import read_segments, shared_data_path
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

from refscore.cli.main import main

SACREBLEU_CLI = Path(sys.executable).parent / "sacrebleu"


def cli_segments(capsys, reference: Path, system: Path, metrics: str, *extra: str) -> dict:
    assert main(["score", "-m", metrics, "-r", str(reference), "-i", str(system), "--segments", "--format", "json",
                 *extra]) == 0
    return json.loads(capsys.readouterr().out)[0]["segments"]


def sacrebleu_cli_lines(metric: str, reference: Path, system: Path, width: int) -> list[str]:
    command = [str(SACREBLEU_CLI), str(reference), "-i", str(system), "-m", metric, "-sl", "-b", "-w", str(width)]
    if not SACREBLEU_CLI.exists():
        command = [sys.executable, "-m", "sacrebleu", *command[1:]]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()


def peer_segments(metric, hypotheses: list[str], references: list[str]) -> list[float]:
    return [metric.sentence_score(h.rstrip(), [r.rstrip()]).score for h, r in zip(hypotheses, references)]


def test_zweimal_segment_939(capsys):
    """The reported case (reference B): "Zweimal." against "Zweimal." is 100 with sacreBLEU's -sl (effective
    order), not 0."""
    root = shared_data_path("wmt22", "en-de")
    system = sorted((root / "sys").iterdir())[0]
    segments = cli_segments(capsys, root / "ref2.txt", system, "bleu")["bleu"]["bleu"]
    hypotheses, references = read_segments(system), read_segments(root / "ref2.txt")
    short = [i for i, (h, r) in enumerate(zip(hypotheses, references)) if h == r == "Zweimal."]
    assert 939 in short and all(segments[i] == pytest.approx(100.0) for i in short)  # sacreBLEU: 100.00000000000004
    # the user's explicit choice is kept: without effective order the segment has no 3- and 4-grams, so 0.0
    plain = cli_segments(capsys, root / "ref2.txt", system, "bleu", "--no-effective-order")["bleu"]["bleu"]
    assert plain[939] == 0.0


def test_every_en_de_system_bleu_equals_sentence_bleu(capsys):
    root = shared_data_path("wmt22", "en-de")
    references = read_segments(root / "ref2.txt")
    systems = sorted((root / "sys").iterdir())
    assert len(systems) == 9
    peer = SacreBLEU(effective_order=True)
    for system in systems:
        got = cli_segments(capsys, root / "ref2.txt", system, "bleu")["bleu"]["bleu"]
        expected = peer_segments(peer, read_segments(system), references)
        mismatches = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
        assert len(got) == len(expected) == 2037 and not mismatches, (system.name, mismatches[:5])


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_text_segments_equal_live_sacrebleu_sl(tmp_path, capsys, metric):
    """The printed rows against ``sacrebleu -sl -b -w 10`` itself, on the first 300 segments of one system."""
    root = shared_data_path("wmt22", "en-de")
    system = sorted((root / "sys").iterdir())[0]
    reference, hypotheses = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    reference.write_text("\n".join(read_segments(root / "ref.txt")[:300]) + "\n", encoding="utf-8")
    hypotheses.write_text("\n".join(read_segments(system)[:300]) + "\n", encoding="utf-8")
    assert main(["score", "-m", metric, "-r", str(reference), "-i", str(hypotheses), "--segments", "-w", "10"]) == 0
    rows = [line.split("\t")[2] for line in capsys.readouterr().out.splitlines()[1:] if not line.startswith("#")]
    assert rows == sacrebleu_cli_lines(metric, reference, hypotheses, 10)


@pytest.mark.slow
@pytest.mark.parametrize("pair, reference", [("en-de", "ref.txt"), ("en-de", "ref2.txt"), ("cs-en", "ref.txt")])
def test_every_system_of_a_pair_equals_sentence_level_sacrebleu(capsys, pair, reference):
    root = shared_data_path("wmt22", pair)
    references = read_segments(root / reference)
    peers = {"bleu": SacreBLEU(effective_order=True), "chrf": SacreCHRF(), "ter": SacreTER()}
    for system in sorted((root / "sys").iterdir()):
        segments = cli_segments(capsys, root / reference, system, "bleu,chrf,ter")
        hypotheses = read_segments(system)
        for name, peer in peers.items():
            got, expected = segments[name][name], peer_segments(peer, hypotheses, references)
            mismatches = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
            assert len(got) == len(expected) and not mismatches, (system.name, name, mismatches[:5])
