"""``refscore pairwise`` and ``refscore mbr`` in real processes: JSONL items in, .npy / JSONL matrices and
selections out, equal to the Python API; clean errors (bad JSON with its line and column, references on some lines
only, several metrics for pairwise, an unwritable output, a memory budget too small, a line over
REFSCORE_MAX_LINE_BYTES, bytes that are not UTF-8) with the documented exit codes and no file left behind; JSONL
output streams (written before the input ends) and equals the API across streamed batches."""
from __future__ import annotations

import json
import os
import select
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
    done = run("pairwise", "-m", "bleu", "-o", "out.npy", "--no-progress", cwd=tmp_path,   # stdin: read once
               stdin=(tmp_path / "items.jsonl").read_text(encoding="utf-8"))
    assert done.returncode == ExitCode.OK, done.stderr
    candidates, references = [i["candidates"] for i in ITEMS], [i["references"] for i in ITEMS]
    expected = refscore.pairwise("bleu", candidates, references)   # sentence-level BLEU (effective order)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), expected)
    done = run("pairwise", "-m", "chrf", "--chrf-word-order", "2", "-i", "items.jsonl", cwd=tmp_path)
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
     r"items.jsonl: line 2: not valid JSON \(Expecting ',' delimiter at column 26\)"),
    (['{"candidates": ["a"]}', '{"candidates": ["a"], "references": ["b"]}'], ["pairwise"],
     ExitCode.LINE_COUNT_MISMATCH, r"line 2: has 'references' but the lines before do not"),
    (['{"candidates": "a b"}'], ["mbr"], ExitCode.BAD_INPUT, r"line 1: 'candidates' must be a list of strings"),
    (['{"candidates": ["a"]}'], ["pairwise", "-m", "chrf,ter"], ExitCode.USAGE, r"one metric at a time"),
    (['{"candidates": ["a"]}'], ["mbr", "-m", "chrf,ter", "--weights", "1"], ExitCode.BAD_INPUT,
     r"weights must be a list of 2 number"),
    (['{"candidates": ["a", "b"]}'], ["mbr", "-m", "chrf,ter", "--weights", "0", "0"], ExitCode.BAD_INPUT,
     r"weights are all 0 \(0, 0\): every utility would be 0 .*--weights"),
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


def test_a_line_longer_than_the_limit_is_refused(tmp_path):
    write_items(tmp_path, [{"candidates": ["a b"]}, {"candidates": ["x" * 200]}])
    env = {**os.environ, "REFSCORE_MAX_LINE_BYTES": "100"}
    done = subprocess.run(refscore_command("pairwise", "-i", "items.jsonl", "-o", "out.jsonl"), cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == ExitCode.BAD_INPUT, done.stderr
    assert done.stderr == ("refscore: error: items.jsonl: line 2 is longer than 100 bytes, the longest line "
                           "read; split the record, or raise the limit with REFSCORE_MAX_LINE_BYTES=<bytes>\n")
    assert os.listdir(tmp_path) == ["items.jsonl"]
    env["REFSCORE_MAX_LINE_BYTES"] = "300"   # the same file within a raised limit (mbr reads through the same reader)
    done = subprocess.run(refscore_command("mbr", "-i", "items.jsonl"), cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == ExitCode.OK and len(done.stdout.splitlines()) == 2, done.stderr


def test_undecodable_line_names_line_and_byte(tmp_path):
    (tmp_path / "items.jsonl").write_bytes(b'{"candidates": ["a"]}\n{"candidates": ["caf\xe9"]}\n')
    done = run("mbr", "-i", "items.jsonl", cwd=tmp_path)
    assert done.returncode == ExitCode.UNDECODABLE_INPUT, done.stderr
    assert "items.jsonl: line 2: not valid UTF-8 (invalid continuation byte at byte 20 of the line)" in done.stderr


def big_items(count: int, size: int) -> list[dict]:
    """``count`` items of ``size`` distinct candidates each (more texts than one streamed batch holds)."""
    words = "the a cat dog sat ran on under mat rug".split()
    return [{"id": k, "candidates": [" ".join(words[(k + j + i * i) % len(words)] for i in range(3 + j % 5))
                                     for j in range(size)]} for k in range(count)]


def test_jsonl_output_streams_before_the_input_ends(tmp_path):
    """The first items' scores are written while standard input is still open: items are not all read first."""
    items = big_items(70, 64)   # 4,480 texts: the first 64 items fill a batch of 4,096
    # Unbuffered pipes: a buffered readline() may read past the first line, and communicate() reads the file
    # descriptor, not that buffer, so the bytes after the first line would be lost.
    process = subprocess.Popen(refscore_command("pairwise", "-m", "chrf", "--no-progress"), cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    try:
        pending = memoryview("".join(json.dumps(item) + "\n" for item in items[:65]).encode())
        while pending:
            pending = pending[process.stdin.write(pending):]
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "no output within 60 s while the input was still open: the items were not streamed"
        first = json.loads(process.stdout.readline())
        assert first["id"] == 0
        rest, errors = process.communicate("".join(json.dumps(item) + "\n" for item in items[65:]).encode(),
                                           timeout=120)
    finally:
        process.kill()
    assert process.returncode == ExitCode.OK, errors.decode()
    rows = [first] + [json.loads(line) for line in rest.decode().splitlines()]
    expected = refscore.pairwise("chrf", [item["candidates"] for item in items])
    assert [row["id"] for row in rows] == list(range(70))
    for k, row in enumerate(rows):
        assert row["scores"] == expected[k].tolist()


def test_streamed_outputs_equal_the_api_across_batches(tmp_path):
    items = big_items(70, 64)
    items[3]["candidates"] = items[3]["candidates"][:5]   # a smaller item: NaN padding in the .npy
    write_items(tmp_path, items)
    done = run("pairwise", "-m", "bleu", "-i", "items.jsonl", "-o", "out.npy", cwd=tmp_path)  # two passes
    assert done.returncode == ExitCode.OK, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"),
                                  refscore.pairwise("bleu", [item["candidates"] for item in items]))
    done = run("mbr", "-m", "chrf,bleu", "--standardize", "-i", "items.jsonl", "-o", "sel.jsonl", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "sel.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = refscore.mbr([item["candidates"] for item in items], metric=["chrf", "bleu"], standardize=True)
    assert [row["chosen"] for row in rows] == expected.chosen.tolist()
    assert [row["utilities"] for row in rows] == [utilities[:len(item["candidates"])]
                                                 for utilities, item in zip(expected.utilities.tolist(), items)]
