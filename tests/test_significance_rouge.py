"""Intervals and paired tests of a document-averaged metric (ROUGE) on real summaries (XSum, 4 systems x 500
documents), and rouge-score's seeded ``BootstrapAggregator`` reproduced on the same data."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import shared_data_path
from refscore.metrics.rouge import ROUGE
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics

TYPES = ("rouge1", "rougeL")


@pytest.fixture(scope="module")
def xsum():
    path = shared_data_path("summ_xsum_maynez2020", "xsum_systems.jsonl")
    systems: dict[str, tuple[list[str], list[list[str]]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        predictions, references = systems.setdefault(row["system"], ([], []))
        predictions.append(row["prediction"])
        references.append(row["references"])
    return systems


@pytest.fixture(scope="module")
def statistics(xsum):
    metric = ROUGE(types=TYPES)
    return metric, {name: metric.statistics(p, r) for name, (p, r) in xsum.items()}


def test_bootstrap_resamples_per_document_scores(statistics):
    metric, stats = statistics
    system_stats = stats["BERTS2S"]
    result = bootstrap_ci_from_statistics(metric, system_stats, n=300, seed=7)
    indices = np.random.default_rng(7).choice(len(system_stats), size=(300, len(system_stats)), replace=True)
    assert set(result.intervals) == set(metric.score_names)
    for name in ("rouge1", "rougeL_recall"):
        column = system_stats.column(name if "_" in name else f"{name}_fmeasure")
        naive = np.sort(column[indices].mean(axis=1))
        ours = np.sort(result.samples[:, metric.score_names.index(name)])
        assert np.allclose(ours, naive, rtol=1e-12, atol=1e-15), name
        assert result.intervals[name].score == pytest.approx(column.mean(), rel=1e-14)
        assert result.intervals[name].lower == pytest.approx(naive[300 // 40], rel=1e-12)


def test_paired_tests_on_a_document_averaged_metric(statistics):
    metric, stats = statistics
    baseline, other = stats["TConvS2S"], stats["PtGen"]
    for test in ("bs", "ar"):
        result = paired_test_from_statistics(metric, {"TConvS2S": baseline, "PtGen": other}, test=test, n=400)
        row = result.result("PtGen", "rouge1")
        # a naive per-trial loop of sacreBLEU's definitions on the per-document F scores
        f_base, f_other = baseline.column("rouge1_fmeasure"), other.column("rouge1_fmeasure")
        real = abs(f_base.mean() - f_other.mean())
        if test == "bs":
            indices = np.random.default_rng(12345).choice(500, size=(400, 500), replace=True)
            diffs = np.abs(f_other[indices].mean(axis=1) - f_base[indices].mean(axis=1))
            exceeding = np.sum(diffs - diffs.mean() > real)
        else:
            masks = np.random.default_rng(12345).integers(2, size=(400, 500), dtype=bool)
            a = np.where(masks, f_base, f_other).mean(axis=1)
            b = np.where(masks, f_other, f_base).mean(axis=1)
            exceeding = np.sum(np.abs(a - b) > real)
        assert row.p_value == (exceeding + 1) / 401, test


def test_seeded_aggregator_equals_rouge_score_bootstrap_aggregator(xsum):
    """rouge-score's BootstrapAggregator (global NumPy state) after np.random.seed(s) == refscore's seeded one."""
    from rouge_score import rouge_scorer, scoring

    from refscore import rouge

    predictions, references = (part[:200] for part in xsum["BERTS2S"])  # 200 documents keep it quick
    scorer = rouge_scorer.RougeScorer(list(TYPES))
    aggregator = scoring.BootstrapAggregator(n_samples=100)
    for prediction, refs in zip(predictions, references):
        aggregator.add_scores(scorer.score(refs[0], prediction))
    np.random.seed(2024)
    expected = aggregator.aggregate()
    ours = rouge(predictions, references, types=TYPES).bootstrap(n_samples=100, seed=2024)
    for name in TYPES:
        for part in ("low", "mid", "high"):
            assert tuple(getattr(ours[name], part)) == tuple(getattr(expected[name], part)), (name, part)
