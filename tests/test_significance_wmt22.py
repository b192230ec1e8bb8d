"""Parity with sacreBLEU 2.6 on WMT22 en-de (9 systems x 2037 segments): paired bootstrap, approximate
randomization and ``--confidence``, for BLEU, chrF and TER.

The expected values come from sacreBLEU itself: ``tests/golden/significance_wmt22_en_de_{plain,compensated}.json``
are written by ``tests/golden/make_significance_golden.py`` (sacreBLEU's ``PairedTest`` and
``corpus_score(n_bootstrap=...)`` with its default counts; minutes of CPU) under a Python whose ``sum()`` of floats
is plain (<= 3.11) or compensated (>= 3.12): sacreBLEU's resampled BLEU scores differ between the two in the last
bits, and refscore's follow the running interpreter, so each Python is checked against the file of its kind. One
small live sacreBLEU run guards against a stale file.

Agreement: p-values identical, bootstrap means and half-widths exactly sacreBLEU's divided by 100 (refscore
computes them with sacreBLEU's float32 arithmetic, ``refscore.significance._arithmetic``), full-corpus scores to
1e-9 on the 0–100 scale (refscore's 0–1 score times 100 is not always sacreBLEU's float bit for bit).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import FLOAT_SUM, shared_data_path
from refscore.metrics import get_metric_class
from refscore.significance import bootstrap_ci_from_statistics, paired_test_from_statistics

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

GOLDEN = Path(__file__).parent / "golden" / f"significance_wmt22_en_de_{FLOAT_SUM}.json"
#: sacreBLEU's metric names in its results -> refscore metric names.
METRICS = {"BLEU": "bleu", "chrF2": "chrf", "TER": "ter"}


def read(path: Path) -> list[str]:
    return [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")[:-1]]  # as sacreBLEU's CLI


@pytest.fixture(scope="module")
def golden():
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["float_sum"] == FLOAT_SUM, f"{GOLDEN.name} was written under Python {data['python']}"
    return data


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
            assert (row.mean, row.ci) == (expected["mean"] / 100, expected["ci"] / 100), where


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
        assert (result.mean, result.ci) == (expected["mean"] / 100, expected["ci"] / 100), system


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
