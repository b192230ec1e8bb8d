"""sacreBLEU's ``metrics.ter``: ``TER``, ``TERScore``, ``TERSignature``.

>>> from refscore.compat.sacrebleu.metrics.ter import TER
>>> TER().tokenizer_signature
'tercom'
"""
from refscore.compat._sacrebleu_ter import TER, TERScore, TERSignature

__all__ = ["TER", "TERScore", "TERSignature"]
