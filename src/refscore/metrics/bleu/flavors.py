"""BLEU's flavors besides sacreBLEU's: NLTK 3.10.4's ``corpus_bleu`` and Hugging Face evaluate's ``bleu`` script
(tensorflow/nmt ``compute_bleu``), each the formula of :class:`~refscore.metrics.bleu.BLEU` with ``flavor=`` set.

All three flavors count the same per-segment statistics (``hyp_len``, ``ref_len``, ``match_1..N``,
``total_1..N``) with the compiled n-gram kernel; they differ where the peers differ:

- ``"sacrebleu"`` (the default): :func:`refscore.metrics.bleu.formula.bleu_from_counts`.
- ``"nltk"``: token lists in (any hashable tokens), ``total_n = max(1, hypothesis n-grams)`` per segment (NLTK's
  ``max(1, ·)``), the closest reference length (ties to the shorter); then :func:`nltk_bleu_from_sums`: the early
  ``0`` when no unigram matches, NLTK's :class:`SmoothingFunction` on the corpus-level :class:`Fraction` ``p_n``
  and ``bp · exp(fsum(w · log p))`` per weight tuple. NLTK hands smoothing methods 4–7 the **last** segment's
  ``references`` and ``hypothesis``; so does this flavor.
- ``"evaluate"``: HF's copy of 13a (:data:`HF_13A`, sacreBLEU's without its strip of trailing whitespace), the
  **shortest** reference length, then :func:`nmt_bleu_from_sums`: ``smooth`` adds one to the matches and n-grams
  of every order (unigrams too), the geometric mean is 0 when a precision is 0, and ratio and brevity penalty are
  0.0 when either length is 0 (HF's fix of evaluate#601).

>>> metric_sums = [3, 3, 3, 2, 1, 0, 3, 2, 1, 1]   # hyp_len, ref_len, match_1..4, total_1..4 (max(1, ·))
>>> nltk_bleu_from_sums(metric_sums, [(0.5, 0.5)], SmoothingFunction().method1, False, None, None)
[1.0]
>>> round(nmt_bleu_from_sums(metric_sums, 4, smooth=True).bleu, 6)
0.840896
"""
from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction as _Fraction
from itertools import chain, count
from typing import Any, NamedTuple

import numpy as np

from refscore.checks import check_bool, check_choice
from refscore._core._ngrams import bleu_statistics, bleu_text_statistics
from refscore.inputs import prepare_batch
from refscore._offsets import offsets_from_lengths
from refscore.errors import InputError, InputTypeError
from refscore.metrics.word_batch import check_bleu_table, encode_batch
from refscore.text.tokenizer_registry import HF_13A   # the registry's name of HF's copy of 13a

__all__ = ["as_segments", "BLEU_FLAVORS", "brevity_penalty", "check_flavor_options", "closest_ref_length",
           "encode_token_lists", "evaluate_text_counts", "FLAVOR_FIELDS", "Fraction", "HF_13A", "modified_precision",
           "nltk_bleu_from_sums", "NLTK_DEFAULT_WEIGHTS", "nmt_bleu_from_sums", "NmtBLEU", "smoothing_name",
           "SmoothingFunction", "token_list_counts"]

#: The BLEU flavors, the default first.
BLEU_FLAVORS = ("sacrebleu", "nltk", "evaluate")
#: NLTK's default ``weights``.
NLTK_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_TOKEN_LISTS = (list, tuple)
_SEQUENCES = (Sequence, np.ndarray)   # what NLTK's len() / slicing accept


#: The config fields of one flavor only, and their defaults (sacreBLEU's fields are the others).
FLAVOR_FIELDS: dict[str, tuple[str, Any]] = {"weights": ("nltk", None), "smoothing_function": ("nltk", None),
                                             "auto_reweigh": ("nltk", False), "smooth": ("evaluate", False)}
#: sacreBLEU's config fields and their defaults: the other flavors count and score as their peers do.
_SACREBLEU_FIELDS: dict[str, Any] = {"tokenize": "13a", "lowercase": False, "smooth_method": "exp",
                                     "smooth_value": None, "effective_order": False, "spm_model": None}


