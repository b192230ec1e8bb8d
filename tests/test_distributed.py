"""refscore.distributed on a real local Ray (2 CPUs): merged statistics, scores, intervals and tests equal the
single-process ones bit for bit for several block counts; worker deaths, malformed records and the command line."""
from __future__ import annotations

import json
import os
import signal
import sys

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'refscore[ray]')")
pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'refscore[ray]')")
pa = pytest.importorskip("pyarrow", reason="pyarrow (part of the ray extra) is not installed")

import refscore  # noqa: E402
import refscore.distributed as rd  # noqa: E402
from conftest import read_segments, shared_data_path  # noqa: E402
from refscore.metrics.bleu import BLEU  # noqa: E402
from refscore.metrics.chrf import CHRF  # noqa: E402
from refscore.metrics.rouge import ROUGE  # noqa: E402
from refscore.metrics.ter import TER  # noqa: E402

# classes of this module (a metric that kills its worker) travel to the workers by value
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


def wmt22_pair(pair: str = "en-de"):
    """All system outputs of one WMT22 pair, with both references."""
    directory = shared_data_path("wmt22", pair)
    streams = [read_segments(directory / name) for name in ("ref.txt", "ref2.txt") if (directory / name).exists()]
    references = refscore.from_streams(streams)
    systems = {path.stem: read_segments(path) for path in sorted((directory / "sys").glob("*.txt"))}
    return systems, references


def system_table(systems, references):
    names = list(systems)
    n = len(references)
    return pa.table({"__index": pa.array(range(len(names) * n), pa.int64()),
                     "system": [name for name in names for _ in range(n)],
                     "prediction": [h for name in names for h in systems[name]],
                     "references": [r for _ in names for r in references]})


def assert_same_statistics(local, merged):
    assert merged.columns == local.columns and merged.nrefs == local.nrefs and merged.data.dtype == local.data.dtype
    assert np.array_equal(merged.data, local.data)


@pytest.mark.parametrize("blocks", [1, 7, 23])
def test_wmt22_every_system_equals_single_process(blocks):
    systems, references = wmt22_pair()
    metrics = [BLEU(), CHRF()]
    dataset = ray.data.from_arrow(system_table(systems, references)).repartition(blocks).random_shuffle(seed=blocks)
    merged = rd.statistics(dataset, metrics, index_column="__index")
    assert merged.systems == list(systems)
    for name, hypotheses in systems.items():
        for metric in metrics:
            local = metric.statistics(hypotheses, references)
            assert_same_statistics(local, merged.of(metric, name))
            assert merged.score(metric, name) == metric.score_from_statistics(local)
    baseline, other = list(systems)[:2]
    local_test = refscore.paired_test_from_statistics(
        metrics[0], {s: metrics[0].statistics(systems[s], references) for s in (baseline, other)}, n=200)
    assert merged.paired_test("bleu", [baseline, other], n=200).to_dict() == local_test.to_dict()


def test_wmt22_files_in_many_read_units_equal_single_process(tmp_path):
    systems, references = wmt22_pair("de-en")
    for index, (name, hypotheses) in enumerate(systems.items()):
        with open(tmp_path / f"{index:02d}.jsonl", "w", encoding="utf-8") as handle:
            for hypothesis, refs in zip(hypotheses, references):
                handle.write(json.dumps({"system": name, "prediction": hypothesis, "references": refs},
                                        ensure_ascii=False) + "\n")
    metric = TER()
    merged = rd.statistics(str(tmp_path / "*.jsonl"), [metric], unit_bytes=40_000)
    assert merged.systems == list(systems) and merged.rows == len(systems) * len(references)
    for name, hypotheses in systems.items():
        assert_same_statistics(metric.statistics(hypotheses, references), merged.of(metric, name))


@pytest.fixture(scope="module")
def cnndm():
    path = shared_data_path("summ_cnndm_see2017", "pointer-gen.jsonl")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return path, [r["prediction"] for r in records], [r["references"] for r in records]


@pytest.mark.parametrize("unit_bytes", [300_000, 1_700_000, 64 << 20])
def test_cnndm_rouge_float_statistics_are_bit_identical(cnndm, unit_bytes):
    path, hypotheses, references = cnndm
    metric = ROUGE(types=("rouge1", "rouge2", "rougeLsum"), stemmer=True)
    merged = rd.statistics(str(path), [metric], unit_bytes=unit_bytes, batch_size=1000)
    local = metric.statistics(hypotheses, references)
    assert_same_statistics(local, merged.of(metric))
    assert merged.score(metric).to_dict() == metric.score_from_statistics(local).to_dict()
    assert merged.bootstrap_ci(metric, n=100).to_dict() == refscore.bootstrap_ci_from_statistics(
        metric, local, n=100).to_dict()


