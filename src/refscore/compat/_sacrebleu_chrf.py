"""sacreBLEU 2.6's chrF API (``corpus_chrf``, ``sentence_chrf``, class ``CHRF``) on refscore's compiled core.

References use sacreBLEU's *stream* layout (``refs[k][i]``, ``None`` where segment ``i`` has no k-th reference).
Scores are on sacreBLEU's 0–100 scale and are the same floats sacreBLEU computes.

>>> from refscore.compat import sacrebleu
>>> print(sacrebleu.sentence_chrf("The cat sat.", ["The cat sat on the mat."]))
chrF2 = 49.26
>>> metric = sacrebleu.CHRF(word_order=2)
>>> metric.corpus_score(["The cat sat."], [["The cat sat on the mat."]]).score
49.4057766710878
>>> print(metric.get_signature())
nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from refscore.compat._sacrebleu_base import SacreMetric, SacreScore, SacreSignature
from refscore.protocol import metric_with
from refscore.metrics.chrf import CHRF as _CHRFMetric
from refscore.metrics.chrf import f_scores_percent

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class CHRFScore(SacreScore):
    """sacreBLEU's ``CHRFScore``: ``score`` (0–100), ``char_order``, ``word_order``, ``beta``, ``name``;
    ``str()`` / ``format()`` print like sacreBLEU (``chrF2 = 49.26``)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int | float) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRFSignature(SacreSignature):
    """sacreBLEU's chrF signature: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""


class CHRF(SacreMetric):
    """Drop-in for ``sacrebleu.metrics.CHRF``: same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``. ``references`` given to the constructor are used when ``corpus_score`` gets ``None``.

    Bootstrap replicates (``n_bootstrap > 1``) use sacreBLEU's float32 arithmetic, so the mean and interval are
    sacreBLEU's to the last bit.
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _signature_class = CHRFSignature

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER, beta: int = BETA,
                 lowercase: bool = False, whitespace: bool = False, eps_smoothing: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        metric = metric_with(_CHRFMetric, {"char_order": char_order, "word_order": word_order, "beta": beta,
                                           "lowercase": lowercase, "whitespace": whitespace,
                                           "eps_smoothing": eps_smoothing})
        config = metric.config
        self.char_order, self.word_order, self.beta = config.char_order, config.word_order, config.beta
        self.order = config.order
        self.lowercase, self.whitespace, self.eps_smoothing = config.lowercase, config.whitespace, config.eps_smoothing
        super().__init__(metric, references)

    def _scores(self, totals: np.ndarray) -> list[CHRFScore]:
        return [CHRFScore(float(p), self.char_order, self.word_order, self.beta)
                for p in f_scores_percent(totals, self._metric.config)]


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf``: references as streams, ``remove_whitespace`` = not ``whitespace``."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str], char_order: int = CHRF.CHAR_ORDER,
                  word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf``: one hypothesis, a list of reference strings."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).sentence_score(hypothesis, references)
