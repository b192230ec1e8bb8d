"""Saved statistics are read by their columns' names, not their positions, and their values are checked when read
(issue 40 item 5): a consistently permuted file scores as the original, a missing or unknown column is an error
naming it, negative counts, matches above their totals and sums past int64 are refused, a NaN in TER or ROUGE
statistics gives a NaN score, and a malformed ``.npy`` header is an ``InputError`` naming the file."""
from __future__ import annotations

import io
import json
import math
import zipfile

import numpy as np
import pytest

import refscore
from refscore.errors import InputError
from refscore.io.statistics import load_statistics, save_statistics
from refscore.protocol import Statistics

HYPOTHESES = ["the cat sat on the mat", "a dog barked", "hello there"]
REFERENCES = [["the cat is on the mat", "a cat sat"], ["a dog barked loudly", "the dog"], ["hello world", "hi"]]
METRICS = {"ter": refscore.TER(), "bleu": refscore.BLEU(), "chrf": refscore.CHRF(word_order=2),
           "gleu": refscore.GLEU(), "rouge": refscore.ROUGE(types=("rouge1", "rougeL")),
           "rouge155": refscore.ROUGE155(types=("ROUGE-1", "ROUGE-L"))}


def _members(path) -> dict[str, np.ndarray]:
    with np.load(path) as archive:
        return {name: archive[name] for name in archive.files}


def _write(path, members, **header_changes) -> None:
    header = json.loads(members["header"].tobytes())
    header.update(header_changes)
    np.savez(path, **{**members, "header": np.frombuffer(json.dumps(header).encode(), np.uint8)})


def _saved(tmp_path, metric, stats=None):
    path = tmp_path / "stats.npz"
    save_statistics(path, metric.statistics(HYPOTHESES, REFERENCES) if stats is None else stats)
    return path


def _permute(path, seed=0) -> None:
    """Reverse-and-shuffle the columns (and carried columns) of a statistics file, header and data together."""
    members = _members(path)
    header = json.loads(members["header"].tobytes())
    order = np.random.default_rng(seed).permutation(len(header["columns"]))
    if (order == np.arange(len(order))).all():
        order = order[::-1]
    changes = {"columns": [header["columns"][i] for i in order]}
    members["data"] = np.ascontiguousarray(members["data"][:, order])
    if header.get("carried_columns"):
        carried = list(range(len(header["carried_columns"])))[::-1]
        changes["carried_columns"] = [header["carried_columns"][i] for i in carried]
        members["carried"] = np.ascontiguousarray(members["carried"][:, carried])
    _write(path, members, **changes)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_a_consistently_permuted_file_scores_as_the_original(tmp_path, name):
    metric = METRICS[name]
    stats = metric.statistics(HYPOTHESES, REFERENCES)
    path = _saved(tmp_path, metric, stats)
    _permute(path)
    loaded = load_statistics(path, metric=metric)
    assert loaded.columns == stats.columns and loaded.carried_columns == stats.carried_columns
    np.testing.assert_array_equal(loaded.data, stats.data)
    np.testing.assert_array_equal(loaded.carried, stats.carried)
    assert metric.score_from_statistics(loaded).score == metric.score_from_statistics(stats).score


def test_permuted_statistics_loaded_without_the_metric_are_refused_when_scored(tmp_path):
    metric = METRICS["ter"]
    path = _saved(tmp_path, metric)
    _permute(path)
    loaded = load_statistics(path)
    assert loaded.columns == ("ref_length", "edits")
    with pytest.raises(InputError, match=r"columns \['ref_length', 'edits'\] are not this metric's"):
        metric.score_from_statistics(loaded)
    expected = metric.score_from_statistics(metric.statistics(HYPOTHESES, REFERENCES)).score
    assert metric.score_from_statistics(loaded.reordered(metric.statistics_columns)).score == expected


@pytest.mark.parametrize(("columns", "message"), [
    (["edits", "ref_len"], r"missing 'ref_length'; unknown 'ref_len'"),
    (["ref_length", "edit"], r"missing 'edits'; unknown 'edit'"),
])
def test_a_missing_or_unknown_column_is_named(tmp_path, columns, message):
    path = _saved(tmp_path, METRICS["ter"])
    _write(path, _members(path), columns=columns)
    with pytest.raises(InputError, match=message) as error:
        load_statistics(path, metric=METRICS["ter"])
    assert str(path) in str(error.value)


def _with_value(tmp_path, name, column, value, row=1, dtype=None):
    metric = METRICS[name]
    path = _saved(tmp_path, metric)
    members = _members(path)
    header = json.loads(members["header"].tobytes())
    data = members["data"].astype(dtype or members["data"].dtype)
    data[row, header["columns"].index(column)] = value
    members["data"] = data
    _write(path, members, dtype=data.dtype.name)
    return path, metric


