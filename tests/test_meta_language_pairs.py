"""``refscore meta-eval LP=FILE ...``: several language pairs in one run, per-pair tables, WMT's global pairwise
accuracy over the system pairs of all language pairs, statistics chosen on the command line and system scores in
the JSON (issue 39, item 13). Numbers are mt-metrics-eval's (``stats.Agreement`` summed over the pairs, as its
global accuracy does; ``stats.Correlation``), imported from ../shared/reference."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_DATA
from meta_reference import packed, reference_stats, synthetic
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.meta.language_pairs import global_pairwise_accuracy, pairwise_agreement

MQM_TED = SHARED_DATA / "mqm_ted"


def _read(path: Path) -> tuple[list[str], list[str], dict[tuple[str, str], dict]]:
    records = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[(record["system"], str(record["seg_id"]))] = record
    systems = sorted({s for s, _ in records})
    segments = sorted({g for _, g in records}, key=int)
    return systems, segments, records


def _run(capsys, *argv: str) -> dict:
    assert main(list(argv)) == ExitCode.OK
    return json.loads(capsys.readouterr().out)


def test_two_wmt_pairs_equal_mt_metrics_eval(capsys):
    if not (MQM_TED / "ende.jsonl").exists():
        pytest.skip(f"real judgments not available: {MQM_TED}")
    stats = reference_stats()
    sacrebleu = pytest.importorskip("sacrebleu")
    import refscore

    document = _run(capsys, "meta-eval", f"en-de={MQM_TED / 'ende.jsonl'}", f"zh-en={MQM_TED / 'zhen.jsonl'}",
                    "-m", "chrf,bleu", "--bootstrap", "0", "--k", "0", "--format", "json",
                    "--system-statistics", "pairwise_accuracy,kendall",
                    "--segment-statistics", "kendall:none,kendall:sys,pearson:item")
    rows = {(r["pair"], r["metric"], r["level"], r["statistic"], r["grouping"]): r["value"]
            for r in document["results"]}
    agreement = {"chrf": [0, 0], "bleu": [0, 0]}
    for pair, name in (("en-de", "ende"), ("zh-en", "zhen")):
        systems, segments, records = _read(MQM_TED / f"{name}.jsonl")
        gold = np.array([[np.nan if records[(s, g)]["mqm"] is None else records[(s, g)]["mqm"] for g in segments]
                         for s in systems])
        hyps = {s: [records[(s, g)]["hypothesis"] for g in segments] for s in systems}
        refs = [records[(systems[0], g)]["reference"] for g in segments]
        gold_systems = [float(np.nanmean(row)) for row in gold]
        scores = document["pairs"][pair]["system_scores"]
        assert [scores["human"]["mqm"][s] for s in systems] == pytest.approx(gold_systems, rel=0, abs=1e-12)
        for metric, peer in (("chrf", sacrebleu.CHRF()), ("bleu", sacrebleu.BLEU())):
            corpus = [peer.corpus_score(hyps[s], [refs]).score / 100 for s in systems]
            assert [scores["metrics"][metric][s] for s in systems] == pytest.approx(corpus, rel=0, abs=1e-9)
            agree, pairs = stats.Agreement(gold_systems, corpus)
            agreement[metric][0] += agree
            agreement[metric][1] += pairs
            assert rows[(pair, metric, "system", "pairwise_accuracy", "none")] == pytest.approx(agree / pairs)
            assert rows[(pair, metric, "system", "kendall", "none")] == pytest.approx(
                stats.Correlation(len(systems), gold_systems, corpus).Kendall()[0], abs=1e-12)
        segment = np.vstack([refscore.CHRF().sentence_scores(hyps[s], refs) for s in systems])
        reference = stats.Correlation(len(systems), packed(gold), packed(segment))
        for grouping, expected in (("none", reference.Kendall("none")[0]), ("sys", reference.Kendall("sys")[0]),
                                   ("item", reference.Pearson("item")[0])):
            statistic = "pearson" if grouping == "item" else "kendall"
            assert rows[(pair, "chrf", "segment", statistic, grouping)] == pytest.approx(expected, abs=1e-12)
    overall = {(r["human"], r["metric"]): r for r in document["global"]}
    for metric, (agree, pairs) in agreement.items():
        assert (overall[("mqm", metric)]["agree"], overall[("mqm", metric)]["pairs"]) == (agree, pairs) == \
            (agree, 2 * 78)
        assert overall[("mqm", metric)]["value"] == agree / pairs
    assert document["segment_statistics"] == ["kendall:none:b", "kendall:sys:b", "pearson:item"]


def test_global_accuracy_is_pooled_agreement_with_ties_and_gaps():
    stats = reference_stats()
    rng = np.random.default_rng(7)
    human, metric = {}, {}
    for pair, size in (("a-b", 5), ("c-d", 7), ("e-f", 4)):
        gold = rng.choice([-1.0, -2.0, -3.0], size)   # ties
        gold[0] = np.nan                               # a system without ratings
        human[pair], metric[pair] = gold, np.round(rng.normal(size=size), 1)
    result = global_pairwise_accuracy(human, metric)
    expected = [stats.Agreement([None if np.isnan(v) else v for v in human[p]], list(metric[p])) for p in human]
    assert (result.agree, result.pairs) == tuple(int(sum(x)) for x in zip(*expected))
    assert result.per_pair == {p: (int(a), int(n)) for p, (a, n) in zip(human, expected)}
    assert pairwise_agreement(human["a-b"], metric["a-b"]) == tuple(map(int, expected[0]))


def _judgments(path: Path, human: np.ndarray, hypotheses: list[list[str]] | None = None,
               reference: str = "the cat sat on the mat") -> None:
    with path.open("w", encoding="utf-8") as out:
        for s, row in enumerate(human):
            for i, value in enumerate(row):
                hypothesis = hypotheses[s][i] if hypotheses else f"the cat {'sat ' * (s + 1)}on mat {i}"
                out.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "hypothesis": hypothesis,
                                      "reference": reference, "mqm": None if np.isnan(value) else float(value)},
                                     ensure_ascii=False) + "\n")


def _scores(path: Path, scores: np.ndarray) -> None:
    path.write_text("system\tid\tscore\n" + "".join(f"sys{s}\t{i + 1}\t{scores[s, i]}\n"
                                                    for s in range(scores.shape[0])
                                                    for i in range(scores.shape[1])), encoding="utf-8")


def test_chosen_statistics_and_system_scores_on_one_file(tmp_path, capsys):
    stats = reference_stats()
    human, (metric,) = synthetic(systems=5, items=9, seed=3, metrics=1)
    _judgments(tmp_path / "ratings.jsonl", human)
    _scores(tmp_path / "comet.tsv", metric)
    document = _run(capsys, "meta-eval", str(tmp_path / "ratings.jsonl"), "-m", f"file:{tmp_path / 'comet.tsv'}",
                    "--bootstrap", "0", "--k", "0", "--format", "json", "--system-statistics", "pearson",
                    "--segment-statistics", "kendall:none,kendall:sys:acc23")
    found = {(r["level"], r["statistic"], r["grouping"]): r["value"] for r in document["results"]}
    reference = stats.Correlation(5, packed(human), packed(metric))
    assert set(found) == {("system", "pearson", "none"), ("segment", "kendall", "none"),
                          ("segment", "kendall", "sys")}
    assert found[("segment", "kendall", "none")] == pytest.approx(reference.Kendall("none")[0], abs=1e-12)
    assert found[("segment", "kendall", "sys")] == pytest.approx(
        reference.KendallVariants("sys", "acc23")[0], abs=1e-12)
    assert list(document["system_scores"]["metrics"]["comet"].values()) == pytest.approx(metric.mean(1))
    assert list(document["system_scores"]["human"]["mqm"].values()) == pytest.approx(np.nanmean(human, 1))


def test_pair_files_of_scores_and_the_pairs_target_tokenizer(tmp_path, capsys):
    rng = np.random.default_rng(5)
    chinese = [["我喜欢在公园里散步。", "今天天气很好。", "他买了一本新书。", "菜非常好吃。"][: 4 - s % 2] +
               ["我们明天出发。"] * (s % 2) for s in range(4)]
    for pair, hypotheses in (("en-zh", chinese), ("de-en", None)):
        human = -rng.choice([0.0, 1.0, 5.0], size=(4, 4))
        _judgments(tmp_path / f"{pair}.jsonl", human, hypotheses,
                   "我喜欢在公园里散步。" if hypotheses else "the cat sat on the mat")
        _scores(tmp_path / f"{pair}.comet.tsv", human + rng.normal(0, 1, human.shape))
    document = _run(capsys, "meta-eval", *(f"{p}={tmp_path / p}.jsonl" for p in ("en-zh", "de-en")), "-m",
                    f"bleu,file:{tmp_path}/{{pair}}.comet.tsv", "--bootstrap", "0", "--k", "0", "--format", "json")
    assert "tok:zh" in document["pairs"]["en-zh"]["signatures"]["bleu"]
    assert "tok:13a" in document["pairs"]["de-en"]["signatures"]["bleu"]
    assert {r["metric"] for r in document["global"]} == {"bleu", "comet"}
    assert all(r["pairs"] == 12 for r in document["global"])


def test_unnamed_files_of_two_pairs_name_the_fix(tmp_path, capsys):
    human, _ = synthetic(systems=3, items=4, seed=1, metrics=1)
    for name in ("a.jsonl", "b.jsonl"):
        _judgments(tmp_path / name, human)
    assert main(["meta-eval", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "-m", "chrf"]) == \
        ExitCode.BAD_INPUT
    assert "en-de=ende.jsonl zh-en=zhen.jsonl" in capsys.readouterr().err
    assert main(["meta-eval", f"x-y={tmp_path / 'a.jsonl'}", str(tmp_path / "b.jsonl"), "-m", "chrf"]) == \
        ExitCode.USAGE
    assert "has no language pair while others have one" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, message", [
    ("--segment-statistics", "kendall:none,kendall:bogus", "item 2 ('kendall:bogus'): grouping 'bogus'"),
    ("--segment-statistics", "pairwise_accuracy", "STAT one of pearson, spearman, kendall"),
    ("--system-statistics", "kendall:item", "grouping 'item' is not one of none at the system level"),
    ("--segment-statistics", "kendall:item:x", "variant 'x' of kendall"),
    ("--segment-statistics", "kendall:item,kendall:item:acc23", "given twice")])
def test_a_bad_statistic_names_the_argument_and_the_item(tmp_path, capsys, option, value, message):
    with pytest.raises(SystemExit) as exited:
        main(["meta-eval", str(tmp_path / "x.jsonl"), option, value])
    assert exited.value.code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert f"argument {option}" in err and message in err, err


def test_text_output_has_each_pair_and_the_global_table(tmp_path, capsys):
    for pair, seed, systems in (("en-de", 1, 4), ("zh-en", 2, 5)):   # 6 + 10 system pairs, pooled
        human, _ = synthetic(systems=systems, items=5, seed=seed, metrics=1)
        _judgments(tmp_path / f"{pair}.jsonl", human)
    assert main(["meta-eval", f"en-de={tmp_path / 'en-de.jsonl'}", f"zh-en={tmp_path / 'zh-en.jsonl'}", "-m",
                 "chrf,bleu", "--bootstrap", "0", "--k", "0"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "pair: en-de (4 systems x 5 segments)" in out and "pair: zh-en" in out
    assert "global pairwise accuracy over 16 system pairs (en-de 6, zh-en 10)" in out


def test_the_json_gives_the_rated_cells_per_human_score_in_both_runs(tmp_path, capsys):
    """Issue 39 item 12: ``rated`` is each human score's count of rated cells, one shape for one file (top level)
    and for ``LP=FILE`` (per pair), also where two human scores rate different cells."""
    counts = {}
    for pair, seed, systems in (("en-de", 1, 4), ("zh-en", 2, 5)):
        mqm, _ = synthetic(systems=systems, items=6, seed=seed, metrics=1)
        mqm[0, 1] = np.nan
        da = np.where(np.arange(systems * 6).reshape(systems, 6) % 3 == 0, np.nan, -mqm)   # rates fewer cells
        with (tmp_path / f"{pair}.jsonl").open("w", encoding="utf-8") as out:
            for s in range(systems):
                for i in range(6):
                    out.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "reference": "the cat sat",
                                          "hypothesis": f"the cat {'sat ' * (s + 1)}{i}",
                                          **{name: None if np.isnan(v[s, i]) else float(v[s, i])
                                             for name, v in (("mqm", mqm), ("da", da))}}) + "\n")
        counts[pair] = {"mqm": int(np.count_nonzero(~np.isnan(mqm))), "da": int(np.count_nonzero(~np.isnan(da)))}
        assert counts[pair]["mqm"] != counts[pair]["da"]
    common = ["-m", "chrf", "--bootstrap", "0", "--k", "0", "--level", "system", "--format", "json"]
    single = _run(capsys, "meta-eval", str(tmp_path / "en-de.jsonl"), *common)
    assert single["rated"] == counts["en-de"]
    pairs = _run(capsys, "meta-eval", *(f"{pair}={tmp_path / pair}.jsonl" for pair in counts), *common)
    assert {pair: about["rated"] for pair, about in pairs["pairs"].items()} == counts
    only = _run(capsys, "meta-eval", f"en-de={tmp_path / 'en-de.jsonl'}", *common, "--human", "da")
    assert only["pairs"]["en-de"]["rated"] == {"da": counts["en-de"]["da"]}
    assert _run(capsys, "meta-eval", str(tmp_path / "en-de.jsonl"), *common, "--human", "da")["rated"] == \
        {"da": counts["en-de"]["da"]}
