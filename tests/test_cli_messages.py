"""What the command line says, in real processes: missing files named with their flag and without Python's
``[Errno N]``, plural agreement, "did you mean" for a misspelt metric, ``example --help``, and record files that
use the peers' field names (``hypothesis``, ``hyp``, ``output``, ``reference``)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from refscore.cli.exit_codes import ExitCode
from test_cli_process import lines, refscore_command


def refscore(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "ref.txt").write_text(lines(20, 1), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(lines(20, 2), encoding="utf-8")
    return tmp_path


# -- missing files ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("arguments, message", [
    (["score", "-r", "absent.txt", "-i", "hyp.txt"], "cannot read absent.txt (-r): No such file or directory"),
    (["score", "-r", "ref.txt", "-i", "absent.txt"], "cannot read absent.txt (-i): No such file or directory"),
    (["score", "absent.txt", "-i", "hyp.txt"], "cannot read absent.txt (-r): No such file or directory"),
    (["score", "-i", "absent.jsonl"], "cannot read absent.jsonl (-i): No such file or directory"),
    (["score", "-i", "absent.parquet"], "cannot read absent.parquet (-i): No such file or directory"),
    (["score", "-i", "absent.jsonl", "--skip-bad-records"], "cannot read absent.jsonl (-i): No such file or directory"),
    (["compare", "-r", "ref.txt", "-i", "hyp.txt", "absent.txt"],
     "cannot read absent.txt (-i): No such file or directory"),
    (["check", "absent.jsonl", "--check", "bleu"], "cannot read the cases file absent.jsonl: No such file or directory"),
    (["bertscore-baseline", "--model", "m", "--corpus", "absent.txt"],
     "cannot read absent.txt (--corpus): No such file or directory"),
])
def test_a_missing_file_is_named_with_its_flag(folder, arguments, message):
    result = refscore(*arguments, cwd=folder)
    assert result.returncode == ExitCode.UNREADABLE_FILE, result.stderr
    assert result.stderr == f"refscore: error: {message}\n"


# -- words --------------------------------------------------------------------------------------------------------
def test_unknown_metric_suggests_the_closest(folder):
    result = refscore("score", "-m", "blue", "-r", "ref.txt", "-i", "hyp.txt", cwd=folder)
    assert result.returncode == ExitCode.UNKNOWN_METRIC
    assert result.stderr.startswith("refscore: error: unknown metric 'blue'; did you mean 'bleu'? choose from: bleu,")
    unrelated = refscore("score", "-m", "xyz", "-r", "ref.txt", "-i", "hyp.txt", cwd=folder)
    assert "did you mean" not in unrelated.stderr


def test_example_help_describes_the_command(folder):
    result = refscore("example", "--help", cwd=folder)
    assert result.returncode == 0
    description = result.stdout.split("\n\n")[1]
    assert description.startswith("Score the bundled examples with every registered metric")
    assert "--format {text,json}  output format" in result.stdout


def test_one_of_a_kind_is_singular(folder):
    (folder / "one.tsv").write_text("prediction\treference\na cat\n", encoding="utf-8")
    result = refscore("score", "-i", "one.tsv", cwd=folder)
    assert result.stderr == ("refscore: error: one.tsv: line 2: 1 field but the header has 2 columns; every row needs "
                             "one field per column (an empty reference is an empty field); fix the record, or skip "
                             "such records with --skip-bad-records (skip_bad_records=True: they are counted and "
                             "reported)\n")
    (folder / "skip.jsonl").write_text('{"prediction": "a", "references": "a"}\n[1]\n', encoding="utf-8")
    skipped = refscore("score", "-i", "skip.jsonl", "--skip-bad-records", cwd=folder)
    assert skipped.returncode == 0 and skipped.stderr.startswith("refscore: skipped 1 malformed record:\n")
    (folder / "one.txt").write_text("a single line\n", encoding="utf-8")
    mismatch = refscore("score", "-r", "ref.txt", "-i", "one.txt", cwd=folder)
    assert "(ref.txt: 20 lines, one.txt: 1 line)" in mismatch.stderr
    paired = refscore("compare", "-r", "ref.txt", "-i", "hyp.txt", "ref.txt", "--n", "1", cwd=folder)
    assert paired.returncode == 0 and "test with 1 resample," in paired.stdout


def test_report_of_one_system_says_1_system(folder):
    pytest.importorskip("bokeh")
    result = refscore("report", "-r", "ref.txt", "-i", "hyp.txt", "-m", "bleu", "--n", "10", "-o", "r.html",
                      cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "(1 system, 20 segments, bleu)" in result.stdout


# -- the peers' field names in record files ------------------------------------------------------------------------
PAIRS = list(zip(lines(30, 3).splitlines(), lines(30, 4).splitlines()))


def scores(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)[0]["scores"]


@pytest.mark.parametrize("hypothesis, references", [("hypothesis", "reference"), ("hyp", "references"),
                                                    ("output", "reference")])
def test_jsonl_aliases_score_as_the_default_names(tmp_path, hypothesis, references):
    (tmp_path / "default.jsonl").write_text("".join(json.dumps({"prediction": h, "references": [r]}) + "\n"
                                                    for h, r in PAIRS), encoding="utf-8")
    (tmp_path / "aliases.jsonl").write_text("".join(json.dumps({hypothesis: h, references: r}) + "\n"
                                                    for h, r in PAIRS), encoding="utf-8")
    common = ["-m", "bleu,chrf", "--format", "json"]
    expected = scores(refscore("score", "-i", "default.jsonl", *common, cwd=tmp_path))
    assert scores(refscore("score", "-i", "aliases.jsonl", *common, cwd=tmp_path)) == expected


def test_csv_hypothesis_alias(tmp_path):
    (tmp_path / "default.csv").write_text("prediction,reference\n" + "".join(f"{h},{r}\n" for h, r in PAIRS),
                                          encoding="utf-8")
    (tmp_path / "aliases.csv").write_text("hypothesis,reference\n" + "".join(f"{h},{r}\n" for h, r in PAIRS),
                                          encoding="utf-8")
    expected = scores(refscore("score", "-i", "default.csv", "--format", "json", cwd=tmp_path))
    assert scores(refscore("score", "-i", "aliases.csv", "--format", "json", cwd=tmp_path)) == expected


@pytest.mark.parametrize("record, message", [
    ({"text": "a cat", "refs": ["a cat"], "id": 7},
     "line 1: no field 'prediction' (or 'hypothesis', 'hyp', 'output'); the record has 'text', 'refs', 'id'"),
    ({"prediction": "a cat", "gold": "a cat"}, "line 1: no field 'references' (or 'reference'); the record has "
                                               "'prediction', 'gold'"),
    ({"prediction": "a cat", "output": "a dog", "references": "a cat"},
     "line 1: both 'prediction' and 'output' are given, which name the same field ('prediction'); keep one"),
])
def test_a_record_without_its_fields_names_the_fields_it_has(tmp_path, record, message):
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = refscore("score", "-i", "bad.jsonl", cwd=tmp_path)
    assert result.returncode == ExitCode.BAD_INPUT
    assert result.stderr.startswith(f"refscore: error: bad.jsonl: {message}; fix the record"), result.stderr


def test_aliases_are_not_metadata_in_the_report(tmp_path):
    from refscore.cli.report import record_metadata

    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps({"hypothesis": h, "reference": r, "domain": "news"}) + "\n"
                            for h, r in PAIRS[:3]), encoding="utf-8")
    assert record_metadata([str(path)], str(path)) == {"domain": ["news"] * 3}