def test_dataset_without_index_keeps_its_own_order(cnndm):
    _, hypotheses, references = cnndm
    metric = BLEU()
    dataset = ray.data.from_items([{"prediction": h, "references": r}
                                   for h, r in zip(hypotheses[:3000], references[:3000])]).repartition(9)
    assert_same_statistics(metric.statistics(hypotheses[:3000], references[:3000]),
                           rd.statistics(dataset, metric).of(metric))


def test_segment_scores_as_dataset_columns_written_to_parquet(cnndm, tmp_path):
    path, hypotheses, references = cnndm
    metrics = [BLEU(), CHRF()]
    scored = rd.score_dataset(str(path), metrics)
    scored.write_parquet(str(tmp_path / "scores"))
    table = pa.concat_tables([pa.parquet.read_table(p) for p in sorted((tmp_path / "scores").glob("*.parquet"))])
    order = np.lexsort((table.column("__start").to_numpy(), table.column("__file").to_numpy()))
    for metric in metrics:
        expected = metric.segment_scores(metric.statistics(hypotheses, references))
        assert np.array_equal(table.column(metric.name).to_numpy()[order], expected)


class KillWorkerOnceBLEU(BLEU):
    """BLEU whose first statistics call kills its own worker process (SIGKILL), as a node failure would."""

    marker: str = ""

    def statistics(self, hypotheses, references, *, num_threads=None):
        if not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().statistics(hypotheses, references, num_threads=num_threads)


def test_a_killed_worker_is_retried_and_the_result_is_identical(cnndm, tmp_path):
    path, hypotheses, references = cnndm
    metric = KillWorkerOnceBLEU()
    metric.marker = str(tmp_path / "killed")
    merged = rd.statistics(str(path), [metric], unit_bytes=1_000_000, batch_size=2000)
    assert os.path.exists(metric.marker)  # a worker did die
    assert merged.rows == len(hypotheses)
    assert_same_statistics(BLEU().statistics(hypotheses, references), merged.of(metric))


def test_a_malformed_record_names_file_and_line_or_is_skipped_and_reported(tmp_path):
    path = tmp_path / "runs.jsonl"
    lines = [json.dumps({"prediction": f"a cat {i}", "references": [f"the cat {i}"]}) for i in range(500)]
    lines[123] = '{"prediction": "a cat", "references": [nul'
    lines[400] = json.dumps({"prediction": None, "references": "x"})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(rd.RecordFormatError, match=rf"{path}: line 124: not valid JSON"):
        rd.statistics(str(path), [BLEU()], unit_bytes=5000)
    merged = rd.statistics(str(path), [BLEU()], unit_bytes=5000, skip_bad_records=True)
    assert merged.rows == 500 and len(merged.bad_records) == 2
    assert "line 124" in merged.bad_records[0] and "line 401: 'prediction' must be a string" in merged.bad_records[1]
    kept = [i for i in range(500) if i not in (123, 400)]
    assert_same_statistics(BLEU().statistics([f"a cat {i}" for i in kept], [[f"the cat {i}"] for i in kept]),
                           merged.of("bleu"))


@pytest.mark.filterwarnings("ignore::refscore.errors.RefscoreWarning")  # the tiny model truncates long segments
def test_bertscore_through_an_actor_pool_equals_single_process(tmp_path):
    from bertscore_helpers import build_tiny_bert

    from refscore.metrics.bertscore import BERTScoreMetric

    model = build_tiny_bert(tmp_path / "tiny-bert")
    systems, references = wmt22_pair("cs-en")
    hypotheses = systems[list(systems)[0]][:200]
    references = references[:200]
    metric = BERTScoreMetric(model_type=str(model), num_layers=2)
    dataset = ray.data.from_arrow(system_table({"s": hypotheses}, references)).repartition(5)
    merged = rd.statistics(dataset, [metric, BLEU()], index_column="__index", batch_size=64)
    assert_same_statistics(metric.statistics(hypotheses, references), merged.of(metric))
    local = metric.score_from_statistics(metric.statistics(hypotheses, references))
    assert merged.score(metric).values["f1"] == local.values["f1"]


