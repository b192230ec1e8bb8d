"""BERTScore keeps each distinct text's embedding across calls of one scorer (issue 31), within a byte budget.

The design rests on one measured fact: on CPU, with one thread per batch, the packed encoder gives a sequence the
same bits alone and in any batch (each row of MKL's float32 products is summed in the same order whatever the other
rows). The first test checks that fact on all-MiniLM-L6-v2 with WMT22 sentences and on the tiny random BERT and
RoBERTa; the others check what the cache promises: hits skip the model, results equal a cache-less scorer bit for
bit, the budget holds, the least recently used texts go first.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from bertscore_helpers import CORPUS, build_tiny_bert, build_tiny_roberta, minilm_path
from conftest import read_segments, shared_data_path

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.metrics.bertscore import engine  # noqa: E402
from refscore.metrics.bertscore.cache import EmbeddingCache, embedding_bytes  # noqa: E402
from refscore.metrics.bertscore.engine import torch_threads  # noqa: E402
from refscore.metrics.bertscore.packed import WorkspacePool  # noqa: E402

HYPS = CORPUS[:6]
REFS = CORPUS[6:12]


@pytest.fixture(scope="module")
def wmt():
    folder = shared_data_path("wmt22", "de-en")
    return read_segments(folder / "sys" / "Online-B.txt")[:40], read_segments(folder / "ref.txt")[:40]


@pytest.fixture
def embedded(monkeypatch):
    """Per ``Embedder._forward`` call so far, how many sequences it embedded."""
    sizes: list[int] = []
    forward = engine.Embedder._forward

    def counting(self, batch, workspaces):
        sizes.append(len(batch))
        return forward(self, batch, workspaces)

    monkeypatch.setattr(engine.Embedder, "_forward", counting)
    return sizes


def bits(result) -> bytes:
    return b"".join(np.asarray(result.details[name]).tobytes() for name in ("precision", "recall", "f1"))


@pytest.mark.parametrize("model", ["minilm", "tiny_bert", "tiny_roberta"])
def test_a_sequence_gets_the_same_bits_alone_and_in_any_batch(model, wmt, tmp_path_factory):
    """``model(batch)[i]`` against other compositions: alone, and in 8 random batches of 2 to 30 sentences (MKL
    sums a product of 1-3 rows in another order, so a batch of fewer than 16 tokens gets a filler sequence)."""
    if model == "minilm":
        path, texts = minilm_path(), wmt[0][:20] + wmt[1][:20]
    else:
        build = build_tiny_bert if model == "tiny_bert" else build_tiny_roberta
        path, texts = str(build(tmp_path_factory.mktemp(model))), list(CORPUS)
    texts += ["", "Yes.", "Yes, it is."]   # 2, 3 and a few tokens: alone, fewer rows than a product's smallest
    scorer = refscore.BERTScorer(path, 2, device="cpu", all_layers=True)
    embedder = scorer._embedder
    sequences = list({ids.tobytes(): ids for ids in scorer._encode_unique(texts, "texts")}.values())
    pool = WorkspacePool()
    rng = random.Random(0)
    with torch_threads(1):
        assert embedder.packed is not None and embedder.rows_independent(1)
        alone = [embedder._run_model([ids], pool)[0] for ids in sequences]
        for _ in range(8):
            chosen = sorted(rng.sample(range(len(sequences)), rng.randint(2, min(30, len(sequences)))),
                            key=lambda i: -len(sequences[i]))
            for i, together in zip(chosen, embedder._run_model([sequences[i] for i in chosen], pool)):
                assert torch.equal(together, alone[i])
    assert not embedder.rows_independent(2)   # several threads per product: batches are not mixed across calls


def test_cache_hits_skip_the_model_and_results_equal_a_scorer_without_cache(wmt, embedded):
    hyps, refs = wmt
    scorer = refscore.BERTScorer(minilm_path(), 4, device="cpu", batch_tokens=256)
    first = scorer.score(hyps[:30], refs[:30], num_threads=2)
    distinct = len({ids.tobytes() for ids in scorer._encode_unique(hyps[:30] + refs[:30], "texts")})
    assert sum(embedded) == distinct
    info = scorer.cache_info()
    assert (info.hits, info.misses, info.entries) == (0, distinct, distinct)
    embedded.clear()
    again = scorer.score(hyps[:30], refs[:30], num_threads=1)
    assert embedded == [] and bits(again) == bits(first)    # every text found: no forward pass at all
    assert scorer.cache_info().hits == distinct
    embedded.clear()
    # Other hypotheses against the same references, in another order: only the new hypotheses are embedded.
    later = scorer.score(hyps[10:40][::-1], refs[10:40][::-1], num_threads=2)
    new = {ids.tobytes() for ids in scorer._encode_unique(hyps[10:40] + refs[10:40], "texts")} - \
        {ids.tobytes() for ids in scorer._encode_unique(hyps[:30] + refs[:30], "texts")}
    assert sum(embedded) == len(new)
    uncached = refscore.BERTScorer(minilm_path(), 4, device="cpu", batch_tokens=256, reference_cache_bytes=0)
    assert bits(later) == bits(uncached.score(hyps[10:40][::-1], refs[10:40][::-1], num_threads=2))
    assert uncached.cache_info().entries == 0


def test_the_budget_holds_and_the_least_recently_used_texts_go_first(tiny_bert, embedded):
    probe = refscore.BERTScorer(tiny_bert, 2, device="cpu")
    probe.score(HYPS, REFS, num_threads=1)
    sizes = {key: embedding_bytes([value]) for key, value in zip(probe._embedder.cache._entries,
                                                                  probe._embedder.cache.values())}
    budget = sum(sizes.values()) // 2
    scorer = refscore.BERTScorer(tiny_bert, 2, device="cpu", reference_cache_bytes=budget)
    expected = probe.score(HYPS, REFS, num_threads=1)
    assert bits(scorer.score(HYPS, REFS, num_threads=1)) == bits(expected)
    cache = scorer._embedder.cache
    assert 0 < cache.nbytes <= budget and len(cache) < len(sizes)
    assert bits(scorer.score(HYPS, REFS, num_threads=1)) == bits(expected)   # some found, some embedded again
    assert cache.nbytes <= budget
    counted = refscore.BERTScorer(tiny_bert, 2, device="cpu", reference_cache_size=3)
    counted.score(HYPS, REFS, num_threads=1)
    assert counted.cache_info().entries == 3


def test_lru_order_and_limits_of_the_store():
    cache = EmbeddingCache(max_entries=3, max_bytes=100)
    for key in "abc":
        cache.put(key, key.upper(), items=1, nbytes=30)
    assert cache.get("a") == "A"                 # a is now the most recently used: b, c, a
    cache.put("d", "D", items=1, nbytes=30)      # 4 entries > 3: b goes
    assert cache.get("b") is None
    assert [cache.get(key) for key in "acd"] == ["A", "C", "D"]   # order of use: a, c, d
    cache.put("e", "E", items=1, nbytes=70)      # 160 bytes > 100: a, then c go; d + e = 100 fit
    assert [cache.get(key) for key in "acde"] == [None, None, "D", "E"]
    assert (cache.nbytes, len(cache)) == (100, 2)
    cache.put("huge", "H", items=1, nbytes=101)  # larger than the whole budget: not stored, nothing evicted
    assert cache.get("huge") is None and len(cache) == 2
    assert cache.info()[:3] == (6, 4, 2)         # hits: a, a c d, d e; misses: b, a c, huge


def test_several_threads_per_batch_keep_whole_reference_batches(tiny_bert, embedded):
    """9 threads = 4 workers of 2 threads: a row may round differently in another batch, so only whole batches of
    references are kept and reused (the earlier rule), and results stay the same on every call."""
    scorer = refscore.BERTScorer(tiny_bert, 2, device="cpu", batch_tokens=32)
    first = scorer.score(HYPS, REFS, num_threads=9)
    cache = scorer._embedder.cache
    assert cache.items == len(set(REFS)) and all(isinstance(value, list) for value in cache.values())
    embedded.clear()
    assert bits(scorer.score(HYPS, REFS, num_threads=9)) == bits(first)
    assert sum(embedded) == len(set(HYPS))       # the hypotheses again, the reference batches from the cache
