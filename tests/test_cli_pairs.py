"""``refscore pairwise`` and ``refscore mbr`` in real processes: JSONL items in, .npy / JSONL matrices and
selections out, equal to the Python API; clean errors (bad JSON with its line and column, references on some lines
only, several metrics for pairwise, an unwritable output, a memory budget too small) with the documented exit
codes and no file left behind."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from test_cli_process import refscore_command

ITEMS = [{"id": "s1", "candidates": ["the cat sat on the mat", "a cat sat on the mat", "dogs bark", ""],
          "references": ["the cat sat on the mat", "there is a cat"]},
         {"id": "s2", "candidates": ["Grüße aus Köln", "Grüße von Köln"], "references": ["Viele Grüße aus Köln"]}]


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=120)


def write_items(folder: Path, items: list[dict], name: str = "items.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8")
    return path


def test_pairwise_npy_and_jsonl_equal_the_api(tmp_path):
    write_items(tmp_path, ITEMS)
    done = run("pairwise", "-m", "bleu", "-i", "items.jsonl", "-o", "out.npy", "--no-progress", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    candidates, references = [i["candidates"] for i in ITEMS], [i["references"] for i in ITEMS]
    expected = refscore.pairwise("bleu", candidates, references)   # sentence-level BLEU (effective order)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), expected)
    done = run("pairwise", "-m", "chrf", "--chrf-word-order", "2", cwd=tmp_path,
               stdin=(tmp_path / "items.jsonl").read_text(encoding="utf-8"))
    assert done.returncode == ExitCode.OK, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in rows] == ["s1", "s2"]
    for k, row in enumerate(rows):
        assert row["scores"] == refscore.pairwise(refscore.CHRF(word_order=2), [candidates[k]],
                                                  [references[k]])[0].tolist()


def test_mbr_selections_and_matrices(tmp_path):
    items = [{"candidates": item["candidates"]} for item in ITEMS]
    write_items(tmp_path, items)
    done = run("mbr", "-m", "chrf,bleu", "--weights", "0.7", "0.3", "-i", "items.jsonl", "-o", "sel.jsonl",
               "--matrices", "m.npz", "--progress", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    assert "pairwise chrf" in done.stderr and "pairwise bleu" in done.stderr   # the project's progress bars
    rows = [json.loads(line) for line in (tmp_path / "sel.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = refscore.mbr([i["candidates"] for i in items], metric=["chrf", "bleu"], weights=[0.7, 0.3])
    assert [row["chosen"] for row in rows] == expected.chosen.tolist()
    assert [row["best"] for row in rows] == expected.best
    assert rows[0]["utilities"] == expected.utilities[0].tolist()
    with np.load(tmp_path / "m.npz") as archive:
        assert sorted(archive.files) == ["bleu", "chrf"]
        np.testing.assert_array_equal(archive["chrf"], refscore.pairwise("chrf", [i["candidates"] for i in items]))


@pytest.mark.parametrize("lines, args, code, message", [
    (['{"candidates": ["a"]}', '{"candidates": ["b", "c"]'], ["pairwise"], ExitCode.BAD_INPUT,
     r"items.jsonl line 2: not valid JSON \(Expecting ',' delimiter at column 26\)"),
    (['{"candidates": ["a"]}', '{"candidates": ["a"], "references": ["b"]}'], ["pairwise"],
     ExitCode.LINE_COUNT_MISMATCH, r"line 2: has 'references' but the lines before do not"),
    (['{"candidates": "a b"}'], ["mbr"], ExitCode.BAD_INPUT, r"line 1: 'candidates' must be a list of strings"),
    (['{"candidates": ["a"]}'], ["pairwise", "-m", "chrf,ter"], ExitCode.USAGE, r"one metric at a time"),
    (['{"candidates": ["a"]}'], ["mbr", "-m", "chrf,ter", "--weights", "1"], ExitCode.BAD_INPUT,
     r"weights must be a list of 2 number"),
    (['{"candidates": ["a b c", "a b"]}'], ["pairwise", "--memory-budget", "100"], ExitCode.BAD_INPUT,
     r"memory budget of 100 B; raise it with memory_budget=\.\.\. \(command line: --memory-budget\)"),
])
def test_bad_input_is_one_error_line(tmp_path, lines, args, code, message):
    (tmp_path / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run(*args, "-i", "items.jsonl", "-o", "out.npy", cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert done.stderr.startswith("refscore: error: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert __import__("re").search(message, done.stderr), done.stderr
    assert os.listdir(tmp_path) == ["items.jsonl"]   # no output, no temporary file left


def test_unwritable_output_is_refused_before_work(tmp_path):
    write_items(tmp_path, ITEMS)
    done = run("pairwise", "-i", "items.jsonl", "-o", "missing/out.npy", cwd=tmp_path)
    assert done.returncode == ExitCode.UNWRITABLE_OUTPUT
    assert "-o missing/out.npy: the folder does not exist" in done.stderr
