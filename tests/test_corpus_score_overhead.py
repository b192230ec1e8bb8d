"""What corpus scoring no longer does on every call, and what must not change because of it: the per-segment table
is computed when first read (``SegmentScores``) and sacreBLEU's tokenized-input check counts in compiled code
(``count_endswith``). Repeated texts (the kernels' shortcut) are grouped by their whole contents, also texts that
share their first and last bytes."""
from __future__ import annotations

import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

import refscore
from refscore._core._batch import count_endswith
from refscore._core._tokenize import _repeated_text_groups
from refscore.metrics.advice import count_tokenized_periods
from refscore.protocol import SegmentScores

HYPS = ["the cat sat on the mat .", "a dog ran", "x y z", ""]
REFS = ["the cat sat on a mat .", "the dog ran", "x y", "nothing"]


def test_corpus_score_computes_the_segment_table_only_when_read(monkeypatch):
    metric = refscore.BLEU(tokenize="none")
    calls = []
    original = type(metric).segment_table
    monkeypatch.setattr(type(metric), "segment_table", lambda self, stats: calls.append(1) or original(self, stats))
    score = metric.corpus_score(HYPS, REFS)
    assert calls == [] and isinstance(score.segments, SegmentScores)
    expected = metric.sentence_scores(HYPS, REFS)
    assert calls == [1]
    np.testing.assert_array_equal(score.segments["bleu"], expected)
    assert list(score.segments) == ["bleu"] and len(score.segments) == 1 and calls == [1, 1]
    np.testing.assert_array_equal(score.segments["bleu"], expected)   # computed once per score
    assert calls == [1, 1]


def test_segment_scores_pickle_as_a_plain_dict():
    score = refscore.chrf(HYPS, REFS)
    restored = pickle.loads(pickle.dumps(score))
    assert type(restored.segments) is dict and restored.score == score.score
    np.testing.assert_array_equal(restored.segments["chrf"], refscore.CHRF().sentence_scores(HYPS, REFS))


texts = st.lists(st.text(alphabet=st.sampled_from(" .aé€😀\t"), max_size=6), max_size=30)


@settings(max_examples=40, deadline=None)
@given(items=texts, suffix=st.sampled_from([" .", ".", "", "é .", "😀"]))
def test_count_endswith_equals_str_endswith(items, suffix):
    assert count_endswith(items, suffix) == sum(text.endswith(suffix) for text in items)


def test_count_endswith_leaves_other_items_to_python():
    class Text(str):
        pass

    assert count_endswith(["a .", 3], " .") == -1 and count_endswith([Text("a .")], " .") == -1
    assert count_tokenized_periods(["a .", Text("b ."), "c"]) == 2 and count_tokenized_periods(("a .", "b")) == 1


def groups_by_contents(items: list[str]) -> list[int]:
    """The grouping rule: -1 for a text met once, else a number per distinct repeated text, in the order in which
    each one's first repeat is met."""
    first: dict[str, int] = {}
    numbers: dict[str, int] = {}
    for k, text in enumerate(items):
        if text in first and text not in numbers:
            numbers[text] = len(numbers)
        first.setdefault(text, k)
    return [numbers.get(text, -1) for text in items]


def copy(text: str) -> str:
    return (text + "x")[:-1]   # an equal str, another object


# long texts that share their first and last 16 bytes and differ in between, so that only the whole-text comparison
# tells them apart; and short ones
middles = st.text(alphabet=st.sampled_from("ab€"), min_size=0, max_size=3)


@settings(max_examples=40, deadline=None)
@given(picks=st.lists(st.tuples(st.booleans(), middles), min_size=1, max_size=25))
def test_repeated_texts_are_grouped_by_their_whole_contents(picks):
    items = [("x" * 20 + middle + "y" * 20) if long else middle for long, middle in picks]
    items = [copy(text) if k % 2 else text for k, text in enumerate(items)]
    assert _repeated_text_groups(items).tolist() == groups_by_contents(items)


def test_texts_differing_only_in_their_middle_are_not_grouped():
    a, b = "p p p p p p p p middle one q q q q q q q q", "p p p p p p p p middle two q q q q q q q q"
    assert _repeated_text_groups([a, b, copy(b), "p", a]).tolist() == [1, 0, 0, -1, 1]
    hyps, refs = [a, b, copy(a), b], [b, copy(b), a, a]   # the repeated texts' tokens are reused, never a's for b
    peer = SacreBLEU(tokenize="none", effective_order=True)
    expected = [peer.sentence_score(h, [r]).score / 100 for h, r in zip(hyps, refs)]
    ours = refscore.BLEU(tokenize="none", effective_order=True).sentence_scores(hyps, refs)
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-15)
    assert round(ours[1], 12) == 1.0 and ours[0] < 0.9   # b against its copy; a against b


def test_docstring_examples_run():
    import doctest
    import importlib

    for module in ("refscore._core._batch", "refscore.metrics.advice", "refscore.protocol"):
        failures, attempted = doctest.testmod(importlib.import_module(module))
        assert failures == 0 and attempted > 0, module
