"""NLTK 3.10.4's ``nltk.translate.bleu_score`` and ``gleu_score`` on refscore's compiled n-gram kernel.

Inputs are token lists, as in NLTK (any hashable tokens; a string counts as a sequence of characters, as in
NLTK). Tokens are interned to integer ids once per call and one GIL-free kernel call counts the clipped n-grams of
every segment; the per-order sums then follow NLTK exactly:

- BLEU: ``p_n = Fraction(Σ clipped, Σ max(1, hypothesis n-grams))`` (NLTK's per-segment ``max(1, ·)``), closest
  reference length with ties to the shorter, brevity penalty, the early ``0`` when no unigram matches, then the
  smoothing function on the corpus-level ``p_n`` and ``bp · exp(fsum(w · log p))`` for each weight tuple.
- The smoothing methods (:class:`SmoothingFunction`) act on the ``max(len(w))`` corpus-level fractions only, so
  they are NLTK's exact rational/float operations in NLTK's order (results are bit-identical), including
  ``method0``'s ``sys.float_info.min`` with NLTK's warning and the fact that ``corpus_bleu`` hands methods 4–7 the
  **last** segment's ``references`` and ``hypothesis``.
- GLEU: per segment the reference with the best ``tp / max(hyp n-grams, ref n-grams)`` (first on ties) adds its
  counts; ``Σ tp / Σ n_all`` (0.0 when nothing counts).

>>> from refscore.compat import nltk
>>> nltk.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], auto_reweigh=True)
1.0
>>> round(nltk.sentence_gleu(["the cat sat".split(), "a cat sat on the mat".split()],
...                          "the cat sat on the mat".split()), 4)
0.7778
"""
from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction as _Fraction
from itertools import chain, count
from typing import Any

import numpy as np

from refscore._core._ngrams import bleu_statistics, gleu_statistics
from refscore._checks import check_int
from refscore._offsets import offsets_from_lengths
from refscore.errors import InputError, InputTypeError

__all__ = ["Fraction", "SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu", "corpus_gleu",
           "modified_precision", "sentence_bleu", "sentence_gleu"]

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_TOKEN_LISTS = (list, tuple)
_SEQUENCES = (Sequence, np.ndarray)   # what NLTK's len() / slicing accept


class Fraction(_Fraction):
    """NLTK's ``Fraction``: ``numerator`` / ``denominator`` report the *unreduced* values (``_normalize=False``),
    which smoothing methods 1 and 2 rely on (``2/4`` with add-one is ``3/5``, not ``2/3``)."""

    def __new__(cls, numerator: int = 0, denominator: int | None = None, _normalize: bool = False) -> Fraction:
        self = super().__new__(cls, numerator, denominator)
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self) -> int:  # type: ignore[override]
        return super().numerator if self._normalize else self._original_numerator

    @property
    def denominator(self) -> int:  # type: ignore[override]
        return super().denominator if self._normalize else self._original_denominator


# -- counting -------------------------------------------------------------------------------------------------
def _as_segments(value: Any, name: str) -> list[Any]:
    if type(value) is list:
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputTypeError(f"{name} must be a list with one entry per segment, got {type(value).__name__}")
    return list(value)


def encode_token_lists(hypotheses: list[Any],
                       list_of_references: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intern every token once: ``(ids uint32, text offsets int64, reference offsets int64)``; texts ``0..n-1``
    are the hypotheses, then every segment's references in order."""
    if len(list_of_references) != len(hypotheses):
        raise InputError(f"{len(hypotheses)} hypotheses but {len(list_of_references)} reference lists: the number of "
                         f"hypotheses and their reference(s) should be the same")
    if not all(type(hypothesis) in _TOKEN_LISTS for hypothesis in hypotheses):   # fast path: lists / tuples
        for index, hypothesis in enumerate(hypotheses):
            if not isinstance(hypothesis, _SEQUENCES):
                raise InputTypeError(f"hypotheses[{index}] is {type(hypothesis).__name__}; give a list of tokens")
    for index, references in enumerate(list_of_references):
        if type(references) in _TOKEN_LISTS and all(type(reference) in _TOKEN_LISTS for reference in references):
            continue
        if isinstance(references, (str, bytes)) or not isinstance(references, _SEQUENCES):
            raise InputTypeError(f"list_of_references[{index}] is {type(references).__name__}; each entry must be "
                                 f"a list of references, each reference a list of tokens")
        for k, reference in enumerate(references):
            if not isinstance(reference, _SEQUENCES):
                raise InputTypeError(f"list_of_references[{index}][{k}] is {type(reference).__name__}; give a list "
                                     f"of tokens")
    ref_counts = np.zeros(len(hypotheses) + 1, dtype=np.int64)
    ref_counts[1:] = np.fromiter(map(len, list_of_references), dtype=np.int64, count=len(list_of_references))
    texts: list[Any] = [*hypotheses, *chain.from_iterable(list_of_references)]
    offsets = offsets_from_lengths(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))
    flat = list(chain.from_iterable(texts))
    try:
        vocabulary = dict(zip(dict.fromkeys(flat), count()))
    except TypeError as exc:
        raise InputTypeError(f"tokens must be hashable (strings, as in NLTK): {exc}") from None
    ids = np.fromiter(map(vocabulary.__getitem__, flat), dtype=np.uint32, count=len(flat))
    return ids, offsets, np.cumsum(ref_counts)


