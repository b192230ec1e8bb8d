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
        with pytest.warns(DeprecationWarning, match=f"{name} is deprecated") as caught:
            assert isinstance(instance, getattr(package, name))
        assert caught[0].filename == __file__   # the reader's line, not the package's __getattr__


@pytest.mark.parametrize("name, score_class, names", [
    ("chrf", "CHRFScore", ("name", "char_order", "word_order", "beta")),
    ("ter", "TERScore", ("num_edits", "ref_length")),
    ("gleu", "GLEUScore", ("matches", "n_all")),
    ("meteor", "METEORScore", ("documents",)),
    ("rouge", "ROUGEScore", ("types", "precision", "recall", "fmeasure", "documents")),
    ("rouge155", "ROUGE155Score", ("averages", "documents", "intervals")),
])
def test_former_attributes_are_deprecated_aliases_of_the_values(name, score_class, names):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)   # refscore's own code reads the new spelling
        result = get_metric_class(name)().corpus_score(HYPOTHESES, REFERENCES)
        str(result), result.format(), result.summary()
        as_dict = result.to_dict()
    assert type(result).__name__ == score_class and tuple(result.values) == names
    assert list(as_dict)[-len(names):] == list(names)   # JSON keys: the base fields, then the named values
    assert repr(result).endswith(", ".join(f"{key}={result.values[key]!r}" for key in names) + ")")   # as before
    for key in names:
        with pytest.warns(DeprecationWarning, match=rf"{score_class}\.{key} is deprecated; use score\.values\['{key}'\]"):
            value = getattr(result, key)
        assert value is result.values[key]


def test_the_compat_drop_ins_read_the_new_spelling():
    from refscore.compat import sacrebleu

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in ("chrf", "ter", "google_bleu", "rouge"):
            evaluate.load(name).compute(predictions=HYPOTHESES, references=[r[:1] for r in REFERENCES])
        single = [[r[0] for r in REFERENCES]]
        str(sacrebleu.corpus_chrf(HYPOTHESES, single)), str(sacrebleu.corpus_ter(HYPOTHESES, single))


@pytest.mark.parametrize("flavor", ["rouge-score", "rouge155"])
def test_a_rouge_results_former_mapping_method_values_warns_and_gives_the_per_type_results(flavor):
    result = refscore.rouge(HYPOTHESES, [r[0] for r in REFERENCES], ("rouge1", "rougeL"), flavor=flavor)
    with pytest.warns(DeprecationWarning, match=r"result\.values\(\) is deprecated"):
        per_type = result.values()
    assert [t.fmeasure.tolist() for t in per_type] == [result[name].fmeasure.tolist() for name in result]
