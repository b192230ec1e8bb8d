"""``refscore mbr --utilities FILE`` (the formats refscore writes: pairwise's .npy and JSONL, mbr's --matrices .npz),
per-item ``weights`` / ``log_probs`` in the items, and ``--decoder pruning``: equal to the Python API, with errors
that name the file, the line or the option."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.pairs import pruning_mbr

ITEMS = [{"id": "s1", "candidates": ["the cat sat on the mat", "a cat sat on the mat", "dogs bark", "",
                                     "the cat sat on a mat"]},
         {"id": "s2", "candidates": ["Grüße aus Köln", "Grüße von Köln", "Viele Grüße"]}]
CANDIDATES = [item["candidates"] for item in ITEMS]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write_items(items: list[dict], name: str = "items.jsonl") -> None:
    Path(name).write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8")


def selections(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_saved_matrices_give_the_run_s_own_selection(workdir, capsys):
    write_items(ITEMS)
    assert main(["mbr", "-m", "chrf,bleu", "--weights", "0.7", "0.3", "-i", "items.jsonl", "--matrices", "m.npz",
                 "--no-progress"]) == ExitCode.OK
    original = selections(capsys)
    assert main(["mbr", "--utilities", "m.npz", "--weights", "0.7", "0.3", "--no-include-self", "-i",
                 "items.jsonl"]) == ExitCode.OK
    again = selections(capsys)
    assert [r["chosen"] for r in again] == [r["chosen"] for r in original]
    for row, before in zip(again, original):
        np.testing.assert_allclose(row["utilities"], before["utilities"], atol=1e-15)


@pytest.mark.parametrize("output", ["m.npy", "m.jsonl"])
def test_pairwise_outputs_as_utilities(workdir, capsys, output):
    write_items(ITEMS)
    assert main(["pairwise", "-m", "chrf", "-i", "items.jsonl", "-o", output, "--no-progress"]) == ExitCode.OK
    assert main(["mbr", "--utilities", output, "-i", "items.jsonl"]) == ExitCode.OK
    rows = selections(capsys)
    expected = refscore.mbr(CANDIDATES, utilities=refscore.pairwise("chrf", CANDIDATES))   # every column counts
    assert [r["chosen"] for r in rows] == expected.chosen.tolist()
    for k, row in enumerate(rows):
        np.testing.assert_allclose(row["utilities"], expected.utilities[k, :len(CANDIDATES[k])], atol=1e-15)


def test_item_weights(workdir, capsys):
    weights = [[0.1, 0.1, 0.1, 0.1, 5.0], [1.0, 2.0, 0.5]]
    write_items([{**item, "weights": w} for item, w in zip(ITEMS, weights)])
    assert main(["mbr", "-i", "items.jsonl", "--include-self"]) == ExitCode.OK
    expected = refscore.mbr(CANDIDATES, metric="chrf", include_self=True, sample_weights=weights)
    rows = selections(capsys)
    assert [r["chosen"] for r in rows] == expected.chosen.tolist()
    for k, row in enumerate(rows):
        np.testing.assert_allclose(row["utilities"], expected.utilities[k, :len(CANDIDATES[k])], atol=1e-15)
    write_items([{**item, "log_probs": np.log(w).tolist()} for item, w in zip(ITEMS, weights)])
    assert main(["mbr", "-i", "items.jsonl", "--include-self"]) == ExitCode.OK
    assert [r["chosen"] for r in selections(capsys)] == expected.chosen.tolist()


def test_pruning_decoder(workdir, capsys):
    samples = [{"candidates": ["the cat sat on the mat", "a cat sat", "the cat sat", "dogs", "the dog sat"] * 3}]
    write_items(samples)
    assert main(["mbr", "-i", "items.jsonl", "--decoder", "pruning", "--schedule", "2", "4", "15", "--seed", "3",
                 "--alpha", "0.9", "--bootstrap-samples", "100"]) == ExitCode.OK
    rows = selections(capsys)
    expected = pruning_mbr([samples[0]["candidates"]], metric="chrf", sampling_scheduler=[2, 4, 15], seed=3,
                           alpha=0.9, num_bootstrap_samples=100)
    assert rows[0]["chosen"] == int(expected.chosen[0])
    assert rows[0]["utilities"] == [None if np.isnan(u) else u for u in expected.utilities[0]]


@pytest.mark.parametrize("lines, args, code, message", [
    ([ITEMS[0]], ["--utilities", "m.txt"], ExitCode.USAGE, r"--utilities m.txt: the formats are .npy, .npz, .jsonl"),
    ([ITEMS[0]], ["--utilities", "missing.npy"], ExitCode.UNREADABLE_FILE, r"cannot read missing.npy \(--utilities\)"),
    ([ITEMS[0]], ["--utilities", "m.npy", "-m", "bleu"], ExitCode.USAGE, r"--utilities replaces the metrics"),
    (ITEMS, ["--utilities", "short.npy"], ExitCode.BAD_INPUT, r"utilities has 1 item\(s\) but candidates has 2"),
    ([ITEMS[0], {**ITEMS[1], "weights": [1, 1, 1]}], [], ExitCode.LINE_COUNT_MISMATCH,
     r"line 2: has 'weights' but the lines before do not"),
    ([{**ITEMS[1], "weights": [1, "a", 1]}], [], ExitCode.BAD_INPUT, r"line 1: 'weights' must be a list of numbers"),
    ([{**ITEMS[1], "weights": [1, 1]}], [], ExitCode.BAD_INPUT,
     r"sample_weights\[0\] has shape \(2,\) but item 0 has 3 pseudo-reference\(s\)"),
    ([ITEMS[0]], ["--decoder", "pruning", "--weights", "1"], ExitCode.USAGE,
     r"--weights is not an option of --decoder pruning"),
])
def test_errors(workdir, capsys, lines, args, code, message):
    write_items(lines)
    Path("m.txt").write_text("x")
    np.save("short.npy", np.zeros((1, 5, 5)))
    assert main(["mbr", "-i", "items.jsonl", *args]) == code
    error = capsys.readouterr().err
    assert error.startswith("refscore: error: ") and len(error.splitlines()) == 1, error
    assert __import__("re").search(message, error), error


def test_weights_are_refused_by_pairwise(workdir, capsys):
    write_items([{**ITEMS[1], "weights": [1, 1, 1]}])
    assert main(["pairwise", "-i", "items.jsonl"]) == ExitCode.BAD_INPUT
    assert "'weights' weighs the pseudo-references of refscore mbr" in capsys.readouterr().err
