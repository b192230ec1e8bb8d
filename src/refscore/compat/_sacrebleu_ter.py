"""sacreBLEU 2.6's TER API (``corpus_ter``, ``sentence_ter``, class ``TER``) computed by refscore.

References use sacreBLEU's stream layout (``refs[k][i]``, ``None`` where segment ``i`` has no k-th reference);
scores are on sacreBLEU's 0–100 scale and results have sacreBLEU's ``TERScore`` attributes.

>>> from refscore.compat.sacrebleu import corpus_ter
>>> print(corpus_ter(["The cat sat"], [["the cat sat on the mat"], ["a cat sat"]]))
TER = 22.22
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from refscore.compat._sacrebleu_base import SacreMetric, SacreScore, SacreSignature
from refscore.compat.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from refscore.protocol import metric_with
from refscore.metrics.ter import TER as _RefscoreTER

__all__ = ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]


class TERScore(SacreScore):
    """sacreBLEU's ``TERScore``: ``score`` (0–100), ``num_edits`` (int), ``ref_length`` (float), ``name``."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TERSignature(SacreSignature):
    """sacreBLEU's TER signature: ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0``."""


class TER(SacreMetric):
    """sacreBLEU's ``TER`` class: ``corpus_score`` (with ``n_bootstrap``), ``sentence_score``, ``get_signature``.

    >>> metric = TER()
    >>> metric.sentence_score("The cat sat", ["the cat sat on the mat", "a cat sat"]).num_edits
    1
    >>> print(metric.get_signature())
    nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0
    """

    _signature_class = TERSignature

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Sequence[Sequence[str]] | None = None) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        super().__init__(metric_with(_RefscoreTER, {"normalized": normalized, "no_punct": no_punct,
                                                    "asian_support": asian_support,
                                                    "case_sensitive": case_sensitive}), references)
        # sacreBLEU's tokenizer object (refscore's compiled TER kernel applies the same normalization itself)
        self.tokenizer = TercomTokenizer(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                                         case_sensitive=case_sensitive)
        self.tokenizer_signature = self.tokenizer.signature()

    def _scores(self, totals: np.ndarray) -> list[TERScore]:
        percents = (100 * self._metric.scores_from_totals(totals)[:, 0]).tolist()
        return [TERScore(p, edits, ref_length) for p, (edits, ref_length) in zip(percents, totals.tolist())]


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]], normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``corpus_ter`` (reference streams, 0–100 scale)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``sentence_ter`` (a list of reference strings, 0–100 scale)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)
