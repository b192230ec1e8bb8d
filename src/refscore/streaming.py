"""Streaming, the one place: statistics added chunk by chunk into running column totals
(:class:`RunningTotals`, behind :meth:`Metric.corpus_score_chunks <refscore.protocol.Metric.corpus_score_chunks>`
too), and record files larger than memory scored on one machine without Ray (:func:`stream_scores`, the
command line's local engine): records are read in chunks (the read units of :mod:`refscore.io.record_files`), each
chunk's statistics are added to running column totals and dropped, and per-segment scores, when wanted, go to a
callback as each chunk is done. Memory holds one chunk, never the corpus.

Integer statistics (BLEU, chrF, TER, GLEU) add exactly, so the score equals an in-memory run bit for bit. The float
columns of document-averaged metrics (ROUGE, BERTScore) are added chunk by chunk, in input order: the sum differs
from numpy's one-pass sum of the whole column only by rounding (see docs/distributed.md).

>>> import json, os, tempfile, refscore
>>> path = os.path.join(tempfile.mkdtemp(), "runs.jsonl")
>>> with open(path, "w") as f:
...     for hyp, ref in [("the cat sat", "the cat sat down"), ("a dog", "a dog barked")] * 3:
...         _ = f.write(json.dumps({"prediction": hyp, "references": [ref]}) + "\\n")
>>> result = stream_scores(path, [refscore.BLEU()], chunk_records=2)
>>> result.scores[path]["bleu"].score == refscore.bleu(["the cat sat", "a dog"] * 3,
...                                                    [["the cat sat down"], ["a dog barked"]] * 3).score
True
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore._statistics import RunningTotals, Statistics
from refscore.errors import InputError
from refscore.io.record_files import DEFAULT_CHUNK_RECORDS, SystemNames, expand_paths, read_file
from refscore.io.records import RecordLayout
from refscore.protocol import Metric, Score

__all__ = ["RunningTotals", "SegmentCallback", "StreamResult", "stream_scores", "stream_statistics"]

#: ``on_segments(system, first_segment_index, {score name: values})`` receives each chunk's per-segment scores.
SegmentCallback = Callable[[str, int, dict[str, np.ndarray]], None]


@dataclass
class StreamResult:
    """Corpus scores by system and metric name, the records read and the malformed records skipped."""

    scores: dict[str, dict[str, Score]]
    rows: int
    bad_records: list[str] = field(default_factory=list)


def _score(metric: Metric, running: RunningTotals) -> Score:
    """The corpus score of summed statistics: one row holding the totals scores as all rows would (the same rule
    as :meth:`Metric.corpus_score_chunks`; a document-averaged metric counts its segments in its ``"segments"`` column,
    :meth:`Metric.merge_rules`)."""
    totals = running.totals_statistics(metric)
    return dataclasses.replace(metric.score_from_statistics(totals), statistics=totals)


def _walk(paths: Any, metrics: list[Metric], layout: RecordLayout, skip_bad_records: bool, chunk_records: int,
          num_threads: int | None, consume: Callable[[str, list[Statistics]], None]) -> tuple[int, list[str]]:
    """Read every record in input order, chunk by chunk; ``consume(system, statistics of each metric)`` gets each
    chunk's statistics per system. Returns the records read and the skipped malformed records."""
    bad: list[str] = []
    rows = 0
    for path in expand_paths(paths):
        systems = SystemNames(path)
        for chunk in read_file(path, layout, skip_bad_records, chunk_records):
            bad += [message for message in chunk.bad if message is not None]
            rows += len(chunk)
            for system, indices in systems.group(chunk).items():
                hypotheses = [chunk.hypotheses[i] for i in indices]
                references = [chunk.references[i] for i in indices]
                consume(system, [metric.statistics(hypotheses, references, num_threads=num_threads)
                                 for metric in metrics])
    return rows, bad


def stream_scores(paths: Any, metrics: Metric | Sequence[Metric], *, hypothesis_column: str = "prediction",
                  references_column: str = "references", system_column: str | None = "system",
                  skip_bad_records: bool = False, chunk_records: int = DEFAULT_CHUNK_RECORDS,
                  num_threads: int | None = None, on_segments: SegmentCallback | None = None,
                  percent: bool = False) -> StreamResult:
    """Corpus scores of record files (JSON Lines, CSV/TSV, Parquet; paths or globs) in bounded memory.

    Each file is one system (named by its path), or one per ``system_column`` value (``path:system``), as in
    ``refscore score``. ``on_segments`` receives per-segment scores chunk by chunk, in input order (on the 0–100
    scale as the peers compute it with ``percent=True``, as the command line prints them). Each score's
    ``statistics`` is its one row of column totals.
    """
    metrics = [metrics] if isinstance(metrics, Metric) else list(metrics)  # one metric, or several
    running: dict[str, list[RunningTotals]] = {}
    positions: dict[str, int] = {}

    def consume(system: str, statistics: list[Statistics]) -> None:
        accumulators = running.setdefault(system, [RunningTotals() for _ in metrics])
        tables: dict[str, np.ndarray] = {}
        for metric, accumulator, stats in zip(metrics, accumulators, statistics):
            accumulator.add(stats)
            if on_segments is not None and percent:
                metric.check_statistics(stats)
                table = metric.percent_scores_from_totals(stats.data)
                tables.update({name: table[:, i] for i, name in enumerate(metric.score_names)})
            elif on_segments is not None:
                tables.update(metric.segment_table(stats))
        if on_segments is not None:
            on_segments(system, positions.get(system, 0), tables)
        positions[system] = positions.get(system, 0) + len(statistics[0])

    rows, bad = _walk(paths, metrics, RecordLayout(hypothesis_column, references_column, system_column),
                      skip_bad_records, chunk_records, num_threads, consume)
    if not running:
        raise InputError("every record was malformed and skipped; nothing to score")
    scores = {system: {metric.name: _score(metric, accumulator) for metric, accumulator in zip(metrics, accumulators)}
              for system, accumulators in running.items()}
    return StreamResult(scores, rows, bad)


def stream_statistics(paths: Any, metrics: Metric | Sequence[Metric], *, hypothesis_column: str = "prediction",
                      references_column: str = "references", system_column: str | None = "system",
                      skip_bad_records: bool = False, chunk_records: int = DEFAULT_CHUNK_RECORDS,
                      num_threads: int | None = None) -> tuple[dict[str, list[Statistics]], list[str]]:
    """Every segment's statistics of record files, read chunk by chunk (memory holds the statistics, not the
    text): ``({system: [statistics of each metric]}, skipped malformed records)``, for bootstrap intervals."""
    metrics = [metrics] if isinstance(metrics, Metric) else list(metrics)  # one metric, or several
    parts: dict[str, list[list[Statistics]]] = {}

    def consume(system: str, statistics: list[Statistics]) -> None:
        for collected, stats in zip(parts.setdefault(system, [[] for _ in metrics]), statistics):
            collected.append(stats)

    _, bad = _walk(paths, metrics, RecordLayout(hypothesis_column, references_column, system_column),
                   skip_bad_records, chunk_records, num_threads, consume)
    if not parts:
        raise InputError("every record was malformed and skipped; nothing to score")
    return {system: [Statistics.concatenate(p) for p in lists] for system, lists in parts.items()}, bad
