"""The report's rules from issue 29 (without a browser; tests/test_report_browser.py has the layout at 1400 px):
system names (``--name``, records' ``system``, file names without extension), one 0–100 scale in tables and
charts, buckets cut at quantiles with their counts and a choice of score, record ids in the segment browser,
significance coloured by direction with Holm's correction, HTML-only output names and ``--device`` in the help.
Command lines run in real subprocesses."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.errors import InputError, InputTypeError
from refscore.significance.multiple import holm

pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")

from conftest import read_segments, shared_data_path  # noqa: E402
from refscore.reporting import analysis, charts  # noqa: E402
from refscore.reporting.data import gather  # noqa: E402


def refscore_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())",
                           *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def embedded(page: str, element_id: str):
    match = re.search(f'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def write(path: Path, lines: list[str]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


REFERENCES = ["the cat sat on the mat", "a dog barked at the moon", "it rains in spain today", "we like green tea"]
OUTPUTS = {"base": ["the cat sat on a mat", "a dog barks", "it rains in spain", "we like tea"],
           "good": REFERENCES, "poor": ["cat", "dog moon", "rain", "tea green we"]}


# -- item 11: output names and --device ----------------------------------------------------------------------------
def test_a_report_is_written_only_to_an_html_name(tmp_path) -> None:
    ref = write(tmp_path / "ref.txt", REFERENCES)
    hyp = write(tmp_path / "base.txt", OUTPUTS["base"])
    result = refscore_cli("report", "-r", ref, "-i", hyp, "missing.txt", "-o", "r.pdf", cwd=tmp_path)
    # refused before any input is read (missing.txt would be a different error), with no traceback and no file
    assert result.returncode == ExitCode.USAGE
    assert result.stderr == ("refscore: error: -o/--output: output 'r.pdf' ends in '.pdf', but a report is one HTML "
                             "page: name the file .html or .htm (for a PDF, open the page in a browser and print "
                             "it)\n")
    assert not (tmp_path / "r.pdf").exists()
    assert refscore_cli("report", "-r", ref, "-i", hyp, "-o", "r", "--n", "10", cwd=tmp_path).stderr.endswith(
        "output 'r' has no extension, but a report is one HTML page: name the file .html or .htm (for a PDF, open "
        "the page in a browser and print it)\n")
    assert refscore_cli("report", "-r", ref, "-i", hyp, "-o", "R.HTM", "--n", "10", cwd=tmp_path).returncode == 0
    assert (tmp_path / "R.HTM").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(InputError, match="x.pdf' ends in '.pdf', but a report is one HTML page"):
        refscore.report({"a": ["x"]}, ["x"], "bleu", output=tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_report_help_shows_the_bertscore_device_option(tmp_path) -> None:
    help_text = refscore_cli("report", "--help", cwd=tmp_path).stdout
    assert "--device DEVICE" in help_text and "--bertscore-batch-tokens" in help_text
    assert "--name NAME [NAME ...], --sys-names NAME [NAME ...]" in help_text


# -- item 12: system names -----------------------------------------------------------------------------------------
def test_default_names_drop_directories_and_extensions(tmp_path) -> None:
    ref = write(tmp_path / "data" / "ref.txt", REFERENCES)
    paths = [write(tmp_path / "outputs" / f"{name}.en.txt", lines) for name, lines in OUTPUTS.items()]
    out = tmp_path / "r.html"
    result = refscore_cli("report", "-r", ref, "-i", *paths, "-m", "bleu", "-o", str(out), "--n", "10",
                          "--baseline", paths[1], cwd=tmp_path)  # --baseline: the file or its short name
    assert result.returncode == 0, result.stderr
    assert embedded(out.read_text(encoding="utf-8"), "refscore-data")["systems"] == ["good.en", "base.en", "poor.en"]
    compared = refscore_cli("compare", "-r", ref, "-i", *paths, "-m", "bleu", "--n", "10", "--format", "json",
                            cwd=tmp_path)
    assert [entry["system"] for entry in json.loads(compared.stdout)["systems"]] == ["base.en", "good.en", "poor.en"]


def test_names_given_with_name_or_sys_names(tmp_path) -> None:
    ref = write(tmp_path / "ref.txt", REFERENCES)
    paths = [write(tmp_path / f"{name}.txt", lines) for name, lines in OUTPUTS.items()]
    out = tmp_path / "r.html"
    result = refscore_cli("report", "-r", ref, "-i", *paths, "-m", "bleu", "-o", str(out), "--n", "10",
                          "--name", "Baseline (2023)", "Good", "Poor", "--baseline", "Good", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert embedded(out.read_text(encoding="utf-8"), "refscore-data")["systems"] == ["Good", "Baseline (2023)",
                                                                                      "Poor"]
    compared = refscore_cli("compare", "-r", ref, "-i", *paths, "-m", "bleu", "--n", "10", "--sys-names", "A", "B",
                            "C", cwd=tmp_path)
    assert "Baseline: A " in compared.stdout
    wrong = refscore_cli("report", "-r", ref, "-i", *paths, "-o", str(out), "--name", "A", "B", cwd=tmp_path)
    assert wrong.returncode == ExitCode.USAGE and wrong.stderr.startswith(
        "refscore: error: --name gives 2 names but there are 3 systems (")
    assert wrong.stderr.endswith("give one name per system, in input order\n")
    twice = refscore_cli("compare", "-r", ref, "-i", *paths, "--name", "A", "B", "A", cwd=tmp_path)
    assert twice.returncode == ExitCode.USAGE
    assert twice.stderr == ("refscore: error: --name: 'A' is given twice (names 1 and 3); give each system its own "
                            "name\n")


def test_record_files_are_named_by_their_system_field(tmp_path) -> None:
    def records(path: Path, systems: list[str]) -> str:
        rows = [{"system": system, "prediction": OUTPUTS[system][i], "references": [REFERENCES[i]], "id": f"s{i}"}
                for system in systems for i in range(len(REFERENCES))]
        return write(path, [json.dumps(row) for row in rows])

    first = records(tmp_path / "runs" / "realsumm4.jsonl", ["base", "good"])
    out = tmp_path / "r.html"
    assert refscore_cli("report", "-i", first, "-m", "bleu", "-o", str(out), "--n", "10", cwd=tmp_path).returncode == 0
    assert embedded(out.read_text(encoding="utf-8"), "refscore-data")["systems"] == ["base", "good"]
    # the same system name in two files: the file's short name tells them apart
    second = records(tmp_path / "runs" / "other.jsonl", ["good", "poor"])
    assert refscore_cli("report", "-i", first, second, "-m", "bleu", "-o", str(out), "--n", "10",
                        cwd=tmp_path).returncode == 0
    assert embedded(out.read_text(encoding="utf-8"), "refscore-data")["systems"] == [
        "base", "realsumm4:good", "other:good", "poor"]


# -- item 13: one scale ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_data():
    return gather(OUTPUTS, REFERENCES, [refscore.BLEU(effective_order=True), refscore.TER()], n=20)


def test_charts_use_the_tables_0_to_100_scale(small_data) -> None:
    histogram = charts.distribution_chart(small_data, "ter")
    edges = np.concatenate([np.asarray(r.data_source.data["x"]) for r in histogram.renderers])
    assert edges.max() == pytest.approx(100 * max(s["ter"].max() for s in small_data.segment_scores.values()))
    assert histogram.xaxis.axis_label == "ter (×100)"
    scatter = charts.scatter_chart(small_data, "bleu", "ter")
    for renderer in scatter.renderers:
        system = renderer.name
        assert list(renderer.data_source.data["x"]) == pytest.approx(100 * small_data.segment_scores[system]["bleu"],
                                                                     abs=0.01)
    buckets = analysis.bucket_scores(small_data, "all", ["x", "y", "x", "y"])
    bars = charts.bucket_chart(buckets, small_data, "bleu")
    for renderer in bars.renderers:
        expected = [100 * buckets.scores[label][renderer.name]["bleu"] for label in buckets.labels]
        assert list(renderer.data_source.data["score"]) == pytest.approx(expected)


# -- item 14: buckets ------------------------------------------------------------------------------------------------
def test_length_buckets_are_cut_at_quantiles_of_the_data() -> None:
    rng = random.Random(3)
    references = [" ".join(f"w{rng.randrange(500)}" for _ in range(60 + i % 41)) for i in range(200)]
    data = gather({"a": references, "b": [r[: len(r) // 2] for r in references]}, references, [refscore.BLEU()],
                  n=10)
    lengths = Counter(analysis.segment_buckets(data)["reference length (words)"])
    # fixed edges (< 10 ... ≥ 50) put every one of these 60-100-word references into the top bucket
    assert len(lengths) == 5 and max(lengths.values()) <= 0.25 * 200, lengths
    labels = analysis.bucket_order(list(lengths))
    assert labels[0].startswith("< 6") and labels[-1].startswith("≥ 9") and all(
        re.fullmatch(r"\d+–\d+", label) for label in labels[1:-1]), labels  # whole numbers, bounds included


def test_real_summaries_spread_over_the_length_buckets() -> None:
    folder = shared_data_path("summ_summeval")
    records = [json.loads(line) for line in (folder / "summeval.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    system = records[0].get("system")
    chosen = [r for r in records if r.get("system") == system][:100]
    references = [r["references"][0] for r in chosen]
    data = gather({"s": [r["prediction"] for r in chosen]}, references, [refscore.BLEU()], n=10)
    for name, labels in analysis.segment_buckets(data).items():
        counts = Counter(labels)
        assert len(counts) >= 3 and max(counts.values()) <= 0.4 * len(labels), (name, counts)


def test_real_wmt_paragraph_lengths_spread_over_the_buckets() -> None:
    pair = shared_data_path("wmt22", "en-de")
    references = read_segments(pair / "ref.txt")
    data = gather({"s": references}, references, [refscore.CHRF()], n=10)
    counts = Counter(analysis.segment_buckets(data)["reference length (words)"])
    assert len(counts) == 5 and max(counts.values()) <= 0.3 * len(references), counts


def test_bucket_charts_count_segments_and_offer_every_score() -> None:
    page = refscore.report(OUTPUTS, REFERENCES, ["rouge", "bleu"], n=10)
    choices = re.search(r'<select id="bucket-score">(.*?)</select>', page).group(1)
    scores = embedded(page, "refscore-data")["scoreNames"]
    assert re.findall(r'<option value="([^"]+)">', choices) == scores and "rouge2" in scores
    for score in scores:  # a chart per bucketing and score; the first score's are shown, the others on request
        hidden = "" if score == scores[0] else " hidden"
        assert f'data-score="{score}"{hidden}></div>' in page
    items = embedded(page, "refscore-charts")
    assert "(n = " in json.dumps(items, ensure_ascii=False)  # bucket labels carry their segment counts


# -- item 15: record ids ---------------------------------------------------------------------------------------------
def test_record_ids_reach_the_segment_browser(tmp_path) -> None:
    path = tmp_path / "in.jsonl"
    ids = ["doc-7#2", 41, "doc-9#1", "x"]
    write(path, [json.dumps({"system": s, "prediction": OUTPUTS[s][i], "references": [REFERENCES[i]], "id": ids[i]})
                 for s in ("base", "poor") for i in range(4)])
    out = tmp_path / "r.html"
    assert refscore_cli("report", "-i", str(path), "-m", "bleu", "-o", str(out), "--n", "10",
                        cwd=tmp_path).returncode == 0
    page = out.read_text(encoding="utf-8")
    segments = embedded(page, "refscore-data")["segments"]
    assert segments["recordIds"] == ["doc-7#2", "41", "doc-9#1", "x"] and segments["ids"] == [0, 1, 2, 3]
    assert "id" not in segments["buckets"]
    assert re.search(r'data-segment="\d">#\d · (doc-7#2|41|doc-9#1|x)</button>', page)  # Differences name them too
    assert "recordIds\":null" in refscore.report(OUTPUTS, REFERENCES, "bleu", n=10).replace(" ", "")
    with pytest.raises(InputError, match="ids has 1 ids but there are 4 references"):
        refscore.report(OUTPUTS, REFERENCES, "bleu", ids=["a"])
    with pytest.raises(InputTypeError, match=r"ids\[1\] is a list; ids must be strings or numbers"):
        refscore.report(OUTPUTS, REFERENCES, "bleu", ids=["a", [], "c", "d"])


# -- item 17: significance ---------------------------------------------------------------------------------------
def holm_step_down(p_values: list[float], alpha: float) -> set[int]:
    """Holm's procedure as stated (Holm 1979): reject the hypotheses in order of p while p_(i) <= alpha/(m-i+1)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected: set[int] = set()
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        rejected.add(index)
    return rejected


