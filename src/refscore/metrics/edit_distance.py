"""Levenshtein and Indel edit distances and their normalized similarity, equal to RapidFuzz (3.x).

Per segment, against its best reference (the highest normalized similarity, the first on ties): the distance
(``Levenshtein.distance``: insertions, deletions, substitutions, each 1; or ``Indel.distance``: insertions and
deletions only), the normalized distance ``distance / maximum`` (``maximum`` = the longer length for
Levenshtein, the sum of both lengths for Indel; 0 when both texts are empty) and the normalized similarity
``1 - normalized distance`` (``normalized_similarity``; for Indel this is RapidFuzz's ``fuzz.ratio / 100``). On
characters (code points, as RapidFuzz compares Python strings) or on words (``str.split()``, as RapidFuzz
compares lists). The corpus score is the **mean over segments** of the normalized similarity (what promptfoo's
``levenshtein`` assertion and a loop over RapidFuzz give per output, averaged); ``values`` hold the means of
both normalized values, the total distance and lengths. See docs/edit-distance.md.

>>> import refscore
>>> refscore.sentence_edit_distance("kitten", "sitting").values["distance"]
3.0
>>> round(refscore.edit_distance(["kitten", "abc"], ["sitting", "abc"]).score, 6)   # (1 - 3/7 + 1) / 2
0.785714
>>> refscore.sentence_edit_distance("this is a test", "this is a test!", measure="indel").values["ratio"]
96.55172413793103
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore._core._edit_distance import INDEL, LEVENSHTEIN, pair_distances, similarity_matrix
from refscore.checks import check_choice, check_num_threads
from refscore.inputs import prepare_batch
from refscore.metrics._edit_symbols import UNITS, text_symbols
from refscore.protocol import CliOption, ColumnRules, Metric, Score, Signature, Statistics, metric_with, nrefs_text

#: The RapidFuzz release this metric was checked against (its formulas have not changed since 2.0).
RAPIDFUZZ_VERSION = "3.14"
MEASURES = ("levenshtein", "indel")
_KINDS = {"levenshtein": LEVENSHTEIN, "indel": INDEL}


@dataclasses.dataclass(frozen=True)
class EditDistanceConfig:
    """Which distance, on which units.

    Attributes:
        measure: ``"levenshtein"`` (RapidFuzz ``Levenshtein``) or ``"indel"`` (RapidFuzz ``Indel``, whose
            normalized similarity ×100 is ``fuzz.ratio``).
        unit: ``"characters"`` (code points) or ``"words"`` (``str.split()``); token-id input is compared id by id.
    """

    measure: str = "levenshtein"
    unit: str = "characters"

    def __post_init__(self) -> None:
        check_choice(self.measure, "measure", MEASURES, owner="EditDistance")
        check_choice(self.unit, "unit", UNITS, owner="EditDistance")


def normalized_values(distance: np.ndarray, maximum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """RapidFuzz's ``(normalized_distance, normalized_similarity)`` of distances and their maxima, to the bit."""
    distance = np.asarray(distance, dtype=np.float64)
    maximum = np.asarray(maximum, dtype=np.float64)
    normalized = np.divide(distance, maximum, out=np.zeros_like(distance), where=maximum > 0)
    return normalized, 1.0 - normalized


