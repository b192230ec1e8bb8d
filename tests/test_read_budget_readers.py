"""issue 40 item 6: the read budget (REFSCORE_MAX_LINE_BYTES per line, REFSCORE_MAX_INPUT_BYTES in all) in every
reader that lacked it: CSV/TSV and Parquet records, JSON Lines streams, plain-text lines, report and baseline JSON,
pairwise items, the pyproject configuration, case files and meta-evaluation judgments. Budgets are lowered through
their variables; the errors name the file, the budget and the variable."""
from __future__ import annotations

import io
import json

import pytest

from refscore.cli.main import main
from refscore.io.limits import InputTooLargeError

LINE = "REFSCORE_MAX_LINE_BYTES"
TOTAL = "REFSCORE_MAX_INPUT_BYTES"


def refused_over_each_budget(monkeypatch, read, line: tuple[int, str], total: tuple[int, str]) -> None:
    """``read()`` raises InputTooLargeError matching each pattern under a line budget, then a total budget, of the
    given sizes (each set alone)."""
    for variable, (limit, pattern) in ((LINE, line), (TOTAL, total)):
        monkeypatch.setenv(variable, str(limit))
        with pytest.raises(InputTooLargeError, match=pattern):
            read()
        monkeypatch.delenv(variable)


def records(path):
    from refscore.io.record_files import read_file
    from refscore.io.records import RecordLayout

    return [h for chunk in read_file(str(path), RecordLayout()) for h in chunk.hypotheses]


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_table_lines_and_total_within_the_budget(tmp_path, monkeypatch, suffix):
    separator = "\t" if suffix == ".tsv" else ","
    path = tmp_path / f"r{suffix}"
    path.write_text(f"prediction{separator}reference\na cat{separator}a cat\n{'x' * 40}{separator}y\n")
    assert records(path) == ["a cat", "x" * 40]
    refused_over_each_budget(monkeypatch, lambda: records(path),
                             (30, rf"r\{suffix}: line 3 is longer than 30 bytes.*{LINE}=<bytes>"),
                             (40, rf"r\{suffix}: more than 40 bytes.*{TOTAL}=<bytes>"))


def test_quoted_csv_field_over_lines_and_lone_carriage_returns_still_read(tmp_path, monkeypatch):
    path = tmp_path / "r.csv"
    path.write_bytes(b'\xef\xbb\xbfprediction,reference\r\n"a\ncat",b\r"c",d\r\n')
    monkeypatch.setenv(LINE, "30")
    assert records(path) == ["a\ncat", "c"]


def test_parquet_over_the_budget_is_refused_before_reading(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"prediction": ["a cat " * 50] * 20, "references": ["a cat"] * 20}), path)
    assert len(records(path)) == 20
    monkeypatch.setenv(TOTAL, "1000")
    with pytest.raises(InputTooLargeError, match=rf"r\.parquet: more than 1000 bytes.*{TOTAL}"):
        records(path)


def test_jsonl_file_over_the_budget_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    path.write_text('{"prediction": "a", "references": ["a"]}\n' * 10)
    monkeypatch.setenv(TOTAL, "100")
    with pytest.raises(InputTooLargeError, match=rf"r\.jsonl: more than 100 bytes.*{TOTAL}"):
        records(path)


def test_json_values_stream_stops_at_the_budget(monkeypatch):
    from refscore.io.json_lines import json_values

    monkeypatch.setenv(TOTAL, "20")
    stream = io.BytesIO(b"[1]\n" * 1000)
    with pytest.raises(InputTooLargeError, match=r"<stdin>: more than 20 bytes"):
        list(json_values(stream, "<stdin>"))
    assert stream.tell() <= 28


def test_plain_text_lines_within_the_budget(tmp_path, monkeypatch, capsys):
    from refscore.io.text_files import read_text_lines

    refs = tmp_path / "r.txt"
    refs.write_text("a cat\n" + "x" * 50 + "\n")
    monkeypatch.setenv(LINE, "20")
    with pytest.raises(InputTooLargeError, match=rf"r\.txt: line 2 is longer than 20 bytes.*{LINE}"):
        read_text_lines(refs)
    hyp = tmp_path / "h.txt"
    hyp.write_text("a cat\nthe dog\n")
    assert main(["score", "-r", str(refs), "-i", str(hyp)]) == 7   # -r of score, compare and report alike
    assert f"r.txt: line 2 is longer than 20 bytes" in capsys.readouterr().err


