"""The per-call fast path of NLTK's ``sentence_bleu`` (:func:`refscore.compat.nltk.sentence_bleu`): one
compiled count of the token lists (``TokenPairCounter``: no id arrays, no statistics table) and NLTK's formula on
floats for the common smoothing settings, with NLTK's values bit for bit (tests/test_compat_nltk_fast_path.py).
"""
from __future__ import annotations

import math
from typing import Any

from refscore._core._ngrams import TokenPairCounter
from refscore.metrics.bleu.flavors import NLTK_DEFAULT_WEIGHTS, SmoothingFunction, brevity_penalty

__all__ = ["nltk_sentence_bleu"]

_COUNTERS: dict[int, TokenPairCounter] = {}
_NUMBERS = (float, int)


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
    if (kind is not tuple and kind is not list) or not weights:
        return None
    for weight in weights:
        if type(weight) not in _NUMBERS:
            return None   # weight tuples (several scores), or weights of other types
    method = -1
    if smoothing_function is None:
        method = 0
    elif type(getattr(smoothing_function, "__self__", None)) is SmoothingFunction:
        function = smoothing_function.__func__
        method = 1 if function is SmoothingFunction.method1 else 2 if function is SmoothingFunction.method2 else -1
    if method < 0:
        return None
    order = len(weights)
    counter = _COUNTERS.get(order)
    if counter is None:
        counter = _COUNTERS[order] = TokenPairCounter(order)
    row = counter.counts(hypothesis, references)
    if row is None:
        return None
    matches = row[2:2 + order]
    if matches[0] == 0:
        return 0
    totals = [total if total > 1 else 1 for total in row[2 + order:]]   # NLTK's max(1, ·)
    if method == 0:
        if 0 in matches:
            return None   # method0's warning, from the batch path
        p_n = [m / t for m, t in zip(matches, totals)]
    elif method == 1:
        epsilon = smoothing_function.__self__.epsilon
        p_n = [m / t if m else (m + epsilon) / t for m, t in zip(matches, totals)]
    else:
        p_n = [matches[0] / totals[0]] + [(m + 1) / (t + 1) for m, t in zip(matches[1:], totals[1:])]
    hyp_len = row[0]
    if auto_reweigh and hyp_len < 4 and weights == NLTK_DEFAULT_WEIGHTS:
        weights = (1 / hyp_len,) * hyp_len
    log_sum = math.fsum([w_i * math.log(p_i) for w_i, p_i in zip(weights, p_n) if p_i > 0])
    return brevity_penalty(row[1], hyp_len) * math.exp(log_sum)
