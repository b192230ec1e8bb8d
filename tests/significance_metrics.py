"""Small metrics for the significance tests: they exercise the generic Metric protocol without depending on any
text metric, plus an adapter that lets sacreBLEU's own significance code run them."""
from __future__ import annotations

import dataclasses
import os
from types import SimpleNamespace

import numpy as np

from refscore.inputs import prepare_batch
from refscore.protocol import Metric, Score, Signature


@dataclasses.dataclass(frozen=True)
class TokenAccuracyConfig:
    lowercase: bool = False


def _token_hits(metric_lowercase: bool, hypotheses, references) -> tuple[np.ndarray, int]:
    batch = prepare_batch(hypotheses, references, allow_token_ids=False)
    rows = []
    for index, hypothesis in enumerate(batch.hypotheses):
        refs = batch.segment_references(index)
        if metric_lowercase:
            hypothesis, refs = hypothesis.lower(), [r.lower() for r in refs]
        vocabulary = {token for ref in refs for token in ref.split()}
        tokens = hypothesis.split()
        rows.append([sum(token in vocabulary for token in tokens), len(tokens)])
    return np.asarray(rows, dtype=np.int64).reshape(-1, 2), batch.nrefs


class TokenAccuracy(Metric):
    """Corpus-level: hits / hypothesis tokens over summed counts; second score: its square (two score names)."""

    name = "tokacc"
    config_class = TokenAccuracyConfig

    def statistics(self, hypotheses, references, *, num_threads=None):
        data, nrefs = _token_hits(self.config.lowercase, hypotheses, references)
        return self._new_statistics(("hits", "total"), data, nrefs)

    def scores_from_totals(self, totals):
        totals = np.asarray(totals, dtype=np.float64)
        hits, total = totals[:, 0], totals[:, 1]
        accuracy = np.where(total > 0, hits / np.where(total > 0, total, 1.0), 0.0)
        return np.stack([accuracy, accuracy ** 2], axis=1)

    @property
    def score_names(self):
        return ("tokacc", "tokacc_sq")

    def score_from_statistics(self, stats):
        self.check_statistics(stats)
        return Score(metric=self.name, score=float(self.scores_from_totals(stats.totals()[None])[0, 0]),
                     signature=str(self.signature(stats.nrefs)))

    def signature(self, nrefs=1):
        return Signature({"nrefs": str(nrefs), "case": "lc" if self.config.lowercase else "mixed"})


class MeanTokenAccuracy(TokenAccuracy):
    """Document-averaged: mean of per-segment accuracies, kept as a float ``score`` column and a ``documents`` count."""

    name = "meantokacc"

    def statistics(self, hypotheses, references, *, num_threads=None):
        counts, nrefs = _token_hits(self.config.lowercase, hypotheses, references)
        per_segment = super().scores_from_totals(counts)[:, 0]
        data = np.stack([per_segment, np.ones(len(per_segment))], axis=1)
        return self._new_statistics(("score", "documents"), data, nrefs)

    def scores_from_totals(self, totals):
        totals = np.asarray(totals, dtype=np.float64)
        return (totals[:, 0] / totals[:, 1])[:, None]

    @property
    def score_names(self):
        return ("meantokacc",)


class SacrebleuView:
    """Presents a refscore metric to sacreBLEU's significance code (``PairedTest``, ``_bootstrap_resample``).

    Scores stay on the metric's 0–1 scale and are computed in float64 from the (float32-cast) sums, so sacreBLEU's
    algorithm and refscore's must agree to the last bit.
    """

    def __init__(self, metric: Metric, references) -> None:
        self.metric = metric
        self.references = references

    def _extract_corpus_statistics(self, hypotheses, references):
        return self.metric.statistics(hypotheses, self.references).data.tolist()

    def _compute_score_from_stats(self, stats):
        totals = np.asarray(stats, dtype=np.float64)[None, :]
        return SimpleNamespace(name=self.metric.name, score=float(self.metric.scores_from_totals(totals)[0, 0]))

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(np.asarray(stats).sum(axis=0))

    def get_signature(self):
        return SimpleNamespace(update=lambda key, value: None)


def run_sacrebleu_paired(metric, systems, references, test_type, n, seed, n_ar_confidence=-1):
    """sacreBLEU's ``PairedTest`` on ``metric`` (through :class:`SacrebleuView`) after ``SACREBLEU_SEED=seed``: its
    results for the metric (the caller restores the variable, e.g. with the ``sacrebleu_seed`` fixture)."""
    from sacrebleu.significance import PairedTest

    os.environ["SACREBLEU_SEED"] = str(seed)
    view = SacrebleuView(metric, references)
    _, scores = PairedTest(list(systems.items()), {metric.name: view}, references=None, test_type=test_type,
                           n_samples=n, n_ar_confidence=n_ar_confidence)()
    return scores[metric.name]