def test_report_and_baseline_json_within_the_budget(tmp_path, monkeypatch):
    from refscore.reporting.saved_json import read_saved_json
    from refscore.testing.saved import load_run

    path = tmp_path / "run.json"
    path.write_text(json.dumps({"cases": ["x" * 200]}))
    monkeypatch.setenv(TOTAL, "100")
    with pytest.raises(InputTooLargeError, match=r"run\.json: more than 100 bytes"):
        read_saved_json(path, "--test-run", "refscore check --save")
    with pytest.raises(InputTooLargeError, match=r"run\.json: more than 100 bytes"):
        load_run(path)


def test_pairwise_items_within_the_budget(tmp_path, monkeypatch, capsys):
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps({"candidates": ["a cat", "the cat"]}) + "\n" for _ in range(20)))
    monkeypatch.setenv(TOTAL, "200")
    assert main(["pairwise", "-m", "chrf", "-i", str(items), "-o", str(tmp_path / "m.jsonl")]) == 7
    assert f"items.jsonl: more than 200 bytes, the most one input may hold" in capsys.readouterr().err
    assert not (tmp_path / "m.jsonl").exists()


def test_pyproject_within_the_budget(tmp_path, monkeypatch):
    from refscore.testing.config import load_settings

    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.refscore.checks.bleu]\nthreshold = 0.3\n" + "# padding\n" * 20)
    assert load_settings(path).checks[0].threshold == 0.3
    monkeypatch.setenv(TOTAL, "100")
    with pytest.raises(InputTooLargeError, match=r"pyproject\.toml: more than 100 bytes"):
        load_settings(path)


def test_case_file_lines_within_the_budget(tmp_path, monkeypatch):
    from refscore.testing.cases import load_cases

    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"actual_output": "a cat", "expected_output": "a cat"}) + "\n"
                    + json.dumps({"actual_output": "x" * 100, "expected_output": "a cat"}) + "\n")
    assert len(load_cases(path)) == 2
    monkeypatch.setenv(LINE, "80")
    with pytest.raises(InputTooLargeError, match=rf"cases\.jsonl: line 2 is longer than 80 bytes.*{LINE}"):
        load_cases(path)


def test_judgments_lines_within_the_budget(tmp_path, monkeypatch):
    from refscore.meta.inputs import load_judgments

    path = tmp_path / "j.jsonl"
    rows = [{"system": s, "seg_id": i, "prediction": "a cat" * (1 + 20 * (i == 1)), "references": ["a cat"],
             "mqm": i} for s in ("A", "B") for i in range(2)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert load_judgments(path).systems == ["A", "B"]
    monkeypatch.setenv(LINE, "100")
    with pytest.raises(InputTooLargeError, match=rf"j\.jsonl: line 2 is longer than 100 bytes.*{LINE}"):
        load_judgments(path)


@pytest.mark.parametrize("references", [["a cat", "x" * 40, "a cat"], [["a cat"], ["b", "x" * 40], ["c"]]])
def test_parquet_text_values_within_the_line_budget(tmp_path, monkeypatch, references):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"prediction": ["a", "b", "c"], "references": references}), path)
    assert records(path) == ["a", "b", "c"]
    monkeypatch.setenv(LINE, "30")
    with pytest.raises(InputTooLargeError, match=rf"r\.parquet: row 2: 'references' holds a value longer than 30 "
                                                 rf"bytes.*{LINE}=<bytes>"):
        records(path)


def test_parquet_judgments_within_the_budget(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    from refscore.meta.inputs import load_judgments

    path = tmp_path / "j.parquet"
    rows = [{"system": s, "seg_id": i, "prediction": "a cat" * (1 + 20 * (i == 1)), "references": ["a cat"],
             "mqm": float(i)} for s in ("A", "B") for i in range(2)]
    pq.write_table(pa.Table.from_pylist(rows), path)
    assert load_judgments(path).systems == ["A", "B"]
    refused_over_each_budget(monkeypatch, lambda: load_judgments(path),
                             (50, rf"j\.parquet: row 2: 'prediction' holds a value longer than 50"),
                             (100, rf"j\.parquet: more than 100 bytes"))


def test_rouge155_summary_files_within_the_budget(tmp_path, monkeypatch):
    from refscore.metrics.rouge import read_summary

    path = tmp_path / "peer.spl"
    path.write_text("the cat sat\n" + "x" * 40 + "\n")
    assert read_summary(path).split() == ["the", "cat", "sat", "x" * 40]
    refused_over_each_budget(monkeypatch, lambda: read_summary(path),
                             (20, rf"peer\.spl: line 2 is longer than 20 bytes"),
                             (30, rf"peer\.spl: more than 30 bytes"))
