"""A lower-is-better plug-in written as docs/architecture.md tells (``WordMiss``: the template's ``WordRecall`` with
``higher_is_better = False``, nothing else about direction) carries that direction into every output: ``score``'s
JSON, ``check``'s JSON and pass/fail, the HTML report, ``meta-eval``'s correlations and ``mbr``'s choice. The
direction is the metric's only: no workflow and no ``Score`` has a default that could say otherwise."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from test_plugin_metrics import run
from test_plugin_template import DOCS, template_source

HYPOTHESES = ["the cat sat on the mat", "a dog", "hello world"]
REFERENCES = ["The cat is on the mat", "a dog barked", "hello there world"]
WORSE = ["a mat", "cat", "bye"]
MIDDLE = ["the cat", "a dog", "hello"]


def word_miss_source() -> str:
    """The docs' ``WordMiss`` class, exactly as written there."""
    found = re.search(r"```python\n(class WordMiss\(WordRecall\):.*?)\n\n\n", DOCS.read_text(encoding="utf-8"),
                      flags=re.S)
    assert found, "docs/architecture.md should define WordMiss(WordRecall)"
    return found.group(1) + "\n"


def install(site: Path) -> Path:
    """Both docs classes as one installed plug-in package, ``word_miss`` registered by its entry point."""
    site.mkdir()
    (site / "docs_word_miss.py").write_text(template_source() + "\n\n" + word_miss_source(), encoding="utf-8")
    info = site / "docs_word_miss-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: docs-word-miss\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[refscore.metrics]\nword_miss = docs_word_miss:WordMiss\n")
    return site


@pytest.fixture
def plugin(tmp_path):
    site = install(tmp_path / "site")
    for name, lines in {"hyp": HYPOTHESES, "worse": WORSE, "ref": REFERENCES}.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return site, tmp_path


def succeeded(result):
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stdout + result.stderr
    return result.stdout


def test_score_json_says_lower_is_better(plugin):
    site, folder = plugin
    out = succeeded(run(site, folder, "score", "-m", "word_miss", "-r", "ref.txt", "-i", "hyp.txt", "--format",
                        "json"))
    score = json.loads(out)[0]["scores"]["word_miss"]
    assert score["higher_is_better"] is False
    assert score["score"] == pytest.approx(100 * 4 / 12)   # "is", "barked", "there" and one "the" missed


def test_check_passes_at_or_below_the_threshold(plugin):
    site, folder = plugin
    cases = [{"actual_output": h, "expected_output": r} for h, r in zip(HYPOTHESES + WORSE, REFERENCES * 2)]
    (folder / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    result = run(site, folder, "check", "cases.jsonl", "-c", "word_miss=0.5", "--format", "json")
    report = json.loads(result.stdout)
    text = json.dumps(report)
    assert '"higher_is_better": false' in text and '"higher_is_better": true' not in text
    assert result.returncode != 0    # the WORSE outputs miss more than half of their references' words
    results = [case["results"][0] for case in report["cases"]]
    assert [result["passed"] for result in results] == [True, True, True, False, False, False]
    assert {result["threshold"] for result in results} == {"<= 0.5"}


def test_the_report_marks_the_metric_lower_is_better(plugin):
    site, folder = plugin
    succeeded(run(site, folder, "report", "-m", "word_miss", "-r", "ref.txt", "-i", "hyp.txt", "worse.txt", "-o",
                  "report.html", "--n", "20"))
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert re.search(r'"higherIsBetter":\s*\{"word_miss":\s*false\}', html), "the report's data should say so"
    assert "word_miss ↓" in html   # the table heads of a lower-is-better metric carry the arrow


def test_meta_eval_correlates_a_lower_is_better_metric_positively(plugin):
    site, folder = plugin
    records = [{"system": system, "segment": str(index), "prediction": hypothesis, "references": [reference],
                "human": rating}
               for system, outputs, rating in (("good", HYPOTHESES, 0.9), ("mid", MIDDLE, 0.5), ("bad", WORSE, 0.1))
               for index, (hypothesis, reference) in enumerate(zip(outputs, REFERENCES))]
    (folder / "ratings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = succeeded(run(site, folder, "meta-eval", "ratings.jsonl", "-m", "word_miss", "--level", "system",
                        "--bootstrap", "0", "--k", "0", "--format", "json"))
    values = [float(value) for value in re.findall(r'"(?:value|correlation|pearson)":\s*(-?[0-9.]+)', out)]
    assert values and all(value > 0 for value in values), out  # fewer misses, better ratings: agreement


def test_mbr_chooses_the_candidate_with_the_fewest_expected_misses(plugin):
    site, folder = plugin
    item = {"candidates": ["the cat sat", "a dog barked loudly", "the cat sat on the mat"],
            "references": ["the cat sat on the mat", "the cat sat on a mat"]}
    (folder / "items.jsonl").write_text(json.dumps(item) + "\n", encoding="utf-8")
    out = succeeded(run(site, folder, "mbr", "-m", "word_miss", "-i", "items.jsonl"))
    chosen = json.loads(out.splitlines()[0])
    assert chosen["best"] == "the cat sat on the mat", chosen