def test_holm_adjusted_p_values_reject_what_holms_procedure_rejects() -> None:
    rng = random.Random(11)
    for _ in range(500):
        p_values = [rng.choice([rng.random(), rng.random() / 50, 0.01, 0.025]) for _ in range(rng.randrange(1, 9))]
        adjusted = holm(p_values)
        assert all(a >= p for a, p in zip(adjusted, p_values)) and max(adjusted) <= 1
        for alpha in (0.01, 0.05, 0.1):
            assert {i for i, a in enumerate(adjusted) if a <= alpha} == holm_step_down(p_values, alpha)
    with pytest.raises(ValueError, match=r"p_values\[1\] is 1.5"):
        holm([0.1, 1.5])


def test_significance_is_coloured_by_direction_and_counts_the_comparisons() -> None:
    rng = random.Random(5)
    references = [" ".join(f"w{rng.randrange(50)}" for _ in range(12)) for _ in range(60)]
    poor = [" ".join(r.split()[:4]) for r in references]
    systems = {"good": references, "poor": poor, "mid": [" ".join(r.split()[:9]) for r in references]}
    page = refscore.report(systems, references, ["bleu", "ter"], n=200)
    assert "3 comparisons per score (3 systems, every pair once)" in page
    matrices = dict(re.findall(r"<caption>(\w+)(?: ↓)?: column system minus row system.*?<tbody>(.*?)</tbody>", page))

    def cell(score: str, row: int, column: int) -> str:
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", matrices[score])
        return re.findall(r"<td[^>]*>.*?</td>", rows[row])[column]

    # row good, column poor: poor is worse on BLEU (lower) and on TER (higher), both orange ▼
    assert cell("bleu", 0, 1).startswith('<td class="worse"') and "▼" in cell("bleu", 0, 1)
    assert cell("ter", 0, 1).startswith('<td class="worse"') and re.search(r">\+\d", cell("ter", 0, 1))
    # row poor, column good: better on both, blue ▲, though the TER difference is negative
    assert cell("ter", 1, 0).startswith('<td class="better"') and re.search(r">-\d", cell("ter", 1, 0))
    assert cell("bleu", 1, 0).startswith('<td class="better"')
    assert "Holm " in cell("bleu", 1, 0) and "p=" in cell("bleu", 1, 0)  # both p-values shown


def test_holm_correction_decides_the_marks_when_chosen(tmp_path) -> None:
    data = gather({"a": ["x y z", "a b", "c d e"], "b": ["x y", "a b c", "c"], "c": ["x", "a", "c d"]},
                  ["x y z", "a b c", "c d e"], [refscore.BLEU(effective_order=True)], n=50)
    raw = analysis.pairwise_p_values(data, "bleu")
    adjusted = analysis.pairwise_p_values(data, "bleu", "holm")
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    assert [adjusted[a][b] for a, b in pairs] == holm([raw[a][b] for a, b in pairs])
    ref = write(tmp_path / "ref.txt", REFERENCES)
    paths = [write(tmp_path / f"{name}.txt", lines) for name, lines in OUTPUTS.items()]
    out = tmp_path / "r.html"
    result = refscore_cli("report", "-r", ref, "-i", *paths, "-m", "bleu", "-o", str(out), "--n", "20",
                          "--correction", "holm", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "<b>*</b> and shading: Holm-adjusted p ≤ 0.05" in out.read_text(encoding="utf-8")
    with pytest.raises(InputError, match="correction must be one of 'none', 'holm', got 'bonferroni'"):
        refscore.report(OUTPUTS, REFERENCES, "bleu", correction="bonferroni")
