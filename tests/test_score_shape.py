"""One Score shape: ``score``, ``values`` (named corpus values), ``segments``, ``statistics``, ``details`` on every
metric's result; BLEU's former attributes are deprecated aliases of its values, and refscore's own code reads the
new spelling (no DeprecationWarning from the library)."""
from __future__ import annotations

import warnings

import pytest

import refscore
from refscore.compat import evaluate
from refscore.metrics import get_metric_class
from refscore.metrics.bleu import BLEU
from refscore.protocol import Score

HYPOTHESES = ["the cat sat on the mat", "a dog barked"]
REFERENCES = [["the cat is on the mat", "a cat sat"], ["the dog barked loudly"]]


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter", "gleu", "rouge"])
def test_every_result_has_the_one_shape(name):
    result = get_metric_class(name)().corpus_score(HYPOTHESES, REFERENCES)
    assert isinstance(result, Score) and isinstance(result.values, dict) and result.values
    assert result.statistics is not None and len(result.statistics) == 2
    assert set(result.segments) >= {result.metric} or result.segments
    assert result.details is None or isinstance(result.details, dict)
    for key, value in result.to_dict().items():   # the JSON form is the base fields and the named values
        assert key in ("metric", "score", "signature", "higher_is_better") or key in result.values, key


def test_bleu_attributes_are_deprecated_aliases_of_its_values():
    result = refscore.bleu(HYPOTHESES, REFERENCES)
    assert list(result.to_dict()) == ["metric", "score", "signature", "higher_is_better", "counts", "totals",
                                      "precisions", "bp", "sys_len", "ref_len", "ratio"]
    for name in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio"):
        with pytest.warns(DeprecationWarning, match=rf"BLEUScore\.{name} is deprecated; use score\.values\['{name}'\]"):
            value = getattr(result, name)
        assert value == result.values[name]


def test_the_library_itself_reads_the_new_spelling():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        result = refscore.bleu(HYPOTHESES, REFERENCES)
        str(result), result.format(signature=True), result.to_dict()
        BLEU().explain_case(HYPOTHESES[0], REFERENCES[0])
        evaluate.load("bleu").compute(predictions=HYPOTHESES, references=REFERENCES)
        evaluate.load("sacrebleu").compute(predictions=HYPOTHESES, references=[r[:1] for r in REFERENCES])


def test_bertscore_results_have_the_one_shape_and_the_old_names_warn(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from bertscore_helpers import CORPUS, build_tiny_bert
    from refscore.metrics import bertscore as package
    from refscore.metrics.bertscore import BERTScoreMetric

    model = str(build_tiny_bert(tmp_path / "tiny_bert"))
    hyps, refs = CORPUS[:3], CORPUS[3:6]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)   # refscore's own code reads the new spelling
        result = refscore.bertscore(hyps, refs, model_type=model, num_layers=2)
        precision, recall, f1 = result
        corpus = BERTScoreMetric(model_type=model, num_layers=2).score_from_statistics(result.statistics)
        texts = result.format(), result.summary(), result.to_dict(), corpus.format(), corpus.summary(), corpus.to_dict()
    assert set(result.values) == {"precision", "recall", "f1"} and result.values["f1"] == result.score
    assert result.segments["bertscore"].tolist() == f1.astype(float).tolist()
    assert corpus.values["f1"] == corpus.score and corpus.values["documents"] == 3
    assert texts[2]["f1"] == f1.tolist() and texts[5]["hash"] == corpus.values["hash"]
    for name in ("precision", "recall", "f1", "best_reference", "hash", "nrefs"):
        with pytest.warns(DeprecationWarning, match=rf"\.{name} is deprecated; use score\.details\['{name}'\]"):
            value = getattr(result, name)
        assert value is result.details[name]
    for name in ("precision", "recall", "f1", "documents", "hash"):
        with pytest.warns(DeprecationWarning, match=rf"\.{name} is deprecated; use score\.values\['{name}'\]"):
            assert getattr(corpus, name) == corpus.values[name]
    for name, instance in (("BERTScoreResult", result), ("BERTScoreScore", corpus)):
        with pytest.warns(DeprecationWarning, match=f"{name} is deprecated"):
            assert isinstance(instance, getattr(package, name))
