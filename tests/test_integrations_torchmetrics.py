"""refscore.integrations.torchmetrics: compute() equals refscore's corpus score (and sacreBLEU's) whatever the
update() batches, reset() starts over, two gloo processes over shards equal one process, and bad input, a
whole-batch statistic (BERTScore idf=True) and a missing torchmetrics are clear errors."""
from __future__ import annotations

import json
import socket
import sys

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_data_path
from refscore.inputs import per_segment
from refscore.errors import InputError, InputTypeError, MissingExtraError
from refscore.metrics import get_metric_class

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
from refscore.integrations import torchmetrics as rtm  # noqa: E402

ROUGE = {"types": ("rouge1", "rouge2", "rougeL")}
SUMMED = [("bleu", {}), ("gleu", {}), ("chrf", {}), ("chrf", {"word_order": 2}), ("ter", {}), ("rouge", ROUGE),
          ("rouge155", {}), ("meteor", {})]
WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ",", ".", "über", "猫", "が", "кошка", "x1", ""])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


def _wmt(lines: int = 300):
    folder = shared_data_path("wmt22", "en-de")
    read = lambda path: path.read_text(encoding="utf-8").split("\n")[:lines]  # noqa: E731
    hypotheses = read(folder / "sys" / "JDExploreAcademy.txt")
    references = [list(pair) for pair in zip(read(folder / "ref.txt"), read(folder / "ref2.txt"))]
    return hypotheses, references


def _adapter_score(name, options, hypotheses, references, cuts):
    adapter = rtm.metric(name, **options)
    bounds = [0, *sorted(cuts), len(hypotheses)]
    for start, stop in zip(bounds[:-1], bounds[1:]):
        adapter.update(hypotheses[start:stop], references[start:stop])
    return adapter


@pytest.mark.parametrize("name,options", SUMMED, ids=[f"{n}{o.get('word_order', '')}" for n, o in SUMMED])
def test_compute_equals_the_corpus_score_on_wmt(name, options):
    hypotheses, references = _wmt(200)
    if name in ("rouge", "rouge155", "meteor"):
        references = [refs[0] for refs in references]
    adapter = _adapter_score(name, options, hypotheses, references, [17, 60, 61, 150])
    corpus = get_metric_class(name)(**options).corpus_score(hypotheses, per_segment(references))
    assert float(adapter.compute()) == pytest.approx(corpus.score, rel=1e-12, abs=1e-15)
    assert adapter.refscore_score().values.keys() == corpus.values.keys()
    assert int(adapter.segments) == len(hypotheses)
    assert adapter.compute().dtype == torch.float64


def test_compute_equals_sacrebleu_corpus_scores():
    hypotheses, references = _wmt(400)
    streams = [list(stream) for stream in zip(*references)]
    expected = {"bleu": sacrebleu.corpus_bleu(hypotheses, streams).score,
                "chrf": sacrebleu.corpus_chrf(hypotheses, streams).score,
                "ter": sacrebleu.corpus_ter(hypotheses, streams).score}
    for name, value in expected.items():
        adapter = _adapter_score(name, {}, hypotheses, references, [100, 250])
        assert 100 * float(adapter.compute()) == pytest.approx(value, abs=1e-9), name
    chrf = _adapter_score("chrf", {"word_order": 2}, hypotheses, references, [5])
    assert 100 * float(chrf.compute()) == pytest.approx(
        sacrebleu.corpus_chrf(hypotheses, streams, word_order=2).score, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=2)), min_size=1, max_size=8),
       st.lists(st.integers(0, 8), max_size=3))
def test_any_batching_equals_one_corpus_score(pairs, cuts):
    hypotheses = [hypothesis for hypothesis, _ in pairs]
    references = [refs for _, refs in pairs]
    cuts = [min(cut, len(pairs)) for cut in cuts]
    for name, options in (("bleu", {}), ("chrf", {}), ("ter", {}), ("gleu", {})):
        adapter = _adapter_score(name, options, hypotheses, references, cuts)
        corpus = get_metric_class(name)(**options).corpus_score(hypotheses, per_segment(references)).score
        assert float(adapter.compute()) == pytest.approx(corpus, rel=1e-12, abs=1e-15), name


def test_named_score_reset_and_single_strings():
    rouge = rtm.metric("rouge", score="rougeL", **ROUGE)
    rouge.update("the cat sat on the mat", "the cat is on the mat")
    metric = get_metric_class("rouge")(**ROUGE)
    totals = metric.statistics(["the cat sat on the mat"], ["the cat is on the mat"]).totals()[None, :]
    assert float(rouge.compute()) == metric.scores_from_totals(totals)[0, metric.score_names.index("rougeL")]
    rouge.reset()
    assert int(rouge.segments) == 0 and rouge.totals().sum() == 0
    rouge.update(["a dog"], [["a dog barked"]])
    assert float(rouge.compute()) == float(get_metric_class("rouge")(**ROUGE).scores_from_totals(
        metric.statistics(["a dog"], [["a dog barked"]]).totals()[None, :])[0, metric.score_names.index("rougeL")])
    assert rtm.metric("ter").higher_is_better is False and rtm.metric("bleu").higher_is_better is True


