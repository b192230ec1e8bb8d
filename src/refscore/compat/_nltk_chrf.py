"""NLTK's ``nltk.translate.chrf_score`` (``sentence_chrf``, ``corpus_chrf``) on refscore's compiled core.

NLTK's chrF is a different algorithm from sacreBLEU's: β=3, character n-grams of orders ``min_len..max_len``
(whitespace removed with the ``regex`` module's ``\\s``), one reference per hypothesis, per-order F-scores with
1e-16 where undefined (no match), and the corpus score is the **mean of sentence scores** (macro average): the
counts and the formula are :mod:`refscore.metrics.chrf`'s (``nltk_chrf_statistics``, ``nltk_chrf_from_statistics``).
Inputs are strings or token lists (joined with spaces), reference first, as in NLTK.

>>> from refscore.compat import nltk
>>> hyp = "the cat is on the mat".split()
>>> round(nltk.sentence_chrf("the cat sat on the mat".split(), hyp), 6)
0.615037
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from refscore.checks import check_int
from refscore.errors import InputError, InputTypeError
from refscore.metrics.chrf import nltk_chrf_from_statistics, nltk_chrf_statistics

__all__ = ["chrf_precision_recall_fscore_support", "corpus_chrf", "sentence_chrf"]



def _as_text(value: Any, where: str) -> str:
    """NLTK's ``_preprocess`` join: a string stays, a token list becomes ``" ".join(tokens)``."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(token, str) for token in value):
        return " ".join(value)
    hint = ("NLTK's chrF takes one reference per hypothesis" if isinstance(value, (list, tuple))
            else "give a string or a list of token strings")
    raise InputTypeError(f"{where} is {value!r:.60} ({type(value).__name__}); {hint}")


def _check_orders(min_len: Any, max_len: Any) -> None:
    for name, value in (("min_len", min_len), ("max_len", max_len)):
        check_int(value, name, minimum=1, owner="chrF")
    if min_len > max_len:
        raise InputError(f"chrF: min_len ({min_len}) must not exceed max_len ({max_len}): no n-gram order to score")


def corpus_chrf(references: Sequence[Any], hypotheses: Sequence[Any], min_len: int = 1, max_len: int = 6,
                beta: float = 3.0, ignore_whitespace: bool = True, *, num_threads: int | None = None) -> float:
    """NLTK's ``corpus_chrf``: the mean over segments of the mean over orders of per-order F-beta.

    >>> corpus_chrf(["a b", "c"], ["a b", "d"], max_len=1)
    0.5
    """
    for name, value in (("references", references), ("hypotheses", hypotheses)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise InputTypeError(f"chrF: {name} must be a list with one item per segment, got {type(value).__name__}")
    if len(references) != len(hypotheses):
        raise InputError(f"chrF: {len(references)} references but {len(hypotheses)} hypotheses; the number of "
                         f"hypotheses and their references should be the same")
    if not hypotheses:
        raise InputError("chrF: hypotheses is empty: give at least one segment")
    _check_orders(min_len, max_len)
    refs = [_as_text(ref, f"references[{i}]") for i, ref in enumerate(references)]
    hyps = [_as_text(hyp, f"hypotheses[{i}]") for i, hyp in enumerate(hypotheses)]
    data = nltk_chrf_statistics(hyps, refs, max_len, beta, ignore_whitespace, num_threads=num_threads)
    return nltk_chrf_from_statistics(data, min_len, max_len, beta)


def sentence_chrf(reference: Any, hypothesis: Any, min_len: int = 1, max_len: int = 6, beta: float = 3.0,
                  ignore_whitespace: bool = True) -> float:
    """NLTK's ``sentence_chrf`` (reference first).

    >>> sentence_chrf("a b", "a b")  # NLTK: orders 3..6 have no n-gram in "ab" and score 1e-16
    0.3333333333333333
    """
    return corpus_chrf([reference], [hypothesis], min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace,
                       num_threads=1)


def chrf_precision_recall_fscore_support(reference: Sequence[Any], hypothesis: Sequence[Any], n: int,
                                         beta: float = 3.0, epsilon: float = 1e-16) -> tuple[float, float, float, int]:
    """NLTK's helper: precision, recall, F-beta and the number of matching order-``n`` n-grams of two sequences
    (characters of a string, or any items); all three are ``epsilon`` when one is undefined (division by zero).

    >>> chrf_precision_recall_fscore_support("abcd", "abce", 2)
    (0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 2)
    """
    ref_ngrams = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    hyp_ngrams = Counter(tuple(hypothesis[i:i + n]) for i in range(len(hypothesis) - n + 1))
    tp = sum((ref_ngrams & hyp_ngrams).values())
    tpfp = sum(hyp_ngrams.values())
    tpfn = sum(ref_ngrams.values())
    try:
        prec = tp / tpfp
        rec = tp / tpfn
        factor = beta ** 2
        fscore = (1 + factor) * (prec * rec) / (factor * prec + rec)
    except ZeroDivisionError:
        prec = rec = fscore = epsilon
    return prec, rec, fscore, tp
