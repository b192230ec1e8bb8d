"""Statistics columns that are carried but not summed (the protocol's home for ROUGE's best reference): they follow
the rows through ``+``, concatenation, slicing, pickling and the distributed merge, and never enter a total."""
from __future__ import annotations

import pickle

import numpy as np
import pyarrow as pa
import pytest

from refscore.distributed.compute import BatchColumns, StatisticsBatch
from refscore.distributed.merge import Collected, metric_statistics
from refscore.errors import IncompatibleStatisticsError, InputError
from refscore.metrics.rouge.metric import ROUGE
from refscore.protocol import Metric, Statistics
from refscore.significance import bootstrap_ci_from_statistics

PREDICTIONS = ["the cat sat on the mat", "a dog barked", "hello world", "x y z"]
REFERENCES = [["a cat sat", "the cat is on the mat"], ["the dog barked loudly", "a dog barked"],
              ["hello there world"], ["z y", "x y z w", "q"]]


def make(rows, best):
    return Statistics("demo", "h", ("hits",), np.array(rows, dtype=np.int64), 1, ("best",),
                      np.array(best, dtype=np.int64))


def test_carried_columns_follow_the_rows_and_stay_out_of_totals():
    a, b = make([[1], [2]], [[0], [1]]), make([[3]], [[2]])
    merged = a + b
    assert merged.carried.tolist() == [[0], [1], [2]] and merged.totals().tolist() == [6]
    assert Statistics.concatenate([b, a]).column("best").tolist() == [2, 0, 1]
    assert merged.take([2, 0]).carried.tolist() == [[2], [0]]
    assert pickle.loads(pickle.dumps(merged)).carried.tolist() == [[0], [1], [2]]
    assert Statistics("demo", "h", ("hits",), np.array([[1]])).carried.shape == (1, 0)   # none by default
    with pytest.raises(IncompatibleStatisticsError, match="different configurations"):
        a + Statistics("demo", "h", ("hits",), np.array([[1]], dtype=np.int64))
    with pytest.raises(InputError, match="carried statistics columns must have shape"):
        make([[1], [2]], [[0]])
    with pytest.raises(InputError, match="distinct names"):
        Statistics("demo", "h", ("hits",), np.array([[1]]), 1, ("hits",), np.array([[0]]))


def test_rouge_keeps_its_best_reference_in_the_statistics():
    metric = ROUGE()
    result = metric.corpus_score(PREDICTIONS, REFERENCES)
    assert ROUGE.corpus_score is Metric.corpus_score   # the protocol's, not an override
    parts = metric.statistics(PREDICTIONS[:1], REFERENCES[:1]) + metric.statistics(PREDICTIONS[1:], REFERENCES[1:])
    merged = metric.score_from_statistics(parts)
    for name in result:
        assert merged[name].best_reference.tolist() == result[name].best_reference.tolist()
    assert result["rouge1"].best_reference.tolist() == [1, 1, 0, 1]
    # bootstrap intervals resample the same statistics
    interval = bootstrap_ci_from_statistics(metric, parts, n=20)
    assert interval.score == result.score


def test_the_distributed_merge_concatenates_carried_columns():
    metric = ROUGE()
    batch = pa.table({"h": PREDICTIONS, "r": REFERENCES})
    table = StatisticsBatch([metric], BatchColumns("h", "r"))(batch)
    collected = Collected({name: table.column(name).to_numpy() for name in table.column_names})
    order = np.array([2, 0, 1, 3])
    stats = metric_statistics(collected, order, np.arange(4), [metric])[0]
    expected = metric.statistics(PREDICTIONS, REFERENCES).take(order)
    assert stats.carried_columns == expected.carried_columns and np.array_equal(stats.carried, expected.carried)
    assert np.array_equal(stats.data, expected.data)
