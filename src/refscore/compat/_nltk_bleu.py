"""NLTK 3.10.4's ``nltk.translate.bleu_score`` and ``gleu_score`` on refscore's metrics.

Inputs are token lists, as in NLTK (any hashable tokens; a string counts as a sequence of characters, as in
NLTK). BLEU is :class:`refscore.metrics.bleu.BLEU` with ``flavor="nltk"``: its statistics count every segment's
clipped n-grams in one GIL-free kernel call and its formula follows NLTK exactly (``p_n = Fraction(Σ clipped,
Σ max(1, hypothesis n-grams))``, closest reference length, brevity penalty, the early ``0`` when no unigram
matches, NLTK's :class:`SmoothingFunction` with ``method0``'s warning, and ``corpus_bleu`` handing methods 4–7 the
**last** segment's ``references`` and ``hypothesis``); see :mod:`refscore.metrics.bleu.flavors`. This module
only turns NLTK's arguments into the metric's config and its result into NLTK's return values.

GLEU: per segment the reference with the best ``tp / max(hyp n-grams, ref n-grams)`` (first on ties) adds its
counts; ``Σ tp / Σ n_all`` (0.0 when nothing counts).

>>> from refscore.compat import nltk
>>> nltk.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], auto_reweigh=True)
1.0
>>> round(nltk.sentence_gleu(["the cat sat".split(), "a cat sat on the mat".split()],
...                          "the cat sat on the mat".split()), 4)
0.7778
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from refscore.checks import check_int
from refscore.errors import InputError
from refscore.metrics.bleu import BLEU
from refscore.metrics.word_batch import count_ngrams
from refscore.metrics.bleu.flavors import (NLTK_DEFAULT_WEIGHTS, Fraction, SmoothingFunction, as_segments,
                                           brevity_penalty, closest_ref_length, encode_token_lists,
                                           modified_precision)
from refscore.metrics.bleu.nltk_sentence import nltk_sentence_bleu
from refscore.protocol import metric_with

__all__ = ["Fraction", "SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu", "corpus_gleu",
           "modified_precision", "sentence_bleu", "sentence_gleu"]

DEFAULT_WEIGHTS = NLTK_DEFAULT_WEIGHTS


# -- BLEU -----------------------------------------------------------------------------------------------------
def corpus_bleu(list_of_references: Sequence[Sequence[Sequence[Any]]], hypotheses: Sequence[Sequence[Any]],
                weights: Any = DEFAULT_WEIGHTS, smoothing_function: Callable[..., list[Any]] | None = None,
                auto_reweigh: bool = False, *, num_threads: int | None = None) -> float | list[float]:
    """NLTK's ``corpus_bleu``: one float, or a list of floats when ``weights`` is a list of weight tuples.

    >>> corpus_bleu([[list("abcde")], [["x"]]], [list("abcde"), ["x"]])   # NLTK's max(1, ·) denominators
    0.7952707287670506
    >>> corpus_bleu([[["a", "b"]]], [["a", "b"]], weights=[(1.0,), (0.5, 0.5)])
    [1.0, 1.0]
    """
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    if max(len(weight) for weight in weights) == 0:
        return 0 if len(weights) == 1 else [0] * len(weights)
    options = {"flavor": "nltk", "weights": tuple(weights), "auto_reweigh": bool(auto_reweigh),
               "smoothing_function": smoothing_function or None}
    metric = metric_with(BLEU, options)
    rows = metric.token_list_rows(hypotheses, list_of_references, num_threads=num_threads)
    if len(rows) == 0:
        raise InputError("corpus_bleu: hypotheses is empty (NLTK raises ZeroDivisionError); give at least one "
                         "segment")
    # NLTK hands the smoothing function its loop's last references and hypothesis
    scores: dict[str, Any] = metric.flavor_score(  # type: ignore[assignment]  # the flavor sets details
        rows.sum(0), last_segment=(list_of_references[-1], hypotheses[-1])).details
    return scores["scores"][0] if len(weights) == 1 else scores["scores"]


def sentence_bleu(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], weights: Any = DEFAULT_WEIGHTS,
                  smoothing_function: Callable[..., list[Any]] | None = None,
                  auto_reweigh: bool = False) -> float | list[float]:
    """NLTK's ``sentence_bleu`` (references first, token lists).

    One weight tuple, no smoothing or refscore's ``method1`` / ``method2``, and list or tuple token lists take
    the per-call fast path (one compiled count, NLTK's formula on floats: the values equal NLTK's bit for bit);
    everything else is ``corpus_bleu`` of one segment.

    >>> sentence_bleu([["left", "right"]], ["left", "right"])   # NLTK's method0: tiny, not 0 (with a warning)
    1.491668146240062e-154
    >>> sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "c", "e"], smoothing_function=SmoothingFunction().method1)
    0.3976353643835253
    """
    fast = nltk_sentence_bleu(references, hypothesis, weights, smoothing_function, auto_reweigh)
    if fast is not None:
        return fast
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh, num_threads=1)



# -- GLEU -----------------------------------------------------------------------------------------------------
def corpus_gleu(list_of_references: Sequence[Sequence[Sequence[Any]]], hypotheses: Sequence[Sequence[Any]],
                min_len: int = 1, max_len: int = 4, *, num_threads: int | None = None) -> float:
    """NLTK's ``corpus_gleu``: ``Σ tp / Σ max(hyp n-grams, ref n-grams)`` with the best reference per segment.

    >>> r1, r2 = "the cat sat".split(), "a cat sat on the mat".split()
    >>> round(corpus_gleu([[r1, r2], [r1]], ["the cat sat on the mat".split(), "the cat".split()]), 6)
    0.708333
    """
    for name, value in (("min_len", min_len), ("max_len", max_len)):
        check_int(value, name, minimum=1, owner="corpus_gleu")
    hyps = as_segments(hypotheses, "hypotheses")
    ids, offsets, ref_offsets = encode_token_lists(hyps, as_segments(list_of_references, "list_of_references"))
    if max_len < min_len or not hyps:
        return 0.0   # NLTK: no n-gram of any order counts
    rows = count_ngrams("gleu", ids, offsets, ref_offsets, orders=(int(min_len), int(max_len)), num_threads=num_threads)
    matches, n_all = (int(v) for v in rows.sum(0))
    return 0.0 if n_all == 0 else matches / n_all


def sentence_gleu(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], min_len: int = 1,
                  max_len: int = 4) -> float:
    """NLTK's ``sentence_gleu`` (references first, token lists).

    >>> sentence_gleu([["the", "cat", "ate", "the", "mat"]], "the cat sat on the mat".split())
    0.3333333333333333
    """
    return corpus_gleu([references], [hypothesis], min_len, max_len, num_threads=1)
