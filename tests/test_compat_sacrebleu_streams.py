"""The sacreBLEU drop-in's deliberate differences on reference layouts and bare strings (issue 29, items 23 and
26), each checked against what the real sacreBLEU does with the same call:

- per-segment references (``refs[i] = [golds]``, as lighteval's chrF/TER and jury pass them) where sacreBLEU takes
  streams (``refs[k][i]``): sacreBLEU silently scores the first segment(s) only; the drop-in refuses, saying what
  was passed, what sacreBLEU would have done and the fix ``list(zip(*refs))``;
- a bare string where sacreBLEU takes a list of hypotheses or a reference stream: sacreBLEU scores its characters;
  the drop-in raises ``InputTypeError`` (a ``TypeError``).
"""
from __future__ import annotations

import doctest
import re

import pytest
import sacrebleu

import refscore
from refscore.compat import _sacrebleu_base
from refscore.compat import sacrebleu as compat
from refscore.errors import InputError, InputTypeError

HYPOTHESES = [f"the {animal} sat on mat number {i} ." if i % 3 else f"a {animal} slept near the door"
              for i, animal in enumerate(["cat", "dog", "bird", "fox", "cow"] * 60)]
#: per-segment golds, lighteval's layout: refs[i] = [gold of segment i]
PER_SEGMENT = [[f"the {animal} sat on the mat {i}"]
               for i, animal in enumerate(["cat", "dog", "cow", "fox", "owl"] * 60)]
CORPUS_FUNCTIONS = ["corpus_bleu", "corpus_chrf", "corpus_ter"]


def test_doctests() -> None:
    failures, attempted = doctest.testmod(_sacrebleu_base, optionflags=doctest.ELLIPSIS)
    assert attempted and not failures


@pytest.mark.parametrize("function", CORPUS_FUNCTIONS)
def test_per_segment_references_are_refused_naming_what_sacrebleu_would_score(function: str) -> None:
    n = len(HYPOTHESES)
    peer, ours = getattr(sacrebleu, function), getattr(compat, function)
    # what sacreBLEU does: its zip stops at the shortest stream, so it scores the first hypothesis only, against
    # the golds of all segments
    assert peer(HYPOTHESES, PER_SEGMENT).score == peer(HYPOTHESES[:1], PER_SEGMENT).score
    assert peer(HYPOTHESES, PER_SEGMENT).score != peer(HYPOTHESES, list(zip(*PER_SEGMENT))).score
    name = {"corpus_bleu": "BLEU", "corpus_chrf": "CHRF", "corpus_ter": "TER"}[function]
    expected = (f"{name}: got {n} hypotheses and {n} reference streams of 1 segment each; sacreBLEU's references "
                f"are streams, references[k][i] = the k-th reference of segment i, so every stream needs one entry "
                f"per hypothesis. These look like per-segment references (references[i] = the references of "
                f"segment i, the layout lighteval and jury pass); sacreBLEU itself would score only 1 segment (its "
                f"zip stops at the shortest stream) and report that number for the corpus, the first hypothesis "
                f"against references of all {n} segments. Fix: transpose them into streams, "
                f"list(zip(*references))")
    with pytest.raises(InputError, match=re.escape(expected)):
        ours(HYPOTHESES, PER_SEGMENT)
    # the fix the message gives: the drop-in and sacreBLEU agree, and equal refscore's per-segment call
    fixed = list(zip(*PER_SEGMENT))
    assert ours(HYPOTHESES, fixed).score == pytest.approx(peer(HYPOTHESES, fixed).score, abs=1e-9)
    native = getattr(refscore, function.removeprefix("corpus_"))(HYPOTHESES, PER_SEGMENT)
    assert 100 * native.score == pytest.approx(peer(HYPOTHESES, fixed).score, abs=1e-9)


def test_per_segment_references_with_varying_counts_are_refused_too() -> None:
    refs = [golds + [f"another gold {i}"] * (i % 2) for i, golds in enumerate(PER_SEGMENT[:10])]
    hyps = HYPOTHESES[:10]
    assert sacrebleu.corpus_chrf(hyps, refs).score == sacrebleu.corpus_chrf(hyps[:1], refs).score
    with pytest.raises(InputError, match=re.escape("CHRF: got 10 hypotheses and 10 reference streams of 1 to 2 "
                                                   "segments each")) as error:
        compat.corpus_chrf(hyps, refs)
    assert "list(zip(*references)) (pad segments with fewer references with None)" in str(error.value)


@pytest.mark.parametrize("streams, scored", [([["r"] * 4], 4), ([["r"] * 5, ["s"] * 3], 3)])
def test_streams_shorter_than_the_hypotheses_name_the_truncation(streams: list, scored: int) -> None:
    hyps = HYPOTHESES[:5]
    assert sacrebleu.corpus_bleu(hyps, streams).score == sacrebleu.corpus_bleu(
        hyps[:scored], [s[:scored] for s in streams]).score
    with pytest.raises(InputError, match=re.escape(f"sacreBLEU itself would score only {scored} segments (its zip "
                                                   f"stops at the shortest stream)")) as error:
        compat.corpus_bleu(hyps, streams)
    assert "Fix: give every stream 5 entries (None where a segment has no k-th reference)" in str(error.value)


def test_cached_references_of_another_length_are_refused() -> None:
    metric = compat.BLEU(references=[["a b", "c d"]])
    with pytest.raises(InputError, match=re.escape("BLEU.corpus_score: 1 hypothesis but the constructor's "
                                                   "references have 2 segments; sacreBLEU would score only the "
                                                   "first 1 segment")):
        metric.corpus_score(["a b"], None)


@pytest.mark.parametrize("function", CORPUS_FUNCTIONS)
def test_a_bare_hypothesis_string_is_a_type_error_where_sacrebleu_scores_characters(function: str) -> None:
    assert isinstance(getattr(sacrebleu, function)("a b c", [["a b c"]]).score, float)   # the peer's number
    with pytest.raises(InputTypeError, match=re.escape(
            "hypotheses is a single string where sacreBLEU takes a list of hypotheses (one per segment); sacreBLEU "
            "would score its characters as segments. Wrap it in a list, [hypothesis], or use "
            "sentence_score(hypothesis, references)")) as error:
        getattr(compat, function)("a b c", [["a b c"]])
    assert isinstance(error.value, TypeError)   # what `except TypeError` around sacreBLEU calls catches


@pytest.mark.parametrize("function", CORPUS_FUNCTIONS)
def test_a_bare_reference_stream_string_is_a_type_error_where_sacrebleu_scores_characters(function: str) -> None:
    assert isinstance(getattr(sacrebleu, function)(["a b c"], ["a b c"]).score, float)
    with pytest.raises(InputTypeError, match=re.escape(
            "references[0] is a single string where sacreBLEU takes a reference stream (a list with one reference "
            "per hypothesis, refs[k][i]); sacreBLEU would score its characters as segments. Wrap a single stream "
            "in a list: references=[stream]")):
        getattr(compat, function)(["a b c"], ["a b c"])
