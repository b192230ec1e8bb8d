"""The compiled single-pair entry point (refscore._core._ngrams.TextPairCounter) gives the batch kernel's rows
bit for bit: BLEU and Google-BLEU, every tokenizer, lowercase on and off, several references, empty strings, CJK
and other scripts; one counter reused across calls and threads keeps no state from call to call. has_cjk agrees
with the CJK advice's regex."""
from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore._core._ngrams import (TextPairCounter, TokenPairCounter, bleu_text_pair, bleu_text_statistics,
                                    gleu_text_pair, gleu_text_statistics, has_cjk)
from refscore.text import languages

#: The CJK advice's "any CJK" class (compiled on first use where the module defers it)
_ANY_CJK = languages._patterns()[0] if hasattr(languages, "_patterns") else languages._ANY_CJK
TOKENIZERS = ["13a", "intl", "zh", "char", "none"]
ALPHABET = list("ab c.,!-'\"  ") + ["猫", "の", "한", "é", "Σ", "ß", "\u00a0", "\t", "İ", "\U00020000", "Ａ"]
text = st.text(alphabet=st.sampled_from(ALPHABET), max_size=40)
references = st.one_of(text, st.lists(text, min_size=1, max_size=4), st.tuples(text, text))


def as_list(refs: str | list[str] | tuple[str, ...]) -> list[str]:
    return [refs] if isinstance(refs, str) else list(refs)


def batch_bleu(hyp: str, refs: list[str], tokenize: str, lowercase: bool, order: int, shortest: bool) -> list[int]:
    offsets = np.array([0, len(refs)], dtype=np.int64)
    return bleu_text_statistics([hyp], refs, offsets, tokenize, lowercase, order, num_threads=1,
                                shortest_ref=shortest)[0].tolist()


COUNTERS = {(tokenize, lowercase, order, shortest): bleu_text_pair(tokenize, lowercase, order, shortest)
            for tokenize in TOKENIZERS for lowercase in (False, True) for order in (1, 4) for shortest in (False, True)}


@settings(max_examples=300, deadline=None)
@given(hyp=text, refs=references, key=st.sampled_from(sorted(COUNTERS)))
def test_bleu_pair_equals_batch_kernel(hyp: str, refs: str | list[str], key: tuple[str, bool, int, bool]) -> None:
    # the counters are shared by every example: a reused worker must carry nothing over
    assert COUNTERS[key].counts(hyp, refs) == batch_bleu(hyp, as_list(refs), *key)


@settings(max_examples=150, deadline=None)
@given(hyp=text, refs=references, tokenize=st.sampled_from(TOKENIZERS), lowercase=st.booleans(),
       span=st.sampled_from([(1, 1), (1, 4), (2, 3)]))
def test_gleu_pair_equals_batch_kernel(hyp: str, refs: str | list[str], tokenize: str, lowercase: bool,
                                       span: tuple[int, int]) -> None:
    refs_list = as_list(refs)
    expected = gleu_text_statistics([hyp], refs_list, np.array([0, len(refs_list)]), tokenize, lowercase, *span,
                                    num_threads=1)[0].tolist()
    assert gleu_text_pair(tokenize, lowercase, *span).counts(hyp, refs) == expected


def test_long_and_repeated_texts() -> None:
    counter = bleu_text_pair("13a", False, 4)
    long_hyp = " ".join(f"w{i % 97}" for i in range(5000))
    long_ref = " ".join(f"w{i % 89}" for i in range(4000))
    for hyp, refs in [(long_hyp, [long_ref]), ("a b", ["a b", "a b"]), (long_hyp, [long_hyp]), ("", [""]),
                      ("a", [long_ref, ""]), ("a b c", "a b c")]:
        assert counter.counts(hyp, refs) == batch_bleu(hyp, as_list(refs), "13a", False, 4, False)


