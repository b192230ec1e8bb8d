"""The per-call fast path of the single-sentence entry points (refscore.metrics._single) gives the batch path's
numbers bit for bit: every field of the result, on WMT22 texts (several references, Chinese, Japanese) and on
hypothesis-generated text with empty strings, CJK and other scripts, for every option that changes the kernel
call. Inputs the fast path does not take (token ids, str subclasses, bad input) still get the batch path's
results and errors."""
from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from conftest import read_segments, shared_data_path
from refscore.errors import InputError, InputTypeError
from refscore.metrics.bleu import BLEU
from refscore.metrics.chrf import CHRF
from refscore.metrics.gleu import GLEU
from refscore.metrics.ter import TER

METRICS = [
    BLEU(), BLEU(effective_order=True), BLEU(tokenize="intl", lowercase=True), BLEU(tokenize="zh"),
    BLEU(tokenize="char", smooth_method="add-k", max_order=2), BLEU(tokenize="none", smooth_method="floor"),
    BLEU(smooth_method="none", effective_order=True),
    CHRF(), CHRF(word_order=2), CHRF(lowercase=True, whitespace=True, eps_smoothing=True), CHRF(char_order=3, beta=1),
    TER(), TER(normalized=True, asian_support=True), TER(no_punct=True, case_sensitive=True),
    GLEU(), GLEU(tokenize="intl", lowercase=True, min_len=2), GLEU(tokenize="char", max_len=2), GLEU(tokenize="zh"),
]
IDS = [repr(metric) for metric in METRICS]


def batch_path(metric: refscore.Metric, hypothesis: str, references: object) -> refscore.Score:
    """The result through the batch machinery: statistics table, then the corpus formula."""
    return metric.score_from_statistics(metric.statistics([hypothesis], [references], num_threads=1))


def same(fast: refscore.Score, slow: refscore.Score) -> None:
    assert type(fast) is type(slow)
    assert math.isnan(fast.score) and math.isnan(slow.score) or fast.score.hex() == slow.score.hex()
    assert fast == slow and repr(fast) == repr(slow) and str(fast) == str(slow)
    assert fast.values == slow.values and fast.to_dict() == slow.to_dict()
    assert (fast.higher_is_better, fast.display_scale, fast.statistics, fast.segments, fast.details) == (
        slow.higher_is_better, slow.display_scale, slow.statistics, slow.segments, slow.details)


text = st.text(alphabet=st.sampled_from(list("ab c.,!-'\"  ") + ["猫", "の", "한", "é", "Σ", "ß", "\u00a0", "\t"]),
               max_size=30)


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(hypothesis=text, references=st.one_of(text, st.lists(text, min_size=1, max_size=3)))
def test_fast_path_equals_batch_path_on_random_text(metric: refscore.Metric, hypothesis: str,
                                                    references: str | list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(metric.sentence_score(hypothesis, references), batch_path(metric, hypothesis, references))


@pytest.mark.parametrize("pair", ["en-de", "cs-en", "en-zh", "en-ja"])
def test_fast_path_equals_batch_path_on_wmt22(pair: str) -> None:
    directory = shared_data_path("wmt22", pair)
    system = sorted((directory / "sys").glob("*.txt"))[0]
    hyps = read_segments(system)[:60]
    refs = [read_segments(path)[:60] for path in sorted(directory.glob("ref*.txt"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, hypothesis in enumerate(hyps):
            for metric in METRICS:
                for references in (refs[0][i], [r[i] for r in refs]):
                    same(metric.sentence_score(hypothesis, references), batch_path(metric, hypothesis, references))


def test_sentence_functions_take_the_fast_path_with_the_same_numbers() -> None:
    hyp, refs = "The cat sat on the mat.", ["The cat is on the mat.", "A cat sat there."]
    assert refscore.sentence_bleu(hyp, refs) == batch_path(BLEU(effective_order=True), hyp, refs)
    assert refscore.sentence_chrf(hyp, refs) == batch_path(CHRF(), hyp, refs)
    assert refscore.sentence_ter(hyp, refs) == batch_path(TER(), hyp, refs)


@pytest.mark.parametrize("metric", [BLEU(), TER(), GLEU()], ids=["bleu", "ter", "gleu"])
def test_inputs_off_the_fast_path_keep_the_batch_path(metric: refscore.Metric) -> None:
    class Text(str):
        pass

    assert metric.sentence_score(Text("a b c"), Text("a b d")) == batch_path(metric, "a b c", "a b d")
    ids = metric.sentence_score([1, 2, 3], [[1, 2, 4]])
    assert ids == metric.score_from_statistics(metric.statistics([[1, 2, 3]], [[[1, 2, 4]]], num_threads=1))
    with pytest.raises((InputError, InputTypeError)):
        metric.sentence_score("a b", [])
    with pytest.raises((InputError, InputTypeError)):
        metric.sentence_score("a b", ["a", None])


def test_cjk_advice_still_given_on_one_sentence() -> None:
    with pytest.warns(refscore.errors.CJKTokenizerWarning):
        BLEU().sentence_score("我喜欢猫。我喜欢狗。", "我喜欢猫。")
