"""sacreBLEU 2.6's ``significance``: ``PairedTest`` (paired bootstrap resampling and approximate randomization
between a baseline and other systems), ``Result`` and ``estimate_ci``, computed by :mod:`refscore.significance`
(which follows sacreBLEU draw for draw), on sacreBLEU's 0–100 scale.

>>> from refscore.compat.sacrebleu.metrics import BLEU
>>> refs = [["the cat sat on the mat", "a dog barked", "it rained all day"]]
>>> systems = [("base", ["the cat sat on mat", "dog barked", "it rained"]),
...            ("new", ["the cat sat on the mat", "a dog barked loudly", "it rained all day"])]
>>> signatures, scores = PairedTest(systems, {"BLEU": BLEU()}, refs, test_type="bs", n_samples=100)()
>>> scores["System"], 0 < scores["BLEU"][1].p_value <= 1
(['base', 'new'], True)
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from refscore.inputs import from_streams
from refscore.compat._sacrebleu_base import SacreMetric, SacreSignature
from refscore.errors import InputError
from refscore.metrics.advice import as_peer
from refscore.significance.paired import paired_test

__all__ = ["IS_WINDOWS", "PairedTest", "Result", "estimate_ci"]

#: sacreBLEU's flag (it disables worker processes on Windows); refscore uses threads everywhere.
IS_WINDOWS = os.name == "nt"


class Result:
    """One system's result: ``score``, and where computed ``p_value``, bootstrap ``mean`` and ``ci`` (half-width).

    >>> Result(20.5, p_value=0.01)
    score=20.5,p_value=0.01,mean=None,ci=None
    """

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None,
                 ci: float | None = None) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.__dict__.items())


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """The mean of ``scores`` and the half-width of their central 95% range (sacreBLEU's rule: 1/40 cut each side).

    >>> estimate_ci(np.arange(80.0))
    (np.float64(39.5), np.float64(37.5))
    """
    scores = np.sort(scores)
    lower_index = len(scores) // 40
    upper_index = len(scores) - lower_index - 1
    return scores.mean(), 0.5 * (scores[upper_index] - scores[lower_index])


class PairedTest:
    """sacreBLEU's ``PairedTest``: ``PairedTest(named_systems, metrics, references, test_type, n_samples,
    n_ar_confidence, n_jobs)()`` returns ``(signatures, scores)``, ``scores["System"]`` the system names and
    ``scores[metric name]`` one :class:`Result` per system, baseline first. ``n_jobs`` is accepted; refscore uses
    threads instead of processes. ``$SACREBLEU_SEED`` as in sacreBLEU (default 12345, ``none``: unseeded)."""

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(self, named_systems: list[tuple[str, Sequence[str]]], metrics: Mapping[str, SacreMetric],
                 references: Sequence[Sequence[str]] | None, test_type: str = "ar", n_samples: int = 0,
                 n_ar_confidence: int = -1, n_jobs: int = 1) -> None:
        if test_type not in ("ar", "bs"):
            raise InputError(f"PairedTest: unknown test_type {test_type!r}; use 'ar' (approximate randomization) "
                             f"or 'bs' (paired bootstrap)")
        self.test_type = test_type
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        self._seed = None if seed.lower() == "none" else int(seed)
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        self._signatures: dict[str, SacreSignature] = {}
        self.metrics: dict[str, SacreMetric] = {}
        self._references: dict[str, list[Any]] = {}
        baseline_hypotheses = named_systems[0][1]
        for metric in metrics.values():
            per_segment = self._per_segment_references(metric)
            baseline = metric._corpus_score_per_segment(baseline_hypotheses, per_segment)
            self.metrics[baseline.name] = metric
            self._references[baseline.name] = per_segment
            signature = metric.get_signature()
            signature.update("seed", str(self._seed).lower())
            signature.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            self._signatures[baseline.name] = signature

    def _per_segment_references(self, metric: SacreMetric) -> list[Any]:
        if self.references is not None:
            return from_streams(self.references)
        if metric._ref_cache is None:
            raise InputError(f"PairedTest: references=None but {type(metric).__name__} was created without "
                             f"references; pass references=[...] to PairedTest or to the metric")
        return metric._ref_cache

    def __call__(self) -> tuple[dict[str, SacreSignature], dict[str, list[Any]]]:
        """Run the test: ``(signatures, scores)`` as sacreBLEU returns them."""
        scores: dict[str, list[Any]] = {"System": [name for name, _ in self.named_systems]}
        confidence_n = None
        if self.test_type == "ar" and self.n_ar_confidence > 0:
            confidence_n = self.n_ar_confidence
        # sacreBLEU hands seed 0 to its tests as "no seed" (fresh entropy)
        seed = self._seed if self._seed else None
        for name, metric in self.metrics.items():
            with as_peer():   # sacreBLEU's test raises no Python warning
                result = paired_test(metric._metric, list(self.named_systems), self._references[name],
                                     test=self.test_type, n=self.n_samples, seed=seed, confidence_n=confidence_n)
            rows = next(iter(result.results.values()))
            scores[name] = [self._result(row, index == 0) for index, row in enumerate(rows)]
        return self._signatures, scores

    def _result(self, row: Any, is_baseline: bool) -> Result:
        """A refscore :class:`SystemResult` (0–1 scale) as sacreBLEU's ``Result`` (0–100)."""
        def percent(value: float | None) -> float | None:
            return None if value is None else 100 * value
        return Result(percent(row.score),  # type: ignore[arg-type]  # a row always has its score
                      None if is_baseline else row.p_value, percent(row.mean), percent(row.ci))
