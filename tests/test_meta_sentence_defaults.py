"""Sentence-level scores of meta-evaluation take the metric's own sentence-level defaults (issue 39 item 1): BLEU's
segment-level correlations are those of ``sacrebleu.sentence_bleu`` (effective order), its system-level ones those
of corpus BLEU, and ``meta-eval`` prints each metric's signature in text, JSON and LaTeX."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from meta_reference import packed, reference_stats
from refscore.cli.exit_codes import ExitCode
from test_cli_process import refscore_command

sacrebleu = pytest.importorskip("sacrebleu", reason="the oracle of this test is sacrebleu.sentence_bleu")

SYSTEMS, ITEMS = 5, 14
REFERENCES = ["the cat sat on the mat", "a dog ran", "it rains", "we walked along the river today",
              "she reads", "the train leaves at nine", "hello", "good morning to you", "a b c d e",
              "the end", "one more time", "no", "they came home late", "see you"]


def refscore(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


def _write(folder: Path) -> tuple[np.ndarray, list[list[str]]]:
    """Short hypotheses (fewer than four words: where effective order matters) rated with some noise."""
    rng = np.random.default_rng(7)
    words = ["the", "cat", "a", "dog", "ran", "it", "rains", "we", "see", "you", "no", "home", "end", "hello"]
    hypotheses = [[" ".join(rng.choice(words, size=int(rng.integers(1, 6)))) for _ in range(ITEMS)]
                  for _ in range(SYSTEMS)]
    human = -rng.choice([0.0, 1.0, 5.0, 10.0], size=(SYSTEMS, ITEMS))
    human[2, 3] = np.nan
    with (folder / "ratings.jsonl").open("w", encoding="utf-8") as handle:
        for s in range(SYSTEMS):
            for i in range(ITEMS):
                rating = None if np.isnan(human[s, i]) else float(human[s, i])
                handle.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "hypothesis": hypotheses[s][i],
                                         "reference": REFERENCES[i], "mqm": rating}) + "\n")
    return human, hypotheses


def test_segment_level_bleu_is_sentence_bleu_with_effective_order(tmp_path):
    stats = reference_stats()
    human, hypotheses = _write(tmp_path)
    done = refscore("meta-eval", "ratings.jsonl", "-m", "bleu", "--format", "json", "--bootstrap", "0", "--k", "0",
                    cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    document = json.loads(done.stdout)
    rows = {(r["level"], r["statistic"], r["grouping"]): r["value"] for r in document["results"]}
    sentence = np.array([[sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(system, REFERENCES)]
                         for system in hypotheses])
    without = np.array([[sacrebleu.sentence_bleu(h, [r], use_effective_order=False).score
                         for h, r in zip(system, REFERENCES)] for system in hypotheses])
    segment = stats.Correlation(SYSTEMS, packed(human), packed(sentence))
    assert rows[("segment", "pearson", "none")] == pytest.approx(segment.Pearson()[0], rel=1e-12)
    assert rows[("segment", "pearson", "item")] == pytest.approx(segment.Pearson("item")[0], rel=1e-12)
    assert rows[("segment", "pearson", "none")] != pytest.approx(
        stats.Correlation(SYSTEMS, packed(human), packed(without)).Pearson()[0], rel=1e-6)  # the data can tell
    corpus = [sacrebleu.corpus_bleu(system, [REFERENCES]).score for system in hypotheses]
    gold = [float(np.nanmean(row)) for row in human]
    assert rows[("system", "pearson", "none")] == pytest.approx(
        stats.Correlation(SYSTEMS, gold, corpus).Pearson()[0], rel=1e-12)
    signature = document["signatures"]["bleu"]
    assert "eff:no" in signature["system"] and "eff:yes" in signature["segment"]


def test_every_format_prints_the_signatures(tmp_path):
    _write(tmp_path)
    for output, prefix in (("text", "bleu: system nrefs:1"), ("latex", "% signature bleu: system nrefs:1")):
        done = refscore("meta-eval", "ratings.jsonl", "-m", "bleu,chrf", "--format", output, "--bootstrap", "0",
                        "--k", "0", cwd=tmp_path)
        assert done.returncode == ExitCode.OK, done.stderr
        assert prefix in done.stdout and "eff:yes" in done.stdout
        assert any(line.lstrip("% signature").startswith("chrf: nrefs:1|") for line in done.stdout.splitlines())


def test_check_calibration_scores_bleu_as_sentence_bleu():
    """``check --calibrate`` scores each case with the check's metric: sentence_bleu's defaults."""
    from refscore.testing import Check

    scores, _ = Check("bleu").scores(["a dog", "it rains today"], ["a dog ran", "it rains"])
    expected = [sacrebleu.sentence_bleu(h, [r]).score / 100 for h, r in (("a dog", "a dog ran"),
                                                                           ("it rains today", "it rains"))]
    assert np.asarray(scores).tolist() == pytest.approx(expected, rel=1e-12)
