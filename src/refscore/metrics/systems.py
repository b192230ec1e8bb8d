"""Many systems on one test set: every system's statistics against the same references, the references' work
shared across the systems.

A metric whose segments are scored independently (:attr:`~refscore._metric_facts.MetricFacts.independent_segments`:
every lexical metric) scores all systems' segments in **one** call, so the compiled kernels meet each reference
once per call instead of once per system and spread all segments over the threads; each system's statistics are
then its rows, bit for bit those of a call of its own. BERTScore scores system by system: its scorer keeps the
reference embeddings of the first system's call for the next ones (see docs/bertscore.md).

>>> from refscore.metrics.chrf import CHRF
>>> systems = {"a": ["the cat sat", "a dog"], "b": ["the cat sits", "dogs"]}
>>> stats = statistics_by_system(CHRF(), systems, ["the cat sat", "a dog barked"])
>>> [round(CHRF().score_from_statistics(s).score, 4) for s in stats.values()]
[0.7823, 0.4038]
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from refscore.inputs import per_segment
from refscore.errors import RefscoreError
from refscore.protocol import Metric, Statistics


def statistics_by_system(metric: Metric, systems: Mapping[str, Any], references: Any, *,
                         num_threads: int | None = None) -> dict[str, Statistics]:
    """``{name: metric.statistics(systems[name], references)}``, equal to scoring each system alone.

    The systems are scored in one call when the metric's segments are independent, there are several systems,
    each has one entry per reference, and references are per segment. Errors and warnings name each system's
    own positions: when the joint call fails or warns, the systems are scored one by one instead.
    """
    names = list(systems)

    def one_by_one() -> dict[str, Statistics]:
        return {name: metric.statistics(systems[name], references, num_threads=num_threads) for name in names}

    if len(names) < 2 or not metric.independent_segments or not _joinable(systems, references):
        return one_by_one()
    hypotheses = [segment for name in names for segment in systems[name]]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            joint = metric.statistics(hypotheses, per_segment(list(references) * len(names)),
                                      num_threads=num_threads)
    except RefscoreError:   # bad input: the system's own call names its own position
        return one_by_one()
    if caught:   # warnings name positions: let each system's own call name its own
        return one_by_one()
    result, start = {}, 0
    for name in names:
        stop = start + len(systems[name])
        result[name] = joint.take(range(start, stop))
        start = stop
    return result


def _joinable(systems: Mapping[str, Any], references: Any) -> bool:
    """Lists of equal length to the references (which must be per-segment entries, not reference streams)."""
    if not isinstance(references, (list, tuple)) or not references:
        return False
    return all(isinstance(hypotheses, (list, tuple)) and len(hypotheses) == len(references)
               for hypotheses in systems.values())
