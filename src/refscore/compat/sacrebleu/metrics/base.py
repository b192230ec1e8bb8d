"""sacreBLEU's ``metrics.base``: ``Score``, ``Signature`` and ``Metric``, the bases of the drop-in metrics.

>>> from refscore.compat.sacrebleu.metrics.base import Score
>>> print(Score("BLEU", 12.345))
BLEU = 12.35
"""
from refscore.compat._sacrebleu_base import SacreMetric as Metric
from refscore.compat._sacrebleu_base import SacreScore as Score
from refscore.compat._sacrebleu_base import SacreSignature as Signature

__all__ = ["Metric", "Score", "Signature"]
