"""Saved statistics: pickles rebuild through Statistics' checks; the data-only .npz format refuses every defect."""
from __future__ import annotations

import copyreg
import io
import json
import pickle
import zipfile

import numpy as np
import pytest

import refscore
from refscore.errors import InputError
from refscore.io.statistics import FORMAT_VERSION, load_statistics, save_statistics
from refscore.metrics.bleu import BLEU
from refscore.metrics.rouge import ROUGE
from refscore.protocol import Statistics

HYPOTHESES = ["the cat sat on the mat", "a dog barked", ""]
REFERENCES = [["the cat is on the mat"], ["a dog barked loudly"], ["nothing"]]


class _Crafted:
    """Pickles as the given reduce value: a tampered pickle that names refscore's Statistics."""

    def __init__(self, reduced):
        self.reduced = reduced

    def __reduce__(self):
        return self.reduced


def _bleu_stats() -> Statistics:
    return BLEU().statistics(HYPOTHESES, REFERENCES)


def test_pickle_round_trip_keeps_everything():
    stats = _bleu_stats()
    again = pickle.loads(pickle.dumps(stats))
    assert (again.metric, again.config_hash, again.columns, again.nrefs) == (
        stats.metric, stats.config_hash, stats.columns, stats.nrefs)
    np.testing.assert_array_equal(again.data, stats.data)
    assert not again.data.flags.writeable
    assert BLEU().score_from_statistics(again).score == BLEU().score_from_statistics(stats).score


def test_pickle_whose_columns_do_not_match_its_data_is_refused():
    stats = _bleu_stats()
    tampered = pickle.dumps(_Crafted((Statistics, (stats.metric, stats.config_hash, stats.columns[:-1],
                                                   stats.data, 1))))
    with pytest.raises(InputError, match=r"shape \(n_segments, 9\)"):
        pickle.loads(tampered)


def test_pickle_in_the_default_state_dict_form_is_checked_too():
    stats = _bleu_stats()
    state = {"metric": stats.metric, "config_hash": stats.config_hash, "columns": ("a", "a"),
             "data": np.zeros((1, 2), np.int64), "nrefs": 1}
    tampered = pickle.dumps(_Crafted((copyreg._reconstructor, (Statistics, object, None), state)))
    with pytest.raises(InputError, match="distinct names"):
        pickle.loads(tampered)
    state["data"] = np.zeros((1, 3), np.int64)
    with pytest.raises(InputError, match="shape"):
        pickle.loads(pickle.dumps(_Crafted((copyreg._reconstructor, (Statistics, object, None), state))))


@pytest.mark.parametrize("metric", [BLEU(), ROUGE(types=("rouge1", "rougeL"))], ids=["int64", "float64"])
def test_save_and_load_round_trip(tmp_path, metric):
    stats = metric.statistics(HYPOTHESES, [[*refs, "the mat"] for refs in REFERENCES])
    path = tmp_path / "stats.npz"
    save_statistics(path, stats)
    loaded = load_statistics(path, metric=metric)
    assert loaded.columns == stats.columns and loaded.config_hash == stats.config_hash
    assert loaded.data.dtype == stats.data.dtype
    np.testing.assert_array_equal(loaded.data, stats.data)
    assert getattr(loaded, "carried_columns", ()) == getattr(stats, "carried_columns", ())
    np.testing.assert_array_equal(getattr(loaded, "carried", None), getattr(stats, "carried", None))
    assert metric.score_from_statistics(loaded).score == metric.score_from_statistics(stats).score
    assert refscore.load_statistics is load_statistics and refscore.save_statistics is save_statistics


def test_statistics_of_another_configuration_are_refused(tmp_path):
    path = tmp_path / "stats.npz"
    save_statistics(path, _bleu_stats())
    with pytest.raises(InputError, match="config hash"):
        load_statistics(path, metric=BLEU(lowercase=True))


def _rewrite(path, header=None, data=None, extra=None):
    """Rewrite a statistics file with its header (dict, or raw array) and/or data replaced."""
    with np.load(path) as archive:
        members = {name: archive[name] for name in archive.files}
    if isinstance(header, dict):
        old = json.loads(members["header"].tobytes())
        old.update(header)
        header = np.frombuffer(json.dumps(old).encode(), np.uint8)
    if header is not None:
        members["header"] = header
    if data is not None:
        members["data"] = data
    members.update(extra or {})
    members = {name: value for name, value in members.items() if value is not False}
    np.savez(path, **members)


