"""Command-line inputs that carry their own references: JSON Lines, CSV and TSV."""
from __future__ import annotations

import csv
import json

import pytest

import refscore
from refscore.cli.main import main
from refscore.errors import ExitCode

PREDICTIONS = ["the cat sat on the mat", "a dog barked", "hello, world"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barked"], ["hello world"]]


def run_json(capsys, args):
    code = main(args)
    captured = capsys.readouterr()
    assert code == ExitCode.OK, captured.err
    return json.loads(captured.out)


def test_csv_and_tsv_give_the_same_scores_as_the_api(tmp_path, capsys):
    csv_path = tmp_path / "outputs.csv"
    csv_path.write_text("prediction,reference,reference_2\n" + "".join(
        f'"{p}","{r[0]}",{"" if len(r) == 1 else r[1]}\n' for p, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    tsv_path = tmp_path / "outputs.tsv"
    tsv_path.write_text("prediction\treferences\treference_b\n" + "".join(
        f"{p}\t{r[0]}\t{'' if len(r) == 1 else r[1]}\n" for p, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    expected = refscore.bleu(PREDICTIONS, REFERENCES).score
    for path in (csv_path, tsv_path):
        payload = run_json(capsys, ["score", "-m", "bleu", "-i", str(path), "--format", "json"])
        assert payload[0]["scores"]["bleu"]["score"] == pytest.approx(expected, abs=1e-12)


def test_system_column_groups_records(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "prediction", "reference"])
        writer.writerows([system, p, r[0]] for system in ("A", "B") for p, r in zip(PREDICTIONS, REFERENCES))
    payload = run_json(capsys, ["score", "-m", "chrf", "-i", str(path), "--format", "json"])
    assert [entry["system"] for entry in payload] == [f"{path}:A", f"{path}:B"]


def test_jsonl_input(tmp_path, capsys):
    path = tmp_path / "outputs.jsonl"
    path.write_text("\n".join(json.dumps({"prediction": p, "references": r})
                              for p, r in zip(PREDICTIONS, REFERENCES)) + "\n", encoding="utf-8")
    payload = run_json(capsys, ["score", "-m", "ter", "-i", str(path), "--format", "json", "--segments"])
    assert len(payload[0]["segments"]["ter"]["ter"]) == 3


def test_csv_without_required_columns_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("output,target\nx,y\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-i", str(path)]) == ExitCode.BAD_INPUT
    assert "'prediction' column" in capsys.readouterr().err


def test_record_files_refuse_reference_files(tmp_path, capsys):
    path = tmp_path / "outputs.csv"
    path.write_text("prediction,reference\na,b\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("b\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-r", str(ref), "-i", str(path)]) == ExitCode.USAGE
    assert "no -r" in capsys.readouterr().err
