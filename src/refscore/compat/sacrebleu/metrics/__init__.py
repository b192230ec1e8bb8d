"""sacreBLEU 2.6's ``metrics`` package: ``BLEU``, ``CHRF``, ``TER`` and their score classes (also in the submodules
``metrics.bleu``, ``metrics.chrf``, ``metrics.ter``, with the signature classes), ``METRICS``.

>>> from refscore.compat.sacrebleu.metrics import BLEU
>>> BLEU().corpus_score(["the cat sat down"], [["the cat sat down"]]).score
100.00000000000004
"""
from refscore.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore
from refscore.compat.sacrebleu.metrics.chrf import CHRF, CHRFScore
from refscore.compat.sacrebleu.metrics.ter import TER, TERScore

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "TER", "TERScore", "METRICS"]

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
