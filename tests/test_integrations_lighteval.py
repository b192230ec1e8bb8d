"""refscore.integrations.lighteval inside lighteval: a custom task (local dataset, a fixed-output model built on
lighteval's DummyModel) run through lighteval's Python ``Pipeline`` scores exactly sacreBLEU's numbers for those
outputs (sentence chrF's mean; corpus BLEU, chrF++, TER of the summed statistics), and the lighteval #1112 case
(``CorpusLevelTranslationMetric`` handing per-sample golds to sacreBLEU as reference streams) is scored over both
hypotheses. lighteval pins nltk==3.9.1, so .ci/run runs this file in a venv of its own."""
from __future__ import annotations

import json
import os
import types

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore.errors import InputError, InputTypeError

if os.environ.get("REFSCORE_REQUIRE_LIGHTEVAL") != "1":   # .ci/run's lighteval venv sets it: there, never skip
    pytest.importorskip("lighteval", reason="lighteval is not installed: it conflicts with the test extra's pins "
                                            "(nltk); .ci/run tests it in its own venv (.ci/constraints-lighteval.txt)")
from lighteval.metrics.metrics_corpus import CorpusLevelTranslationMetric  # noqa: E402
from lighteval.metrics.sample_preparator import GenerativeCorpusMetricInput  # noqa: E402
from lighteval.models.model_output import ModelResponse  # noqa: E402
from lighteval.tasks.requests import Doc  # noqa: E402

from refscore.integrations import lighteval as rl  # noqa: E402

DOCS = {
    "s1": ("the cat sat on the mat", ["the cat sat on a mat", "a cat sat"]),
    "s2": ("a dog barked", ["a dog barked loudly", "the dog barked"]),
    "s3": ("", ["empty output", "nothing"]),
    "s4": ("кошка сидит на ковре", ["кошка сидела на ковре", "кот на ковре"]),
}
HYPS = [out for out, _ in DOCS.values()]
REFS = [refs for _, refs in DOCS.values()]
STREAMS = [list(stream) for stream in zip(*REFS)]


def test_lighteval_1112_both_hypotheses_scored():
    """lighteval #1112: per-sample golds given to sacreBLEU as streams score only the first hypothesis (against
    both golds pooled). refscore's corpus step scores each sample against its own golds."""
    items = [GenerativeCorpusMetricInput(golds=["GOOD"], preds=["GOOD"]),
             GenerativeCorpusMetricInput(golds=["REF2"], preds=["PRED2"])]
    right = sacrebleu.CHRF(word_order=2).corpus_score(["GOOD", "PRED2"], [["GOOD", "REF2"]]).score
    pooled = sacrebleu.CHRF(word_order=2).corpus_score(["GOOD", "PRED2"], [["GOOD"], ["REF2"]]).score
    assert (round(right, 2), round(pooled, 2)) == (58.74, 100.0)   # sacreBLEU, both orientations
    lighteval_value = CorpusLevelTranslationMetric("chrf++").compute_corpus(items)
    ours = rl.corpus_metric("chrf", word_order=2).corpus_level_fn.compute_corpus(items)
    assert ours == pytest.approx(right / 100, abs=1e-12)
    # lighteval's own number, whichever orientation this lighteval version uses, is one of the two
    assert round(lighteval_value, 2) in (58.74, 100.0)
    for name, peer in (("chrf", sacrebleu.CHRF()), ("ter", sacrebleu.TER())):
        metric = rl.corpus_metric(name).corpus_level_fn
        assert metric.compute_corpus(items) == pytest.approx(
            peer.corpus_score(["GOOD", "PRED2"], [["GOOD", "REF2"]]).score / 100, abs=1e-12)
    # different numbers of golds per sample: sacreBLEU needs None-padded streams, refscore the lists as they are
    uneven = [GenerativeCorpusMetricInput(golds=["a b c", "a b d"], preds=["a b c"]),
              GenerativeCorpusMetricInput(golds=["x y"], preds=["x z"])]
    assert rl.corpus_metric("chrf").corpus_level_fn.compute_corpus(uneven) == pytest.approx(
        sacrebleu.CHRF().corpus_score(["a b c", "x z"], [["a b c", "x y"], ["a b d", None]]).score / 100,
        abs=1e-12)


class _Offline:
    """lighteval loads every built-in task module when a Pipeline starts; some download files or call the Hub
    at import. Only this test's custom task is loaded (lighteval's built-in tasks are not under test here)."""

    def __init__(self, monkeypatch):
        from lighteval.tasks.registry import Registry

        monkeypatch.setattr(Registry, "_load_from_files", staticmethod(lambda *args, **kwargs: {}))
        monkeypatch.setattr(Registry, "_load_from_subdirs", staticmethod(lambda *args, **kwargs: {}))