def test_cli_engine_ray_prints_what_the_local_run_prints(cnndm, capsys):
    from refscore.cli.main import main

    directory = shared_data_path("wmt22", "cs-en")
    files = [str(p) for p in sorted((directory / "sys").glob("*.txt"))[:3]]
    outputs = []
    for engine in ("local", "ray"):
        for args in (["-r", str(directory / "ref.txt"), "-r", str(directory / "ref2.txt"), "-i", *files,
                      "--format", "json", "-m", "bleu,chrf"],
                     ["-i", str(cnndm[0]), "-m", "rouge,bleu", "--segments"],
                     ["-i", str(cnndm[0]), "-m", "bleu", "--confidence", "--confidence-n", "50"],
                     ["-i", str(cnndm[0]), "-m", "bleu,chrf", "--format", "json"]):  # totals only on Ray
            assert main(["score", *args, "--engine", engine, "--no-progress"]) == 0
            outputs.append(capsys.readouterr().out)
    assert outputs[:4] == outputs[4:]


def test_cli_engine_ray_reads_parquet_as_the_local_run_reads_the_same_jsonl(cnndm, tmp_path, capsys):
    from refscore.cli.main import main

    path, hypotheses, references = cnndm
    parquet_path = tmp_path / "pointer-gen.parquet"  # several row groups: several read units
    pa.parquet.write_table(pa.table({"prediction": hypotheses, "references": references}), parquet_path,
                           row_group_size=3000)
    jsonl_path = tmp_path / "pointer-gen.jsonl"
    jsonl_path.write_bytes(path.read_bytes())
    outputs = []
    for engine, source in (("local", jsonl_path), ("ray", parquet_path)):
        for args in (["-m", "rouge,bleu", "--segments", "--format", "json"], ["-m", "bleu,chrf", "--format", "json"],
                     ["-m", "bleu", "--confidence", "--confidence-n", "50", "--format", "json"]):
            assert main(["score", "-i", str(source), *args, "--engine", engine, "--no-progress"]) == 0
            outputs.append(capsys.readouterr().out.replace(str(source), "<input>"))
    assert outputs[:3] == outputs[3:]


def test_segment_scores_of_a_parquet_input_written_to_parquet(cnndm, tmp_path):
    _, hypotheses, references = cnndm
    source = tmp_path / "input.parquet"
    pa.parquet.write_table(pa.table({"prediction": hypotheses, "references": references}), source,
                           row_group_size=2500)
    metrics = [BLEU(), CHRF()]
    rd.score_dataset(str(source), metrics).write_parquet(str(tmp_path / "scores"))
    table = pa.concat_tables([pa.parquet.read_table(p) for p in sorted((tmp_path / "scores").glob("*.parquet"))])
    order = np.argsort(table.column("__start").to_numpy())
    assert table.column("__start").to_numpy()[order].tolist() == list(range(len(hypotheses)))
    for metric in metrics:
        expected = metric.segment_scores(metric.statistics(hypotheses, references))
        assert np.array_equal(table.column(metric.name).to_numpy()[order], expected)


def test_a_missing_ray_extra_names_the_install_command(monkeypatch):
    from refscore.distributed._ray import import_ray
    from refscore.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "ray.data", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'refscore\[ray\]'"):
        import_ray()


def test_corpus_scores_of_integer_metrics_send_totals_and_still_check_every_record(tmp_path):
    systems, references = wmt22_pair("cs-en")
    names = list(systems)[:3]
    path = tmp_path / "interleaved.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for index, refs in enumerate(references):
            for name in names:
                handle.write(json.dumps({"system": name, "prediction": systems[name][index], "references": refs},
                                        ensure_ascii=False) + "\n")
        handle.write("not json\n")
    metrics = [BLEU(), CHRF()]
    with pytest.raises(rd.RecordFormatError, match=rf"line {3 * len(references) + 1}: not valid JSON"):
        rd.corpus_scores(str(path), metrics, unit_bytes=200_000)
    scores = rd.corpus_scores(str(path), metrics, unit_bytes=200_000, batch_size=700, skip_bad_records=True)
    assert list(scores) == names
    for name in names:
        for metric in metrics:
            assert scores[name][metric.name] == metric.corpus_score(systems[name], references)
