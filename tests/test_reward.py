"""refscore.reward / refscore.Reward: per-sample scores equal to the metric's sentence scores, the token-id rule,
the reference cache and the errors."""
from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.metrics import get_metric_class

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "Dog", "dog", ",", ".", "über", "x1", "é"])
TEXT = st.lists(WORDS, max_size=9).map(" ".join)
IDS = st.lists(st.integers(0, 12), max_size=9)
ROUGE_TYPES = {"types": ("rouge1", "rouge2", "rougeL")}


def _sentence(name, hypothesis, references, score_index=0, **options):
    """The metric's own sentence score of one pair (the number a reward must equal)."""
    metric_class = get_metric_class(name)
    metric = metric_class(**{**dict(metric_class.check_defaults), **options})
    stats = metric.statistics([hypothesis], [references], num_threads=1)
    return float(metric.scores_from_totals(stats.data)[0, score_index])


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=2)), min_size=1, max_size=6))
def test_text_rewards_equal_sentence_scores(pairs):
    samples = [sample for sample, _ in pairs]
    references = [refs for _, refs in pairs]
    for name, options in (("bleu", {}), ("chrf", {}), ("gleu", {}), ("ter", {}), ("rouge", ROUGE_TYPES)):
        scores = refscore.reward(name, **options)(samples, references)
        assert scores.dtype == np.float64
        assert scores.tolist() == [_sentence(name, s, r, **options) for s, r in pairs], name


def test_bleu_and_chrf_rewards_equal_sacrebleu():
    samples = ["the cat sat on the mat", "a cat", "", "the the the"]
    references = [["the cat is on the mat", "a cat sat"], ["a cat sat"], ["x"], ["the cat"]]
    bleu = refscore.reward("bleu")(samples, references)
    chrf = refscore.reward("chrf", word_order=2)(samples, references)
    assert bleu.tolist() == [sacrebleu.sentence_bleu(s, r).score / 100 for s, r in zip(samples, references)]
    assert chrf.tolist() == [sacrebleu.sentence_chrf(s, r, word_order=2).score / 100
                             for s, r in zip(samples, references)]


def _words(ids):
    return " ".join(str(i) for i in ids)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(IDS, st.lists(IDS, min_size=1, max_size=2)), min_size=1, max_size=6))
def test_token_ids_score_as_their_words(pairs):
    samples = [sample for sample, _ in pairs]
    references = [refs for _, refs in pairs]
    words = [(_words(s), [_words(r) for r in refs]) for s, refs in pairs]
    for name, options in (("bleu", {"tokenize": "none"}), ("gleu", {"tokenize": "none"}), ("ter", {}),
                          ("rouge", ROUGE_TYPES)):
        scores = refscore.reward(name, **({"types": ROUGE_TYPES["types"]} if name == "rouge" else {}))(
            samples, references)
        assert scores.tolist() == [_sentence(name, s, r, **options) for s, r in words], name
    peer = [sacrebleu.sentence_bleu(s, r, tokenize="none").score / 100 for s, r in words]
    assert refscore.reward("bleu")(samples, references).tolist() == peer


class CountingTokenizer:
    """A word-level tokenizer with a fixed vocabulary that counts its calls."""

    def __init__(self):
        self.vocabulary: dict[str, int] = {}
        self.calls = 0

    def encode(self, text):
        self.calls += 1
        return [self.vocabulary.setdefault(word, len(self.vocabulary)) for word in text.split()]

    def decode(self, ids):
        words = {i: w for w, i in self.vocabulary.items()}
        return " ".join(words[i] for i in ids)


