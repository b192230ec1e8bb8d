"""Record files read in units and streamed in bounded memory (no Ray needed): read units tile the input, the merge
refuses lost or repeated records, and a file of a few hundred MB scores in little memory to the in-memory result."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.scale import score_json
from conftest import shared_data_path
from refscore.cli.main import main
from refscore.distributed.merge import LostRecordsError, blank_bytes, order_and_check_spans
from refscore.io.records import RecordFormatError, RecordLayout
from refscore.io.record_files import plan_units, read_unit
from refscore.streaming import stream_scores, stream_statistics
from refscore.metrics.bleu import BLEU
from refscore.metrics.chrf import CHRF


def write_jsonl(path, records, blank_every=0):
    with open(path, "w", encoding="utf-8") as handle:
        for index, (prediction, references) in enumerate(records):
            handle.write(json.dumps({"prediction": prediction, "references": references}, ensure_ascii=False) + "\n")
            if blank_every and index % blank_every == 0:
                handle.write("\n  \n")
    return path


RECORDS = [(f"hyp {i} ünïcode", [f"ref {i}", f"other {i}"] if i % 3 else f"ref {i}") for i in range(997)]


@pytest.mark.parametrize("unit_bytes", [7, 37, 1000, 1 << 30])
def test_read_units_give_every_record_once_in_order_with_spans_that_tile_the_file(tmp_path, unit_bytes):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS, blank_every=7)
    chunks = [c for unit in plan_units([str(path)], unit_bytes) for c in read_unit(unit, RecordLayout(),
                                                                                    chunk_records=50)]
    starts = np.array([s for c in chunks for s in c.starts])
    ends = np.array([e for c in chunks for e in c.ends])
    assert [h for c in chunks for h in c.hypotheses] == [p for p, _ in RECORDS]
    assert [r for c in chunks for r in c.references] == [r if isinstance(r, list) else [r] for _, r in RECORDS]
    order = order_and_check_spans(np.zeros(len(starts), dtype=np.int64), starts, ends,
                                  {0: path.stat().st_size}, [str(path)], blank_bytes)
    assert order.tolist() == list(range(len(starts)))


def test_the_merge_refuses_a_record_counted_twice_or_lost():
    files, starts, ends = np.zeros(3, dtype=np.int64), np.array([0, 10, 10]), np.array([10, 20, 20])
    with pytest.raises(LostRecordsError, match="more than once"):
        order_and_check_spans(files, starts, ends, {0: 20}, ["f.jsonl"])
    with pytest.raises(LostRecordsError, match="between positions 10 and 20 are missing"):
        order_and_check_spans(files[:2], np.array([0, 20]), np.array([10, 30]), {0: 30}, ["f.jsonl"])
    with pytest.raises(LostRecordsError, match="after position 20"):
        order_and_check_spans(files[:2], starts[:2], ends[:2], {0: 25}, ["f.jsonl"])
    with pytest.raises(refscore.errors.InputError, match="g.jsonl: no records"):
        order_and_check_spans(files[:2], starts[:2], ends[:2], {0: 20}, ["f.jsonl", "g.jsonl"])


def test_csv_and_parquet_records_read_like_jsonl(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is needed for Parquet files")
    import pyarrow.parquet as pq

    csv_path = tmp_path / "r.csv"
    csv_path.write_text("prediction,reference,reference_2\n" + "".join(
        f'"{p}","{r[0] if isinstance(r, list) else r}","{r[1] if isinstance(r, list) else ""}"\n'
        for p, r in RECORDS), encoding="utf-8")
    parquet_path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"prediction": [p for p, _ in RECORDS],
                             "references": [r if isinstance(r, list) else [r] for _, r in RECORDS]}),
                   parquet_path, row_group_size=100)
    jsonl_path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    scores = [stream_scores(str(p), [BLEU(), CHRF()], chunk_records=64).scores[str(p)] for p in
              (jsonl_path, csv_path, parquet_path)]
    assert scores[0] == scores[1] == scores[2]


def test_malformed_records_stop_with_file_and_line_or_are_counted(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS[:20])
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = '{"prediction": "x", "references": []}'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordFormatError, match=r"line 5: 'references' must be a string or a non-empty list"):
        stream_scores(str(path), [BLEU()])
    result = stream_scores(str(path), [BLEU()], skip_bad_records=True)
    assert result.rows == 20 and len(result.bad_records) == 1
    kept = RECORDS[:4] + RECORDS[5:20]
    assert result.scores[str(path)]["bleu"] == refscore.BLEU().corpus_score([p for p, _ in kept],
                                                                          [r for _, r in kept])


def test_cli_streams_and_skips_with_the_in_memory_output(tmp_path, capsys):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    outputs = []
    for extra in ([], ["--skip-bad-records"]):
        for args in (["--format", "json", "--segments"], ["--segments"], ["--confidence", "--confidence-n", "30"]):
            assert main(["score", "-m", "bleu,chrf", "-i", str(path), *args, *extra]) == 0
            outputs.append(capsys.readouterr().out)
    assert outputs[:3] == outputs[3:]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text(encoding="utf-8") + "[1, 2]\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-i", str(bad), "--skip-bad-records"]) == 0
    captured = capsys.readouterr()
    assert "skipped 1 malformed record:" in captured.err and f"{bad}: line 998: a JSON list" in captured.err


def test_rouge_document_count_of_a_streamed_run_is_the_segment_count(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    statistics, _ = stream_statistics(str(path), [refscore.ROUGE()], chunk_records=100)
    streamed = stream_scores(str(path), [refscore.ROUGE()], chunk_records=100).scores[str(path)]["rouge"]
    assert streamed.values["documents"] == len(RECORDS) == len(statistics[str(path)][0])


# The child's own peak resident memory: VmHWM of its address space. (getrusage's ru_maxrss would do on a quiet
# parent, but Linux carries the maximum over exec, so a child of a large pytest process would report the parent's.)
MEASURE = """
import sys
from refscore.cli.main import main
code = main(sys.argv[1:])
with open("/proc/self/status") as status:
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")), file=sys.stderr)
raise SystemExit(code)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak memory from /proc (Linux)")
def test_a_file_of_a_few_hundred_mb_streams_in_bounded_memory(tmp_path):
    source = shared_data_path("summ_cnndm_see2017", "baseline.jsonl")
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()[:500]]
    block = "".join(json.dumps({"prediction": r["prediction"], "references": r["references"]}) + "\n"
                    for r in records).encode("utf-8")
    repeats = (256 << 20) // len(block)
    path = tmp_path / "large.jsonl"
    with open(path, "wb") as handle:
        for _ in range(repeats):
            handle.write(block)
    run = subprocess.run([sys.executable, "-c", MEASURE, "score", "-m", "bleu", "-i", str(path), "--format",
                          "json"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    peak_mb = int(run.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 300, f"peak memory {peak_mb:.0f} MB for a {path.stat().st_size >> 20} MB file"
    # the in-memory run of the same data: the block's statistics, every count summed `repeats` times (exact ints)
    metric = BLEU()
    stats = metric.statistics([r["prediction"] for r in records], [r["references"] for r in records])
    totals = refscore.Statistics(stats.metric, stats.config_hash, stats.columns, stats.totals()[None, :] * repeats,
                                 stats.nrefs)
    in_memory = score_json(metric.score_from_statistics(totals),   # as the command line prints it (0–100)
                           float(metric.percent_scores_from_totals(totals.data)[0, 0]))
    assert json.loads(run.stdout)[0]["scores"]["bleu"] == json.loads(json.dumps(in_memory))


def test_records_that_name_systems_and_records_that_do_not_are_not_mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"system": "A", "prediction": "a", "references": "a"}\n'
                    '{"prediction": "b", "references": "b"}\n', encoding="utf-8")
    with pytest.raises(refscore.errors.InputError, match=r"mixed.jsonl: line 2: 'system' must be a non-empty string "
                                                         r"in every record or absent from all \(line 1 has one\)"):
        stream_scores(str(path), [BLEU()])


@pytest.mark.parametrize("module", ["refscore.distributed", "refscore.distributed._ray", "refscore.io.records",
                                    "refscore.io.record_files", "refscore.distributed.compute",
                                    "refscore.distributed.merge", "refscore.streaming",
                                    "refscore.distributed.datasource", "refscore.cli.output"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0


def test_engine_ray_without_the_extra_names_the_install_command(tmp_path, capsys, monkeypatch):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS[:5])
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["score", "-m", "bleu", "-i", str(path), "--engine", "ray"]) == ExitCode.MISSING_EXTRA
    assert "pip install 'refscore[ray]'" in capsys.readouterr().err


def test_a_system_file_given_twice_is_refused_by_every_engine(tmp_path, capsys):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS[:5])
    assert main(["score", "-m", "bleu", "-i", str(path), str(path), "--skip-bad-records"]) == 2
    assert "given more than once" in capsys.readouterr().err
