"""``refscore.report`` and ``refscore report`` without a browser: the numbers, the escaping, the sections, the
sampling of texts, the command line and the missing-extra error (browser checks: test_report_browser.py)."""
from __future__ import annotations

import json
import os
import re
import sys

import numpy as np
import pytest

import refscore
from refscore.cli.main import main
from refscore.cli.exit_codes import ExitCode
from refscore.errors import InputError, MissingExtraError
from refscore.example import load_example
from refscore.metrics.bleu import BLEU
from refscore.metrics.chrf import CHRF

bokeh = pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")

from refscore.reporting import analysis  # noqa: E402
from refscore.reporting.data import gather  # noqa: E402
from refscore.reporting.render import safe_json  # noqa: E402


@pytest.fixture(scope="module")
def example():
    return load_example()


@pytest.fixture(scope="module")
def example_data(example):
    return gather(example.systems, example.references, [BLEU(), CHRF()], n=200)


def embedded(page: str, element_id: str):
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


# -- numbers ------------------------------------------------------------------------------------------------------
def test_corpus_scores_match_sacrebleu(example, example_data) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    streams = [[refs[0] for refs in example.references]]
    for system, hypotheses in example.systems.items():
        assert example_data.corpus[system]["bleu"] == pytest.approx(
            sacrebleu.corpus_bleu(hypotheses, streams).score / 100, abs=1e-12)
        assert example_data.corpus[system]["chrf"] == pytest.approx(
            sacrebleu.corpus_chrf(hypotheses, streams).score / 100, abs=1e-12)


def test_intervals_and_p_values_are_refscores_own(example, example_data) -> None:
    system = "online-B"
    ci = refscore.bootstrap_ci("bleu", example.systems[system], example.references, n=200)
    assert example_data.intervals[system]["bleu"] == (ci.lower, ci.upper)
    paired = refscore.paired_test("bleu", {s: example.systems[s] for s in ("online-B", "uedin-nmt")},
                                  example.references, n=200)
    assert example_data.p_values["bleu"]["online-B"]["uedin-nmt"] == paired.result("uedin-nmt", "bleu").p_value


def test_bucket_scores_are_corpus_scores_of_the_bucket(example, example_data) -> None:
    labels = analysis.segment_buckets(example_data)["reference length (words)"]
    buckets = analysis.bucket_scores(example_data, "length", labels)
    label = buckets.labels[1]
    subset = [i for i, value in enumerate(labels) if value == label]
    hyps = [example.systems["uedin-nmt"][i] for i in subset]
    refs = [example.references[i] for i in subset]
    assert buckets.counts[label] == len(subset)
    assert buckets.scores[label]["uedin-nmt"]["bleu"] == BLEU().corpus_score(hyps, refs).score


def test_cluster_ranking_splits_at_significant_differences() -> None:
    p = {"a": {"b": 0.3, "c": 0.01}, "b": {"a": 0.3, "c": 0.2}, "c": {"a": 0.01, "b": 0.2}}
    assert analysis.cluster_ranking(["c", "a", "b"], {"a": 3.0, "b": 2.0, "c": 1.0}, True, p) == [["a", "b"], ["c"]]
    # lower is better (TER): the order flips
    assert analysis.cluster_ranking(["a", "b", "c"], {"a": 3.0, "b": 2.0, "c": 1.0}, False, p) == [["c", "b"], ["a"]]


def test_ngram_differences_count_clipped_matches() -> None:
    data = gather({"a": ["the cat the cat", "x"], "b": ["a dog", "y"]}, [["the cat sat"], ["x y"]], [BLEU()], n=20)
    diff = analysis.ngram_differences(analysis.matched_ngrams(data), "a", "b", min_count=1)
    assert ("the cat", 1, 0) in diff.first_better  # the reference has one "the cat": clipped to 1
    assert ("the", 1, 0) in diff.first_better and ("y", 0, 1) in diff.second_better


def test_largest_differences_order() -> None:
    data = gather({"a": ["x", "the cat sat", "b"], "b": ["x", "dog", "b"]}, ["x", "the cat sat", "c"], [CHRF()],
                  n=20)
    assert analysis.largest_differences(data, "a", "b", "chrf", top=1) == [1]