class EditDistance(Metric):
    """RapidFuzz's Levenshtein or Indel distance, normalized distance and similarity, per segment and averaged.

    Statistics per segment (float64, integral except the first two): ``similarity``, ``normalized_distance``,
    ``distance``, ``hyp_length``, ``ref_length`` (of the best reference) and ``segments`` (1). The kernel is
    bit-parallel (Myers/Hyyrö), multi-core over segments; the thread count never changes a number.

    >>> EditDistance(unit="words").sentence_scores(["the cat sat", ""], ["the cat sat down", ""]).tolist()
    [0.75, 1.0]
    """

    name: ClassVar[str] = "edit_distance"
    config_class: ClassVar[type] = EditDistanceConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    check_label: ClassVar[str | None] = "edit similarity"
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = (("identical", 1.0), ("near", 0.9), ("close", 0.7),
                                                            ("related", 0.5))
    exact_to: ClassVar[str | None] = f"RapidFuzz Levenshtein / Indel normalized_similarity ({RAPIDFUZZ_VERSION})"
    columns: ClassVar[tuple[str, ...]] = ("similarity", "normalized_distance", "distance", "hyp_length",
                                          "ref_length", "segments")
    integer_statistics = False   # the per-segment normalized values are fractions
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--ed-measure",), "measure", "edit distance: levenshtein (RapidFuzz Levenshtein) or indel "
                  "(RapidFuzz Indel, fuzz.ratio)", str, MEASURES),
        CliOption(("--ed-unit",), "unit", "edit distance: compare characters (code points) or words "
                  "(whitespace-split)", str, UNITS),
    )

    config: EditDistanceConfig

    @property
    def kind(self) -> int:
        return _KINDS[self.config.measure]

    def maximum(self, hyp_length: np.ndarray, ref_length: np.ndarray) -> np.ndarray:
        """RapidFuzz's normaliser with unit weights: the longer length (Levenshtein) or both lengths (Indel)."""
        if self.config.measure == "levenshtein":
            return np.maximum(hyp_length, ref_length)
        return hyp_length + ref_length

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: its best reference's normalized similarity and distance, the distance and both lengths."""
        check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=True)
        n, n_refs = len(batch), len(batch.references)
        symbols, offsets, alphabet = text_symbols(list(batch.hypotheses) + list(batch.references), self.config.unit,
                                                  num_threads)
        owner = np.repeat(np.arange(n, dtype=np.int64), batch.refs_per_segment)
        distance = pair_distances(symbols, offsets, owner, np.arange(n, n + n_refs, dtype=np.int64), self.kind,
                                  alphabet, num_threads)
        lengths = np.diff(offsets)
        hyp_length, ref_length = lengths[owner], lengths[n:]
        normalized, similarity = normalized_values(distance, self.maximum(hyp_length, ref_length))
        data = np.ones((n, len(self.columns)), dtype=np.float64)
        if n:
            # the best reference: the first whose similarity is the segment's highest
            best_value = np.maximum.reduceat(similarity, batch.ref_offsets[:-1])
            candidates = np.flatnonzero(similarity == best_value[owner])
            best = candidates[np.r_[True, owner[candidates][1:] != owner[candidates][:-1]]]
            data[:, 0], data[:, 1], data[:, 2] = similarity[best], normalized[best], distance[best]
            data[:, 3], data[:, 4] = hyp_length[best], ref_length[best]
        return self.new_statistics(self.columns, data, batch.nrefs)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, at_most=(("similarity", "segments"), ("normalized_distance", "segments")))

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """Mean normalized similarity (``similarity / segments``; 0 without segments): ``(m, 1)`` float64."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        segments = totals[:, 5:6]
        return np.where(segments > 0, totals[:, 0:1] / np.where(segments > 0, segments, 1), 0.0)

    def corpus_values(self, stats: Statistics) -> dict[str, Any]:
        similarity, normalized, distance, hyp_length, ref_length, segments = (float(v) for v in stats.totals())
        mean = (lambda total: total / segments) if segments else (lambda total: 0.0)
        values = {"normalized_similarity": mean(similarity), "normalized_distance": mean(normalized),
                  "distance": distance, "mean_distance": mean(distance), "hyp_length": hyp_length,
                  "ref_length": ref_length, "segments": segments}
        if self.config.measure == "indel":   # fuzz.ratio: the normalized similarity on RapidFuzz's 0-100 scale
            values["ratio"] = mean(similarity) * 100
        return values

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        row = self.statistics([output], [list(references)], num_threads=1).data[0]
        unit = "words" if self.config.unit == "words" else "characters"
        return (f"{self.config.measure} similarity {row[0]:.3f}: {int(row[2])} edits between {int(row[3])} and "
                f"{int(row[4])} {unit} (best of {len(references)} reference(s))")

    def signature(self, nrefs: int = 1) -> Signature:
        cfg = self.config
        return Signature({"nrefs": nrefs_text(nrefs), "measure": cfg.measure, "unit": cfg.unit,
                          "rapidfuzz": RAPIDFUZZ_VERSION},
                         short_names={"nrefs": "#", "measure": "m", "unit": "u", "rapidfuzz": "rf"})

    def pair_scoring(self, texts: list[str]) -> Any:
        """All-pairs matrices straight from the kernel: the call's texts encoded once, each candidate's pattern
        table built once per item and run against every reference of the item."""
        from refscore._pair_scoring import NativePairs

        symbols, offsets, alphabet = text_symbols(texts, self.config.unit)
        kind = self.kind

        def matrices(texts: list[str], items: list[tuple[np.ndarray, np.ndarray]], *,
                     num_threads: int | None = None, memory_budget: int | None = None) -> list[np.ndarray]:
            return [similarity_matrix(symbols, offsets, np.asarray(cand, dtype=np.int64),
                                      np.asarray(ref, dtype=np.int64), kind, alphabet, num_threads)
                    for cand, ref in items]

        return NativePairs(self, texts, matrices)


def edit_distance(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Mean normalized edit similarity over segments; ``options`` are :class:`EditDistanceConfig` fields.

    >>> edit_distance(["abc"], [["abd", "xyz"]]).values["distance"]
    1.0
    """
    return metric_with(EditDistance, options).corpus_score(hypotheses, references, num_threads=num_threads)


def sentence_edit_distance(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """One segment's normalized edit similarity (its best reference); ``values`` hold the distance.

    >>> sentence_edit_distance("abc", "abd").score
    0.6666666666666667
    """
    return metric_with(EditDistance, options).sentence_score(hypothesis, references)
