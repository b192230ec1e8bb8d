"""``refscore meta-eval`` in real processes: the JSON numbers are mt-metrics-eval's (stats.py) for scores from a
file, the text and LaTeX tables, and the errors (fewer than three systems, unknown human score, a missing file,
systems rating different segments, constant scores)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from meta_reference import packed, reference_stats
from refscore.cli.exit_codes import ExitCode
from test_cli_process import refscore_command

SYSTEMS, ITEMS = 5, 12


def refscore(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


def _write(folder: Path, systems: int = SYSTEMS, constant: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    human = -rng.choice([0.0, 1.0, 5.0, 10.0], size=(systems, ITEMS))
    human[1, 4] = np.nan  # a missing rating
    outside = np.full(human.shape, 0.5) if constant else np.round(np.nan_to_num(human) + rng.normal(0, 3, human.shape), 2)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]
    with (folder / "ratings.jsonl").open("w", encoding="utf-8") as records, \
            (folder / "comet.tsv").open("w", encoding="utf-8") as scores:
        scores.write("system\tid\tscore\n")
        for s in range(systems):
            for i in range(ITEMS):
                hypothesis = " ".join(rng.choice(words, size=5))
                rating = None if np.isnan(human[s, i]) else float(human[s, i])
                records.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "hypothesis": hypothesis,
                                          "reference": "the cat sat on the mat", "mqm": rating}) + "\n")
                scores.write(f"sys{s}\t{i + 1}\t{outside[s, i]}\n")
    return human, outside


def test_json_numbers_are_the_reference_ones(tmp_path):
    stats = reference_stats()
    human, outside = _write(tmp_path)
    done = refscore("meta-eval", "ratings.jsonl", "-m", "chrf,file:comet.tsv", "--format", "json",
                    "--bootstrap", "20", "--k", "20", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    document = json.loads(done.stdout)
    assert (document["systems"], document["segments"]) == (SYSTEMS, ITEMS)
    results = {(r["metric"], r["level"], r["statistic"], r["grouping"]): r for r in document["results"]}
    gold = [float(np.nanmean(row)) for row in human]
    system_ref = stats.Correlation(SYSTEMS, gold, list(outside.mean(1)))
    segment_ref = stats.Correlation(SYSTEMS, packed(human), packed(outside))
    expected = {("system", "pearson", "none"): system_ref.Pearson()[0],
                ("system", "kendall", "none"): system_ref.Kendall()[0],
                ("segment", "pearson", "none"): segment_ref.Pearson()[0],
                ("segment", "pearson", "item"): segment_ref.Pearson("item")[0],
                ("segment", "kendall_ties_opt", "item"): stats.KendallWithTiesOpt(
                    packed(human), packed(outside), "acc23", SYSTEMS, "item", 1.0)[0]}
    for (level, statistic, grouping), value in expected.items():
        row = results[("comet", level, statistic, grouping)]
        assert row["value"] == pytest.approx(value, rel=1e-12), (level, statistic, grouping)
    row = results[("comet", "segment", "pearson", "none")]
    assert row["lower"] <= row["value"] <= row["upper"] and row["rank"] in (1, 2)
    assert results[("chrf", "system", "soft_pairwise_accuracy", "none")]["lower"] is None  # not resampled


def test_text_and_latex_tables(tmp_path):
    _write(tmp_path)
    text = refscore("meta-eval", "ratings.jsonl", "-m", "chrf,bleu", "--bootstrap", "20", "--k", "20",
                    "--level", "segment", cwd=tmp_path)
    assert text.returncode == ExitCode.OK, text.stderr
    assert text.stdout.startswith("human: mqm\nsegment level\nmetric")
    assert "system level" not in text.stdout and " r1" in text.stdout
    latex = refscore("meta-eval", "ratings.jsonl", "-m", "chrf", "--bootstrap", "0", "--k", "0",
                     "--format", "latex", cwd=tmp_path)
    assert latex.returncode == ExitCode.OK, latex.stderr
    assert r"\begin{tabular}" in latex.stdout and "kendall\\_ties\\_opt (item)" in latex.stdout


def test_an_unknown_human_score_is_named(tmp_path):
    _write(tmp_path)
    done = refscore("meta-eval", "ratings.jsonl", "--human", "da", cwd=tmp_path)
    assert done.returncode == ExitCode.BAD_INPUT and "no human score 'da'" in done.stderr
    assert "its human scores are mqm" in done.stderr and "Traceback" not in done.stderr


def test_bad_inputs_say_what_is_wrong(tmp_path):
    missing = refscore("meta-eval", "absent.jsonl", cwd=tmp_path)
    assert missing.returncode in (ExitCode.UNREADABLE_FILE, ExitCode.BAD_INPUT)
    assert "absent.jsonl" in missing.stderr and "Traceback" not in missing.stderr
    _write(tmp_path, systems=2)
    two = refscore("meta-eval", "ratings.jsonl", "-m", "chrf", cwd=tmp_path)
    assert two.returncode == ExitCode.BAD_INPUT and "at least 3 systems, got 2" in two.stderr
    _write(tmp_path)
    lines = (tmp_path / "ratings.jsonl").read_text(encoding="utf-8").splitlines()
    (tmp_path / "gappy.jsonl").write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")  # sys4 lacks 2 segments
    gappy = refscore("meta-eval", "gappy.jsonl", "-m", "chrf", "--bootstrap", "0", "--k", "0", cwd=tmp_path)
    assert gappy.returncode == ExitCode.BAD_INPUT and "10" in gappy.stderr and "12" in gappy.stderr
    aligned = refscore("meta-eval", "gappy.jsonl", "-m", "chrf", "--bootstrap", "0", "--k", "0", "--align",
                       "intersect", "--format", "json", cwd=tmp_path)
    assert aligned.returncode == ExitCode.OK and json.loads(aligned.stdout)["segments"] == ITEMS - 2


def test_constant_scores_warn_and_print_nan(tmp_path):
    _write(tmp_path, constant=True)
    done = refscore("meta-eval", "ratings.jsonl", "-m", "file:comet.tsv", "--bootstrap", "0", "--k", "0",
                    "--level", "segment", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    assert "refscore: warning: pearson (none grouping) is undefined (NaN)" in done.stderr
    assert "nan" in done.stdout.split("\n")[3]


def test_stderr_gives_the_grid_and_its_rated_cells(tmp_path):
    human, _ = _write(tmp_path)
    done = refscore("meta-eval", "ratings.jsonl", "-m", "chrf", "--bootstrap", "0", "--k", "0", "--level", "system",
                    cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    rated = int(np.count_nonzero(~np.isnan(human)))
    assert rated < SYSTEMS * ITEMS   # one rating is missing: the line must say so
    assert f"ratings.jsonl: {SYSTEMS} systems x {ITEMS} segments, {rated} rated (mqm)" in done.stderr


def test_tie_calibration_prints_its_threshold_and_a_constant_metrics_value(tmp_path):
    stats = reference_stats()
    human, outside = _write(tmp_path)
    lines = (tmp_path / "comet.tsv").read_text(encoding="utf-8").splitlines()
    (tmp_path / "flat.tsv").write_text("\n".join([lines[0], *(line.rsplit("\t", 1)[0] + "\t0.5" for line in lines[1:])])
                                       + "\n", encoding="utf-8")
    tau, epsilon = stats.KendallWithTiesOpt(packed(human), packed(outside), "acc23", SYSTEMS, "item", 1.0)[:2]
    constant = stats.KendallWithTiesOpt(packed(human), packed(np.full(human.shape, 0.5)), "acc23", SYSTEMS, "item",
                                        1.0)[0]
    assert tau != pytest.approx(constant)   # the comet scores do better than tying every pair
    run = ("meta-eval", "ratings.jsonl", "-m", "file:comet.tsv,file:flat.tsv", "--bootstrap", "0", "--k", "0",
           "--level", "segment")
    document = json.loads(refscore(*run, "--format", "json", cwd=tmp_path).stdout)
    rows = {r["metric"]: r for r in document["results"] if r["statistic"] == "kendall_ties_opt"}
    assert rows["comet"]["threshold"] == pytest.approx(epsilon, rel=1e-12)
    for name in ("comet", "flat"):   # a constant metric's value: the same for both (float order aside)
        assert rows[name]["constant"] == pytest.approx(constant, rel=1e-12)
    assert (rows["comet"]["equals_constant"], rows["flat"]["equals_constant"]) == (False, True)
    assert all(r["equals_constant"] is None for r in document["results"] if r["statistic"] != "kendall_ties_opt")
    text = refscore(*run, cwd=tmp_path).stdout.splitlines()
    cells = {line.split()[0]: line for line in text if line.startswith(("comet", "flat"))}
    assert cells["comet"].endswith(f"{tau:.3f} t={epsilon:.3g}") and cells["flat"].endswith(" t=0 =const")
    assert f"a constant metric scores {constant:.3f} (=const: equal to it)" in "\n".join(text)
    latex = refscore(*run, "--format", "latex", cwd=tmp_path).stdout
    assert rf"{{\small $t$={epsilon:.3g}}} \\" in latex and r"{\small $t$=0}$^{\dagger}$" in latex
    assert f"a constant metric scores {constant:.3f} ($^{{\\dagger}}$: equal to it)" in latex


def test_system_score_rated_mean_only_by_name(tmp_path):
    stats = reference_stats()
    human, outside = _write(tmp_path)
    rated = ~np.isnan(human)
    gold = [float(np.nanmean(row)) for row in human]
    run = ("meta-eval", "ratings.jsonl", "-m", "file:comet.tsv", "--bootstrap", "0", "--k", "0", "--level", "system",
           "--format", "json")
    default = json.loads(refscore(*run, cwd=tmp_path).stdout)
    by_name = json.loads(refscore(*run, "--system-score", "rated_mean", cwd=tmp_path).stdout)
    assert (default["system_score"], by_name["system_score"]) == ("corpus", "rated_mean")
    means = [float(outside[s][rated[s]].mean()) for s in range(SYSTEMS)]
    assert means[1] != pytest.approx(outside[1].mean())   # the missing rating makes the two definitions differ
    for document, systems in ((default, list(outside.mean(1))), (by_name, means)):
        pearson = next(r for r in document["results"] if r["statistic"] == "pearson")
        assert pearson["value"] == pytest.approx(stats.Correlation(SYSTEMS, gold, systems).Pearson()[0], rel=1e-12)
    assert list(by_name["system_scores"]["rated_mean"]["mqm"]["comet"].values()) == pytest.approx(means, rel=1e-12)
    wrong = refscore(*run, "--system-score", "mean", cwd=tmp_path)
    assert wrong.returncode == ExitCode.USAGE and "--system-score" in wrong.stderr and "rated_mean" in wrong.stderr
