"""Parquet record files on the command line (local engine; the Ray engine is tested in test_distributed.py): the
same output as the same records in JSON Lines, in memory and streamed row group by row group, with errors that
name the file, the row and the column."""
from __future__ import annotations

import json
import sys

import pytest

from refscore.cli import engines
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main

pa = pytest.importorskip("pyarrow", reason="pyarrow is needed for Parquet files (pip install 'refscore[parquet]')")
pq = pytest.importorskip("pyarrow.parquet")

RECORDS = [(f"the cat {i} sat on the mat", [f"the cat {i} sat on a mat", f"a cat sat {i}"] if i % 3 else
            [f"the cat sat {i}"]) for i in range(250)]


def write_pair(tmp_path, records=RECORDS, systems=None, row_group_size=40):
    """The same records as ``r.parquet`` (several row groups) and ``rrr.jsonl`` (a name as long, so that text
    tables are as wide)."""
    columns = {"prediction": [p for p, _ in records], "references": [r for _, r in records]}
    if systems is not None:
        columns["system"] = systems
    parquet_path, jsonl_path = tmp_path / "r.parquet", tmp_path / "rrr.jsonl"
    pq.write_table(pa.table(columns), parquet_path, row_group_size=row_group_size)
    with open(jsonl_path, "w", encoding="utf-8") as handle:
        for index in range(len(records)):
            handle.write(json.dumps({name: values[index] for name, values in columns.items()}) + "\n")
    assert pq.ParquetFile(parquet_path).metadata.num_row_groups > 1 or len(records) <= row_group_size
    return parquet_path, jsonl_path


def output_of(capsys, path, *args):
    code = main(["score", "-m", "bleu,chrf", "-i", str(path), "--no-progress", *args])
    captured = capsys.readouterr()
    assert code == ExitCode.OK, captured.err
    return captured.out.replace(str(path), "<input>")


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize("args", [["--format", "json"], ["--format", "json", "--segments"], ["--segments"],
                                  ["--confidence", "--confidence-n", "40"]])
def test_parquet_gives_the_output_of_the_same_jsonl(tmp_path, capsys, monkeypatch, streamed, args):
    if streamed:  # every record file is streamed: statistics per chunk, row group by row group
        monkeypatch.setattr(engines, "STREAM_BYTES", 0)
    parquet_path, jsonl_path = write_pair(tmp_path)
    assert engines.takes_over(main_args(parquet_path)) is streamed
    assert output_of(capsys, parquet_path, *args) == output_of(capsys, jsonl_path, *args)


def main_args(path):
    from refscore.cli.main import build_parser

    return build_parser().parse_args(["score", "-i", str(path)])


def test_large_parquet_files_are_streamed_by_their_uncompressed_size(tmp_path, monkeypatch):
    parquet_path, _ = write_pair(tmp_path)
    metadata = pq.ParquetFile(parquet_path).metadata
    data = sum(metadata.row_group(g).total_byte_size for g in range(metadata.num_row_groups))
    monkeypatch.setattr(engines, "STREAM_BYTES", data - 1)
    assert engines.takes_over(main_args(parquet_path))
    monkeypatch.setattr(engines, "STREAM_BYTES", data)
    assert not engines.takes_over(main_args(parquet_path))


def test_system_column_and_csv_style_reference_columns(tmp_path, capsys):
    systems = ["A" if i % 2 else "B" for i in range(len(RECORDS))]
    parquet_path, jsonl_path = write_pair(tmp_path, systems=systems)
    expected = output_of(capsys, jsonl_path, "--format", "json", "--segments")
    assert [entry["system"] for entry in json.loads(expected)] == ["<input>:B", "<input>:A"]
    assert output_of(capsys, parquet_path, "--format", "json", "--segments") == expected
    # the columns of a CSV file: one string column per reference, empty values left out
    columns = {"Prediction": [p for p, _ in RECORDS], "reference": [r[0] for _, r in RECORDS],
               "reference_2": [r[1] if len(r) > 1 else "" for _, r in RECORDS], "system": systems}
    table_path = tmp_path / "columns.parquet"
    pq.write_table(pa.table(columns), table_path, row_group_size=64)
    assert output_of(capsys, table_path, "--format", "json", "--segments") == expected


def run_error(capsys, path, *args, code=ExitCode.BAD_INPUT):
    assert main(["score", "-m", "bleu", "-i", str(path), "--no-progress", *args]) == code
    return capsys.readouterr().err


@pytest.mark.parametrize("streamed", [False, True])
def test_errors_name_the_file_the_row_and_the_column(tmp_path, capsys, monkeypatch, streamed):
    if streamed:
        monkeypatch.setattr(engines, "STREAM_BYTES", 0)
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"text": ["a"], "references": [["a"]]}), path)
    assert f"{path}: no column 'prediction'; the columns are ['text', 'references']" in run_error(capsys, path)
    references = [["a"]] * 99 + [["b", None]]
    pq.write_table(pa.table({"prediction": ["a"] * 100, "references": references}), path, row_group_size=30)
    assert f"{path}: row 100: references[1] is null, expected a string" in run_error(capsys, path)
    pq.write_table(pa.table({"prediction": ["a", None], "references": ["a", "b"]}), path)
    assert f"{path}: row 2: 'prediction' must be a string, got null" in run_error(capsys, path)
    pq.write_table(pa.table({"prediction": ["a", "b"], "references": ["a", "b"], "system": ["A", None]}), path)
    assert f"{path}: row 2: 'system' must be a non-empty string, got null" in run_error(capsys, path)
    pq.write_table(pa.table({"prediction": pa.array([], pa.string()), "references": pa.array([], pa.string())}),
                   path)
    assert f"{path}: no records" in run_error(capsys, path)
    path.write_text("not parquet\n", encoding="utf-8")
    assert f"{path}: not a readable Parquet file" in run_error(capsys, path)


def test_skip_bad_records_counts_and_lists_bad_rows(tmp_path, capsys):
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"prediction": ["a cat", None, "a dog"], "references": ["a cat", "x", "a dog"]}), path)
    clean = tmp_path / "clean.parquet"
    pq.write_table(pa.table({"prediction": ["a cat", "a dog"], "references": ["a cat", "a dog"]}), clean)
    assert main(["score", "-m", "bleu", "-i", str(path), "--skip-bad-records", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "skipped 1 malformed record:" in captured.err and f"{path}: row 2:" in captured.err
    assert main(["score", "-m", "bleu", "-i", str(clean), "--format", "json"]) == 0
    assert json.loads(captured.out)[0]["scores"] == json.loads(capsys.readouterr().out)[0]["scores"]


def test_without_pyarrow_the_error_names_the_install_command(tmp_path, capsys, monkeypatch):
    parquet_path, _ = write_pair(tmp_path)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    err = run_error(capsys, parquet_path, code=ExitCode.MISSING_EXTRA)
    assert "pip install 'refscore[parquet]'" in err and "Traceback" not in err


def test_parquet_columns_with_the_peers_names(tmp_path, capsys):
    """``hypothesis``/``reference`` columns (sacreBLEU's words) score as ``prediction``/``references``."""
    parquet_path, _ = write_pair(tmp_path)
    aliases = tmp_path / "aliases.parquet"
    pq.write_table(pa.table({"hypothesis": [p for p, _ in RECORDS], "reference": [r for _, r in RECORDS]}), aliases)
    assert output_of(capsys, aliases, "--format", "json") == output_of(capsys, parquet_path, "--format", "json")