@pytest.mark.parametrize(("change", "message"), [
    ({"header": False}, "has no header"),
    ({"header": np.frombuffer(b"{not json", np.uint8)}, "not UTF-8 JSON"),
    ({"header": np.array([1.0, 2.0])}, "header must be UTF-8 JSON bytes"),
    ({"header": {"format": "something-else"}}, "does not name the format"),
    ({"header": {"format_version": FORMAT_VERSION + 1}}, f"format version {FORMAT_VERSION + 1}"),
    ({"header": {"metric": None}}, "header field 'metric' is missing or not a string"),
    ({"header": {"nrefs": True}}, "header field 'nrefs'"),
    ({"header": {"schema_version": 0}}, "schema version 0"),
    ({"header": {"columns": ["hyp_len", "hyp_len"]}}, "names a column twice"),
    ({"header": {"columns": ["hyp_len"]}}, "does not match its data"),
    ({"data": np.zeros((3, 11), np.int64)}, "does not match its data"),
    ({"data": np.zeros((3, 10), np.int32)}, "dtype int32"),
    ({"data": np.full((3, 10), np.nan)}, "dtype float64"),
    ({"data": np.array([[None] * 10] * 3, dtype=object)}, "cannot be read without pickle"),
    ({"extra": {"payload": np.zeros(1)}}, "expected exactly"),
], ids=["no-header", "bad-json", "header-dtype", "format", "version", "field-type", "bool-nrefs", "schema",
        "duplicate-column", "fewer-columns", "wider-data", "int32", "dtype-mismatch", "object-array", "extra"])
def test_tampered_files_are_refused_with_the_defect(tmp_path, change, message):
    path = tmp_path / "stats.npz"
    save_statistics(path, _bleu_stats())
    _rewrite(path, **change)
    with pytest.raises(InputError, match=message) as error:
        load_statistics(path)
    assert str(path) in str(error.value)


def test_non_finite_float_statistics_are_refused(tmp_path):
    metric = ROUGE(types=("rouge1",))
    path = tmp_path / "stats.npz"
    save_statistics(path, metric.statistics(HYPOTHESES, REFERENCES))
    with np.load(path) as archive:
        data = archive["data"].copy()
    data[1, 0] = np.inf
    _rewrite(path, data=data)
    with pytest.raises(InputError, match=r"segment 1, column 'rouge1_precision' is inf"):
        load_statistics(path)


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04broken", pickle.dumps(_bleu_stats())],
                         ids=["empty", "text", "broken-zip", "pickle"])
def test_files_that_are_not_statistics_files_are_refused(tmp_path, content):
    path = tmp_path / "stats.npz"
    path.write_bytes(content)
    with pytest.raises(InputError, match="not a refscore statistics file"):
        load_statistics(path)


def test_a_single_npy_array_and_a_missing_file_are_refused(tmp_path):
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((2, 2)))
    (tmp_path / "one.npz").write_bytes(buffer.getvalue())
    with pytest.raises(InputError, match="single .npy array"):
        load_statistics(tmp_path / "one.npz")
    with pytest.raises(InputError, match="does not exist"):
        load_statistics(tmp_path / "missing.npz")


def test_a_truncated_file_is_refused(tmp_path):
    path = tmp_path / "stats.npz"
    save_statistics(path, _bleu_stats())
    content = path.read_bytes()
    path.write_bytes(content[: len(content) // 2])
    with pytest.raises(InputError, match=str(path)):
        load_statistics(path)
    assert zipfile.is_zipfile(path) is False


def test_carried_columns_that_do_not_match_the_rows_are_refused(tmp_path):
    metric = ROUGE(types=("rouge1",))
    stats = metric.statistics(HYPOTHESES, [[*refs, "the mat"] for refs in REFERENCES])
    if not getattr(stats, "carried_columns", ()):
        pytest.skip("these statistics carry no columns")
    path = tmp_path / "stats.npz"
    save_statistics(path, stats)
    _rewrite(path, extra={"carried": np.asarray(stats.carried)[:1]})
    with pytest.raises(InputError, match="carried columns have shape"):
        load_statistics(path)