def _bleu_counts(list_of_references: Any, hypotheses: Any, max_order: int,
                 num_threads: int | None) -> np.ndarray:
    """Per segment ``hyp_len, closest ref_len, clipped_1..N, hyp_ngrams_1..N`` (int64)."""
    hyps = _as_segments(hypotheses, "hypotheses")
    refs = _as_segments(list_of_references, "list_of_references")
    ids, offsets, ref_offsets = encode_token_lists(hyps, refs)
    if 0 in map(len, refs):
        index = [len(group) for group in refs].index(0)
        raise InputError(f"list_of_references[{index}] is empty: every hypothesis needs at least one reference "
                         f"(NLTK fails on min() of no reference lengths)")
    return bleu_statistics(ids, offsets, ref_offsets, max_order, num_threads=num_threads)


def modified_precision(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], n: int) -> Fraction:
    """NLTK's ``modified_precision``: clipped n-gram matches over ``max(1, hypothesis n-grams)``, unreduced.

    >>> modified_precision([["a", "b"]], ["a", "a", "c"], 1)
    Fraction(1, 3)
    """
    counts = _bleu_counts([references], [hypothesis], n, num_threads=1)[0]
    return Fraction(int(counts[1 + n]), max(1, int(counts[1 + 2 * n])), _normalize=False)


