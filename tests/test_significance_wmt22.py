"""Parity with sacreBLEU 2.6 on WMT22 en-de (9 systems x 2037 segments): paired bootstrap, approximate
randomization and ``--confidence``, for BLEU, chrF and TER.

The expected values come from sacreBLEU itself: ``tests/golden/significance_wmt22_en_de.json`` is written by
``tests/golden/make_significance_golden.py`` (sacreBLEU's ``PairedTest`` and ``corpus_score(n_bootstrap=...)`` with
its default counts; minutes of CPU), and one small live sacreBLEU run guards against a stale file.

Agreement: p-values identical, full-corpus scores to 1e-9, bootstrap means and half-widths to 5e-5 on the
0–100 scale (largest difference seen: 9e-6). The last tolerance is sacreBLEU's float32 arithmetic on resampled
statistics (NumPy 2 promotion);
``test_only_float32_arithmetic_separates_the_results`` shows that with float64 arithmetic in sacreBLEU's own
formula the resampled scores are refscore's to 1e-12.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_data_path
from refscore.metrics import get_metric_class
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics
from refscore.significance._sampling import resampled_totals

GOLDEN = Path(__file__).parent / "golden" / "significance_wmt22_en_de.json"
#: sacreBLEU's metric names in its results -> refscore metric names.
METRICS = {"BLEU": "bleu", "chrF2": "chrf", "TER": "ter"}


def read(path: Path) -> list[str]:
    return [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")[:-1]]  # as sacreBLEU's CLI


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def corpus(golden):
    data = shared_data_path("wmt22", "en-de")
    systems = {name: read(data / "sys" / f"{name}.txt") for name in golden["systems"]}
    references = [[line] for line in read(data / "ref.txt")]
    return systems, references


@pytest.fixture(scope="module")
def statistics(corpus):
    systems, references = corpus
    out = {}
    for sacrebleu_name, name in METRICS.items():
        metric = get_metric_class(name)()
        out[sacrebleu_name] = metric, {system: metric.statistics(h, references) for system, h in systems.items()}
    return out


def assert_rows_match(ours, theirs, what):
    for row, expected in zip(ours, theirs):
        where = f"{what}, system {row.system}"
        assert abs(100 * row.score - expected["score"]) < 1e-9, where
        assert row.p_value == expected["p_value"], where
        if expected["mean"] is None:
            assert row.mean is None, where
        else:
            assert abs(100 * row.mean - expected["mean"]) < 5e-5, where
            assert abs(100 * row.ci - expected["ci"]) < 5e-5, where


@pytest.mark.parametrize("run", ["bs_1000_12345", "bs_200_7", "ar_10000_12345", "ar_500_7_conf_300"])
@pytest.mark.parametrize("sacrebleu_name", list(METRICS))
def test_paired_tests_equal_sacrebleu(golden, statistics, run, sacrebleu_name):
    spec = golden["runs"][run]
    metric, stats = statistics[sacrebleu_name]
    confidence_n = spec["n_ar_confidence"] if spec["n_ar_confidence"] > 0 else None
    result = paired_test_from_statistics(metric, stats, test=spec["test"], n=spec["n"], seed=spec["seed"],
                                         confidence_n=confidence_n)
    name = metric.score_names[0]
    assert_rows_match(result.results[name], spec["results"][sacrebleu_name], f"{run} {sacrebleu_name}")
    expected_fields = f"|bs:{spec['n']}|" if spec["test"] == "bs" else f"|ar:{spec['n']}|"
    assert expected_fields in str(result.signatures[metric.name])
    assert f"|seed:{spec['seed']}|" in str(result.signatures[metric.name])


@pytest.mark.parametrize("sacrebleu_name", list(METRICS))
def test_confidence_intervals_equal_sacrebleu(golden, statistics, sacrebleu_name):
    spec = golden["runs"]["confidence_1000_12345"]
    metric, stats = statistics[sacrebleu_name]
    for system, expected in zip(golden["systems"], spec["metrics"][sacrebleu_name]["results"]):
        result = bootstrap_ci_from_statistics(metric, stats[system], n=spec["n"], seed=spec["seed"])
        assert abs(100 * result.score - expected["score"]) < 1e-9, system
        assert abs(100 * result.mean - expected["mean"]) < 5e-5, system
        assert abs(100 * result.ci - expected["ci"]) < 5e-5, system


def test_only_float32_arithmetic_separates_the_results(statistics):
    """sacreBLEU's float32 cast loses nothing on this data (every resampled sum < 2**24), and feeding its own score
    formula the exact int64 resampled sums (refscore's statistics have sacreBLEU's column layout) reproduces
    refscore's resampled scores to 1e-12: the 5e-5 tolerance above is sacreBLEU's float32 arithmetic alone."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    peers = {"BLEU": BLEU(), "chrF2": CHRF(), "TER": TER()}
    indices = np.random.default_rng(12345).choice(2037, size=(1000, 2037), replace=True)
    for sacrebleu_name, peer in peers.items():
        metric, stats = statistics[sacrebleu_name]
        for system, system_stats in stats.items():
            sums = resampled_totals(system_stats.data, indices)  # = data[indices].sum(axis=1), see test_significance
            assert np.abs(sums).max() < 2 ** 24, (sacrebleu_name, system)  # sacreBLEU's float32 sums are exact
        sums = next(iter(stats.values())).data[indices[:50]].sum(axis=1)
        theirs = [peer._compute_score_from_stats(row).score for row in sums]
        ours = 100 * metric.scores_from_totals(sums)[:, 0]
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-10), sacrebleu_name


def test_live_sacrebleu_paired_bootstrap_on_a_subset(corpus):
    """A small live run of sacreBLEU's PairedTest (3 systems, 300 segments, 100 resamples) guards the golden file."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    systems, references = corpus
    names = list(systems)[:3]
    subset = {name: systems[name][:300] for name in names}
    refs = [r[0] for r in references[:300]]
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = "12345"
    try:
        _, expected = PairedTest(list(subset.items()), {"BLEU": BLEU(references=[refs])}, references=None,
                                 test_type="bs", n_samples=100)()
    finally:
        os.environ.pop("SACREBLEU_SEED") if old is None else os.environ.__setitem__("SACREBLEU_SEED", old)
    metric = get_metric_class("bleu")()
    stats = {name: metric.statistics(h, [[r] for r in refs]) for name, h in subset.items()}
    result = paired_test_from_statistics(metric, stats, test="bs", n=100, seed=12345)
    assert_rows_match(result.results[metric.score_names[0]], [vars(r) for r in expected["BLEU"]], "live")
