"""NLTK's ``nltk.translate`` layout for the metrics refscore reproduces: the modules ``bleu_score``,
``gleu_score`` and ``chrf_score`` and NLTK's short names ``bleu``, ``gleu``, ``chrf`` (sentence-level).

>>> from refscore.compat.nltk.translate import bleu_score
>>> bleu_score.sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "c", "d"])
1.0
"""
from refscore.compat.nltk.translate import bleu_score, chrf_score, gleu_score
from refscore.compat.nltk.translate.bleu_score import sentence_bleu as bleu
from refscore.compat.nltk.translate.chrf_score import sentence_chrf as chrf
from refscore.compat.nltk.translate.gleu_score import sentence_gleu as gleu

__all__ = ["bleu", "bleu_score", "chrf", "chrf_score", "gleu", "gleu_score"]
