"""Scores from outside (refscore.external_scores): files and arrays, the (system, id) join, its errors, the mean, and
the significance tests against sacreBLEU's paired bootstrap arithmetic on the same numbers."""
from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

import refscore
from refscore.errors import IncompatibleStatisticsError, InputError, InputTypeError
from refscore.metrics.external import SystemSegments, keyed_systems
from significance_metrics import SacrebleuView, run_sacrebleu_paired

SYSTEMS = ("base", "new", "big")


def comet_like(n_segments: int, seed: int, dyadic: bool) -> dict[str, np.ndarray]:
    """COMET-like scores per system: the later systems a little better. ``dyadic``: multiples of 1/256, whose sums
    are exact in float32 and float64 alike (then sacreBLEU's float32 resample sums equal refscore's exactly)."""
    rng = np.random.default_rng(seed)
    scores = {}
    for shift, system in enumerate(SYSTEMS):
        values = np.clip(rng.normal(0.6 + 0.02 * shift, 0.15, n_segments), 0.0, 1.0)
        scores[system] = np.round(values * 256) / 256 if dyadic else np.round(values, 4)
    return scores


def write_scores(path, scores: dict[str, np.ndarray], ids: list[str] | None = None,
                 shuffle_seed: int | None = 0) -> str:
    """A scores file of the format of ``path``'s extension, rows in a shuffled order (None: system by system)."""
    rows = [(system, ids[i] if ids else str(i + 1), float(value))
            for system, values in scores.items() for i, value in enumerate(values)]
    if shuffle_seed is not None:
        rows = [rows[i] for i in np.random.default_rng(shuffle_seed).permutation(len(rows))]
    path = str(path)
    with open(path, "w", encoding="utf-8") as handle:
        if path.endswith(".jsonl"):
            handle.writelines(json.dumps({"system": s, "id": i, "score": v}) + "\n" for s, i, v in rows)
        else:
            sep = "\t" if path.endswith(".tsv") else ","
            handle.write(sep.join(["score", "system", "id"]) + "\n")  # any column order
            handle.writelines(f"{v!r}{sep}{s}{sep}{i}\n" for s, i, v in rows)
    return path


@pytest.fixture()
def scores():
    return comet_like(60, seed=7, dyadic=False)


# -- files, arrays and the join -----------------------------------------------------------------------------------
@pytest.mark.parametrize("extension", [".tsv", ".csv", ".jsonl"])
def test_a_file_joins_on_system_and_id_whatever_the_row_order(tmp_path, scores, extension):
    ids = [f"doc{i // 3}-s{i % 3}" for i in range(60)]
    metric = refscore.external_scores(write_scores(tmp_path / f"comet{extension}", scores, ids))
    assert metric.name == "comet" and metric.higher_is_better
    order = list(np.random.default_rng(3).permutation(60))
    segments = SystemSegments([f"text {i}" for i in order], system="new", ids=[ids[i] for i in order])
    stats = metric.statistics(segments, ["ref"] * 60)
    assert stats.column("score").tolist() == scores["new"][order].tolist()
    assert stats.column("documents").tolist() == [1.0] * 60


def test_without_an_id_column_a_row_is_numbered_within_its_system(tmp_path):
    path = tmp_path / "human.csv"
    path.write_text("system,score\na,1\nb,5\na,2\nb,4\na,3\n", encoding="utf-8")
    metric = refscore.external_scores(path, higher_is_better=True, range=(1, 5))
    assert metric.statistics_for("a", ["3", "1", "2"]).column("score").tolist() == [3.0, 1.0, 2.0]
    assert metric.statistics_for("b", [1, 2]).column("score").tolist() == [5.0, 4.0]


def test_an_array_is_one_system_in_segment_order():
    values = [0.25, 0.5, 1.0]
    metric = refscore.external_scores(values, name="rating")
    assert metric.statistics(["x", "y", "z"], ["r"] * 3).column("score").tolist() == values
    by_system = refscore.external_scores({"a": values, "b": values[::-1]}, name="rating")
    stats = by_system.statistics(SystemSegments(["x", "y", "z"], system="b"), ["r"] * 3)
    assert stats.column("score").tolist() == values[::-1]


