"""BLEU: sacreBLEU 2.6's corpus and sentence BLEU (and NLTK's and tensorflow/nmt's, ``flavor=``), on the protocol.

The metric and its pieces, one module each: :mod:`~refscore.metrics.bleu.metric` (the metric, its config and
result), :mod:`~refscore.metrics.bleu.formula` (sacreBLEU's ``compute_bleu``), :mod:`~refscore.metrics.bleu.flavors`
(NLTK's and tensorflow/nmt's formulas), :mod:`~refscore.metrics.bleu.arithmetic` (sacreBLEU's float32 arithmetic of
resampled scores), :mod:`~refscore.metrics.bleu.explain` (one case's explanation). The word n-gram counting it
shares with Google-BLEU is :mod:`refscore.metrics.word_batch`; its pairwise counts are those of
:mod:`refscore.metrics._pair_counts`, beside chrF's and Google-BLEU's.

>>> from refscore.metrics.bleu import BLEU
>>> round(BLEU().corpus_score(["the cat sat on the mat"], ["the cat sat on the mat"]).score, 6)
1.0
"""
from refscore.metrics.bleu.metric import (BLEU, BLEU_BANDS, NLTK_VERSION, SACREBLEU_VERSION, SMOOTH_DEFAULTS,
                                          BLEUComponents, BLEUConfig, BLEUScore, bleu, bleu_from_counts,
                                          sacrebleu_reported_counts, sentence_bleu)

__all__ = ["BLEU", "BLEU_BANDS", "BLEUConfig", "BLEUScore", "BLEUComponents", "bleu", "bleu_from_counts",
           "sentence_bleu", "sacrebleu_reported_counts", "SMOOTH_DEFAULTS", "SACREBLEU_VERSION", "NLTK_VERSION"]