# -- page ---------------------------------------------------------------------------------------------------------
def test_safe_json_is_inert_in_a_script_element() -> None:
    value = {"t": "</script><script>alert(1)</script> <!-- \u2028\u2029 & >"}
    text = safe_json(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == value


def test_page_has_every_section_and_no_external_resource(example) -> None:
    page = refscore.report(example.systems, example.references, ["bleu", "chrf"], n=100)
    for section in ("overview", "distributions", "buckets", "differences", "browser"):
        assert f'<section id="{section}"' in page
    from refscore.reporting.charts import bokeh_script

    from refscore.reporting.render import inline_script

    markup = page.replace(inline_script(bokeh_script()), "")
    assert len(markup) < len(page) - 500_000  # BokehJS is inline
    # no CDN, no remote font in our markup; BokehJS's own MathJax fallback (unused: no math text) is refused by
    # the page's Content-Security-Policy, which allows no script source but the inline ones and no connection
    assert not re.search(r'(src|href|url)\s*[=(]\s*["\']?(https?:)?//', markup)
    assert "script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'" in page
    assert "connect-src 'none'" in page
    assert "Bokeh.embed.embed_item" in page and "Segment browser" in page
    data = embedded(page, "refscore-data")
    assert data["systems"] == list(example.systems) and data["nSegments"] == 300
    assert len(data["segments"]["ids"]) == 300


def test_untrusted_text_is_escaped_everywhere() -> None:
    payload = '</script><script>window.__pwned=1</script>"><img src=x onerror=alert(1)>\u2028'
    page = refscore.report({payload: [payload, "b"], "other": ["a", payload]}, [[payload], ["b"]], ["bleu"],
                           metadata={"domain": [payload, "x"]}, title=payload, n=20)
    assert "<img src=x" not in page and "window.__pwned=1</script>" not in page
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert len(scripts) == 4  # data, charts, BokehJS, the page's script: the payload's </script> closed none
    for attributes, text in scripts:
        if "application/json" in attributes:  # U+2028 would end a JavaScript string literal in older parsers
            assert "<" not in text and "\u2028" not in text and "\u2029" not in text
    assert embedded(page, "refscore-data")["segments"]["hypotheses"][payload][0] == payload


def test_large_inputs_embed_a_sample_of_texts_but_every_number() -> None:
    hyps = [f"segment {i} words here" for i in range(60)]
    page = refscore.report({"a": hyps, "b": hyps[::-1]}, [[h] for h in hyps], ["bleu"], max_segments=10, n=20)
    data = embedded(page, "refscore-data")
    assert data["nSegments"] == 60
    assert 10 <= len(data["segments"]["ids"]) < 60
    assert "Texts of" in page and "every number above uses all segments" in page


def test_report_writes_the_file(tmp_path) -> None:
    target = tmp_path / "r.html"
    page = refscore.report({"a": ["x y"], "b": ["x"]}, ["x y"], "chrf", output=target, n=10)
    assert target.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary file left
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # not the temporary file's 0o600


def test_bad_inputs_name_the_argument() -> None:
    with pytest.raises(InputError, match=r"systems\['b'\] has 1 hypotheses but there are 2 references"):
        refscore.report({"a": ["x", "y"], "b": ["x"]}, ["x", "y"], "bleu")
    with pytest.raises(InputError, match="baseline 'c' is not one of the systems"):
        refscore.report({"a": ["x"], "b": ["x"]}, ["x"], "bleu", baseline="c")
    with pytest.raises(InputError, match="max_segments"):
        refscore.report({"a": ["x"]}, ["x"], "bleu", max_segments=0)
    with pytest.raises(InputError, match=r"metadata\['d'\]"):
        refscore.report({"a": ["x"]}, ["x"], "bleu", metadata={"d": ["1", "2"]})


def test_missing_extra_names_the_install_command(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "bokeh", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'refscore\[report\]'"):
        refscore.report({"a": ["x"]}, ["x"], "bleu")


# -- command line ---------------------------------------------------------------------------------------------------
def test_cli_text_inputs(tmp_path, capsys) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat\na dog\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("the cat sat\na cat\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a cat sat\na dog\n", encoding="utf-8")
    out = tmp_path / "report.html"
    code = main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                 "-m", "bleu,chrf", "-o", str(out), "--n", "50", "--baseline", str(tmp_path / "b.txt")])
    assert code == ExitCode.OK
    data = embedded(out.read_text(encoding="utf-8"), "refscore-data")
    assert data["systems"] == ["b", "a"]  # file names without directory and extension; --baseline takes either
    assert "wrote" in capsys.readouterr().out


