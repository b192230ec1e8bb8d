"""sacreBLEU 2.6's BLEU API (``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, class ``BLEU``) on refscore.

References use sacreBLEU's *stream* layout (``refs[k][i]``, ``None`` where segment ``i`` has no k-th reference).
Scores are on sacreBLEU's 0–100 scale; results are :class:`BLEUScore` objects with sacreBLEU's attributes and
printing, and ``get_signature()`` is sacreBLEU's signature.

>>> from refscore.compat import sacrebleu
>>> print(sacrebleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"], ["a cat sat on the mat"]]))
BLEU = 95.54 83.3/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)
>>> metric = sacrebleu.BLEU(smooth_method="floor")
>>> round(metric.sentence_score("the cat sat", ["the dog sat"]).score, 2)
0.0
>>> print(metric.get_signature())
nrefs:1|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0
"""
from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from refscore.lazy import import_entry
from refscore.compat._sacrebleu_base import SacreMetric, SacreScore, SacreSignature
from refscore.metrics.advice import looks_tokenized
from refscore.metrics.bleu import BLEU as _RefscoreBLEU
from refscore.metrics.bleu import SMOOTH_DEFAULTS, sacrebleu_reported_counts
from refscore.metrics.bleu.formula import bleu_score_one
from refscore.protocol import metric_with
from refscore.errors import InputError
from refscore.text.external import EXTERNAL_TOKENIZERS, tokenizer_signature

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]

#: sacreBLEU logs its advice (tokenized periods, sentence-level effective order) on this logger.
_logger = logging.getLogger("sacrebleu")
#: sacreBLEU's maximum n-gram order default (``sacrebleu.metrics.bleu.MAX_NGRAM_ORDER``).
MAX_NGRAM_ORDER = 4
#: sacreBLEU's tokenizer names -> the drop-in tokenizer classes (``BLEU().tokenizer``).
_TOKENIZER_CLASSES = {
    "none": "tokenizer_none:NoneTokenizer", "zh": "tokenizer_zh:TokenizerZh", "13a": "tokenizer_13a:Tokenizer13a",
    "intl": "tokenizer_intl:TokenizerV14International", "char": "tokenizer_char:TokenizerChar",
    "ja-mecab": "tokenizer_ja_mecab:TokenizerJaMecab", "ko-mecab": "tokenizer_ko_mecab:TokenizerKoMecab",
    "spm": "tokenizer_spm:TokenizerSPM", "flores101": "tokenizer_spm:Flores101Tokenizer",
    "flores200": "tokenizer_spm:Flores200Tokenizer", "spBLEU-1K": "tokenizer_spm:spBLEU1KTokenizer",
}


def tokenizer_for(name: str) -> Any:
    """A new instance of sacreBLEU's tokenizer class ``name`` (the drop-in's copy)."""
    return import_entry(f"refscore.compat.sacrebleu.tokenizers.{_TOKENIZER_CLASSES[name]}")()


class BLEUScore(SacreScore):
    """sacreBLEU's ``BLEUScore``: ``score``, ``counts``, ``totals``, ``precisions`` (0–100), ``bp``, ``sys_len``,
    ``ref_len``, ``ratio``; ``str()`` is sacreBLEU's line (``BLEU = 34.67 66.7/50.0/... (BP = ...)``)."""

    def __init__(self, score: float, counts: list, totals: list, precisions: list[float], bp: float,
                 sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in self.precisions)
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0
        self._verbose = (f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} "
                         f"ref_len = {self.ref_len:d})")


