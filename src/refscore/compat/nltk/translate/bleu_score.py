"""NLTK's ``nltk.translate.bleu_score``: ``sentence_bleu``, ``corpus_bleu``, ``SmoothingFunction``,
``modified_precision``, ``closest_ref_length``, ``brevity_penalty``, ``Fraction`` (NLTK's values).

>>> corpus_bleu([[["a", "b", "c", "d"]]], [["a", "b", "c", "d"]])
1.0
"""
from refscore.compat._nltk_bleu import (Fraction, SmoothingFunction, brevity_penalty, closest_ref_length,
                                        corpus_bleu, modified_precision, sentence_bleu)

__all__ = ["Fraction", "SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu",
           "modified_precision", "sentence_bleu"]
