"""METEOR through refscore's machinery, untouched by it: the command line in a real process, test cases
(``Check("meteor")``, ``refscore check --check meteor=...``), bootstrap intervals and paired tests, the HTML
report and Ray; every number checked against NLTK's ``meteor_score``."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

import refscore
from refscore.metrics.meteor import METEOR
from refscore.testing import Check
from _meteor_peer import nltk_meteor, nltk_wordnet  # noqa: F401  (the fixture)

REFSCORE = [sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())"]
BASELINE = ["the cat sat on the mat", "a dog barked at night", "the house is big", "", "he went home quickly",
            "children were running", "It is a guide to action"]
SYSTEM = ["the cats sat on a mat", "the dog barks at night", "the home is large", "nothing", "he goes home fast",
          "the child ran", "It is a guiding principle"]
REFERENCES = [["the cat sat on the mat", "a cat was sitting on the mat"], ["at night a dog barked", "a dog barked"],
              ["the house is large", "a big house"], ["nothing at all", "empty"], ["he went home fast", "he left"],
              ["the children ran", "kids were running"], ["It is a guide to action that ensures", "a guide"]]


@pytest.fixture(autouse=True)
def _oracle(nltk_wordnet):  # noqa: F811
    return nltk_wordnet


def nltk_scores(hypotheses):
    return np.array([nltk_meteor(h, refs) for h, refs in zip(hypotheses, REFERENCES)])


def run(*args, cwd=None):
    return subprocess.run([*REFSCORE, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_command_line_scores_and_segments(tmp_path):
    paths = {}
    for name, lines in {"hyp": SYSTEM, "ref1": [r[0] for r in REFERENCES], "ref2": [r[1] for r in REFERENCES]}.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    references = ["-r", str(paths["ref1"]), "-r", str(paths["ref2"])]
    done = run("score", "-m", "meteor,bleu", "-i", str(paths["hyp"]), *references, "--format", "json")
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)[0]["scores"]
    expected = nltk_scores(SYSTEM)
    assert scores["meteor"]["score"] == pytest.approx(100 * float(np.mean(expected)), rel=1e-15)  # the 0–100 scale
    assert scores["meteor"]["documents"] == len(SYSTEM) and "bleu" in scores
    assert scores["meteor"]["signature"].startswith("nrefs:2|case:lc|tok:whitespace|stages:exact+stem+wordnet")
    done = run("score", "-m", "meteor", "-i", str(paths["hyp"]), *references, "--segments")
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines() if line and not line.startswith("#")]
    assert rows[0] == ["system", "segment", "meteor"]
    assert [float(row[2]) for row in rows[1:]] == [round(100 * s, 4) for s in expected]


def test_check_scores_are_nltk_and_the_check_command_gates(tmp_path):
    scores, _ = Check("meteor").scores(SYSTEM, REFERENCES)
    assert scores.tolist() == nltk_scores(SYSTEM).tolist()
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps({"id": f"c{i}", "actual_output": h, "expected_output": refs}) + "\n"
                             for i, (h, refs) in enumerate(zip(SYSTEM[:3], REFERENCES[:3]))), encoding="utf-8")
    lowest = float(nltk_scores(SYSTEM)[:3].min())
    lowest_case = f"c{int(np.argmin(nltk_scores(SYSTEM)[:3]))}"
    assert run("check", str(cases), "--check", f"meteor={lowest - 0.01:.4f}", cwd=tmp_path).returncode == 0
    failed = run("check", str(cases), "--check", f"meteor={lowest + 0.01:.4f}", cwd=tmp_path)
    assert failed.returncode == 1 and failed.stdout.rstrip().endswith("result: FAILED")
    assert "pass rate 2/3" in failed.stdout
    assert f"    {METEOR().explain_case(SYSTEM[int(lowest_case[1:])], REFERENCES[int(lowest_case[1:])])}" in \
        failed.stdout.splitlines()   # the failing case is explained under its row
    assert [line.split()[0] for line in failed.stdout.splitlines()[2:] if line.startswith("c")][0] == lowest_case


def test_bootstrap_resamples_nltk_segment_scores():
    expected = nltk_scores(SYSTEM)
    result = refscore.bootstrap_ci(METEOR(), SYSTEM, REFERENCES, n=200, seed=7)
    indices = np.random.default_rng(7).choice(len(SYSTEM), size=(200, len(SYSTEM)))   # sacreBLEU's draw
    assert result.score == float(np.mean(expected))
    assert result.samples[:, 0] == pytest.approx(expected[indices].mean(axis=1), abs=1e-15)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_test_compares_nltk_means(test):
    base, other = nltk_scores(BASELINE), nltk_scores(SYSTEM)
    result = refscore.paired_test("meteor", {"base": BASELINE, "new": SYSTEM}, REFERENCES, test=test, n=300, seed=5)
    assert result.result("base", "meteor").score == float(np.mean(base))
    new = result.result("new", "meteor")
    assert new.score == float(np.mean(other))
    if test == "bs":   # sacreBLEU's paired bootstrap p-value, on the same draws
        indices = np.random.default_rng(5).choice(len(SYSTEM), size=(300, len(SYSTEM)))
        deltas = np.abs(other[indices].mean(axis=1) - base[indices].mean(axis=1))
        observed = abs(np.mean(other) - np.mean(base))
        assert new.p_value == ((deltas - deltas.mean() > observed).sum() + 1) / 301
    else:
        assert 0 < new.p_value <= 1


def test_report_shows_nltk_meteor():
    page = refscore.report({"base": BASELINE, "new": SYSTEM}, REFERENCES, ["meteor"], n=20)
    data = json.loads(re.search(r'<script type="application/json" id="refscore-data">(.*?)</script>', page,
                                re.S).group(1))
    assert data["scoreNames"] == ["meteor"] and data["higherIsBetter"] == {"meteor": True}
    for name, hypotheses in (("base", BASELINE), ("new", SYSTEM)):
        expected = nltk_scores(hypotheses)
        assert data["segments"]["scores"]["meteor"][name] == [round(float(s), 4) for s in expected]
        assert f"{100 * np.mean(expected):.2f}" in page


def test_ray_statistics_equal_single_process():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'refscore[ray]')")
    pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'refscore[ray]')")
    pa = pytest.importorskip("pyarrow", reason="pyarrow (part of the ray extra) is not installed")
    import refscore.distributed as rd

    metric = METEOR()
    systems = {"base": BASELINE, "new": SYSTEM}
    table = pa.table({"__index": pa.array(range(2 * len(REFERENCES)), pa.int64()),
                      "system": [name for name in systems for _ in REFERENCES],
                      "prediction": [h for hypotheses in systems.values() for h in hypotheses],
                      "references": [r for _ in systems for r in REFERENCES]})
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        dataset = ray.data.from_arrow(table).repartition(3).random_shuffle(seed=1)
        merged = rd.statistics(dataset, [metric], index_column="__index")
        for name, hypotheses in systems.items():
            local = metric.statistics(hypotheses, REFERENCES)
            assert np.array_equal(merged.of(metric, name).data, local.data)
            assert merged.of(metric, name).column("meteor").tolist() == nltk_scores(hypotheses).tolist()
    finally:
        ray.shutdown()


def test_explanation_counts_nltk_stages():
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import _enum_stem_match, _enum_wordnetsyn_match, _generate_enums, _match_enums

    for hypothesis, refs in zip(SYSTEM, REFERENCES):
        best = max(refs, key=lambda r: nltk_meteor(hypothesis, [r]))
        hyp, ref = _generate_enums(hypothesis.split(), best.split())
        exact, hyp, ref = _match_enums(hyp, ref)
        stem, hyp, ref = _enum_stem_match(hyp, ref)
        synonyms, _, _ = _enum_wordnetsyn_match(hyp, ref, wordnet=wordnet)
        text = METEOR().explain_case(hypothesis, refs)
        assert text.startswith(f"METEOR {nltk_meteor(hypothesis, refs):.3f}")
        if hypothesis:
            assert f"{len(exact)} exact, {len(stem)} stem, {len(synonyms)} synonym matches" in text