def check_flavor_options(config: Any) -> None:
    """Check a :class:`~refscore.metrics.bleu.BLEUConfig`'s flavor and that every option set applies to it; the
    ``nltk`` flavor's ``weights`` default to NLTK's and set ``max_order`` (the longest weight tuple)."""
    check_choice(config.flavor, "flavor", BLEU_FLAVORS, owner="BLEU")
    object.__setattr__(config, "auto_reweigh", check_bool(config.auto_reweigh, "auto_reweigh", owner="BLEU"))
    object.__setattr__(config, "smooth", check_bool(config.smooth, "smooth", owner="BLEU"))
    for name, (flavor, default) in FLAVOR_FIELDS.items():
        if getattr(config, name) is not default and config.flavor != flavor:
            raise InputError(f"BLEU: {name} applies to flavor={flavor!r}, not flavor={config.flavor!r}; drop it or "
                             f"set flavor={flavor!r}")
    if config.flavor == "sacrebleu":
        return
    for name, default in _SACREBLEU_FIELDS.items():
        if getattr(config, name) != default:
            raise InputError(f"BLEU: {name} applies to flavor='sacrebleu', not flavor={config.flavor!r} (it counts "
                             f"and scores as its peer does); drop {name}")
    if config.smoothing_function is not None and not callable(config.smoothing_function):
        raise InputTypeError(f"BLEU: smoothing_function must be callable (e.g. SmoothingFunction().method1) or None, "
                             f"got {type(config.smoothing_function).__name__}")
    if config.flavor == "nltk":
        weights = (NLTK_DEFAULT_WEIGHTS,) if config.weights is None else config.weights
        try:
            longest = max(len(weight) for weight in weights)
        except (TypeError, ValueError):
            raise InputTypeError("BLEU: weights must be a tuple of weight tuples, e.g. ((0.5, 0.5),)") from None
        if longest == 0:
            raise InputError("BLEU: weights are all empty: give at least one weight")
        if config.max_order not in (4, longest):
            raise InputError(f"BLEU: flavor='nltk' takes its order from the weights ({longest}), not max_order="
                             f"{config.max_order}; drop max_order")
        object.__setattr__(config, "weights", tuple(weights))
        object.__setattr__(config, "max_order", longest)


def smoothing_name(smoothing_function: Any) -> str:
    """The name of an NLTK smoothing function for signatures: ``method0`` (None) ... ``method7``, or its own."""
    if smoothing_function is None:
        return "method0"
    return str(getattr(smoothing_function, "__name__", type(smoothing_function).__name__))


class Fraction(_Fraction):
    """NLTK's ``Fraction``: ``numerator`` / ``denominator`` report the *unreduced* values (``_normalize=False``),
    which smoothing methods 1 and 2 rely on (``2/4`` with add-one is ``3/5``, not ``2/3``)."""

    _normalize: bool
    _original_numerator: int
    _original_denominator: int | None

    def __new__(cls, numerator: int = 0, denominator: int | None = None, _normalize: bool = False) -> Fraction:
        self = super().__new__(cls, numerator, denominator)
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self) -> int:
        return super().numerator if self._normalize else self._original_numerator

    @property
    def denominator(self) -> int:
        if self._normalize:
            return super().denominator
        return self._original_denominator  # type: ignore[return-value]  # None as NLTK's, when built without one


# -- counting token lists --------------------------------------------------------------------------------------
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


def as_segments(value: Any, name: str) -> list[Any]:
    """``value`` as a list of segments (NLTK's corpus arguments), or an error naming ``name``."""
    if type(value) is list:
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputTypeError(f"{name} must be a list with one entry per segment, got {type(value).__name__}")
    return list(value)


def token_list_counts(hypotheses: Any, list_of_references: Any, max_order: int, *, shortest_ref: bool = False,
                      num_threads: int | None = None) -> np.ndarray:
    """BLEU's per-segment rows ``hyp_len, ref_len, match_1..N, total_1..N`` (int64) of token lists (NLTK's layout:
    a token list per hypothesis, a list of token lists per segment); ``ref_len`` is the closest reference length
    (ties to the shorter), or the shortest with ``shortest_ref``.

    >>> token_list_counts([["a", "b"]], [[["a", "c"], ["a"]]], 2).tolist()
    [[2, 2, 1, 0, 2, 1]]
    """
    hyps = as_segments(hypotheses, "hypotheses")
    refs = as_segments(list_of_references, "list_of_references")
    ids, offsets, ref_offsets = encode_token_lists(hyps, refs)
    if 0 in map(len, refs):
        index = [len(group) for group in refs].index(0)
        raise InputError(f"list_of_references[{index}] is empty: every hypothesis needs at least one reference "
                         f"(NLTK and tensorflow/nmt fail on min() of no reference lengths)")
    counts = bleu_statistics(ids, offsets, ref_offsets, max_order, num_threads=num_threads)
    if shortest_ref:
        counts[:, 1] = np.minimum.reduceat(np.diff(offsets)[len(ref_offsets) - 1:], ref_offsets[:-1])
    return counts