class BLEUSignature(SacreSignature):
    """sacreBLEU's BLEU signature: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""


class BLEU(SacreMetric):
    """Drop-in for ``sacrebleu.metrics.BLEU``: the same constructor, ``corpus_score(hyps, refs, n_bootstrap=1)``,
    ``sentence_score(hyp, refs)`` and ``get_signature()``.

    Tokenizers: sacreBLEU's ``TOKENIZERS`` (``13a`` the default; ``ja-mecab``, ``ko-mecab`` and the SentencePiece
    ones need the extras ``ja``, ``ko``, ``spm``); ``trg_lang='zh'``/``'ja'``/``'ko'`` picks ``zh``/``ja-mecab``/
    ``ko-mecab`` as sacreBLEU does.
    Bootstrap replicates (``n_bootstrap > 1``) use sacreBLEU's float32 arithmetic (see ``docs/significance.md``).
    """

    SMOOTH_DEFAULTS = dict(SMOOTH_DEFAULTS)
    #: sacreBLEU's tokenizer names, in its order (compiled ones and those of :mod:`refscore.text.external`).
    TOKENIZERS = tuple(_TOKENIZER_CLASSES)
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _signature_class = BLEUSignature
    _omitted_fields = ("order",)  # refscore records a non-default max order; sacreBLEU's signature does not

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: str | None = None,
                 smooth_method: str = "exp", smooth_value: float | None = None, max_ngram_order: int = 4,
                 effective_order: bool = False, trg_lang: str = "",
                 references: Sequence[Sequence[str | None]] | None = None) -> None:
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            for lang, best in (("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab")):
                if trg_lang == lang and tokenize != best:
                    extra = "'zh' or 'spm'" if lang == "zh" else f"'{best}' or 'spm'"
                    name = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[lang]
                    _logger.warning(f"Consider using the {extra} tokenizer for {name}.")
        # sacreBLEU's tokenizer.signature(): the MeCab version / SentencePiece model name for those tokenizers
        self.tokenizer_signature = tokenizer_signature(tokenize) if tokenize in EXTERNAL_TOKENIZERS else tokenize
        super().__init__(metric_with(_RefscoreBLEU, {
            "tokenize": tokenize, "lowercase": lowercase, "smooth_method": smooth_method,
            "smooth_value": smooth_value, "max_order": max_ngram_order, "effective_order": effective_order}),
            references)
        self.tokenizer = tokenizer_for(tokenize)  # after the metric: an unknown name gets the metric's error

    @staticmethod
    def compute_bleu(correct: list, total: list, sys_len: int, ref_len: int, smooth_method: str = "none",
                     smooth_value: float | None = None, effective_order: bool = False,
                     max_ngram_order: int = MAX_NGRAM_ORDER) -> BLEUScore:
        """sacreBLEU's ``BLEU.compute_bleu``: the score of summed statistics (matches ``correct`` and n-gram counts
        ``total`` per order, lengths). As sacreBLEU, ``add-k`` adds its value to ``correct``/``total`` in place.

        >>> BLEU.compute_bleu([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, smooth_method="exp", effective_order=True).score
        62.996052494743665
        """
        if smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise InputError(f"compute_bleu: unknown smooth_method {smooth_method!r}; choose one of "
                             f"{', '.join(BLEU.SMOOTH_DEFAULTS)}")
        value = BLEU.SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
        score, precisions, bp = bleu_score_one(list(correct[:max_ngram_order]), list(total[:max_ngram_order]),
                                               sys_len, ref_len, smooth_method, float(value or 0.0),
                                               effective_order)
        if len(correct) > max_ngram_order:   # sacreBLEU's loop reads the first max_ngram_order orders
            head_correct, head_total = correct[:max_ngram_order], total[:max_ngram_order]
            sacrebleu_reported_counts(head_correct, head_total, smooth_method, smooth_value)
            correct[:max_ngram_order], total[:max_ngram_order] = head_correct, head_total
        else:
            sacrebleu_reported_counts(correct, total, smooth_method, smooth_value)
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    def _warn_corpus(self, hypotheses: Sequence[str]) -> None:
        if not self._force and looks_tokenized(hypotheses):   # sacreBLEU logs it (no Python warning)
            _logger.warning("That's 100 lines that end in a tokenized period ('.')")
            _logger.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")
            _logger.warning("If you insist your data is detokenized, or don't care, you can suppress this message "
                            "with the `force` parameter.")

    def _scores(self, totals: np.ndarray) -> list[BLEUScore]:
        """sacreBLEU's compiled formula, row by row, without numpy (a corpus or sentence score)."""
        return [self._row_score(row) for row in totals.tolist()]

    def _row_score(self, row: list[int]) -> BLEUScore:
        order, config = self.max_ngram_order, self._metric.config
        score, precisions, bp = bleu_score_one(row[2:2 + order], row[2 + order:], row[0], row[1],
                                               config.smooth_method, self._smooth_value, config.effective_order)
        counts, order_totals = row[2:2 + order], row[2 + order:]
        sacrebleu_reported_counts(counts, order_totals, config.smooth_method, config.smooth_value)
        return BLEUScore(score, counts, order_totals, precisions, bp, int(row[0]), int(row[1]))

    @property
    def _smooth_value(self) -> float:
        return float(self._metric.config.resolved_smooth_value or 0.0)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """BLEU of one hypothesis against its references (sacreBLEU recommends ``effective_order=True`` here).
        A ``str`` hypothesis and a list of ``str`` references take refscore's per-call fast path
        (:meth:`refscore.BLEU.sentence_row`: one compiled call), with the same numbers."""
        if not self.effective_order:
            _logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        if type(references) is list and None not in references:
            row = cast(_RefscoreBLEU, self._metric).sentence_row(hypothesis, references)
            if row is not None:
                self.num_refs = len(references)
                return self._row_score(row)
        return super().sentence_score(hypothesis, references)


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], smooth_method: str = "exp",
                smooth_value: float | None = None, force: bool = False, lowercase: bool = False,
                tokenize: str = BLEU.TOKENIZER_DEFAULT, use_effective_order: bool = False) -> BLEUScore:
    """sacreBLEU's ``corpus_bleu``: reference streams, 0–100 scale.

    >>> corpus_bleu(["a b c d"], [["a b c d"]], tokenize="none").score
    100.00000000000004
    """
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                    smooth_value: float | None = SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """sacreBLEU's ``raw_corpus_bleu``: no tokenization, ``floor`` smoothing, effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value, force=True,
                       tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[str | None], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False,
                  tokenize: str = BLEU.TOKENIZER_DEFAULT, use_effective_order: bool = True) -> BLEUScore:
    """sacreBLEU's ``sentence_bleu``: one hypothesis, a list of reference strings, effective order by default.

    >>> print(sentence_bleu("the cat sat", ["the dog sat"]))
    BLEU = 34.67 66.7/25.0/25.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 3 ref_len = 3)
    """
    try:
        metric = _sentence_metric(lowercase, tokenize, smooth_method, smooth_value, use_effective_order)
    except TypeError:   # an unhashable argument: built for this call, and its own checks report it
        metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False, smooth_method=smooth_method,
                      smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


@functools.lru_cache(maxsize=16, typed=True)   # typed: 1 and True are different settings
def _sentence_metric(lowercase: Any, tokenize: Any, smooth_method: Any, smooth_value: Any,
                     use_effective_order: Any) -> BLEU:
    """sentence_bleu's metric per setting, built once (sacreBLEU builds one per call; the result is the same:
    the drop-in keeps no state a sentence score reads)."""
    return BLEU(lowercase=lowercase, tokenize=tokenize, force=False, smooth_method=smooth_method,
                smooth_value=smooth_value, effective_order=use_effective_order)
