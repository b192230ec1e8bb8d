"""Exact scoring beyond one process: Ray Data passes whose merged statistics equal a single process's, and a
single-machine stream for corpora larger than memory. Needs the ``ray`` extra for the Ray part
(``pip install 'refscore[ray]'``); see docs/distributed.md.

>>> import refscore.distributed as rd
>>> rd.RecordLayout().hypothesis_column, rd.RecordLayout().references_column
('prediction', 'references')
"""
from __future__ import annotations

from refscore.distributed._ray import ensure_ray, import_ray, quiet_task_failures, task_cause
from refscore.distributed.api import MergedStatistics, corpus_scores, score_dataset, statistics
from refscore.distributed.merge import LostRecordsError
from refscore.io.records import RecordFormatError, RecordLayout

__all__ = ["MergedStatistics", "corpus_scores", "score_dataset", "statistics", "ensure_ray", "import_ray",
           "quiet_task_failures", "task_cause", "LostRecordsError", "RecordFormatError", "RecordLayout"]
