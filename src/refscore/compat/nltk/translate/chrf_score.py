"""NLTK's ``nltk.translate.chrf_score``: ``sentence_chrf``, ``corpus_chrf``, ``chrf_precision_recall_fscore_support``
(NLTK's values).

>>> round(sentence_chrf("the cat sat on the mat", "the cat is on the mat"), 6)
0.615037
"""
from refscore.compat._nltk_chrf import chrf_precision_recall_fscore_support, corpus_chrf, sentence_chrf

__all__ = ["chrf_precision_recall_fscore_support", "corpus_chrf", "sentence_chrf"]
