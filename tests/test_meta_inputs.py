"""Human judgments (refscore.meta.inputs): the shared MQM and SummEval files load as they are, every record format,
missing ratings kept as missing, alignment of systems that rate different segments, and errors naming the place."""
from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

import refscore
from refscore.metrics import get_metric_class
from conftest import shared_data_path
from refscore.errors import InputError
from refscore.meta.inputs import JudgmentFields, JudgmentsError, load_judgments

ROWS = [
    {"system": "A", "seg_id": 1, "hypothesis": "the cat sat", "reference": "the cat sat", "mqm": -0.0},
    {"system": "A", "seg_id": 2, "hypothesis": "a dog", "reference": "the dog barked", "mqm": -5.0},
    {"system": "B", "seg_id": 1, "hypothesis": "cat sat", "reference": "the cat sat", "mqm": None},
    {"system": "B", "seg_id": 2, "hypothesis": "the dog barked", "reference": "the dog barked", "mqm": -1.0},
]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_mqm_ted_loads_as_it_is():
    path = shared_data_path("mqm_ted", "ende.jsonl")
    judgments = load_judgments(path)
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(judgments.systems) == 13 and len(judgments.segment_ids) == 529
    assert judgments.human_names == ["mqm"]
    first = rows[0]
    row = judgments.systems.index(first["system"])
    column = judgments.segment_ids.index(str(first["seg_id"]))
    assert judgments.hypotheses[first["system"]][column] == first["hypothesis"]
    assert judgments.references[first["system"]][column] == [first["reference"]]
    assert judgments.human["mqm"][row, column] == first["mqm"]
    assert judgments.sources[column] == first["source"]
    # every rating is where its record says
    expected = {(r["system"], str(r["seg_id"])): r["mqm"] for r in rows}
    got = {(s, g): judgments.human["mqm"][i, j] for i, s in enumerate(judgments.systems)
           for j, g in enumerate(judgments.segment_ids)}
    assert got == expected


def test_summeval_human_scores_object_gives_one_score_per_key():
    path = shared_data_path("summ_summeval", "summeval.jsonl")
    judgments = load_judgments(path)
    first = json.loads(path.open(encoding="utf-8").readline())
    assert (len(judgments.systems), len(judgments.segment_ids)) == (16, 100)
    assert judgments.human_names == sorted(first["human_scores"])
    row, column = judgments.systems.index(first["system"]), judgments.segment_ids.index(first["id"])
    for name, value in first["human_scores"].items():
        assert judgments.human[name][row, column] == value
    assert len(judgments.references[first["system"]][column]) == 11


