"""``refscore pairwise -m edit_distance`` and ``refscore mbr -m edit_distance`` in real processes, with the metric's
flags (``--ed-measure``, ``--ed-unit``, ``--metric-option``, ``--include-self``), checked against RapidFuzz's
``process.cdist`` on the same texts (characters: the strings; words: ``str.split()`` lists): every matrix entry
equal to the bit, and the MBR utilities equal to the means of RapidFuzz's rows computed here."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from conftest import read_segments, shared_data_path
from refscore.cli.exit_codes import ExitCode
from test_cli_pairs import run, write_items

rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz import process  # noqa: E402
from rapidfuzz.distance import Indel, Levenshtein  # noqa: E402

SCORERS = {"levenshtein": Levenshtein.normalized_similarity, "indel": Indel.normalized_similarity}
#: Candidates and references with what RapidFuzz compares code point by code point: accents (composed and
#: not), CJK, emoji, a NUL byte, Unicode spaces (str.split() separators), empty strings, a 300-character line (5
#: words of 64 bits in the kernel) and one text repeated.
ITEMS = [{"id": "a", "candidates": ["the cat sat on the mat", "a cat sat on the mat", "dogs bark", "", "the cat"],
          "references": ["the cat sat on the mat", "there is a cat", ""]},
         {"id": "b", "candidates": ["Grüße aus Köln", "Gru\u0308ße von Köln", "猫が座った 😀", "a\x00b\u3000c"],
          "references": ["Viele Grüße aus Köln", "猫が 座った", "a\x00b c\u00a0d"]},
         {"id": "c", "candidates": ["x" * 150 + " y" * 75, "x" * 149 + " y" * 76, "y x " * 30],
          "references": ["x" * 151 + " y" * 74]}]


def rapidfuzz_matrix(candidates: list[str], references: list[str], measure: str, unit: str) -> np.ndarray:
    split = (lambda t: t) if unit == "characters" else str.split
    return process.cdist([split(t) for t in candidates], [split(t) for t in references], scorer=SCORERS[measure],
                         dtype=np.float64)


def padded(matrices: list[np.ndarray]) -> np.ndarray:
    rows = max(m.shape[0] for m in matrices)
    cols = max(m.shape[1] for m in matrices)
    out = np.full((len(matrices), rows, cols), np.nan)
    for k, m in enumerate(matrices):
        out[k, :m.shape[0], :m.shape[1]] = m
    return out


def wmt22_items(count: int = 12, size: int = 6) -> list[dict]:
    """Items of WMT22 references and one system's outputs (several languages and scripts)."""
    root = shared_data_path("wmt22")
    lines: list[str] = []
    for pair in ("en-de", "en-ja", "en-ru", "zh-en"):
        folder = root / pair
        if (folder / "ref.txt").exists():
            lines += read_segments(folder / "ref.txt")[:count * size // 4]
    rng = random.Random(43)
    rng.shuffle(lines)
    return [{"id": str(k), "candidates": lines[k * size:(k + 1) * size],
             "references": lines[(k + 1) * size:(k + 1) * size + 2]} for k in range(count - 1)]


@pytest.mark.parametrize("measure", ["levenshtein", "indel"])
@pytest.mark.parametrize("unit", ["characters", "words"])
def test_pairwise_npy_equals_rapidfuzz_cdist(tmp_path, measure, unit):
    write_items(tmp_path, ITEMS)
    done = run("pairwise", "-m", "edit_distance", "--ed-measure", measure, "--ed-unit", unit, "-i", "items.jsonl",
               "-o", "out.npy", "--no-progress", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    expected = padded([rapidfuzz_matrix(i["candidates"], i["references"], measure, unit) for i in ITEMS])
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), expected)


def test_pairwise_jsonl_on_wmt22_and_without_references_equals_cdist(tmp_path):
    items = wmt22_items()
    write_items(tmp_path, items)
    done = run("pairwise", "-m", "edit_distance", "--ed-measure", "indel", "-i", "items.jsonl", "--num-threads",
               "2", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in rows] == [item["id"] for item in items]
    for row, item in zip(rows, items):
        assert row["scores"] == rapidfuzz_matrix(item["candidates"], item["references"], "indel",
                                                 "characters").tolist()
    # candidates only: each against every other (one list against itself, the kernel's mirrored triangle)
    write_items(tmp_path, [{"candidates": item["candidates"]} for item in items], "own.jsonl")
    done = run("pairwise", "-m", "edit_distance", "--metric-option", "edit_distance.unit=words", "-i", "own.jsonl",
               "-o", "own.npy", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    expected = padded([rapidfuzz_matrix(i["candidates"], i["candidates"], "levenshtein", "words") for i in items])
    np.testing.assert_array_equal(np.load(tmp_path / "own.npy"), expected)


@pytest.mark.parametrize("include_self", [False, True])
def test_mbr_utilities_are_the_means_of_rapidfuzz_rows(tmp_path, include_self):
    items = [{"id": i["id"], "candidates": i["candidates"]} for i in ITEMS]
    write_items(tmp_path, items)
    flags = ["--include-self"] if include_self else []
    done = run("mbr", "-m", "edit_distance", "--ed-measure", "indel", "--ed-unit", "words", *flags, "-i",
               "items.jsonl", "-o", "sel.jsonl", "--matrices", "m.npz", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "sel.jsonl").read_text(encoding="utf-8").splitlines()]
    with np.load(tmp_path / "m.npz") as archive:
        matrices = archive["edit_distance"]
    for k, (row, item) in enumerate(zip(rows, items)):
        expected = rapidfuzz_matrix(item["candidates"], item["candidates"], "indel", "words")
        n = len(item["candidates"])
        np.testing.assert_array_equal(matrices[k, :n, :n], expected)
        others = expected if include_self else np.where(np.eye(n, dtype=bool), np.nan, expected)
        utilities = np.nanmean(others, axis=1)
        np.testing.assert_allclose(row["utilities"], utilities, rtol=0, atol=1e-15)
        assert row["chosen"] == int(np.argmax(row["utilities"]))
        assert row["best"] == item["candidates"][row["chosen"]]


def test_a_bad_flag_value_is_a_usage_error(tmp_path):
    write_items(tmp_path, ITEMS)
    done = run("pairwise", "-m", "edit_distance", "--ed-measure", "hamming", "-i", "items.jsonl", cwd=tmp_path)
    assert done.returncode == ExitCode.USAGE
    assert "--ed-measure" in done.stderr and "levenshtein" in done.stderr
