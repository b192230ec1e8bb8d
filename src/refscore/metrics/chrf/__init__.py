"""chrF and chrF++: sacreBLEU 2.6's character n-gram F-score (and NLTK's ``chrf_score``), on the protocol.

:mod:`~refscore.metrics.chrf.metric` holds the metric, its config, result and functions;
:mod:`~refscore.metrics.chrf.arithmetic` sacreBLEU's float32 arithmetic of resampled scores. Its pairwise counts
are :mod:`refscore.metrics._pair_counts`'s, beside BLEU's and Google-BLEU's.

>>> from refscore.metrics.chrf import CHRF
>>> round(CHRF().corpus_score(["the cat sat"], ["the cat sat"]).score, 6)
1.0
"""
from refscore.metrics.chrf.metric import (CHRF, EPSILON, SACREBLEU_VERSION, CHRFConfig, CHRFScore, chrf, chrf_values,
                                          explain_chrf, f_scores_percent, nltk_chrf_from_statistics,
                                          nltk_chrf_statistics, sentence_chrf, statistics_columns)

__all__ = ["CHRF", "EPSILON", "SACREBLEU_VERSION", "CHRFConfig", "CHRFScore", "chrf", "chrf_values", "explain_chrf",
           "f_scores_percent", "nltk_chrf_from_statistics", "nltk_chrf_statistics", "sentence_chrf",
           "statistics_columns"]
