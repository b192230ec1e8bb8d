"""Many against many: exact pairwise sentence-score matrices and minimum Bayes risk (MBR) selection
(docs/pairwise.md).

>>> import refscore
>>> refscore.mbr([["the cat sat", "a cat sat", "dogs"]], metric="chrf").chosen.tolist()
[0]
"""
from refscore.pairs._matrix import pairwise, pairwise_items
from refscore.pairs._mbr import MBRResult, mbr

__all__ = ["MBRResult", "mbr", "pairwise", "pairwise_items"]