def test_missing_ratings_stay_missing_in_every_format(tmp_path):
    jsonl = write_jsonl(tmp_path / "r.jsonl", ROWS)
    with open(tmp_path / "r.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "seg_id", "hypothesis", "reference", "mqm"])
        for row in ROWS:
            writer.writerow([row["system"], row["seg_id"], row["hypothesis"], row["reference"],
                             "" if row["mqm"] is None else row["mqm"]])
    (tmp_path / "r.tsv").write_text("system\tseg_id\thypothesis\treference\tmqm\n" + "".join(
        f"{r['system']}\t{r['seg_id']}\t{r['hypothesis']}\t{r['reference']}\t{'None' if r['mqm'] is None else r['mqm']}"
        f"\n" for r in ROWS), encoding="utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(ROWS), tmp_path / "r.parquet")
    for path in (jsonl, tmp_path / "r.csv", tmp_path / "r.tsv", tmp_path / "r.parquet"):
        judgments = load_judgments(path)
        assert judgments.ratings("mqm") == {"A": [0.0, -5.0], "B": [None, -1.0]}, path
        assert judgments.hypotheses["B"] == ["cat sat", "the dog barked"]


def test_field_names_by_argument(tmp_path):
    rows = [{"sys": r["system"], "item": r["seg_id"], "out": r["hypothesis"], "gold": r["reference"],
             "score": r["mqm"], "rater2": 1} for r in ROWS]
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    fields = JudgmentFields(system="sys", segment="item", hypothesis="out", references="gold", human=("score",))
    judgments = load_judgments(path, fields)
    assert judgments.ratings("score") == {"A": [0.0, -5.0], "B": [None, -1.0]}
    with pytest.raises(JudgmentsError, match=r"r.jsonl: line 1: no field 'prediction' \(or 'hypothesis'"):
        load_judgments(path)
    with pytest.raises(JudgmentsError, match=r"line 1: no field 'rating' \(a human score\)"):
        load_judgments(path, JudgmentFields(system="sys", segment="item", hypothesis="out", references="gold",
                                            human=("rating",)))


def test_rating_that_is_not_a_number_names_file_line_and_field(tmp_path):
    rows = [dict(row) for row in ROWS]
    rows[3]["mqm"] = "bad"
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    with pytest.raises(JudgmentsError, match=r"r.jsonl: line 4: human score 'mqm' is 'bad', not a number"):
        load_judgments(path)
    rows[3]["mqm"] = -1.0
    del rows[1]["hypothesis"]
    with pytest.raises(JudgmentsError, match=r"line 2: no field 'prediction' \(or 'hypothesis'"):
        load_judgments(write_jsonl(tmp_path / "r.jsonl", rows))


def test_duplicate_key_names_both_lines(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", ROWS + [ROWS[0]])
    with pytest.raises(JudgmentsError, match=r"line 5: system 'A' segment '1' is given twice \(first at .*line 1\)"):
        load_judgments(path)


def test_different_segment_sets_are_refused_with_counts_or_intersected(tmp_path):
    rows = ROWS + [{"system": "A", "seg_id": 3, "hypothesis": "x", "reference": "y", "mqm": -2.0}]
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    with pytest.raises(JudgmentsError, match=r"'B' has 2 of the 3 segments \(missing ids 3\).*align='intersect'"):
        load_judgments(path)
    judgments = load_judgments(path, align="intersect")
    assert judgments.segment_ids == ["1", "2"] and judgments.dropped_segments == 1


def test_metric_scores_and_scores_from_outside_join_by_system_and_segment(tmp_path):
    judgments = load_judgments(write_jsonl(tmp_path / "r.jsonl", ROWS))
    chrf = get_metric_class("chrf")()
    scores = judgments.metric_scores(chrf)
    expected = [chrf.sentence_scores(judgments.hypotheses[s], judgments.references[s]) for s in judgments.systems]
    np.testing.assert_array_equal(scores, np.vstack(expected))
    # a scores file in another order joins by (system, id)
    (tmp_path / "comet.tsv").write_text("system\tid\tscore\nB\t2\t0.9\nA\t2\t0.2\nB\t1\t0.4\nA\t1\t0.8\n")
    comet = refscore.external_scores(str(tmp_path / "comet.tsv"))
    np.testing.assert_array_equal(judgments.metric_scores(comet), [[0.8, 0.2], [0.4, 0.9]])
    (tmp_path / "short.tsv").write_text("system\tid\tscore\nB\t2\t0.9\nA\t2\t0.2\nA\t1\t0.8\n")
    with pytest.raises(InputError, match=r"\('B', '1'\)"):
        judgments.metric_scores(refscore.external_scores(str(tmp_path / "short.tsv")))


def test_select_systems_keeps_their_rows(tmp_path):
    judgments = load_judgments(write_jsonl(tmp_path / "r.jsonl", ROWS))
    half = judgments.select_systems(["B"])
    assert half.systems == ["B"] and half.ratings("mqm") == {"B": [None, -1.0]}
    assert math.isnan(half.human["mqm"][0, 0])


def test_a_test_case_file_with_labels_is_one_system(tmp_path):
    rows = [{"id": "q1", "actual_output": "a cat", "expected_output": ["a cat", "the cat"], "label": "pass"},
            {"id": "q2", "actual_output": "dog", "expected_output": "a cat", "label": False}]
    judgments = load_judgments(write_jsonl(tmp_path / "labels.jsonl", rows))
    assert judgments.systems == ["labels"] and judgments.segment_ids == ["q1", "q2"]
    assert judgments.references["labels"] == [["a cat", "the cat"], ["a cat"]]
    assert judgments.ratings("label") == {"labels": [1.0, 0.0]}
    (tmp_path / "labels.csv").write_text("id,actual_output,expected_output,label\nq1,a cat,a cat,pass\nq2,dog,a cat,"
                                         "fail\nq3,x,y,\n")
    assert load_judgments(tmp_path / "labels.csv").ratings("label") == {"labels": [1.0, 0.0, None]}
    rows[1]["system"] = "B"
    with pytest.raises(JudgmentsError, match=r"line 2: 'system' must be given in every record or in none"):
        load_judgments(write_jsonl(tmp_path / "labels.jsonl", rows))


def test_docstring_examples_run():
    import doctest

    import refscore.meta.inputs as module

    failures, attempted = doctest.testmod(module)
    assert failures == 0 and attempted >= 4


def test_a_missing_file_is_an_os_error_naming_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read the judgments file .*absent.jsonl"):
        load_judgments(tmp_path / "absent.jsonl")
