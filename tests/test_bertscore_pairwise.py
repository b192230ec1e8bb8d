"""refscore.pairwise with BERTScore: one similarity product per item (refscore.metrics.bertscore.allpairs), every
value equal to the metric's sentence score of that pair, bit for bit (issue 31)."""
from __future__ import annotations

import numpy as np
import pytest

from bertscore_helpers import CORPUS, minilm_path
from conftest import read_segments, shared_data_path

pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.errors import MemoryBudgetError  # noqa: E402
from refscore.metrics.bertscore import BERTScoreMetric  # noqa: E402
from refscore._pair_scoring import PairScoring  # noqa: E402


def pair_by_pair(metric, candidates, references):
    """Each pair through ``sentence_scores`` (the path every metric without its own all-pairs matching takes)."""
    refs = candidates if references is None else references
    return [np.array([[metric.sentence_scores([c], [[r]])[0] for r in ref] for c in cand])
            for cand, ref in zip(candidates, refs)]


@pytest.mark.parametrize("options", [{}, {"idf_sentences": tuple(CORPUS)}, {"rescale_with_baseline": True}])
def test_all_pairs_equal_sentence_scores_tiny(tiny_bert, tmp_path, options, monkeypatch):
    if options.get("rescale_with_baseline"):
        path = tmp_path / "base.tsv"
        path.write_text("LAYER,P,R,F\n" + "".join(f"{k},0.{k + 2},0.{k + 3},0.{k + 1}\n" for k in range(4)))
        options = {**options, "baseline_path": str(path)}
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, device="cpu", **options)
    candidates = [CORPUS[:5] + [""], CORPUS[5:8]]
    references = [CORPUS[8:11], ["", CORPUS[0]]]
    calls = []
    monkeypatch.setattr(PairScoring, "_sentence_matrix", lambda *args: calls.append(args))   # the per-pair path is not used
    for refs in (references, None):
        with pytest.warns(Warning, match="empty"):
            matrices = list(refscore.pairwise_items(metric, candidates, refs))
        for ours, theirs in zip(matrices, pair_by_pair(metric, candidates, refs)):
            assert ours.tobytes() == theirs.tobytes()
    assert calls == []


def test_all_pairs_equal_sentence_scores_minilm():
    folder = shared_data_path("wmt22", "de-en")
    pool = [line for name in ("Online-B", "Online-A", "JDExploreAcademy") for line in
            read_segments(folder / "sys" / f"{name}.txt")[:8]]
    items = [pool[:12], pool[12:]]
    metric = BERTScoreMetric(model_type=minilm_path(), num_layers=4, device="cpu")
    matrix = refscore.pairwise(metric, items)
    for k, theirs in enumerate(pair_by_pair(metric, items, None)):
        assert matrix[k].tobytes() == theirs.tobytes()


def test_an_item_beyond_the_memory_budget_is_an_error(tiny_bert):
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, device="cpu")
    with pytest.raises(MemoryBudgetError, match="item 0"):
        list(refscore.pairwise_items(metric, [CORPUS], memory_budget=20_000))


def test_idf_from_each_calls_references_takes_the_sentence_path(tiny_bert):
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, device="cpu", idf=True)
    assert metric.pair_matrices(CORPUS, [(np.arange(2), np.arange(2))]) is None