def test_lighteval_pipeline_custom_task_equals_sacrebleu(tmp_path, monkeypatch):
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.dummy.dummy_model import DummyModel, DummyModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters

    _Offline(monkeypatch)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    data = tmp_path / "data"
    data.mkdir()
    (data / "test.jsonl").write_text("".join(json.dumps({"id": key, "refs": refs}, ensure_ascii=False) + "\n"
                                             for key, (_, refs) in DOCS.items()), encoding="utf-8")
    (tmp_path / "refscore_task.py").write_text(f"""
from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.requests import Doc
from refscore.integrations import lighteval as rl

def prompt(line, task_name=None):
    return Doc(task_name=task_name, query=line["id"], choices=line["refs"], gold_index=[0, 1], id=line["id"])

TASKS_TABLE = [LightevalTaskConfig(
    name="refscore_mt", prompt_function=prompt, hf_repo={str(data)!r}, hf_subset="default",
    hf_avail_splits=["test"], evaluation_splits=["test"], generation_size=32,
    metrics=[rl.sample_metric("chrf"), rl.corpus_metric("bleu"), rl.corpus_metric("chrf", word_order=2),
             rl.corpus_metric("ter")])]
""", encoding="utf-8")

    class FixedOutputs(DummyModel):   # lighteval's dummy model, answering each doc with its fixed output
        def greedy_until(self, docs):
            return [ModelResponse(text=[DOCS[doc.query][0]]) for doc in docs]

    pipeline = Pipeline(
        tasks="refscore_mt|0",
        pipeline_parameters=PipelineParameters(launcher_type=ParallelismManager.NONE,
                                               custom_tasks_directory=str(tmp_path / "refscore_task.py")),
        evaluation_tracker=EvaluationTracker(output_dir=str(tmp_path / "out"), save_details=False),
        model=FixedOutputs(DummyModelConfig(model_name="refscore-fixed", seed=0)))
    pipeline.evaluate()
    results = pipeline.get_results()["results"]["all"]
    assert results["refscore_chrf"] == pytest.approx(
        np.mean([sacrebleu.sentence_chrf(h, r).score / 100 for h, r in zip(HYPS, REFS)]), abs=1e-12)
    assert results["refscore_bleu_corpus"] == pytest.approx(sacrebleu.corpus_bleu(HYPS, STREAMS).score / 100,
                                                            abs=1e-12)
    assert results["refscore_chrf_corpus"] == pytest.approx(
        sacrebleu.corpus_chrf(HYPS, STREAMS, word_order=2).score / 100, abs=1e-12)
    assert results["refscore_ter_corpus"] == pytest.approx(sacrebleu.corpus_ter(HYPS, STREAMS).score / 100,
                                                           abs=1e-12)


WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ",", ".", "über", "猫", "кошка", "x1", ""])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=2, max_size=2)), min_size=1, max_size=6))
def test_sample_and_corpus_steps_equal_sacrebleu(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    streams = [list(stream) for stream in zip(*refs)]
    docs = [Doc(query="q", choices=r, gold_index=[0, 1], task_name="t") for r in refs]
    responses = [ModelResponse(text=[h]) for h in hyps]
    sample = rl.sample_metric("chrf")
    assert [sample.compute_sample(doc=d, model_response=m)["refscore_chrf"] for d, m in zip(docs, responses)] == \
        pytest.approx([sacrebleu.sentence_chrf(h, r).score / 100 for h, r in pairs], abs=1e-12)
    for name, peer in (("chrf", sacrebleu.corpus_chrf), ("bleu", sacrebleu.corpus_bleu), ("ter", sacrebleu.corpus_ter)):
        metric = rl.corpus_metric(name)
        rows = [metric.compute_sample(doc=d, model_response=m)[metric.metric_name] for d, m in zip(docs, responses)]
        assert metric.get_corpus_aggregations()[metric.metric_name](rows) == pytest.approx(
            peer(hyps, streams).score / 100, abs=1e-12)


def test_every_registered_metric_and_errors():
    names = {name for name in refscore.metrics.REGISTRY   # a metric that loads a model needs one given
             if not refscore.metrics.get_metric_class(name).loads_model}
    for name in names:
        for item in (rl.sample_metric(name), rl.corpus_metric(name)):
            assert item.metric_name.startswith(f"refscore_{name}")
            doc = Doc(query="q", choices=["the cat sat"], gold_index=0, task_name="t")
            value = item.compute_sample(doc=doc, model_response=ModelResponse(text=["the cat sat"]))
            assert value[item.metric_name] is not None
    with pytest.raises(InputError, match="has no gold"):
        rl.sample_metric("chrf").compute_sample(doc=Doc(query="q", choices=["a"], gold_index=[], task_name="t"),
                                                model_response=ModelResponse(text=["a"]))
    with pytest.raises(InputTypeError, match="neither a refscore statistics row nor a lighteval"):
        rl.corpus_metric("chrf").corpus_level_fn.compute_corpus([types.SimpleNamespace()])
    with pytest.raises(InputError, match="score 'rougeX' is not one of rouge's scores"):
        rl.corpus_metric("rouge", score="rougeX")
