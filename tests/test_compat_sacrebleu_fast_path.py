"""The sacreBLEU drop-in's BLEU.sentence_score and sentence_bleu on refscore's per-call fast path
(refscore.BLEU.sentence_row) give sacreBLEU's numbers and the batch path's: random text with CJK and empty
strings, one or several references, every compiled tokenizer, smoothing and effective order; references with
None and other input keep the batch path; the signature counts the references of the last call."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore.compat import sacrebleu as compat
from refscore.errors import InputError, InputTypeError

peer = pytest.importorskip("sacrebleu")

text = st.text(alphabet=st.sampled_from(list("ab c.,!-'\"  ") + ["猫", "の", "한", "é", "Σ", "\u00a0", "1", "9"]),
               max_size=30)
SETTINGS = [{}, {"tokenize": "intl", "lowercase": True}, {"tokenize": "zh"}, {"tokenize": "char"},
            {"tokenize": "none", "smooth_method": "floor"}, {"smooth_method": "add-k", "smooth_value": 2},
            {"use_effective_order": False, "smooth_method": "none"}]


def fields(score: object) -> tuple[object, ...]:
    return tuple(getattr(score, name) for name in ("score", "counts", "totals", "precisions", "bp", "sys_len",
                                                   "ref_len")) + (str(score),)


@settings(max_examples=250, deadline=None)
@given(hyp=text, refs=st.lists(text, min_size=1, max_size=3), options=st.sampled_from(SETTINGS))
def test_sentence_bleu_equals_sacrebleu(hyp: str, refs: list[str], options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = peer.sentence_bleu(hyp, refs, **options)
        got = compat.sentence_bleu(hyp, refs, **options)
    assert fields(got) == fields(expected)


@settings(max_examples=150, deadline=None)
@given(hyp=text, refs=st.lists(text, min_size=1, max_size=3), effective=st.booleans())
def test_class_sentence_score_equals_sacrebleu_and_batch_path(hyp: str, refs: list[str], effective: bool) -> None:
    ours, theirs = compat.BLEU(effective_order=effective), peer.BLEU(effective_order=effective)
    got = ours.sentence_score(hyp, refs)
    assert fields(got) == fields(theirs.sentence_score(hyp, refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())
    assert fields(got) == fields(ours.sentence_score(hyp, tuple(refs)))   # a tuple: the batch path


def test_inputs_off_the_fast_path() -> None:
    ours, theirs = compat.BLEU(), peer.BLEU()
    assert fields(ours.sentence_score("a b c", ["a b d", None])) == fields(theirs.sentence_score("a b c", ["a b d"]))
    assert str(ours.get_signature()).startswith("nrefs:1|")
    ours.sentence_score("a b c", ["a b d", "a b c"])
    assert str(ours.get_signature()).startswith("nrefs:2|")
    with pytest.raises((InputError, InputTypeError)):
        ours.sentence_score("a", [])
    with pytest.raises((InputError, InputTypeError)):
        ours.sentence_score(None, ["a"])  # type: ignore[arg-type]
    with pytest.raises((InputError, InputTypeError)):
        compat.sentence_bleu("a", ["a"], tokenize="no-such-tokenizer")
    with pytest.raises((InputError, InputTypeError, TypeError, ValueError)):
        compat.sentence_bleu("a", ["a"], smooth_method=["exp"])   # unhashable: built for the call, then refused