def closest_ref_length(references: Sequence[Sequence[Any]], hyp_len: int) -> int:
    """NLTK's ``closest_ref_length``: the reference length closest to ``hyp_len``, the shorter on ties."""
    return min((len(reference) for reference in references), key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """NLTK's ``brevity_penalty``: 1 when the hypothesis is longer, 0 when empty, else ``exp(1 - r/c)``."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


# -- smoothing ------------------------------------------------------------------------------------------------
class SmoothingFunction:
    """NLTK's ``SmoothingFunction`` (Chen & Cherry 2014): ``method0`` … ``method7`` with ``epsilon``, ``alpha``
    and ``k``. Each method takes the corpus-level precisions ``p_n`` (a list of :class:`Fraction`) and NLTK's
    keyword arguments ``references``, ``hypothesis``, ``hyp_len`` and returns the smoothed list.

    >>> chencherry = SmoothingFunction()
    >>> round(sentence_bleu([["the", "cat", "sat"]], ["the", "cat", "ran"], smoothing_function=chencherry.method1), 6)
    0.240281
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: an order without matches becomes ``sys.float_info.min`` (BLEU ≈ 0), with NLTK's warning."""
        smoothed = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                smoothed.append(p_i)
            else:
                warnings.warn(f"\nThe hypothesis contains 0 counts of {i + 1}-gram overlaps.\nTherefore the BLEU "
                              f"score evaluates to 0, independently of\nhow many N-gram overlaps of lower order it "
                              f"contains.\nConsider using lower n-gram order or use SmoothingFunction()",
                              stacklevel=2)
                smoothed.append(sys.float_info.min)
        return smoothed

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """``(0 + epsilon) / denominator`` for orders without matches."""
        return [(p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i for p_i in p_n]

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add one to numerator and denominator of every order but unigrams (Lin & Och 2004)."""
        return [Fraction(p_n[i].numerator + 1, p_n[i].denominator + 1, _normalize=False) if i != 0 else p_n[0]
                for i in range(len(p_n))]

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """NIST geometric sequence: the k-th order without matches gets ``1 / (2**k * denominator)``."""
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2 ** incvnt * p_i.denominator)
                incvnt += 1
        return p_n

    def method4(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """Shorter hypotheses get more smoothing: ``1 / (2**k * K / ln(hyp_len)) / denominator`` (hyp_len > 1)."""
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2 ** incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """Average of the neighbouring orders (``m[-1] = p_1 + 1``; order 5 of ``hypothesis`` added at the end)."""
        m = {}
        p_n_plus1 = p_n + [modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """Interpolation with the prior ``p_{n-1}**2 / p_{n-2}`` (Gao & He 2013), ``alpha``, orders >= 3."""
        if len(p_n) < 3 or not p_n[2]:
            raise InputError("SmoothingFunction.method6 requires a non-zero precision for trigrams (NLTK: 'This "
                             "smoothing method requires non-zero precision for bigrams.'); use another method")
        for i, p_i in enumerate(p_n):
            if i in (0, 1):
                continue
            pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            ngram_count = max(0, len(hypothesis) - i)   # NLTK: sum(1 for _ in ngrams(hypothesis, i + 1))
            p_n[i] = (p_i.numerator + self.alpha * pi0) / (ngram_count + self.alpha)
        return p_n

    def method7(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """``method4`` then ``method5``."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        return self.method5(p_n, references, hypothesis, hyp_len)


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
    max_weight_length = max(len(weight) for weight in weights)
    if max_weight_length == 0:
        return 0 if len(weights) == 1 else [0] * len(weights)
    counts = _bleu_counts(list_of_references, hypotheses, max_weight_length, num_threads)
    if len(counts) == 0:
        raise InputError("corpus_bleu: hypotheses is empty (NLTK raises ZeroDivisionError); give at least one "
                         "segment")
    order = max_weight_length
    np.maximum(counts[:, 2 + order:], 1, out=counts[:, 2 + order:])   # NLTK's per-segment max(1, ·)
    sums = counts.sum(0).tolist()
    hyp_lengths, ref_lengths = sums[0], sums[1]
    p_numerators, p_denominators = sums[2:2 + order], sums[2 + order:]
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    p_n = [Fraction(numerator, denominator, _normalize=False)
           for numerator, denominator in zip(p_numerators, p_denominators)]
    if p_numerators[0] == 0:
        return 0 if len(weights) == 1 else [0] * len(weights)
    if not smoothing_function:
        smoothing_function = SmoothingFunction().method0
    references, hypothesis = list_of_references[-1], hypotheses[-1]   # NLTK passes the last loop iteration's
    p_n = smoothing_function(p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_lengths)
    bleu_scores = []
    for weight in weights:
        if auto_reweigh and hyp_lengths < 4 and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        log_sum = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        bleu_scores.append(bp * math.exp(log_sum))
    return bleu_scores[0] if len(weights) == 1 else bleu_scores


def sentence_bleu(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], weights: Any = DEFAULT_WEIGHTS,
                  smoothing_function: Callable[..., list[Any]] | None = None,
                  auto_reweigh: bool = False) -> float | list[float]:
    """NLTK's ``sentence_bleu`` (references first, token lists).

    >>> sentence_bleu([["left", "right"]], ["left", "right"])   # NLTK's method0: tiny, not 0 (with a warning)
    1.491668146240062e-154
    """
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
    hyps = _as_segments(hypotheses, "hypotheses")
    ids, offsets, ref_offsets = encode_token_lists(hyps, _as_segments(list_of_references, "list_of_references"))
    if max_len < min_len or not hyps:
        return 0.0   # NLTK: no n-gram of any order counts
    matches, n_all = (int(v) for v in gleu_statistics(ids, offsets, ref_offsets, int(min_len), int(max_len),
                                                      num_threads=num_threads).sum(0))
    return 0.0 if n_all == 0 else matches / n_all


def sentence_gleu(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], min_len: int = 1,
                  max_len: int = 4) -> float:
    """NLTK's ``sentence_gleu`` (references first, token lists).

    >>> sentence_gleu([["the", "cat", "ate", "the", "mat"]], "the cat sat on the mat".split())
    0.3333333333333333
    """
    return corpus_gleu([references], [hypothesis], min_len, max_len, num_threads=1)
