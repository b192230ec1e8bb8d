"""The per-call fast path of the rouge-score drop-in's RougeScorer.score (refscore.metrics.rouge.pair) gives
rouge-score's numbers and the batch path's bit for bit: random text (case, digits, punctuation, newlines for
ROUGE-Lsum, non-Latin letters the tokenizer drops, empty strings), with and without the stemmer, every type,
repeated types, reassigned types; settings off the fast path (a custom tokenizer, split_summaries, long
ROUGE-Lsum texts, bad input) keep the batch path's results and errors."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore.compat.rouge_score import rouge_scorer
from refscore.metrics.rouge.pair import LSUM_FAST_CHARS, RougePair

peer = pytest.importorskip("rouge_score.rouge_scorer")

words = st.sampled_from(["The", "cat", "cats", "running", "ran", "a", "on", "mat", "42", "x-y", "é", "猫", "",
                         "\n", ".", "Sat", "sitting"])
text = st.lists(words, max_size=25).map(" ".join)
TYPES = [["rouge1"], ["rouge1", "rouge2", "rougeL"], ["rougeLsum"], ["rouge3", "rougeL", "rougeLsum"],
         ["rouge1", "rouge1", "rougeL"]]


@settings(max_examples=300, deadline=None)
@given(target=text, prediction=text, types=st.sampled_from(TYPES), stemmer=st.booleans())
def test_fast_path_equals_rouge_score_and_the_batch_path(target: str, prediction: str, types: list[str],
                                                         stemmer: bool) -> None:
    ours = rouge_scorer.RougeScorer(types, use_stemmer=stemmer)
    got = ours.score(target, prediction)
    assert got == peer.RougeScorer(types, use_stemmer=stemmer).score(target, prediction)
    assert got == ours.score_batch([target], [prediction])[0]
    assert list(got) == list(dict.fromkeys(types))
    assert all(type(v) is float for score in got.values() for v in score)


def test_the_common_calls_take_the_fast_path() -> None:
    pair = RougePair(("rouge1", "rouge2", "rougeL", "rougeLsum"), stemmer=True)
    assert pair.scores("the cat sat", "the cat\nsat down") is not None
    assert pair.scores(["the"], "the") is None


def test_settings_off_the_fast_path_keep_the_batch_path() -> None:
    class Words:
        def tokenize(self, text: str) -> list[str]:
            return text.split()

    target, prediction = "The cats sat.\nOn the mat", "the cat sat on a mat"
    for types, kwargs in ((["rouge1", "rougeLsum"], {"tokenizer": Words()}), (["rouge1"], {"split_summaries": True})):
        ours = rouge_scorer.RougeScorer(types, **kwargs)
        assert ours._pair_for(tuple(types)) is None
        assert ours.score(target, prediction) == ours.score_batch([target], [prediction])[0]
    long_target = "the cat sat on the mat\n" * (LSUM_FAST_CHARS // 10)
    pair = RougePair(("rougeLsum",), stemmer=False)
    assert pair.scores(prediction, long_target) is None
    ours = rouge_scorer.RougeScorer(["rougeLsum"])
    assert ours.score(long_target, prediction) == peer.RougeScorer(["rougeLsum"]).score(long_target, prediction)


def test_reassigned_and_bad_types() -> None:
    ours = rouge_scorer.RougeScorer(["rouge1"])
    assert list(ours.score("a b", "a")) == ["rouge1"]
    ours.rouge_types = ["rougeL", "rouge2"]
    assert ours.score("a b", "a") == peer.RougeScorer(["rougeL", "rouge2"]).score("a b", "a")
    ours.rouge_types = ["rougeX"]
    for _ in range(2):   # checked on every call, as rouge-score does
        with pytest.raises(ValueError, match="Invalid rouge type"):
            ours.score("a", "a")
    with pytest.raises(ValueError, match="positive n"):
        rouge_scorer.RougeScorer(["rouge0"]).score("a", "a")
    assert rouge_scorer.RougeScorer([]).score("a", "a") == {}
    with pytest.raises(Exception):
        rouge_scorer.RougeScorer(["rouge1"]).score(None, "a")   # type: ignore[arg-type]


def test_memory_budget_is_read_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    pair = RougePair(("rougeLsum",), stemmer=False)
    assert pair.scores("a b\nc", "a c") is not None
    monkeypatch.setenv("REFSCORE_MEMORY_BUDGET", "1")
    assert pair.scores("a b\nc", "a c") is None