def test_inputs_that_are_not_plain_text_return_none() -> None:
    class Text(str):
        pass

    counter = bleu_text_pair("13a", False, 4)
    for hyp, refs in [(Text("a"), "a"), ("a", Text("a")), ("a", [Text("a")]), ("a", []), ("a", ()), ([1, 2], [[1]]),
                      ("a", ["a", None]), (None, "a"), ("a", {"a"}), ("a", b"a")]:
        assert counter.counts(hyp, refs) is None


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="max_order"):
        bleu_text_pair("13a", False, 0)
    with pytest.raises(ValueError, match="min_len"):
        gleu_text_pair("13a", False, 3, 2)
    with pytest.raises(ValueError, match="kind"):
        TextPairCounter("ter", "13a", False, 1, 4)
    with pytest.raises(Exception, match="tokenizer"):
        bleu_text_pair("no-such-tokenizer", False, 4)


def test_one_counter_shared_by_threads() -> None:
    counter = bleu_text_pair("13a", False, 4)
    pairs = [(f"the cat {i} sat on the mat {i % 7}", [f"a cat {i} sat on a mat", f"the cat sat {i % 5}"])
             for i in range(300)]
    expected = [batch_bleu(h, r, "13a", False, 4, False) for h, r in pairs]
    results: list[list[list[int] | None]] = [[] for _ in range(4)]

    def work(k: int) -> None:
        for _ in range(5):
            results[k] = [counter.counts(h, r) for h, r in pairs]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == expected for result in results)


@settings(max_examples=300, deadline=None)
@given(sample=st.text(max_size=30) | text)
def test_has_cjk_agrees_with_the_advice_regex(sample: str) -> None:
    assert has_cjk(sample) == (_ANY_CJK.search(sample) is not None)


def test_has_cjk_at_every_range_edge() -> None:
    ranges = [(0x1100, 0x11FF), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
              (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7AF), (0xD7B0, 0xD7FF), (0xF900, 0xFAFF),
              (0xFF66, 0xFF9F), (0x20000, 0x3134F)]
    for low, high in ranges:
        for code in (low - 1, low, high, high + 1):
            sample = "x" + chr(code)
            assert has_cjk(sample) == (_ANY_CJK.search(sample) is not None), hex(code)


@pytest.mark.parametrize("module", ["refscore._core._ngrams", "refscore._core._bleu", "refscore._core._chrf",
                                    "refscore._core._rouge", "refscore._core._ter", "refscore.metrics._single",
                                    "refscore.metrics.bleu.nltk_sentence", "refscore.metrics.rouge.pair",
                                    "refscore.compat.rouge_score.rouge_scorer", "refscore.compat._nltk_bleu"])
def test_docstring_examples_of_the_single_call_paths_run(module: str) -> None:
    import doctest
    import importlib
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # NLTK's method0 warning in an example
        failures, attempted = doctest.testmod(importlib.import_module(module))
    assert failures == 0 and attempted > 0


def test_metrics_and_scorers_pickle_after_single_calls() -> None:
    """A metric or scorer that kept a compiled single-pair worker still pickles (multiprocessing, Ray, datasets'
    map): the worker is made anew from its settings, and the copy gives the same numbers."""
    import pickle

    import refscore
    from refscore.compat import sacrebleu as compat_sacrebleu
    from refscore.compat.rouge_score import rouge_scorer

    hyp, refs = "The cat sat on the mat.", ["The cat is on the mat.", "A cat sat."]
    for metric in (refscore.BLEU(), refscore.CHRF(word_order=2, lowercase=True), refscore.TER(), refscore.GLEU()):
        before = metric.sentence_score(hyp, refs)
        copy = pickle.loads(pickle.dumps(metric))
        assert copy.sentence_score(hyp, refs) == before
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    before_rouge = scorer.score(refs[0], hyp)
    assert pickle.loads(pickle.dumps(scorer)).score(refs[0], hyp) == before_rouge
    drop_in = compat_sacrebleu.BLEU(effective_order=True)
    score = drop_in.sentence_score(hyp, refs).score
    assert pickle.loads(pickle.dumps(drop_in)).sentence_score(hyp, refs).score == score
    for counter in (bleu_text_pair("intl", True, 3, True), gleu_text_pair("13a", False, 1, 2), TokenPairCounter(3)):
        pair = (hyp.split(), [r.split() for r in refs]) if isinstance(counter, TokenPairCounter) else (hyp, refs)
        assert pickle.loads(pickle.dumps(counter)).counts(*pair) == counter.counts(*pair)
