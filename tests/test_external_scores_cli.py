"""``-m file:PATH`` (scores from outside) in real ``refscore`` processes: score, compare and report join a scores
file's rows to each system by its display name and segment number; bad files fail with the documented codes."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.metrics.external import keyed_systems
from test_cli_process import refscore_command
from test_external_scores import comet_like, write_scores

N_SEGMENTS = 40


def refscore_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def folder(tmp_path) -> Path:
    """Three systems' outputs (``base.txt``, ``new.txt``, ``big.txt``), references and COMET-like scores of each."""
    rng = np.random.default_rng(5)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]
    references = [" ".join(rng.choice(words, 6)) for _ in range(N_SEGMENTS)]
    (tmp_path / "ref.txt").write_text("\n".join(references) + "\n", encoding="utf-8")
    for system in ("base", "new", "big"):
        texts = [" ".join(rng.choice(words, 5)) for _ in range(N_SEGMENTS)]
        (tmp_path / f"{system}.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    write_scores(tmp_path / "comet.tsv", scores)
    return tmp_path


def expected_paired(scores: dict[str, np.ndarray], n: int) -> refscore.PairedTestResult:
    metric = refscore.external_scores(scores, name="comet")
    systems = keyed_systems({name: [""] * N_SEGMENTS for name in scores})
    return refscore.paired_test(metric, systems, [""] * N_SEGMENTS, n=n)


def test_compare_joins_scores_by_system_name_and_segment_number(folder):
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    result = refscore_run("compare", "-m", "bleu,file:comet.tsv", "-r", "ref.txt", "-i", "base.txt", "new.txt",
                          "big.txt", "--n", "300", "--format", "json", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    output = json.loads(result.stdout)
    expected = expected_paired(scores, 300)
    for row, ours in zip(output["systems"], expected.results["comet"]):
        comet = row["scores"]["comet"]
        assert comet["score"] == pytest.approx(ours.score, rel=1e-15)
        assert comet["mean"] == pytest.approx(ours.mean, rel=1e-15)
        assert comet.get("p_value") == ours.p_value
    assert "bleu" in output["systems"][1]["scores"]
    assert re.fullmatch(r"bs:300\|seed:12345\|scores:comet\.tsv\|sha:[0-9a-f]{16}\|higher:yes\|refscore:.*",
                        output["signatures"]["comet"])


def test_compare_with_names_and_record_files_joins_on_those_names(folder):
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    renamed = {"A": scores["base"], "B": scores["new"]}
    write_scores(folder / "named.csv", renamed)
    result = refscore_run("compare", "-m", "file:named.csv", "-r", "ref.txt", "-i", "base.txt", "new.txt",
                          "--name", "A", "B", "--n", "200", "--format", "json", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    got = [row["scores"]["named"]["score"] for row in json.loads(result.stdout)["systems"]]
    assert got == pytest.approx([float(np.mean(renamed[s])) for s in ("A", "B")], rel=1e-14)

    references = (folder / "ref.txt").read_text(encoding="utf-8").splitlines()
    with open(folder / "runs.jsonl", "w", encoding="utf-8") as handle:
        for system in ("base", "new"):
            texts = (folder / f"{system}.txt").read_text(encoding="utf-8").splitlines()
            handle.writelines(json.dumps({"system": system, "prediction": t, "references": [r]}) + "\n"
                              for t, r in zip(texts, references))
    result = refscore_run("compare", "-m", "file:comet.tsv", "-i", "runs.jsonl", "--n", "200", "--format", "json",
                          cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    got = {row["system"]: row["scores"]["comet"]["score"] for row in json.loads(result.stdout)["systems"]}
    assert got == pytest.approx({s: float(np.mean(scores[s])) for s in ("base", "new")}, rel=1e-14)


def test_score_prints_the_mean_per_system_and_intervals(folder):
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    result = refscore_run("score", "-m", "chrf,file:comet.tsv", "-r", "ref.txt", "-i", "base.txt", "big.txt",
                          "--format", "json", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    rows = {row["system"]: row["scores"]["comet"]["score"] for row in json.loads(result.stdout)}
    assert rows == pytest.approx({"base.txt": float(np.mean(scores["base"])),
                                  "big.txt": float(np.mean(scores["big"]))}, rel=1e-14)
    result = refscore_run("score", "-m", "file:comet.tsv", "-r", "ref.txt", "-i", "new.txt", "--confidence",
                          "--confidence-n", "200", "--format", "json", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    interval = json.loads(result.stdout)[0]["scores"]["comet"]
    metric = refscore.external_scores({"new": scores["new"]}, name="comet")
    ci = refscore.bootstrap_ci_from_statistics(metric, metric.statistics_for("new", range(1, N_SEGMENTS + 1)),
                                               n=200)
    assert (interval["lower"], interval["upper"]) == pytest.approx((ci.lower, ci.upper), rel=1e-14)


def test_report_has_the_external_scores_per_segment(folder):
    pytest.importorskip("bokeh")
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    result = refscore_run("report", "-m", "bleu,file:comet.tsv", "-r", "ref.txt", "-i", "base.txt", "new.txt",
                          "-o", "report.html", "--n", "100", cwd=folder)
    assert result.returncode == ExitCode.OK, result.stderr
    page = (folder / "report.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="refscore-data">(.*?)</script>', page,
                                re.S).group(1))
    assert data["scoreNames"] == ["bleu", "comet"]
    assert data["segments"]["scores"]["comet"]["new"] == scores["new"].tolist()


@pytest.mark.parametrize(("metric", "code", "message"), [
    ("file:missing.tsv", ExitCode.UNREADABLE_FILE, r"cannot read missing\.tsv"),
    ("file:ref.txt", ExitCode.BAD_INPUT, r"-m file:ref\.txt: scores file 'ref\.txt': unknown format; name it "
                                         r"\.tsv, \.csv or \.jsonl"),
    ("file:", ExitCode.USAGE, r"-m file:PATH needs the path of a scores file"),
    ("file:short.tsv", ExitCode.BAD_INPUT, r"short: 2 of 40 segments have no score in short\.tsv: \(system, id\) "
                                           r"\('new', '39'\), \('new', '40'\); give every segment a score"),
    ("file:other.tsv", ExitCode.BAD_INPUT, r"other: no scores for system 'base' in other\.tsv; its systems are "
                                           r"'x' \(on the command line, name the inputs with --name\)"),
])
def test_bad_scores_files_fail_with_a_message_and_code(folder, metric, code, message):
    scores = comet_like(N_SEGMENTS, seed=9, dyadic=False)
    write_scores(folder / "short.tsv", {"base": scores["base"], "new": scores["new"][:-2]})
    write_scores(folder / "other.tsv", {"x": scores["base"]})
    result = refscore_run("compare", "-m", metric, "-r", "ref.txt", "-i", "base.txt", "new.txt", cwd=folder)
    assert result.returncode == code
    assert result.stdout == ""
    assert re.fullmatch(rf"refscore: error: .*{message}.*\n", result.stderr), result.stderr
    assert "Traceback" not in result.stderr


def test_streamed_and_distributed_runs_refuse_scores_from_outside(folder):
    """They read a system in chunks, so they could not join whole systems: refused before any input is read."""
    (folder / "runs.jsonl").write_text('{"system": "base", "prediction": "a", "references": ["a"]}\n', "utf-8")
    result = refscore_run("score", "-m", "bleu,file:comet.tsv", "-i", "runs.jsonl", "--skip-bad-records",
                          cwd=folder)
    assert result.returncode == ExitCode.USAGE
    assert result.stderr == ("refscore: error: -m file:...: scores from outside (comet) are joined to whole systems "
                             "in memory; --engine ray, --skip-bad-records and record files over 64 MiB (streamed) "
                             "cannot use them: score them in a run of their own without that option\n")


def test_a_scores_file_without_file_prefix_gets_the_form_that_works(folder):
    result = refscore_run("compare", "-m", "bleu,comet.tsv", "-r", "ref.txt", "-i", "base.txt", "new.txt",
                          cwd=folder)
    assert result.returncode == ExitCode.UNKNOWN_METRIC
    assert result.stderr.endswith("; for scores computed elsewhere in a file, write -m file:comet.tsv\n")