def test_states_sum_across_processes():
    adapter = rtm.metric("bleu")
    assert adapter.state_names[0] == "stat_hyp_len"
    assert all(adapter._reductions[state] is not None for state in adapter.state_names)   # noqa: SLF001
    assert rtm.state_names(("ROUGE-1-R",)) == ("stat_ROUGE_1_R",)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_two_gloo_processes_over_shards_equal_one_process_and_sacrebleu(tmp_path):
    from torchmetrics_workers import shard_worker

    hypotheses, references = _wmt(300)
    shards = [(hypotheses[:113], references[:113]), (hypotheses[113:], references[113:])]
    metrics = [("bleu", {}), ("chrf", {}), ("ter", {}), ("rouge", ROUGE)]
    torch.multiprocessing.spawn(shard_worker, args=(2, _free_port(), shards, metrics, str(tmp_path)), nprocs=2,
                                join=True)
    ranks = [json.loads((tmp_path / f"rank{rank}.json").read_text()) for rank in range(2)]
    streams = [list(stream) for stream in zip(*references)]
    peers = {"bleu": sacrebleu.corpus_bleu(hypotheses, streams).score,
             "chrf": sacrebleu.corpus_chrf(hypotheses, streams).score,
             "ter": sacrebleu.corpus_ter(hypotheses, streams).score}
    for name, options in metrics:
        one = _adapter_score(name, options, hypotheses, references, [50, 200])
        # compute() syncs, scores and restores each process's own states: the shards' totals add up to one's
        assert sum(rank[name]["segments"] for rank in ranks) == len(hypotheses) == int(one.segments)
        merged = np.sum([rank[name]["totals"] for rank in ranks], axis=0)
        if name == "rouge":   # float64 per-document values: summed in another order
            assert merged.tolist() == pytest.approx(one.totals().tolist(), rel=1e-12)
        else:   # integer counts: exact
            assert merged.tolist() == one.totals().tolist()
        for result in (rank[name] for rank in ranks):   # every rank computes the synced score of the corpus
            assert result["score"] == pytest.approx(float(one.compute()), rel=1e-12, abs=1e-15), name
            if name != "rouge":
                assert result["score"] == float(one.compute()), name
            if name in peers:
                assert 100 * result["score"] == pytest.approx(peers[name], abs=1e-9), name


def test_bad_input_names_the_argument():
    bleu = rtm.metric("bleu")
    with pytest.raises(InputError, match=r"2 predictions but 1 target"):
        bleu.update(["a", "b"], [["a"]])
    with pytest.raises(InputTypeError, match=r"update\(preds=...\)"):
        bleu.update(3, [["a"]])
    with pytest.raises(InputTypeError, match=r"update\(target=...\)"):
        bleu.update(["a"], "a")
    with pytest.raises(InputError, match="not one of rouge's scores"):
        rtm.metric("rouge", score="rouge9")
    with pytest.raises(InputError, match="unknown metric"):
        rtm.metric("blue")
    with pytest.raises(InputTypeError, match="refscore metric instance"):
        rtm.RefscoreMetric("bleu")
    bleu.update([], [])   # an empty batch adds nothing
    assert int(bleu.segments) == 0


def test_idf_from_each_batch_is_refused():
    bertscore = get_metric_class("bertscore")(lang="en", idf=True)
    with pytest.raises(InputError, match="idf=True .* not the corpus score"):
        rtm.RefscoreMetric(bertscore)


def test_missing_torchmetrics_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "torchmetrics", None)
    rtm._classes.cache_clear()   # noqa: SLF001  (the classes are defined once per process)
    try:
        with pytest.raises(MissingExtraError, match=r"pip install 'refscore\[torchmetrics\]'"):
            rtm.metric("bleu")
    finally:
        monkeypatch.undo()
        rtm._classes.cache_clear()   # noqa: SLF001


def test_corpus_defaults_not_sentence_defaults():
    """metric("bleu") is corpus BLEU (no effective order), as torchmetrics logs a corpus number."""
    adapter = rtm.metric("bleu")
    adapter.update(["a b"], [["a b c"]])
    assert float(adapter.compute()) == np.float64(get_metric_class("bleu")().corpus_score(["a b"], ["a b c"]).score)
