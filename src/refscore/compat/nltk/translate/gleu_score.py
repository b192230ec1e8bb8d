"""NLTK's ``nltk.translate.gleu_score``: ``sentence_gleu``, ``corpus_gleu`` (NLTK's values).

>>> sentence_gleu([["a", "b", "c"]], ["a", "b", "d"])
0.5
"""
from refscore.compat._nltk_bleu import corpus_gleu, sentence_gleu

__all__ = ["corpus_gleu", "sentence_gleu"]
