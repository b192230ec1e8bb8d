"""A metric written outside refscore, as a third-party package would: reference-word recall.

The tests register it (in the registry directly, or through an installed ``refscore.metrics`` entry point) and
check that every workflow reads its facts from the class: test-case checks, explanations, the report, bootstrap
intervals, paired tests and the command line.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from refscore.protocol import CliOption, Metric, Score, Signature, Statistics


@dataclass(frozen=True)
class WordRecallConfig:
    lowercase: bool = False


class WordRecall(Metric):
    """The share of reference words (with multiplicity) that the output contains, over the best reference."""

    name: ClassVar[str] = "wordrecall"
    config_class: ClassVar[type] = WordRecallConfig
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    check_label: ClassVar[str | None] = "Word recall"
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = (("most words", 0.8), ("some words", 0.2))
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--wordrecall-lowercase",), "lowercase", "word recall: compare lowercased words", bool),)

    def _words(self, text: str) -> list[str]:
        return (text.lower() if self.config.lowercase else text).split()

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        rows = []
        for hypothesis, refs in zip(hypotheses, references):
            refs = [refs] if isinstance(refs, str) else list(refs)
            output = Counter(self._words(hypothesis))
            pairs = [(sum((Counter(self._words(ref)) & output).values()), len(self._words(ref))) for ref in refs]
            rows.append(max(pairs, key=lambda pair: pair[0] / max(pair[1], 1)))
        return self.new_statistics(("hits", "ref_words"), np.array(rows, dtype=np.int64).reshape(-1, 2),
                                   len(references[0]) if references and not isinstance(references[0], str) else 1)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        return (totals[:, 0] / np.maximum(totals[:, 1], 1))[:, None]

    def score_from_statistics(self, stats: Statistics) -> Score:
        self.check_statistics(stats)
        return Score(metric=self.name, score=float(self.scores_from_totals(stats.totals())[0, 0]),
                     signature=self.signature_text(stats.nrefs))

    def signature(self, nrefs: int = 1) -> Signature:
        return Signature({"nrefs": str(nrefs), "lc": "yes" if self.config.lowercase else "no"})

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        present = Counter(self._words(output))
        missing = [word for word in self._words(references[0]) if not present[word]]
        return f"reference words missing: {', '.join(missing) or 'none'}"
