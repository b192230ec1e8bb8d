"""``refscore.compat.evaluate.load("meteor")`` gives Hugging Face evaluate's ``meteor`` output for its arguments:
``{"meteor": np.mean(scores)}`` with NLTK's ``meteor_score`` per prediction (the transcription of the script in
tests/test_meteor_real.py, run with NLTK's own ``word_tokenize``; ``evaluate.load`` itself needs the Hub), for
one reference string per prediction and for lists of references, on real WMT22 text and with other
``alpha``/``beta``/``gamma``; texts of several sentences (which the script splits with Punkt first) warn."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from conftest import read_segments, shared_data_path
from refscore.compat import evaluate
from refscore.errors import InputError, RefscoreWarning
from _meteor_peer import nltk_wordnet  # noqa: F401  (the fixture)
from test_meteor_real import evaluate_meteor_compute

PREDICTIONS = ["It is a guide to action which ensures that the military always obeys the commands of the party",
               'He said: "It\'s fine, isn\'t it?"', "the cats sat on a mat", "nothing"]
REFERENCES = [["It is a guide to action that ensures that the military will forever heed Party commands",
               "It is the guiding principle which guarantees the military forces always being under the command of "
               "the Party"], ["He said it is fine.", "he said: it's ok"], ["the cat sat on the mat"], ["empty"]]


@pytest.fixture(autouse=True)
def _oracle(nltk_wordnet):  # noqa: F811
    return nltk_wordnet


def test_lists_of_references_and_single_strings_are_the_scripts_numbers():
    meteor = evaluate.load("meteor")
    expected, _ = evaluate_meteor_compute(PREDICTIONS, REFERENCES)
    result = meteor.compute(predictions=PREDICTIONS, references=REFERENCES)
    assert result == expected and type(result["meteor"]) is np.float64
    single = [refs[0] for refs in REFERENCES]
    assert meteor.compute(predictions=PREDICTIONS, references=single) == evaluate_meteor_compute(PREDICTIONS, single)[0]
    assert round(meteor.compute(predictions=PREDICTIONS[:1], references=single[:1])["meteor"], 4) == 0.6944


def test_the_scripts_parameters_are_taken():
    options = {"alpha": 0.5, "beta": 2, "gamma": 0.25}
    expected, _ = evaluate_meteor_compute(PREDICTIONS, REFERENCES, **options)
    assert evaluate.load("meteor").compute(predictions=PREDICTIONS, references=REFERENCES, **options) == expected
    assert expected != evaluate_meteor_compute(PREDICTIONS, REFERENCES)[0]


def test_real_text_with_two_references_equals_the_script():
    folder = shared_data_path("wmt22", "de-en")
    predictions = read_segments(folder / "sys" / "Online-A.txt")[:300]
    references = [list(pair) for pair in zip(read_segments(folder / "ref.txt"), read_segments(folder / "ref2.txt"))]
    expected, _ = evaluate_meteor_compute(predictions, references[:300])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RefscoreWarning)   # a few segments hold two sentences
        assert evaluate.load("meteor").compute(predictions=predictions, references=references[:300]) == expected


def test_add_batch_and_the_queue():
    module = evaluate.load("meteor")
    module.add(prediction=PREDICTIONS[0], reference=REFERENCES[0])
    module.add_batch(predictions=PREDICTIONS[1:], references=REFERENCES[1:])
    assert module.compute() == evaluate_meteor_compute(PREDICTIONS, REFERENCES)[0]
    assert "meteor" in evaluate.list_metrics() and "banarjee2005" in module.citation


def test_a_mixed_layout_and_several_sentences_are_said():
    meteor = evaluate.load("meteor")
    with pytest.raises(InputError, match=r"references\[1\] is str"):
        meteor.compute(predictions=PREDICTIONS[:2], references=[REFERENCES[0], "He said it is fine."])
    with pytest.warns(RefscoreWarning, match="several sentences.*Punkt"):
        meteor.compute(predictions=["The cat sat. It was happy."], references=["The cat sat. It purred."])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RefscoreWarning)   # one sentence each: no warning
        meteor.compute(predictions=PREDICTIONS, references=REFERENCES)
