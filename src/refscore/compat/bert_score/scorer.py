"""bert-score's ``scorer`` module: ``BERTScorer``.

>>> from refscore.compat.bert_score.scorer import BERTScorer
>>> BERTScorer.__name__
'BERTScorer'
"""
from refscore.compat.bert_score.score import BERTScorer

__all__ = ["BERTScorer"]
