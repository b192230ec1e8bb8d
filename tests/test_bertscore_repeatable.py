"""A reused BERTScore scorer gives the same bits on every call (issue 29, item 25): all-MiniLM-L6-v2, 100 WMT22 de-en
pairs.

The cause was the reference-embedding cache: the first call embedded hypotheses and references together, later calls
only the hypotheses (the references came from the cache), so a hypothesis was embedded in another batch, and a
float32 product can round a row differently in another batch (another row count, another split over a worker's
threads): 1 of 100 values moved by 6e-8. Now, with several threads per batch, each call's batches are formed from its
own input (references among themselves, hypotheses among themselves), and cached reference batches are reused only
whole; with one thread per batch a row's bits do not depend on its batch, and every text is kept
(test_bertscore_text_cache.py).
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from bertscore_helpers import minilm_path
from conftest import read_segments, shared_data_path

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.metrics.bertscore import engine  # noqa: E402
from refscore.compat import evaluate  # noqa: E402

PAIRS = 100


@pytest.fixture(scope="module")
def data():
    folder = shared_data_path("wmt22", "de-en")
    return (read_segments(folder / "sys" / "Online-B.txt")[:PAIRS], read_segments(folder / "ref.txt")[:PAIRS])


@pytest.fixture
def batches(monkeypatch):
    """Per ``Embedder._forward`` call so far, the batch it embedded (each sequence as bytes)."""
    seen: list[tuple[bytes, ...]] = []
    forward = engine.Embedder._forward

    def recording(self, batch, workspaces):
        seen.append(tuple(ids.tobytes() for ids in batch))
        return forward(self, batch, workspaces)

    monkeypatch.setattr(engine.Embedder, "_forward", recording)
    return seen


def batch_of_each_sequence(batches: list[tuple[bytes, ...]]) -> dict[bytes, set[tuple[bytes, ...]]]:
    found = defaultdict(set)
    for batch in batches:
        for ids in batch:
            found[ids].add(batch)
    return found


def assert_bitwise_equal(first, second) -> None:
    for name, ours, theirs in zip(("precision", "recall", "f1"), first, second):
        assert np.asarray(ours).tobytes() == np.asarray(theirs).tobytes(), name


def test_repeated_calls_of_one_scorer_are_bitwise_equal(data, batches):
    """Small batches and two threads per worker (9 threads: 4 workers of 2), where a row's rounding depends on its
    batch on this machine's MKL; every call of the reused scorer equals the first and a fresh scorer's call, and
    each hypothesis is embedded in the same batch on every call."""
    hyps, refs = data
    scorer = refscore.BERTScorer(minilm_path(), 6, batch_tokens=64)
    first = scorer.score(hyps, refs, num_threads=9)
    first_batches = batch_of_each_sequence(batches)
    batches.clear()
    second = scorer.score(hyps, refs, num_threads=9)
    assert_bitwise_equal(second, first)
    for ids, batch in batch_of_each_sequence(batches).items():
        assert batch == first_batches[ids]   # hypotheses recomputed in the first call's batches, references cached
    fresh = refscore.BERTScorer(minilm_path(), 6, batch_tokens=64).score(hyps, refs, num_threads=9)
    assert_bitwise_equal(fresh, first)


def test_the_evaluate_drop_in_gives_the_same_bits_on_every_call(data, batches):
    hyps, refs = data
    metric = evaluate.load("bertscore")
    results = []
    for _ in range(3):
        batches.clear()
        result = metric.compute(predictions=hyps, references=refs, model_type=minilm_path(), num_layers=6)
        results.append([result[name] for name in ("precision", "recall", "f1")])
        placed = batch_of_each_sequence(batches)
        if len(results) == 1:
            first_placement = placed
        else:
            assert all(placed[ids] == first_placement[ids] for ids in placed)
    for later in results[1:]:
        assert_bitwise_equal(later, results[0])


def test_reference_batches_are_cached_whole_and_only_reused_for_the_same_batch(data, batches):
    """With several threads per batch (9 threads: 4 workers of 2) rows may round differently in another batch, so
    reference batches are kept whole (with one thread per batch every text is kept: test_bertscore_text_cache.py)."""
    hyps, refs = data
    scorer = refscore.BERTScorer(minilm_path(), 4, batch_tokens=256, device="cpu")
    references = {ids.tobytes() for ids in scorer._encode_unique(refs[:50], "refs")}
    scorer.score(hyps[:50], refs[:50], num_threads=9)
    assert scorer._embedder.cache.items == len(references)
    batches.clear()
    scorer.score(hyps[50:], refs[:50], num_threads=9)      # same references: every reference batch reused
    assert not set(batch_of_each_sequence(batches)) & references
    scorer.score(hyps[:50], refs[:50], num_threads=1)      # one thread per batch: kept per text, computed once
    assert set(batch_of_each_sequence(batches)) >= references
    small = refscore.BERTScorer(minilm_path(), 4, batch_tokens=256, reference_cache_size=30, device="cpu")
    small.score(hyps, refs, num_threads=9)
    assert 0 < small._embedder.cache.items <= 30


def test_parallel_map_of_no_items_is_empty():
    """A call with nothing to embed (every reference batch cached, or no text) maps nothing, with any plan."""
    from refscore.metrics.bertscore.engine import ThreadPlan, parallel_map

    assert list(parallel_map(len, [], ThreadPlan(2, 1))) == []
    assert list(parallel_map(len, ["ab"], ThreadPlan(2, 1))) == [2]
