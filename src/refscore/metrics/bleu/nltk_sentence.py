"""The per-call fast path of NLTK's ``sentence_bleu`` (:func:`refscore.compat.nltk.sentence_bleu`): one
compiled count of the token lists (``TokenPairCounter``: no id arrays, no statistics table) and NLTK's formula on
floats (``nltk_sentence_score``, compiled) for the common smoothing settings, with NLTK's values bit for bit
(tests/test_compat_nltk_fast_path.py).
"""
from __future__ import annotations

from typing import Any

from refscore._core._bleu import nltk_sentence_score
from refscore._core._ngrams import TokenPairCounter
from refscore.metrics.bleu.flavors import NLTK_DEFAULT_WEIGHTS, SmoothingFunction

__all__ = ["nltk_sentence_bleu"]

_COUNTERS: dict[int, TokenPairCounter] = {}
#: Longest weight tuple the fast path counts for (one counter per order is kept).
_MAX_ORDER = 16


def nltk_sentence_bleu(references: Any, hypothesis: Any, weights: Any, smoothing_function: Any,
                        auto_reweigh: bool) -> float | int | None:
    """NLTK's ``sentence_bleu(references, hypothesis, weights, smoothing_function, auto_reweigh)`` per call, or None
    when the call is not one this path takes (weight tuples, other smoothing functions, method0 with an order
    without matches and its warning, other layouts: the caller's batch path). It is NLTK's ``corpus_bleu`` of one
    segment: ``p_n = Fraction(match_n, max(1, total_n))``, the early ``0`` without unigram matches, the smoothing
    method, then ``bp * exp(fsum(w_n * log(p_n) for p_n > 0))``. The floats equal NLTK's: ``float(p_n)`` is the
    correctly rounded ``match_n / max(1, total_n)`` either way.

    >>> nltk_sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "c", "d"], NLTK_DEFAULT_WEIGHTS, None, False)
    1.0
    >>> nltk_sentence_bleu([["a", "b"]], ["a", "b"], ((0.5, 0.5), (1.0,)), None, False) is None   # tuples
    True
    """
    kind = type(weights)
    if kind is not tuple and kind is not list:
        return None   # weights of other types (NLTK also takes a list of weight tuples: several scores)
    if smoothing_function is None:
        method, epsilon = 0, None
    elif type(getattr(smoothing_function, "__self__", None)) is SmoothingFunction:
        function = smoothing_function.__func__
        if function is SmoothingFunction.method1:
            method, epsilon = 1, smoothing_function.__self__.epsilon
        elif function is SmoothingFunction.method2:
            method, epsilon = 2, None
        else:
            return None
    else:
        return None
    order = len(weights)
    counter = _COUNTERS.get(order)
    if counter is None:
        if not 1 <= order <= _MAX_ORDER:
            return None
        counter = _COUNTERS[order] = TokenPairCounter(order)
    row = counter.counts(hypothesis, references)
    if row is None:
        return None
    return nltk_sentence_score(row, weights, method, epsilon, auto_reweigh, NLTK_DEFAULT_WEIGHTS)
