"""``--metric-option NAME.OPTION=VALUE`` of ``score``, ``compare``, ``report`` and ``meta-eval`` (the parser of
``check``'s ``--check-option``): a lower-is-better scores file (``1 - chrF``) declared so gets chrF's correlations,
ranks and system ranking; unknown names and options are usage errors naming the valid ones."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.metrics import get_metric_class
from test_cli_process import refscore_command

SYSTEMS, ITEMS = 5, 16
WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away"]
REFERENCE = "the cat sat on the mat far away"


def refscore(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(refscore_command(*args), cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def folder(tmp_path) -> Path:
    """Judgments of five systems (``ratings.jsonl``), their texts (``sysN.txt``, ``ref.txt``), and per segment
    chrF (``chrfs.tsv``) and ``1 - chrF`` (``inverse.tsv``), in full precision."""
    rng = np.random.default_rng(11)
    chrf = get_metric_class("chrf")().sentence_metric()
    (tmp_path / "ref.txt").write_text("\n".join([REFERENCE] * ITEMS) + "\n", encoding="utf-8")
    with (tmp_path / "ratings.jsonl").open("w", encoding="utf-8") as records, \
            (tmp_path / "chrfs.tsv").open("w", encoding="utf-8") as scores, \
            (tmp_path / "inverse.tsv").open("w", encoding="utf-8") as inverse:
        scores.write("system\tid\tscore\n")
        inverse.write("system\tid\tscore\n")
        for s in range(SYSTEMS):
            texts = [" ".join(rng.choice(WORDS, size=4 + s)) for _ in range(ITEMS)]
            (tmp_path / f"sys{s}.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
            values = chrf.sentence_scores(texts, [[REFERENCE]] * ITEMS)
            for i, (text, value) in enumerate(zip(texts, values.tolist())):
                rating = float(np.round(10 * value + rng.normal(0, 1.5), 3))
                records.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "hypothesis": text,
                                          "reference": REFERENCE, "mqm": rating}) + "\n")
                scores.write(f"sys{s}\t{i + 1}\t{value!r}\n")
                inverse.write(f"sys{s}\t{i + 1}\t{1.0 - value!r}\n")
    return tmp_path


def _results(done: subprocess.CompletedProcess) -> dict[tuple[str, str, str, str], dict]:
    assert done.returncode == ExitCode.OK, done.stderr
    return {(r["metric"], r["level"], r["statistic"], r["grouping"]): r for r in json.loads(done.stdout)["results"]}


def test_a_lower_is_better_file_gets_the_correlations_and_ranks_of_chrf(folder):
    common = ("meta-eval", "ratings.jsonl", "-m", "chrf,file:chrfs.tsv,file:inverse.tsv", "--format", "json",
              "--bootstrap", "0", "--k", "200")
    declared = _results(refscore(*common, "--metric-option", "inverse.higher_is_better=false", cwd=folder))
    undeclared = _results(refscore(*common, cwd=folder))
    compared = 0
    for (metric, level, statistic, grouping), entry in declared.items():
        if metric != "inverse":
            continue
        same_file = declared[("chrfs", level, statistic, grouping)]
        assert entry["value"] == pytest.approx(same_file["value"], abs=1e-12), (level, statistic, grouping)
        assert entry["rank"] == same_file["rank"], (level, statistic, grouping)
        if level == "segment":   # the built-in chrF's segment scores are the files' (system scores: corpus chrF)
            assert entry["value"] == pytest.approx(declared[("chrf", level, statistic, grouping)]["value"], abs=1e-12)
        compared += 1
    assert compared >= 8
    pearson = ("inverse", "system", "pearson", "none")
    assert declared[pearson]["value"] > 0 > undeclared[pearson]["value"]   # undeclared: negated, as the issue met


def test_a_lower_is_better_file_ranks_the_systems_best_first_in_the_report(folder):
    pytest.importorskip("bokeh")
    inputs = [f"sys{s}.txt" for s in range(SYSTEMS)]
    done = refscore("report", "-m", "file:inverse.tsv", "-r", "ref.txt", "-i", *inputs, "--n", "50",
                    "--metric-option", "inverse.higher_is_better=false", "-o", "report.html", cwd=folder)
    assert done.returncode == ExitCode.OK, done.stderr
    page = (folder / "report.html").read_text(encoding="utf-8")
    ranking = re.search(r'<ol class="ranking">(.*?)</ol>', page).group(1)
    first = re.findall(r"<li>(.*?)</li>", ranking)[0].split(", ")[0]
    means = {}
    for line in (folder / "inverse.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        system, _, value = line.split("\t")
        means.setdefault(system, []).append(float(value))
    assert first == min(means, key=lambda system: np.mean(means[system]))   # the lowest error is the best


def test_score_and_compare_take_the_option_too(folder):
    for command in (("score",), ("compare", "--n", "20")):
        done = refscore(*command, "-m", "file:inverse.tsv", "-r", "ref.txt", "-i", "sys0.txt", "sys1.txt",
                        "--metric-option", "inverse.higher_is_better=false", "--format", "json", cwd=folder)
        assert done.returncode == ExitCode.OK, done.stderr
        assert "higher:no" in done.stdout


@pytest.mark.parametrize("option, code, message", [
    ("comet.higher_is_better=false", ExitCode.USAGE,
     "--metric-option comet.higher_is_better: no metric named 'comet' in -m; the metrics: chrf, inverse"),
    ("inverse.higher=false", ExitCode.USAGE,
     "--metric-option inverse.higher: a file: metric has no option 'higher'; its options: higher_is_better, range, "
     "scale"),
    ("chrf.higher_is_better=false", ExitCode.USAGE,
     "chrf (a built-in metric's direction and scale are its own) has no option 'higher_is_better'; its options: "
     "char_order, word_order"),
    ("inverse.higher_is_better=3", ExitCode.BAD_INPUT,
     "(--metric-option inverse.higher_is_better): external_scores: higher_is_better must be True or False"),
    ("inverse", ExitCode.USAGE, "argument --metric-option: expected NAME.OPTION=VALUE"),
])
def test_unknown_names_and_options_are_named(folder, option, code, message):
    done = refscore("score", "-m", "chrf,file:inverse.tsv", "-r", "ref.txt", "-i", "sys0.txt",
                    "--metric-option", option, cwd=folder)
    assert done.returncode == code, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_registered_metrics_own_options(folder):
    done = refscore("score", "-m", "chrf", "-r", "ref.txt", "-i", "sys0.txt", "--metric-option", "chrf.word_order=2",
                    cwd=folder)
    assert done.returncode == ExitCode.OK, done.stderr
    assert "nw:2" in done.stdout


# -- issue 39 item 8: scores from outside print as given unless declared; never -0.000 ---------------------------
def _mqm(folder: Path, name: str, values: list[str]) -> None:
    rows = [f"sys{s}\t{i + 1}\t{values[(s + i) % len(values)]}" for s in range(2) for i in range(ITEMS)]
    (folder / name).write_text("system\tid\tscore\n" + "\n".join(rows) + "\n", encoding="utf-8")


def test_human_ratings_print_as_given_unless_a_scale_is_declared(folder):
    _mqm(folder, "mqm.tsv", ["-1.052"])
    inputs = ("-r", "ref.txt", "-i", "sys0.txt", "sys1.txt")
    text = refscore("score", "-m", "chrf,file:mqm.tsv", *inputs, cwd=folder)
    assert text.returncode == ExitCode.OK, text.stderr
    assert re.search(r"sys0\.txt\s+\d+\.\d\d\s+-1\.05$", text.stdout, re.M), text.stdout   # chrF still 0-100
    assert "-105.20" not in text.stdout
    as_json = json.loads(refscore("score", "-m", "file:mqm.tsv", *inputs, "--format", "json", cwd=folder).stdout)
    assert as_json[0]["scores"]["mqm"]["score"] == pytest.approx(-1.052, abs=1e-12)
    declared = refscore("score", "-m", "file:mqm.tsv", *inputs, "--metric-option", "mqm.scale=100", cwd=folder)
    assert re.search(r"sys0\.txt\s+-105\.20$", declared.stdout, re.M), declared.stdout
    compared = refscore("compare", "-m", "file:mqm.tsv", *inputs, "--n", "50", "--format", "json", cwd=folder)
    assert compared.returncode == ExitCode.OK, compared.stderr
    row = json.loads(compared.stdout)["systems"][1]["scores"]["mqm"]
    assert (row["score"], row["mean"]) == pytest.approx((-1.052, -1.052), abs=1e-12)
    table = refscore("compare", "-m", "file:mqm.tsv", *inputs, "--n", "50", cwd=folder).stdout
    assert "-1.05 (-1.05 ± 0.00)" in table and "-105" not in table, table
    confidence = refscore("score", "-m", "file:mqm.tsv", *inputs, "--confidence", "--confidence-n", "50", cwd=folder)
    assert "-1.05 (μ = -1.05 ± 0.00)" in confidence.stdout, confidence.stdout
    bad = refscore("score", "-m", "file:mqm.tsv", *inputs, "--metric-option", "mqm.scale=0", cwd=folder)
    assert bad.returncode == ExitCode.BAD_INPUT and "(--metric-option mqm.scale): external_scores: scale must be " \
        "a positive number" in bad.stderr, bad.stderr


def test_a_zero_never_prints_with_a_minus_sign(folder):
    _mqm(folder, "zero.tsv", ["-0", "-0.0"])   # a mean of -0.0 too
    inputs = ("-r", "ref.txt", "-i", "sys0.txt", "sys1.txt")
    outputs = [refscore(*command, "-m", "file:zero.tsv", *inputs, *extra, cwd=folder) for command, extra in (
        (("score",), ("-w", "3")), (("score",), ("--segments",)), (("score",), ("--format", "json")),
        (("score",), ("--confidence", "--confidence-n", "20")), (("compare", "--n", "20"), ()),
        (("compare", "--n", "20"), ("--format", "json")))]
    for done in outputs:
        assert done.returncode == ExitCode.OK, done.stderr
        assert not re.search(r"-0\.0*(?!\d)", done.stdout), done.stdout
    assert re.search(r"sys0\.txt\s+0\.000$", outputs[0].stdout, re.M), outputs[0].stdout


def test_the_report_shows_human_ratings_as_given_and_chrf_on_the_0_to_100_scale(folder):
    pytest.importorskip("bokeh")
    _mqm(folder, "mqm.tsv", ["-1.052"])
    _mqm(folder, "zero.tsv", ["-0"])
    done = refscore("report", "-m", "chrf,file:mqm.tsv,file:zero.tsv", "-r", "ref.txt", "-i", "sys0.txt", "sys1.txt",
                    "--n", "20", "-o", "report.html", cwd=folder)
    assert done.returncode == ExitCode.OK, done.stderr
    page = (folder / "report.html").read_text(encoding="utf-8")
    table = re.search(r'<table class="scores">.*?</table>', page, re.S).group(0)
    assert "-1.05 <span class=ci>[-1.05, -1.05]" in table and "-105.20" not in table, table
    assert "0.00 <span class=ci>[0.00, 0.00]" in table and "-0.00" not in table, table
    chrf = re.findall(r"(\d+\.\d\d) <span class=ci>", table)
    assert chrf and all(float(value) > 1 for value in chrf[::3]), chrf   # chrF ×100, as the command line prints
    data = json.loads(re.search(r'<script type="application/json" id="refscore-data">(.*?)</script>', page,
                                re.S).group(1))
    assert (data["scales"]["chrf"], data["scales"]["mqm"]) == (100.0, 1.0)


def test_check_prints_an_mqm_of_zero_without_a_sign(tmp_path):
    """mqm_ted stores a perfect MQM as -0.0: a check on it prints 0.000 for the case and the mean."""
    cases = [{"id": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(3)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    (tmp_path / "mqm.jsonl").write_text("".join(f'{{"id": "q{i}", "score": -0.0}}\n' for i in range(3)),
                                        encoding="utf-8")
    done = refscore("check", "cases.jsonl", "--check", "file:mqm.jsonl=-5", "--explain", "all", cwd=tmp_path)
    assert done.returncode == ExitCode.OK, done.stderr
    assert "0.000" in done.stdout and not re.search(r"-0\.0*(?!\d)", done.stdout), done.stdout


def test_a_pair_files_metric_is_named_without_its_pair_field(folder):
    for pair in ("en-de", "zh-en"):
        (folder / f"{pair}.inverse.tsv").write_text((folder / "inverse.tsv").read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    common = ("meta-eval", "en-de=ratings.jsonl", "zh-en=ratings.jsonl", "-m", "chrf,file:{pair}.inverse.tsv",
              "--bootstrap", "0", "--k", "0", "--format", "json", "--level", "segment")
    done = refscore(*common, "--metric-option", "inverse.higher_is_better=false", cwd=folder)
    assert done.returncode == ExitCode.OK, done.stderr
    values = {(r["pair"], r["metric"], r["statistic"], r["grouping"]): r["value"]
              for r in json.loads(done.stdout)["results"]}
    inverse = [key for key in values if key[1] == "inverse"]
    assert {key[0] for key in inverse} == {"en-de", "zh-en"}
    for pair, _, statistic, grouping in inverse:
        chrf = values[(pair, "chrf", statistic, grouping)]
        assert values[(pair, "inverse", statistic, grouping)] == pytest.approx(chrf, abs=1e-12)