def test_cli_jsonl_metadata_becomes_buckets(tmp_path) -> None:
    records = [{"system": s, "prediction": h, "references": [r], "domain": d, "id": i}
               for s in ("A", "B") for i, (h, r, d) in enumerate([("a b", "a b", "news"), ("c", "c d", "sport"),
                                                                   ("e f", "e", "news")])]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-i", str(path), "-m", "bleu", "-o", str(out), "--n", "20"]) == ExitCode.OK
    buckets = embedded(out.read_text(encoding="utf-8"), "refscore-data")["segments"]["buckets"]
    assert buckets["domain"]["labels"] == ["news", "sport"] and buckets["domain"]["index"] == [0, 1, 0]
    assert "id" not in buckets


def test_cli_errors(tmp_path, capsys) -> None:
    (tmp_path / "ref.txt").write_text("x\ny\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"), "-o", str(out)]) == \
        ExitCode.LINE_COUNT_MISMATCH
    (tmp_path / "a.txt").write_text("x\ny\n", encoding="utf-8")
    assert main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"), "-o", str(out),
                 "--baseline", "nope"]) == ExitCode.USAGE
    assert "--baseline 'nope' is not one of the systems" in capsys.readouterr().err
    assert not out.exists()


def test_one_system_report(tmp_path) -> None:
    page = refscore.report({"only": ["a b c", "d"]}, ["a b c", "d e"], ["bleu", "ter"], n=20)
    assert "One system only" in page
    assert np.isfinite(embedded(page, "refscore-data")["segments"]["scores"]["ter"]["only"]).all()


def test_cli_ctrl_c_leaves_no_file_and_no_traceback(tmp_path, capsys, monkeypatch) -> None:
    import refscore.reporting.render as render_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(render_module, "render", interrupted)
    (tmp_path / "ref.txt").write_text("x y\n", encoding="utf-8")
    out = tmp_path / "r.html"
    code = main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "ref.txt"), "-o", str(out),
                 "--n", "10"])
    assert code == 130 and not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "ref.txt"]
    assert capsys.readouterr().err == "refscore: interrupted\n"  # the one line every subcommand prints