def test_text_references_are_encoded_once_across_calls():
    tokenizer = CountingTokenizer()
    prompt_refs = ["the cat sat on the mat", ["a dog barked", "the dog barked"]]
    samples = [tokenizer.encode(text) for text in ("the cat sat", "a cat sat on the mat", "a dog", "")]
    references = [prompt_refs[0], prompt_refs[0], prompt_refs[1], prompt_refs[1]]
    tokenizer.calls = 0
    bleu = refscore.reward("bleu", encode=tokenizer.encode)
    first = bleu(samples, references)
    assert (bleu.encode_calls, tokenizer.calls, bleu.cached_references) == (3, 3, 2)
    second = bleu(samples[::-1], references[::-1])   # the next epoch: no reference is encoded again
    assert (bleu.encode_calls, tokenizer.calls) == (3, 3)
    assert second.tolist() == first[::-1].tolist()
    expected = [refscore.sentence_bleu(tokenizer.decode(s), r, tokenize="none").score
                for s, r in zip(samples, references)]
    assert first.tolist() == expected


def test_cache_is_bounded_least_recently_used_first():
    tokenizer = CountingTokenizer()
    bleu = refscore.reward("bleu", encode=tokenizer.encode, cache_size=2)
    sample = [tokenizer.encode("a b c")]
    tokenizer.calls = 0
    for reference in ("a b", "b c", "a b", "c d", "a b", "b c"):
        bleu(sample, [reference])
    # a b, b c (2 misses), a b hit, c d evicts b c, a b hit, b c evicts a b... (b c was least recently used)
    assert tokenizer.calls == 4 and bleu.cached_references == 2
    uncached = refscore.reward("bleu", encode=tokenizer.encode, cache_size=0)
    uncached(sample * 2, ["a b", "a b"])
    assert uncached.encode_calls == 2 and uncached.cached_references == 0


def test_character_metrics_take_token_ids_with_decode_only():
    tokenizer = CountingTokenizer()
    references = ["the cat sat", "a dog"]
    samples = [tokenizer.encode("the cat sits"), tokenizer.encode("a dog")]
    with pytest.raises(InputTypeError, match="decode="):
        refscore.reward("chrf")(samples, [tokenizer.encode(r) for r in references])
    scores = refscore.reward("chrf", decode=tokenizer.decode)(samples, references)
    assert scores.tolist() == [refscore.sentence_chrf(t, r).score for t, r in zip(["the cat sits", "a dog"],
                                                                                  references)]


def test_float32_and_score_choice():
    samples, references = ["the cat sat", "a dog"], ["the cat sat down", "the dog"]
    rouge = refscore.reward("rouge", score="rougeL", dtype="float32", **ROUGE_TYPES)(samples, references)
    expected = [refscore.rouge([s], [r], **ROUGE_TYPES).segments["rougeL"][0] for s, r in zip(samples, references)]
    assert rouge.dtype == np.float32 and rouge.tolist() == np.array(expected, np.float32).tolist()
    assert refscore.reward("chrf")([], []).shape == (0,)


def test_bad_input_errors():
    chrf = refscore.reward("chrf")
    with pytest.raises(InputError, match="samples has 2 segments but references has 1"):
        chrf(["a", "b"], ["a"])
    with pytest.raises(InputTypeError, match=r"samples\[1\]"):
        chrf(["a", None], ["a", "b"])
    with pytest.raises(InputTypeError, match=r"references\[0\] is text; pass encode="):
        refscore.reward("bleu")([[1, 2]], ["a b"])
    with pytest.raises(InputTypeError, match=r"encode\(references\[0\]\) returned str"):
        refscore.reward("bleu", encode=str.upper)([[1, 2]], ["a b"])
    with pytest.raises(InputTypeError, match=r"decode\(samples\[0\]\) returned list"):
        refscore.reward("chrf", decode=list)([[1, 2]], ["a b"])
    with pytest.raises(InputError, match="score 'rouge9' is not one of"):
        refscore.reward("rouge", score="rouge9", **ROUGE_TYPES)
    with pytest.raises(InputError, match="dtype must be"):
        refscore.reward("chrf", dtype="float16")
    with pytest.raises(InputError, match="unknown metric 'blue'"):
        refscore.reward("blue")
    with pytest.raises(InputTypeError, match="metric instance"):
        refscore.Reward("chrf")