def evaluate_text_counts(hypotheses: Any, references: Any, max_order: int, *,
                         num_threads: int | None = None) -> tuple[np.ndarray, int]:
    """The ``evaluate`` flavor's rows of text (HF's 13a) or token ids, with the **shortest** reference length:
    ``(int64 rows, nrefs)``; text is tokenized and counted in one compiled pass."""
    batch = prepare_batch(hypotheses, references, allow_token_ids=True)
    check_bleu_table(len(batch.hypotheses), max_order)
    if np.any(batch.ref_offsets[1:] == batch.ref_offsets[:-1]):
        raise InputError("bleu: every prediction needs at least one reference (tensorflow/nmt takes the min of the "
                         "reference lengths)")
    if not batch.is_token_ids:
        return bleu_text_statistics(batch.hypotheses, batch.references, batch.ref_offsets, HF_13A, False,
                                    max_order, num_threads=num_threads, shortest_ref=True), batch.nrefs
    ids, offsets = encode_batch(batch, tokenize=HF_13A, lowercase=False, num_threads=num_threads)
    counts = bleu_statistics(ids, offsets, batch.ref_offsets, max_order, num_threads=num_threads)
    counts[:, 1] = np.minimum.reduceat(np.diff(offsets)[len(batch.ref_offsets) - 1:], batch.ref_offsets[:-1])
    return counts, batch.nrefs


def modified_precision(references: Sequence[Sequence[Any]], hypothesis: Sequence[Any], n: int) -> Fraction:
    """NLTK's ``modified_precision``: clipped n-gram matches over ``max(1, hypothesis n-grams)``, unreduced.

    >>> modified_precision([["a", "b"]], ["a", "a", "c"], 1)
    Fraction(1, 3)
    """
    counts = token_list_counts([hypothesis], [references], n, num_threads=1)[0]
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


# -- NLTK ------------------------------------------------------------------------------------------------------
class SmoothingFunction:
    """NLTK's ``SmoothingFunction`` (Chen & Cherry 2014): ``method0`` … ``method7`` with ``epsilon``, ``alpha``
    and ``k``. Each method takes the corpus-level precisions ``p_n`` (a list of :class:`Fraction`) and NLTK's
    keyword arguments ``references``, ``hypothesis``, ``hyp_len`` and returns the smoothed list.

    >>> SmoothingFunction().method1([Fraction(2, 3, _normalize=False), Fraction(0, 2, _normalize=False)])
    [Fraction(2, 3), 0.05]
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


def nltk_bleu_from_sums(sums: Sequence[int], weights: Sequence[tuple[float, ...]],
                        smoothing_function: Callable[..., list[Any]] | None, auto_reweigh: bool,
                        references: Any, hypothesis: Any) -> list[float]:
    """NLTK's ``corpus_bleu`` after its counting loop, one score per weight tuple: ``sums`` are the summed rows
    ``hyp_len, ref_len, match_1..N, total_1..N`` (``total_n`` summed as ``max(1, ·)`` per segment, ``N`` the longest
    weight tuple); ``references`` and ``hypothesis`` are the last segment's token lists, which NLTK hands the
    smoothing function (methods 5–7 read them). Returns NLTK's values, the int ``0`` when no unigram matches."""
    order = (len(sums) - 2) // 2
    hyp_lengths, ref_lengths = int(sums[0]), int(sums[1])
    p_numerators, p_denominators = [int(v) for v in sums[2:2 + order]], [int(v) for v in sums[2 + order:]]
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    p_n = [Fraction(numerator, denominator, _normalize=False)
           for numerator, denominator in zip(p_numerators, p_denominators)]
    if p_numerators[0] == 0:
        return [0] * len(weights)
    if not smoothing_function:
        smoothing_function = SmoothingFunction().method0
    p_n = smoothing_function(p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_lengths)
    scores = []
    for weight in weights:
        if auto_reweigh and hyp_lengths < 4 and weight == NLTK_DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        log_sum = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        scores.append(bp * math.exp(log_sum))
    return scores


# -- Hugging Face evaluate (tensorflow/nmt) ---------------------------------------------------------------------
class NmtBLEU(NamedTuple):
    """tensorflow/nmt ``compute_bleu``'s values as HF's ``bleu`` script returns them (0–1 scale)."""

    bleu: float
    precisions: list[float]
    brevity_penalty: float
    length_ratio: float


def nmt_bleu_from_sums(sums: Sequence[int], max_order: int, *, smooth: bool = False) -> NmtBLEU:
    """tensorflow/nmt ``compute_bleu`` (HF's ``metrics/bleu/nmt_bleu.py``) on the summed rows ``translation_length,
    reference_length (shortest), matches_1..N, possible_1..N``."""
    translation_length, reference_length = int(sums[0]), int(sums[1])
    matches = [int(v) for v in sums[2:2 + max_order]]
    possible = [int(v) for v in sums[2 + max_order:2 + 2 * max_order]]
    if smooth:
        precisions = [(m + 1.) / (p + 1.) for m, p in zip(matches, possible)]
    else:
        precisions = [float(m) / p if p > 0 else 0.0 for m, p in zip(matches, possible)]
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1. / max_order) * math.log(p) for p in precisions))
    else:
        geo_mean = 0
    if reference_length == 0 or translation_length == 0:
        ratio, bp = 0.0, 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return NmtBLEU(geo_mean * bp, precisions, bp, ratio)
