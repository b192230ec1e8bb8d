"""The report's human-judgments section: the calibration's agreement curves, the correlations with the human score
(equal to refscore.meta's on system means computed here), the significance clusters, and the page in headless
Chromium (charts drawn, no console error)."""
from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")

import refscore  # noqa: E402
from refscore.errors import InputError  # noqa: E402
from refscore.example import load_example  # noqa: E402
from refscore.meta import correlations  # noqa: E402
from refscore.meta.calibration import calibrate, labels_from_ratings  # noqa: E402
from refscore.metrics import get_metric_class  # noqa: E402

SEGMENTS = 30


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Ratings of the bundled example's three systems that follow chrF with noise, some missing; a calibration of
    chrF on them."""
    folder = tmp_path_factory.mktemp("meta-report")
    example = load_example()
    chrf = get_metric_class("chrf")()
    rng = np.random.default_rng(3)
    rows, human = [], {}
    for system, hypotheses in example.systems.items():
        scores = chrf.sentence_scores(list(hypotheses[:SEGMENTS]), example.references[:SEGMENTS])
        ratings = np.round(-10 * (1 - scores) + rng.normal(0, 1.5, SEGMENTS), 1)
        ratings[rng.random(SEGMENTS) < 0.1] = np.nan
        human[system] = ratings
        for i in range(SEGMENTS):
            rows.append({"system": system, "seg_id": f"s{i}", "hypothesis": hypotheses[i],
                         "references": example.references[i], "mqm": None if np.isnan(ratings[i]) else ratings[i]})
    comet = rng.random((len(example.systems), SEGMENTS)).round(3)
    (folder / "comet.tsv").write_text("system\tid\tscore\n" + "".join(
        f"{system}\ts{i}\t{comet[k, i]}\n" for k, system in enumerate(example.systems) for i in range(SEGMENTS)))
    path = folder / "ratings.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    all_scores = np.concatenate([chrf.sentence_scores(list(h[:SEGMENTS]), example.references[:SEGMENTS])
                                 for h in example.systems.values()])
    result = calibrate(all_scores, labels_from_ratings(np.concatenate(list(human.values())), ">= -4"),
                       n_bootstrap=100)
    calibration = {"refscore_calibration": 1, "labels": "ratings.jsonl", "human": "mqm", "pass_if": ">= -4",
                   "objective": "accuracy", "checks": [{"name": "chrf", **result.to_dict()}]}
    return path, human, calibration, result


@pytest.fixture(scope="module")
def page_path(inputs, tmp_path_factory):
    path, _, calibration, _ = inputs
    output = tmp_path_factory.mktemp("meta-page") / "report.html"
    comet = refscore.external_scores(str(path.parent / "comet.tsv"))   # scores from outside, joined by (system, id)
    refscore.report(judgments=path, calibration=calibration, metrics=["bleu", "chrf", comet], n=100, output=output)
    return output


def cells(page: str, caption: str) -> list[list[str]]:
    table = re.search(r"<table class=\"%s\">(.*?)</table>" % caption, page, re.S).group(1)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def test_correlations_are_meta_evals(inputs, page_path):
    """The report's system- and segment-level numbers are ``refscore meta-eval``'s on the same judgments (system
    score: the corpus score over all segments), not the mean of sentence scores over the rated segments."""
    import subprocess

    from test_cli_process import refscore_command

    path = inputs[0]
    done = subprocess.run(refscore_command(
        "meta-eval", path.name, "-m", "bleu,chrf,file:comet.tsv", "--bootstrap", "0", "--k", "0", "--format", "json",
        "--system-statistics", "pearson,spearman,kendall,pairwise_accuracy",
        "--segment-statistics", "pearson,kendall:item"), cwd=path.parent, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    rows = {row[0]: row[1:] for row in cells(page_path.read_text(encoding="utf-8"), "correlations")[1:]}
    for name in ("bleu", "chrf", "comet"):
        expected = [r["value"] for r in results if r["metric"] == name]   # the columns' order: system, segment
        assert rows[name] == [f"{value:.3f}" for value in expected], name
    clusters = cells(page_path.read_text(encoding="utf-8"), "clusters")[1:]
    assert [row[0] for row in clusters][0] == "1" and {row[1] for row in clusters} == {"bleu", "chrf", "comet"}


def test_rated_mean_is_the_mean_of_sentence_scores_by_name_only(inputs, tmp_path):
    path, human, _, _ = inputs
    example = load_example()
    ratings = np.vstack(list(human.values()))
    rated = ~np.isnan(ratings)
    human_system = [ratings[i][rated[i]].mean() for i in range(len(ratings))]
    page = refscore.report(judgments=path, metrics=["bleu", "chrf"], n=10, system_score="rated_mean")
    rows = {row[0]: row[1:] for row in cells(page, "correlations")[1:]}
    for name in ("bleu", "chrf"):
        metric = get_metric_class(name)().sentence_metric()
        matrix = np.vstack([metric.sentence_scores(list(h[:SEGMENTS]), example.references[:SEGMENTS])
                            for h in example.systems.values()])
        metric_system = [matrix[i][rated[i]].mean() for i in range(len(matrix))]
        expected = [correlations.pearson(human_system, metric_system),
                    correlations.spearman(human_system, metric_system),
                    correlations.kendall(human_system, metric_system),
                    correlations.pairwise_accuracy(human_system, metric_system),
                    correlations.pearson(ratings, matrix),
                    correlations.kendall(ratings, matrix, grouping="item")]
        assert rows[name] == [f"{value:.3f}" for value in expected], name
    assert "system score: rated_mean" in page
    with pytest.raises(InputError, match="system_score must be one of 'corpus', 'rated_mean', got 'mean'"):
        refscore.report(judgments=path, metrics=["chrf"], n=10, system_score="mean")


def test_calibration_table_and_errors(inputs, page_path):
    _, _, calibration, result = inputs
    page = page_path.read_text(encoding="utf-8")
    row = cells(page, "calibration")[1]
    assert row[:3] == ["chrf", f"≥ {result.threshold:.4f}",
                       f"{result.agreement:.3f} <span class=ci>[{result.interval[0]:.3f}, {result.interval[1]:.3f}]"
                       f"</span>"]
    # the column is named after the objective, and the baseline (pass or fail everything) stands next to it
    assert cells(page, "calibration")[0][2:4] == ["accuracy", "baseline"] and row[3] == f"{result.baseline:.3f}"
    assert 'href="#meta"' in page and "agreement with the human labels by threshold" in page
    with pytest.raises(InputError, match="not a refscore calibration"):
        refscore.report(judgments=inputs[0], calibration={"checks": []}, metrics=["chrf"], n=10)
    with pytest.raises(InputError, match="needs systems and references \\(or judgments\\)"):
        refscore.report(calibration=calibration)
    with pytest.raises(InputError, match="no human score 'da'"):
        refscore.report(judgments=inputs[0], human="da", metrics=["chrf"], n=10)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def test_section_in_headless_chromium(page_path, tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests need selenium")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("browser tests need Debian's chromium and chromium-driver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(page_path.resolve().as_uri())
        deadline = time.monotonic() + 60
        while driver.execute_script("return document.body.dataset.ready") != "true":
            assert time.monotonic() < deadline, "the report did not finish drawing its charts"
            time.sleep(0.05)
        assert driver.find_element("id", "meta").is_displayed()
        drawn = driver.execute_script("return Array.from(document.querySelectorAll('#meta .chart'), "
                                      "c => !!(c.firstElementChild && c.firstElementChild.shadowRoot))")
        assert drawn == [True] * 4      # the calibration curve and one scatter per metric
        assert [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"] == []
        driver.save_screenshot(str(tmp_path / "meta.png"))
    finally:
        driver.quit()


def test_report_command_with_judgments_and_calibration(inputs, tmp_path):
    import subprocess

    from test_cli_process import refscore_command

    path, _, calibration, _ = inputs
    (tmp_path / "cal.json").write_text(json.dumps(calibration), encoding="utf-8")
    process = subprocess.run(refscore_command("report", "--judgments", str(path), "--calibration", "cal.json", "-m",
                                              "chrf", "--n", "50", "-o", "page.html"),
                             cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert [row[0] for row in cells(page, "correlations")[1:]] == ["chrf"]
    assert cells(page, "calibration")[1][0] == "chrf" and "One metric only" in page
    alone = subprocess.run(refscore_command("report", "--calibration", "cal.json", "-o", "x.html"), cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
    assert alone.returncode == 2 and "--calibration needs the systems beside it" in alone.stderr


def test_docstring_examples_run():
    import doctest

    from refscore.reporting import meta_section

    failures, attempted = doctest.testmod(meta_section)
    assert failures == 0 and attempted >= 1


def test_calibration_table_shows_the_held_out_figure_of_a_saved_calibration(inputs):
    from refscore.reporting.meta_section import calibration_html

    _, _, calibration, result = inputs
    saved = {**calibration, "objective": "f1", "system_folds": 3,
             "checks": [{**calibration["checks"][0], "held_out": {"agreement": 0.625}}]}
    table = calibration_html(saved, [], lambda items, figure: "")
    header, row = cells(table, "calibration")[:2]
    assert header[2:5] == ["F1", "held-out (3 folds by system)", "baseline"]
    assert row[3:5] == ["0.625", f"{result.baseline:.3f}"]


def test_calibration_table_prints_a_threshold_near_zero_without_a_minus_sign(inputs):
    """Issue 39 item 8: a threshold on outside scores that rounds to zero is 0.0000, never -0.0000."""
    from refscore.reporting.meta_section import calibration_html

    _, _, calibration, _ = inputs
    saved = {**calibration, "checks": [{**calibration["checks"][0], "threshold": -2e-5}]}
    row = cells(calibration_html(saved, [], lambda items, figure: ""), "calibration")[1]
    assert row[1] == "≥ 0.0000", row
