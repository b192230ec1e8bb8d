"""sacreBLEU's ``compat`` module: the function API (``corpus_bleu``, ``raw_corpus_bleu``, ``sentence_bleu``,
``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``).

>>> from refscore.compat.sacrebleu.compat import corpus_chrf
>>> round(corpus_chrf(["The cat sat."], [["The cat sat on the mat."]]).score, 2)
49.26
"""
from refscore.compat._sacrebleu_bleu import corpus_bleu, raw_corpus_bleu, sentence_bleu
from refscore.compat._sacrebleu_chrf import corpus_chrf, sentence_chrf
from refscore.compat._sacrebleu_ter import corpus_ter, sentence_ter

__all__ = ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter",
           "sentence_ter"]
