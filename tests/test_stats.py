"""The statistics protocol: merge by addition, pickling, config-hash guard."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

from refscore.errors import IncompatibleStatisticsError
from refscore.protocol import Statistics

COLUMNS = ("hits", "total")


def make(rows, config_hash="h1", metric="demo", nrefs=1):
    return Statistics(metric, config_hash, COLUMNS, np.asarray(rows, dtype=np.int64), nrefs)


def test_add_concatenates_rows_and_totals_sum():
    merged = make([[1, 2], [3, 4]]) + make([[5, 6]])
    assert len(merged) == 3
    assert merged.totals().tolist() == [9, 12]
    assert merged.totals().dtype == np.int64
    assert merged.column("total").tolist() == [2, 4, 6]


def test_sum_builtin_and_concatenate_agree():
    parts = [make([[i, i + 1]]) for i in range(5)]
    assert sum(parts).data.tolist() == Statistics.concatenate(parts).data.tolist()


def test_different_config_hash_refuses_to_merge():
    with pytest.raises(IncompatibleStatisticsError, match="different configurations"):
        make([[1, 2]], "h1") + make([[1, 2]], "h2")


def test_different_metric_refuses_to_merge():
    with pytest.raises(IncompatibleStatisticsError, match="'demo' statistics with 'other'"):
        make([[1, 2]]) + make([[1, 2]], metric="other")


def test_pickle_round_trip_keeps_everything():
    stats = make([[1, 2], [3, 4]], nrefs=-1)
    clone = pickle.loads(pickle.dumps(stats))
    assert clone.data.tolist() == stats.data.tolist()
    assert (clone.metric, clone.config_hash, clone.columns, clone.nrefs) == ("demo", "h1", COLUMNS, -1)
    assert (clone + stats).totals().tolist() == [8, 12]


def test_nrefs_becomes_variable_when_parts_differ():
    assert (make([[1, 1]], nrefs=1) + make([[1, 1]], nrefs=2)).nrefs == -1
    assert (make([[1, 1]], nrefs=2) + make([[1, 1]], nrefs=2)).nrefs == 2


def test_data_is_read_only_and_shape_checked():
    stats = make([[1, 2]])
    with pytest.raises(ValueError):
        stats.data[0, 0] = 5
    with pytest.raises(ValueError, match="shape"):
        Statistics("demo", "h", COLUMNS, np.zeros((2, 3), dtype=np.int64))


def test_unknown_column_names_the_columns():
    with pytest.raises(KeyError, match="hits"):
        make([[1, 2]]).column("nope")


def test_take_selects_rows_in_order():
    stats = make([[1, 1], [2, 2], [3, 3]])
    assert stats.take([2, 0, 2]).column("hits").tolist() == [3, 1, 3]


def test_take_nothing_gives_empty_statistics():
    empty = make([[1, 1], [2, 2]]).take([])
    assert len(empty) == 0 and empty.totals().tolist() == [0, 0]
