"""Many against many: exact pairwise sentence-score matrices and minimum Bayes risk (MBR) selection,
with outside utilities and the pruning and centroid decoders of mbrs (docs/pairwise.md, docs/mbr.md).

>>> import refscore
>>> refscore.mbr([["the cat sat", "a cat sat", "dogs"]], metric="chrf").chosen.tolist()
[0]
"""
from refscore.pairs._matrix import pairwise, pairwise_items
from refscore.pairs._mbr import MBRResult, mbr
from refscore.pairs._centroid import centroid_mbr, cosine_utility, kmeans
from refscore.pairs._pruning import pruning_mbr

__all__ = ["MBRResult", "centroid_mbr", "cosine_utility", "kmeans", "mbr", "pairwise", "pairwise_items",
           "pruning_mbr"]
