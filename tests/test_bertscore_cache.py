"""BERTScore: the reference cache's memory budget (LRU by bytes as well as by sequences), bfloat16 on CPU (bfloat16
weights, float32 arithmetic) and BERTScore's place among the many-systems rules."""
from __future__ import annotations

import numpy as np
import pytest

from bertscore_helpers import CORPUS

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.errors import InputTypeError  # noqa: E402
from refscore.metrics.bertscore.cache import embedding_bytes  # noqa: E402
from refscore.metrics.bertscore.metric import BERTScoreMetric  # noqa: E402
from refscore.metrics.systems import statistics_by_system  # noqa: E402

HYPS = CORPUS[:6]
REFS = CORPUS[6:12]


def test_reference_cache_is_bounded_by_bytes(tiny_bert):
    """Whole reference batches (several threads per batch: 9 threads = 4 workers of 2) within the byte budget; the
    per-text cache's budget is tested in test_bertscore_text_cache.py."""
    unbounded = refscore.BERTScorer(tiny_bert, 2, batch_tokens=16, device="cpu")
    expected = unbounded.score(HYPS, REFS, num_threads=9).details["f1"]
    cache = unbounded._embedder.cache
    assert len(cache) > 2 and cache.nbytes > 0
    batch_sizes = sorted(map(embedding_bytes, cache.values()))
    budget = batch_sizes[-1] + batch_sizes[-2]   # room for two batches at most
    bounded = refscore.BERTScorer(tiny_bert, 2, batch_tokens=16, reference_cache_bytes=budget, device="cpu")
    np.testing.assert_array_equal(bounded.score(HYPS, REFS, num_threads=9).details["f1"], expected)
    assert 0 < bounded._embedder.cache.nbytes <= budget and len(bounded._embedder.cache) < len(cache)
    np.testing.assert_array_equal(bounded.score(HYPS, REFS, num_threads=9).details["f1"], expected)   # same bits
    nothing = refscore.BERTScorer(tiny_bert, 2, reference_cache_bytes=0)
    nothing.score(HYPS, REFS)
    assert nothing._embedder.cache.nbytes == 0 and not len(nothing._embedder.cache)


def test_cache_settings_are_checked_and_stay_out_of_the_hash(tiny_bert):
    with pytest.raises(InputTypeError, match="reference_cache_bytes"):
        refscore.BERTScoreConfig(model_type=tiny_bert, num_layers=2, reference_cache_bytes="1GB")
    with pytest.raises(Exception, match="reference_cache_size"):
        refscore.BERTScoreConfig(model_type=tiny_bert, num_layers=2, reference_cache_size=-1)
    assert BERTScoreMetric(model_type=tiny_bert, num_layers=2, reference_cache_bytes=1).config_hash == \
        BERTScoreMetric(model_type=tiny_bert, num_layers=2).config_hash


def test_bfloat16_on_cpu_is_float32_arithmetic_on_bfloat16_weights(tiny_bert):
    reduced = refscore.BERTScorer(tiny_bert, 2, dtype="bfloat16", device="cpu")
    linears = [m for m in reduced.model.modules() if isinstance(m, torch.nn.Linear)]
    assert linears and all(m.weight.dtype == torch.float32 for m in linears)
    for module in linears:   # every weight matrix holds bfloat16 values
        assert torch.equal(module.weight, module.weight.to(torch.bfloat16).float())
    by_hand = refscore.BERTScorer(tiny_bert, 2, device="cpu")
    with torch.no_grad():
        for module in by_hand.model.modules():
            if isinstance(module, torch.nn.Linear):
                module.weight.copy_(module.weight.to(torch.bfloat16).float())
    np.testing.assert_array_equal(reduced.score(HYPS, REFS).details["f1"],
                                  by_hand.score(HYPS, REFS).details["f1"])
    assert "dtype:bfloat16" in refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2,
                                                  dtype="bfloat16").signature


def test_bertscore_systems_are_scored_one_by_one_with_the_references_kept(tiny_bert):
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, device="cpu")
    systems = {"a": HYPS, "b": HYPS[::-1]}
    together = statistics_by_system(metric, systems, REFS)
    for name, hypotheses in systems.items():
        np.testing.assert_array_equal(together[name].data, metric.statistics(hypotheses, REFS).data)
    assert not BERTScoreMetric.independent_segments
