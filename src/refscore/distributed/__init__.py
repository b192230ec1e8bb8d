"""Exact scoring beyond one process: Ray Data passes whose merged statistics equal a single process's, and a
single-machine stream for corpora larger than memory. Needs the ``ray`` extra for the Ray part
(``pip install 'refscore[ray]'``); see docs/distributed.md.

>>> import refscore.distributed as rd
>>> sorted(name for name in rd.__all__ if not name.startswith("_"))[:3]
['MergedStatistics', 'corpus_scores', 'score_dataset']
"""
from __future__ import annotations

from refscore.distributed.api import MergedStatistics, corpus_scores, score_dataset, statistics
from refscore.distributed.merge import LostRecordsError
from refscore.distributed.records import RecordFormatError, RecordLayout

__all__ = ["MergedStatistics", "corpus_scores", "score_dataset", "statistics", "LostRecordsError",
           "RecordFormatError", "RecordLayout"]
