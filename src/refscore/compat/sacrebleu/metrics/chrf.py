"""sacreBLEU's ``metrics.chrf``: ``CHRF``, ``CHRFScore``, ``CHRFSignature``.

>>> from refscore.compat.sacrebleu.metrics.chrf import CHRF
>>> print(CHRF().sentence_score("The cat sat.", ["The cat sat on the mat."]))
chrF2 = 49.26
"""
from refscore.compat._sacrebleu_chrf import CHRF, CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