def test_cli_csv_extra_columns_become_buckets(tmp_path) -> None:
    path = tmp_path / "in.csv"
    path.write_text("system,prediction,reference,domain\nA,a b,a b,news\nA,c,c d,chat\nB,a,a b,news\nB,c d,c d,chat\n",
                    encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-i", str(path), "-m", "chrf", "-o", str(out), "--n", "20"]) == ExitCode.OK
    data = embedded(out.read_text(encoding="utf-8"), "refscore-data")
    assert data["systems"] == ["A", "B"]  # the records' own system names
    assert data["segments"]["buckets"]["domain"] == {"labels": ["news", "chat"], "index": [0, 1]}


def test_progress_bar_on_request(capsys) -> None:
    refscore.report({"a": ["x"], "b": ["y"]}, ["x"], "bleu", n=10, progress=True)
    assert "report" in capsys.readouterr().err


def test_report_is_a_lazy_public_function_never_shadowed() -> None:
    import importlib

    importlib.import_module("refscore.reporting.render")
    assert "report" in dir(refscore) and callable(refscore.report)
    assert refscore.report.__module__ == "refscore.reporting"


def test_bertscore_heatmaps_are_the_scorers_token_similarities() -> None:
    pytest.importorskip("torch", reason="BERTScore needs the bertscore extra")
    from bertscore_helpers import minilm_path

    from refscore.metrics.bertscore import BERTScoreMetric

    metric = BERTScoreMetric(model_type=minilm_path(), num_layers=4)
    hyps = {"a": ["the cat sat on the mat", "hello"], "b": ["a cat sat", "hello there"]}
    refs = [["the cat sat on a mat", "x"], ["hello there"]]
    page = refscore.report(hyps, refs, ["bleu", metric], n=20)
    maps = embedded(page, "refscore-data")["heatmaps"]
    assert sorted(maps) == ["0", "1"] and sorted(maps["0"]) == ["a", "b"]
    sim, hyp_tokens, ref_tokens = metric.scorer.similarity_matrix("a cat sat", "the cat sat on a mat")
    assert maps["0"]["b"]["hyp"] == hyp_tokens and maps["0"]["b"]["ref"] == ref_tokens
    assert maps["0"]["b"]["sim"] == np.rint(100 * sim).astype(int).ravel().tolist()
    assert embedded(refscore.report(hyps, refs, ["bleu"], n=20), "refscore-data")["heatmaps"] == {}


# -- test-case view -------------------------------------------------------------------------------------------------
def saved_run(explanation: str = "few matches") -> dict:
    """A run in the JSON form of refscore.testing's TestRun.to_dict() (format 1)."""
    def case(case_id, passed, score):
        return {"id": case_id, "input": "question", "actual_output": f"output {case_id}", "expected_output": "ref",
                "metadata": {}, "results": [{"id": case_id, "check": "chrf", "score": score, "threshold": ">= 0.5",
                                             "passed": passed, "band": None if passed else "poor", "reason": None,
                                             "explanation": None if passed else explanation}]}
    return {"refscore_test_run": 1, "ok": False,
            "checks": [{"name": "chrf", "metric": "chrf", "threshold": ">= 0.5", "higher_is_better": True,
                        "config_hash": "x", "scores": [0.9, 0.1]}],
            "cases": [case("c-pass", True, 0.9), case("c-fail", False, 0.1)],
            "summary": {"chrf": {"check": "chrf", "cases": 2, "passed": 1, "pass_rate": 0.5,
                                 "pass_rate_interval": [0.09, 0.91], "mean": 0.5, "mean_interval": [0.1, 0.9],
                                 "confidence": 0.95}},
            "gates": [{"check": "chrf", "gate": "pass_rate", "passed": False, "message": "pass rate 1/2 < 90%"}]}


def test_test_case_view_lists_failing_cases_first_with_explanations(tmp_path) -> None:
    payload = "</script><img src=x onerror=alert(1)>"
    page = refscore.report(test_run=saved_run(payload), title="checks", output=tmp_path / "t.html")
    assert '<section id="test-cases"' in page and "<script" not in page  # the view alone needs no script
    assert page.index("c-fail") < page.index("c-pass")
    assert "FAILED" in page and "pass rate 1/2 &lt; 90%" in page and "<span class=tag>poor</span>" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    (tmp_path / "run.json").write_text(json.dumps(saved_run()), encoding="utf-8")
    assert main(["report", "--test-run", str(tmp_path / "run.json"), "-o", str(tmp_path / "cli.html")]) == 0
    assert "few matches" in (tmp_path / "cli.html").read_text(encoding="utf-8")


def test_both_pages_share_one_head_but_the_test_run_page_allows_no_script() -> None:
    from refscore.reporting.render import REPORT_POLICY, TEST_RUN_POLICY

    def head(page: str) -> str:
        return page[:page.index("</head>")]

    run_page = refscore.report(test_run=saved_run(), title="a<b")
    report_page = refscore.report({"a": ["x y"], "b": ["x"]}, ["x y"], "bleu", n=10, title="a<b")
    assert "<title>a&lt;b</title>" in head(run_page) and "script-src" not in head(run_page)
    assert head(run_page).replace(TEST_RUN_POLICY, REPORT_POLICY) == head(report_page)


def test_stylesheet_states_each_rule_once() -> None:
    from importlib import resources

    css = resources.files("refscore.reporting").joinpath("assets", "report.css").read_text(encoding="utf-8")
    rules = [line.strip() for line in css.splitlines() if line.strip() not in ("", "}")]
    assert sorted(rule for rule in set(rules) if rules.count(rule) > 1) == []
    assert "header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 1rem; }" in rules


def test_test_case_view_beside_the_systems() -> None:
    page = refscore.report({"a": ["x y"], "b": ["x"]}, ["x y"], "bleu", test_run=saved_run(), n=10)
    assert '<a href="#test-cases">' in page and page.index('id="browser"') < page.index('id="test-cases"')


def test_test_run_errors() -> None:
    with pytest.raises(InputError, match="not a refscore test run"):
        refscore.report(test_run={"cases": []})
    with pytest.raises(InputError, match="systems and references, a test_run, or both"):
        refscore.report()
    with pytest.raises(InputError, match="references is missing"):
        refscore.report({"a": ["x"]})


def test_test_case_view_of_a_real_test_run() -> None:
    testing = pytest.importorskip("refscore.testing", reason="refscore.testing is not on this branch yet")
    run = testing.evaluate([{"actual_output": "Paris is the capital.", "expected_output": "Paris is the capital."},
                            {"actual_output": "Berlin", "expected_output": "The capital of France is Paris."}],
                           [testing.Check("chrf", threshold=0.5)])
    page = refscore.report(test_run=run)
    assert page.index("case-2") < page.index("case-1") and "FAILED" in page


@pytest.mark.parametrize("module", ["refscore.reporting", "refscore.reporting.data", "refscore.reporting.analysis",
                                    "refscore.reporting.charts", "refscore.reporting.render",
                                    "refscore.reporting.heatmaps", "refscore.reporting.testcases",
                                    "refscore.cli.record_fields"])
def test_docstring_examples(module) -> None:
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted > 0 and failures == 0


def test_empty_strings_and_a_single_segment_are_valid() -> None:
    page = refscore.report({"a": ["", "x y", ""], "b": ["x", "", ""]}, ["", "x y", "z"], ["bleu", "chrf", "ter"],
                           n=20)
    scores = embedded(page, "refscore-data")["segments"]["scores"]
    assert scores["ter"]["b"] == [1.0, 1.0, 1.0] and scores["bleu"]["a"] == [0.0, 0.0, 0.0]
    single = refscore.report({"a": ["x"], "b": [""]}, [""], ["chrf"], n=5)
    assert embedded(single, "refscore-data")["nSegments"] == 1


def test_sources_give_source_buckets_and_are_shown(tmp_path) -> None:
    for name, text in (("ref.txt", "a b\nc d e f\n"), ("a.txt", "a b\nc d\n"), ("b.txt", "a\nc d e f\n"),
                       ("src.txt", "x " * 12 + "\ny\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                 "--source", str(tmp_path / "src.txt"), "-m", "chrf", "-o", str(out), "--n", "10"]) == ExitCode.OK
    segments = embedded(out.read_text(encoding="utf-8"), "refscore-data")["segments"]
    assert segments["sources"] == ["x " * 11 + "x", "y"]
    assert segments["buckets"]["source length (words)"] == {"labels": ["< 3", "≥ 10"], "index": [1, 0]}
    (tmp_path / "src.txt").write_text("only one\n", encoding="utf-8")
    assert main(["report", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "a.txt"), "--source",
                 str(tmp_path / "src.txt"), "-o", str(out)]) == ExitCode.LINE_COUNT_MISMATCH
    with pytest.raises(InputError, match="sources has 1 segments but there are 2 references"):
        refscore.report({"a": ["x", "y"]}, ["x", "y"], "bleu", sources=["s"])


def test_jsonl_source_field_gives_the_sources(tmp_path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps({"prediction": p, "references": [r], "source": s})
                              for p, r, s in (("a", "a", "src 1"), ("b c", "b", "src 2"))) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-i", str(path), "-m", "chrf", "-o", str(out), "--n", "10"]) == ExitCode.OK
    segments = embedded(out.read_text(encoding="utf-8"), "refscore-data")["segments"]
    assert segments["sources"] == ["src 1", "src 2"] and "source" not in segments["buckets"]