@pytest.mark.parametrize(("name", "column", "value", "message"), [
    ("bleu", "match_2", -1, r"segment 1: column 'match_2' is -1, a count, never negative"),
    ("bleu", "match_1", 99, r"segment 1: column 'match_1' is 99, more than column 'total_1' \(3\)"),
    ("chrf", "word1_match", 50, r"column 'word1_match' is 50, more than column 'word1_hyp' \(3\)"),
    ("gleu", "matches", 1000, r"column 'matches' is 1000, more than column 'n_all'"),
    ("ter", "edits", -2.0, r"column 'edits' is -2.0, a count, never negative"),
    ("rouge", "documents", -1.0, r"column 'documents' is -1.0, a count, never negative"),
], ids=["negative", "match-above-total", "chrf-word-match", "gleu", "ter-negative", "rouge-documents"])
def test_values_no_metric_computes_are_refused_with_segment_and_column(tmp_path, name, column, value, message):
    path, metric = _with_value(tmp_path, name, column, value)
    with pytest.raises(InputError, match=message) as error:
        load_statistics(path, metric=metric)
    assert str(path) in str(error.value)


def test_a_count_table_saved_as_floats_is_refused(tmp_path):
    path, metric = _with_value(tmp_path, "bleu", "hyp_len", 3.0, dtype=np.float64)
    with pytest.raises(InputError, match="the table is float64, but bleu statistics are counts"):
        load_statistics(path, metric=metric)


def test_sums_that_overflow_int64_are_refused(tmp_path):
    metric = METRICS["bleu"]
    path = _saved(tmp_path, metric)
    members = _members(path)
    members["data"] = members["data"].copy()
    members["data"][:, 0] = 2**62   # each fits; their sum (3 * 2**62) would wrap to a negative total
    _write(path, members)
    with pytest.raises(InputError, match=r"column 'hyp_len' sums to more than an int64 holds over the 3 segments"):
        load_statistics(path)


@pytest.mark.parametrize(("name", "column"), [("ter", "edits"), ("ter", "ref_length"), ("rouge", "documents"),
                                              ("rouge", "rouge1_fmeasure"), ("rouge155", "documents")])
def test_a_nan_in_ter_or_rouge_statistics_gives_a_nan_score(tmp_path, name, column):
    # docs/reliability.md: NaN is kept in statistics, and a corpus value over it is NaN, never a number
    path, metric = _with_value(tmp_path, name, column, np.nan)
    loaded = load_statistics(path, metric=metric)
    result = metric.score_from_statistics(loaded)
    assert math.isnan(result.score), result
    str(result)   # prints without converting the NaN to an integer
    assert math.isnan(metric.segment_scores(loaded)[1])


@pytest.mark.parametrize("broken", ["{'descr': '''<i8", "{'descr': ('<i8', "], ids=["open-string", "open-paren"])
def test_a_malformed_npy_header_is_an_input_error_naming_the_file(tmp_path, broken):
    path = _saved(tmp_path, METRICS["bleu"])
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((3, 10), np.int64))
    good = buffer.getvalue()
    header_length = int.from_bytes(good[8:10], "little")
    # an unterminated string or bracket in the header dict: numpy's fallback tokenizer raises tokenize.TokenError
    broken = (broken + " " * header_length)[:header_length - 1] + "\n"
    members["data.npy"] = good[:10] + broken.encode("latin1") + good[10 + header_length:]
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    message = r"member 'data.npy' is damaged \(its .npy header does not parse: EOF in multi-line"
    with pytest.raises(InputError, match=message) as error:
        load_statistics(path)
    assert str(path) in str(error.value)


def test_a_header_nested_too_deeply_is_an_input_error(tmp_path):
    # found with the statistics-header target's nested headers (fuzz/statistics_targets.py): RecursionError before
    path = _saved(tmp_path, METRICS["bleu"])
    np.savez(path, **{**_members(path), "header": np.frombuffer(b"[" * 100000, np.uint8)})
    with pytest.raises(InputError, match="the header: arrays or objects nested too deeply") as error:
        load_statistics(path)
    assert str(path) in str(error.value)


def test_reordered_names_what_is_missing():
    stats = Statistics("demo", "h", ("b", "a"), np.array([[2, 1]], dtype=np.int64))
    assert stats.reordered(("a", "b")).data.tolist() == [[1, 2]]
    assert stats.reordered(("b", "a")) is stats
    with pytest.raises(InputError, match=r"missing 'c'; unknown 'b'"):
        stats.reordered(("a", "c"))


@pytest.mark.parametrize("module", ["refscore._column_rules", "refscore._statistics", "refscore._metric_facts",
                                    "refscore.io.statistics"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0
