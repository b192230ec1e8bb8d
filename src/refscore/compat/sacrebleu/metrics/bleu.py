"""sacreBLEU's ``metrics.bleu``: ``BLEU``, ``BLEUScore``, ``BLEUSignature``, ``MAX_NGRAM_ORDER``.

>>> from refscore.compat.sacrebleu.metrics.bleu import BLEU
>>> BLEU().tokenizer("Hello, world!")
'Hello , world !'
"""
from refscore.compat._sacrebleu_bleu import MAX_NGRAM_ORDER, BLEU, BLEUScore, BLEUSignature

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER"]