def test_corpus_score_is_the_mean_and_other_metrics_read_system_segments_as_lists(scores):
    metric = refscore.external_scores(scores, name="comet")
    systems = keyed_systems({name: [f"h{i}" for i in range(60)] for name in scores})
    for name, hypotheses in systems.items():
        result = metric.corpus_score(hypotheses, ["h1"] * 60)
        assert result.score == pytest.approx(math.fsum(scores[name]) / 60, rel=1e-15, abs=0)
        assert result.segments["comet"].tolist() == scores[name].tolist()
    plain = refscore.chrf([f"h{i}" for i in range(60)], ["h1"] * 60)
    assert refscore.chrf(systems["base"], ["h1"] * 60).score == plain.score


def test_lower_is_better_and_the_signature():
    metric = refscore.external_scores({"a": [3.5, 1.0]}, name="metricx", higher_is_better=False, range=(0, 25))
    score = metric.corpus_score(SystemSegments(["x", "y"], system="a"), ["r", "r"])
    assert score.higher_is_better is False and score.score == 2.25
    assert str(score.signature).startswith(f"scores:array|sha:{metric.config.digest}|higher:no|refscore:")


def test_format_prints_by_the_metrics_display_scale_never_minus_zero():
    """Issue 39 item 8: outside scores print as given (MQM -1.052, not -105.20) unless a scale is declared."""
    hypotheses, references = ["x", "y"], ["r", "r"]
    mqm = refscore.external_scores([-1.052, -1.052], name="mqm").corpus_score(hypotheses, references)
    assert (mqm.format(), mqm.format(3)) == ("MQM = -1.05", "MQM = -1.052")
    perfect = refscore.external_scores([-0.0, -0.0], name="mqm")
    assert perfect.corpus_score(hypotheses, references).format() == "MQM = 0.00"
    assert refscore.external_scores([-0.0], name="mqm").sentence_score("x", "r").format() == "MQM = 0.00"
    comet = refscore.external_scores([0.5, 0.75], name="comet", scale=100)
    assert comet.corpus_score(hypotheses, references).format() == "COMET = 62.50"
    assert comet.corpus_score(hypotheses, references).display_scale == comet.display_scale == 100
    assert refscore.chrf(["a cat"], ["a cat"]).format() == "chrF2 = 100.00"   # built-in: 0-100


def test_statistics_of_different_scores_never_merge():
    first = refscore.external_scores([0.5, 0.5], name="comet")
    second = refscore.external_scores([0.5, 0.25], name="comet")
    with pytest.raises(IncompatibleStatisticsError):
        first.statistics(["a", "b"], ["r", "r"]) + second.statistics(["a", "b"], ["r", "r"])


# -- errors name the keys, the file, the line -----------------------------------------------------------------------
def test_missing_and_unmatched_keys_are_named(tmp_path, scores):
    metric = refscore.external_scores(write_scores(tmp_path / "comet.tsv", scores, shuffle_seed=None))
    with pytest.raises(InputError, match=r"8 of 68 segments have no score in .*comet\.tsv: \(system, id\) "
                                         r"\('base', '61'\), \('base', '62'\), .* and 3 more"):
        metric.statistics(SystemSegments(["h"] * 68, system="base"), ["r"] * 68)
    with pytest.raises(InputError, match=r"2 scores in .*match no segment of the inputs: \(system, id\) "
                                         r"\('new', '59'\), \('new', '60'\);"):
        metric.statistics(SystemSegments(["h"] * 58, system="new"), ["r"] * 58)
    with pytest.raises(InputError, match=r"no scores for system 'sysX' .* its systems are 'base', 'new', 'big'"):
        metric.statistics(SystemSegments(["h"] * 60, system="sysX"), ["r"] * 60)
    with pytest.raises(InputError, match=r"hold 3 systems \(base, new, big\); say which system .*SystemSegments"):
        metric.statistics(["h"] * 60, ["r"] * 60)
    with pytest.raises(InputError, match=r"1 of 61 segments has no score .*\('big', '61'\);"):
        metric.statistics(SystemSegments(["h"] * 61, system="big"), ["r"] * 61)
    with pytest.raises(InputError, match=r"1 score in .* matches no segment of the inputs: \(system, id\) "
                                         r"\('big', '60'\);"):
        metric.statistics(SystemSegments(["h"] * 59, system="big"), ["r"] * 59)
    unnamed = refscore.external_scores([0.5], name="comet")
    with pytest.raises(InputError, match="have no system names, so they cannot be joined to system 'a'"):
        unnamed.statistics(SystemSegments(["h"], system="a"), ["r"])


