"""Every public entry point reports a bad argument the same way: a wrong type is refscore's InputTypeError (a
TypeError), a wrong value of the right type is its InputError (a ValueError), and the message names the argument."""
from __future__ import annotations

import numpy as np
import pytest

import refscore
from refscore.checks import check_bool, check_choice, check_int, check_number, check_optional_int
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu
from refscore.errors import InputError, InputTypeError

HYPS = ["the cat sat on the mat", "a dog ran"]
REFS = ["the cat sat on a mat", "the dog ran"]


def _bertscore(**options):
    from bertscore_helpers import minilm_path

    return refscore.bertscore(HYPS, REFS, model_type=minilm_path(), **options)


#: (entry point, argument, a value of the wrong type, a value of the right type but out of range)
CASES = [
    (lambda v: refscore.bleu(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.bleu(HYPS, REFS, max_order=v), "max_order", 4.0, 0),
    (lambda v: refscore.bleu(HYPS, REFS, smooth_method="add-k", smooth_value=v), "smooth_value", "1", -1.0),
    (lambda v: refscore.bleu(HYPS, REFS, tokenize=v), "tokenize", 13, "moses"),
    (lambda v: refscore.bleu(HYPS, REFS, lowercase=v), "lowercase", 1, None),
    (lambda v: refscore.sentence_bleu(HYPS[0], REFS[0], max_order=v), "max_order", "4", -2),
    (lambda v: refscore.BLEU().corpus_score(HYPS, REFS, num_threads=v), "num_threads", 2.0, 0),
    (lambda v: refscore.BLEU().sentence_scores(HYPS, REFS, num_threads=v), "num_threads", True, -3),
    (lambda v: refscore.BLEU().corpus_score_chunks([(HYPS, REFS)], num_threads=v), "num_threads", "1", 0),
    (lambda v: refscore.gleu(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.gleu(HYPS, REFS, min_len=v), "min_len", 1.5, 0),
    (lambda v: refscore.chrf(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.chrf(HYPS, REFS, char_order=v), "char_order", "6", -1),
    (lambda v: refscore.chrf(HYPS, REFS, beta=v), "beta", "2", -1),
    (lambda v: refscore.chrf(HYPS, REFS, whitespace=v), "whitespace", "no", None),
    (lambda v: refscore.ter(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.ter(HYPS, REFS, normalized=v), "normalized", "yes", None),
    (lambda v: refscore.rouge(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.rouge(HYPS, REFS, stemmer=v), "stemmer", "yes", None),
    (lambda v: refscore.rouge(HYPS, REFS, tokenizer=v), "tokenizer", 1, "spacy"),
    (lambda v: refscore.rouge(HYPS, REFS, types=["rougeW"], w_weight=v), "w_weight", "1.2", 0.5),
    (lambda v: refscore.rouge(HYPS, REFS, types=["rougeS"], skip_distance=v), "skip_distance", 2.5, -1),
    (lambda v: refscore.rouge(HYPS, REFS, flavor="rouge155", num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.rouge155(HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.rouge155(HYPS, REFS, alpha=v), "alpha", "0.5", 1.5),
    (lambda v: refscore.rouge155(HYPS, REFS, resamples=v), "resamples", 10.0, 0),
    (lambda v: refscore.rouge155(HYPS, REFS, word_limit=v), "word_limit", 2.5, -1),
    (lambda v: refscore.rouge155(HYPS, REFS, stemming=v), "stemming", 1, None),
    (lambda v: refscore.rouge155(HYPS, REFS, scoring_formula=v), "scoring_formula", 1, "C"),
    (lambda v: refscore.bootstrap_ci("bleu", HYPS, REFS, num_threads=v), "num_threads", "2", -1),
    (lambda v: refscore.bootstrap_ci("bleu", HYPS, REFS, n=v), "n", 10.0, 0),
    (lambda v: refscore.bootstrap_ci("bleu", HYPS, REFS, confidence=v), "confidence", "0.9", 1.5),
    (lambda v: refscore.bootstrap_ci("bleu", HYPS, REFS, seed=v), "seed", 1.5, -1),
    (lambda v: refscore.paired_test("bleu", {"a": HYPS, "b": HYPS}, REFS, n=v), "n", "10", 0),
    (lambda v: refscore.paired_test("bleu", {"a": HYPS, "b": HYPS}, REFS, seed=v), "seed", "1", -5),
    (lambda v: refscore.paired_test("bleu", {"a": HYPS, "b": HYPS}, REFS, num_threads=v), "num_threads", "2", 0),
    (lambda v: compat_nltk.corpus_gleu([[r.split()] for r in REFS], [h.split() for h in HYPS], min_len=v),
     "min_len", "1", 0),
    (lambda v: compat_nltk.corpus_chrf(REFS, HYPS, max_len=v), "max_len", 6.0, 0),
    (lambda v: compat_sacrebleu.BLEU().corpus_score(HYPS, [REFS], n_bootstrap=v), "n_bootstrap", "2", 0),
    (lambda v: _bertscore(num_layers=3, num_threads=v), "num_threads", "2", -1),
    (lambda v: _bertscore(num_layers=v), "num_layers", "3", -1),
    (lambda v: _bertscore(num_layers=3, batch_tokens=v), "batch_tokens", 512.0, 0),
    (lambda v: _bertscore(num_layers=3, dtype=v), "dtype", 32, "float8"),
]
IDS = [f"{index}-{name}" for index, (_, name, _, _) in enumerate(CASES)]


@pytest.mark.parametrize("call, name, bad_type, bad_value", CASES, ids=IDS)
def test_bad_type_is_input_type_error_naming_the_argument(call, name, bad_type, bad_value):
    with pytest.raises(InputTypeError, match=rf"\b{name}\b"):
        call(bad_type)


@pytest.mark.parametrize("call, name, bad_type, bad_value", [case for case in CASES if case[3] is not None],
                         ids=[i for i, case in zip(IDS, CASES) if case[3] is not None])
def test_bad_value_is_input_error_naming_the_argument(call, name, bad_type, bad_value):
    with pytest.raises(InputError, match=rf"\b{name}\b"):
        call(bad_value)


def test_error_classes_stay_builtin_subclasses():
    assert issubclass(InputError, ValueError) and issubclass(InputTypeError, TypeError)
    with pytest.raises(ValueError):
        refscore.bleu(HYPS, REFS, num_threads=-1)
    with pytest.raises(TypeError):
        refscore.bleu(HYPS, REFS, num_threads="2")


@pytest.mark.parametrize("check, args, error, message", [
    (check_bool, (np.int64(1), "flag"), InputTypeError, "flag must be True or False, got np.int64(1) (int64)"),
    (check_int, (True, "order"), InputTypeError, "order must be an int, got True (bool)"),
    (check_int, (5, "order"), None, None),
    (check_int, (np.int32(5), "order"), None, None),
    (check_number, (float("nan"), "beta"), InputError, "beta must be a finite number, got nan"),
    (check_choice, ("x", "mode", ("a", "b")), InputError, "unknown mode 'x': mode must be one of 'a', 'b'"),
    (check_optional_int, (None, "limit"), None, None),
])
def test_checks_accept_numpy_refuse_bool_and_say_what_they_got(check, args, error, message):
    kwargs = {"none_means": "no limit"} if check is check_optional_int else {}
    if error is None:
        check(*args, **kwargs)
        return
    with pytest.raises(error) as info:
        check(*args, **kwargs)
    assert str(info.value) == message
