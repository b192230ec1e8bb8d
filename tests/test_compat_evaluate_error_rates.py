"""``compat.evaluate.load("wer")`` / ``load("cer")`` against evaluate's wer and cer scripts, run here as an oracle
on the real jiwer 4 (``evaluate.load`` fetches the scripts from the Hub, which tests cannot reach): the scripts'
loop over pairs, their transforms and ``concatenate_texts``; and ``load("meteor")``."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import read_segments, shared_data_path
from refscore.compat import evaluate
from refscore.errors import InputTypeError

jiwer = pytest.importorskip("jiwer")

ALPHABET = st.sampled_from(list("ab c  ") + ["猫", "\u0301", "😀", "\t", "\n", "\u3000"])
TEXT = st.text(ALPHABET, max_size=20)
#: the cer script's transform (jiwer >= 2.3 branch)
CER_TRANSFORM = jiwer.Compose([jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToSingleSentence(""),
                               jiwer.ReduceToListOfListOfChars()])


def script(predictions, references, concatenate_texts, transform=None):
    """The scripts' _compute with jiwer 4's process_words (the wer script's own branch for jiwer 4)."""
    kwargs = {} if transform is None else {"reference_transform": transform, "hypothesis_transform": transform}
    if concatenate_texts:
        return jiwer.process_words(references, predictions, **kwargs).wer
    incorrect = total = 0
    for prediction, reference in zip(predictions, references):
        m = jiwer.process_words(reference, prediction, **kwargs)
        incorrect += m.substitutions + m.deletions + m.insertions
        total += m.substitutions + m.deletions + m.hits
    return incorrect / total


def outcome(call):
    try:
        return call()
    except ZeroDivisionError:
        return "ZeroDivisionError"


@settings(max_examples=250, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6), st.booleans())
def test_equal_to_the_scripts(pairs, concatenate):
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    assert outcome(lambda: evaluate.load("wer").compute(predictions=preds, references=refs,
                                                        concatenate_texts=concatenate)) == \
        outcome(lambda: script(preds, refs, concatenate))
    if concatenate:
        expected = outcome(lambda: script(preds, refs, True, CER_TRANSFORM))
    else:
        expected = outcome(lambda: script(preds, refs, False, CER_TRANSFORM))
    got = outcome(lambda: evaluate.load("cer").compute(predictions=preds, references=refs,
                                                       concatenate_texts=concatenate))
    assert got == (expected if expected == "ZeroDivisionError" else {"cer": expected})


def test_wmt22_texts_and_examples():
    directory = shared_data_path("wmt22", "de-en")
    refs = read_segments(directory / "ref.txt")[:500]
    preds = read_segments(sorted((directory / "sys").iterdir())[1])[:500]
    assert evaluate.load("wer").compute(predictions=preds, references=refs) == script(preds, refs, False)
    assert evaluate.load("cer").compute(predictions=preds, references=refs)["cer"] == \
        script(preds, refs, False, CER_TRANSFORM)
    module = evaluate.load("wer")
    module.add_batch(predictions=preds[:10], references=refs[:10])
    module.add(prediction=preds[10], reference=refs[10])
    assert module.compute() == script(preds[:11], refs[:11], False)


def test_errors_and_meteor():
    with pytest.raises(InputTypeError, match=r"predictions\[1\]"):
        evaluate.load("wer").compute(predictions=["a", 1], references=["a", "b"])
    with pytest.raises(ZeroDivisionError, match="no words"):
        evaluate.load("wer").compute(predictions=["a"], references=[""])
    meteor = evaluate.load("meteor")
    assert set(meteor.compute(predictions=["the cat sat"], references=["the cat sat"])) == {"meteor"}