def test_duplicated_keys_are_named_with_the_first_line(tmp_path):
    path = tmp_path / "comet.csv"
    path.write_text("system,id,score\na,1,0.5\na,2,0.25\na,1,0.75\nb,1,0.5\nb,1,0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"2 \(system, id\) keys given twice: \('a', '1'\), \('b', '1'\) \(first "
                                         r"given at .*comet\.csv: line 2\)"):
        refscore.external_scores(path)


@pytest.mark.parametrize(("content", "message"), [
    ("system\tid\tscore\na\t1\t0.5\na\t2\thigh\n", r"comet\.tsv: line 3, column 'score': score 'high' is not a number"),
    ("system\tid\tscore\na\t1\tnan\n", r"comet\.tsv: line 2: score is nan; every score must be a finite number"),
    ("system\tid\tscore\na\t1\tinf\n", r"line 2: score is inf"),
    ("system\tid\tscore\na\t1\t1.5\n", r"line 2: score 1\.5 is outside range=\(0\.0, 1\.0\)"),
    ("system\tid\tvalue\na\t1\t0.5\n", r"line 1: the header has no 'score' column .*'value'"),
    ("system\tid\tscore\na\t1\n", r"line 2: no 'score' field \(2 fields, the header has 3\)"),
    ("system\tid\tscore\n", r"comet\.tsv: no scores"),
])
def test_bad_table_rows_name_file_line_and_column(tmp_path, content, message):
    path = tmp_path / "comet.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        refscore.external_scores(path, range=(0, 1))


@pytest.mark.parametrize(("line", "message"), [
    ('{"system": "a", "id": 1, "score": NaN}', r"line 2: score is nan"),
    ('{"system": "a", "id": 1, "score": "0.5x"}', r"line 2, field 'score': score '0\.5x' is not a number"),
    ('{"system": "a", "id": 1, "score": true}', r"line 2, field 'score': score True is not a number"),
    ('{"system": "a", "id": 1}', r"line 2: a scores record is an object with a 'score' field"),
    ('{"system": "a", "id": [1], "score": 1}', r"line 2: id \[1\] must be a string or an integer"),
    ('{"system": "a", ', r"line 2: not valid JSON"),
])
def test_bad_jsonl_records_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "comet.jsonl"
    path.write_text('{"system": "a", "id": 0, "score": 0.5}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        refscore.external_scores(path)


def test_bad_arguments_say_what_to_give(tmp_path):
    with pytest.raises(InputError, match=r"scores\[2\]: score is nan"):
        refscore.external_scores([0.5, 0.25, float("nan")], name="comet")
    with pytest.raises(InputError, match="give name=... .* for scores given as an array"):
        refscore.external_scores([0.5])
    with pytest.raises(InputError, match="name 'bleu' is a built-in metric's"):
        refscore.external_scores([0.5], name="bleu")
    with pytest.raises(InputError, match=r"range must be a pair \(low, high\) of numbers with low < high"):
        refscore.external_scores([0.5], name="comet", range=(1, 0))
    with pytest.raises(InputError, match="unknown format; name it .tsv, .csv or .jsonl"):
        refscore.external_scores(tmp_path / "comet.txt")
    with pytest.raises(InputError, match="does not exist"):
        refscore.external_scores(tmp_path / "comet.tsv")
    with pytest.raises(InputTypeError, match="1-D array of numbers"):
        refscore.external_scores([[0.5]], name="comet")
    with pytest.raises(InputError, match="one id per hypothesis"):
        SystemSegments(["a", "b"], system="s", ids=["1"])


def test_empty_hypotheses_are_valid_input():
    metric = refscore.external_scores({"a": [0.5, 0.25]}, name="comet")
    assert metric.corpus_score(SystemSegments(["", ""], system="a"), ["", ""]).score == 0.375


# -- significance: sacreBLEU's paired bootstrap arithmetic on the same numbers ------------------------------------
@pytest.mark.parametrize("seed", [12345, 5])
def test_paired_bootstrap_equals_sacrebleu_on_the_same_scores(sacrebleu_seed, seed):
    scores = comet_like(150, seed=seed, dyadic=True)
    metric = refscore.external_scores(scores, name="comet")
    systems = keyed_systems({name: [""] * 150 for name in scores})
    expected = run_sacrebleu_paired(metric, systems, None, "bs", 400, seed)
    result = refscore.paired_test(metric, systems, [""] * 150, test="bs", n=400, seed=seed)
    for ours, theirs in zip(result.results["comet"], expected):
        assert (ours.score, ours.mean, ours.ci, ours.p_value) == (theirs.score, theirs.mean, theirs.ci,
                                                                  theirs.p_value)
    assert 0 < result.results["comet"][2].p_value < result.results["comet"][1].p_value


def test_approximate_randomization_equals_sacrebleu_on_the_same_scores(sacrebleu_seed):
    scores = comet_like(120, seed=2, dyadic=True)
    metric = refscore.external_scores(scores, name="comet")
    systems = keyed_systems({name: [""] * 120 for name in scores})
    expected = run_sacrebleu_paired(metric, systems, None, "ar", 500, 12345, n_ar_confidence=200)
    result = refscore.paired_test(metric, systems, [""] * 120, test="ar", n=500, seed=12345, confidence_n=200)
    for ours, theirs in zip(result.results["comet"], expected):
        assert (ours.score, ours.mean, ours.ci, ours.p_value) == (theirs.score, theirs.mean, theirs.ci,
                                                                  theirs.p_value)


def test_paired_bootstrap_on_any_scores_agrees_with_sacrebleu_to_float32_sums(sacrebleu_seed, scores):
    """sacreBLEU sums resamples in float32, refscore exactly in float64: equal up to float32 rounding."""
    metric = refscore.external_scores(scores, name="comet")
    systems = keyed_systems({name: [""] * 60 for name in scores})
    expected = run_sacrebleu_paired(metric, systems, None, "bs", 300, 12345)
    result = refscore.paired_test(metric, systems, [""] * 60, test="bs", n=300, seed=12345)
    for ours, theirs in zip(result.results["comet"], expected):
        assert ours.score == theirs.score
        assert ours.mean == pytest.approx(theirs.mean, abs=1e-6)
        assert ours.ci == pytest.approx(theirs.ci, abs=1e-6)
        assert ours.p_value == pytest.approx(theirs.p_value, abs=2 / 301) if ours.p_value else True


def test_bootstrap_interval_equals_sacrebleu_bootstrap_resample(sacrebleu_seed):
    from sacrebleu.significance import _bootstrap_resample

    values = comet_like(90, seed=11, dyadic=True)["big"]
    metric = refscore.external_scores(values, name="comet")
    os.environ["SACREBLEU_SEED"] = "12345"
    view = SacrebleuView(metric, None)
    _, resampled = _bootstrap_resample(view._extract_corpus_statistics([""] * 90, None), view, 500)
    theirs = sorted(s.score for s in resampled)
    result = refscore.bootstrap_ci_from_statistics(metric, metric.statistics([""] * 90, None), n=500)
    assert np.array_equal(np.sort(result.samples[:, 0]), theirs)
    assert (result.lower, result.upper) == (theirs[500 // 40], theirs[500 - 500 // 40 - 1])


def test_module_examples_run():
    import doctest

    from refscore.metrics import _score_tables, external

    for module in (external, _score_tables):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failures == 0, module.__name__
