"""SQuAD token F1 and exact match with the official v1.1 / v2.0 scripts' numbers (Hugging Face ``evaluate``'s
``squad`` and ``squad_v2``).

Both texts are normalised as SQuAD's ``normalize_answer`` (lowercase, ASCII punctuation deleted, the articles
``a``/``an``/``the`` removed, whitespace collapsed); a segment's exact match is 1 when the normalised hypothesis
equals a normalised reference and its F1 is the best token-multiset F1 over the references. ``version="2.0"``
adds v2's no-answer rule: references that normalise to nothing are dropped, a segment left with none is
unanswerable (its only reference is ``""``: give ``[""]``), two empty token lists score F1 1 (v1.1: 0).

Statistics per segment (float64): ``exact_match``, ``f1``, the same two again for answerable segments only
(``has_answer_exact_match``, ``has_answer_f1``, with ``has_answer`` 1 or 0) and ``documents`` (1). Corpus values
are means over segments, 0–1 (evaluate reports them × 100); ``f1`` is the headline score, ``exact_match`` the
second. v2's HasAns/NoAns breakdown is in ``values``.

>>> import refscore
>>> result = refscore.squad(["the Eiffel tower", "1976"], [["Eiffel Tower", "tower"], ["in 1976"]])
>>> result.values["exact_match"], round(result.values["f1"], 4)
(0.5, 0.8333)
>>> refscore.sentence_squad("", [""], version="2.0").score   # unanswerable, and no answer given
1.0
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore.checks import check_choice, check_num_threads
from refscore.inputs import prepare_batch
from refscore.metrics._answer_text import squad_f1, squad_tokens
from refscore.protocol import CliOption, ColumnRules, Metric, Score, Signature, Statistics, metric_with, nrefs_text

#: SQuAD script versions: ``"1.1"`` (evaluate's ``squad``) and ``"2.0"`` (``squad_v2``, its no-answer rule).
VERSIONS: tuple[str, ...] = ("1.1", "2.0")


@dataclasses.dataclass(frozen=True)
class SQuADConfig:
    """Attributes:
    version: ``"1.1"`` (the v1.1 script, evaluate's ``squad``) or ``"2.0"`` (the v2.0 script's no-answer rule).
    """

    version: str = "1.1"

    def __post_init__(self) -> None:
        check_choice(self.version, "version", VERSIONS, owner="SQuAD")


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class SQuADScore(Score):
    """SQuAD's corpus values on the 0–1 scale: ``score`` is ``values["f1"]``; ``values`` also has
    ``exact_match``, ``total`` and, for answerable / unanswerable segments, ``has_answer_*`` and ``no_answer_*``
    (``exact_match``, ``f1``, ``total``; v2's ``HasAns_*`` / ``NoAns_*``)."""


def segment_values(version: str, hypothesis: str, references: Sequence[str]) -> tuple[int, float, bool]:
    """One segment's (exact match, F1, has an answer), as the script of ``version`` scores it."""
    prediction = squad_tokens(hypothesis)
    golds = [squad_tokens(reference) for reference in references]
    if version == "2.0":
        golds = [gold for gold in golds if gold] or [[]]
    exact = max(int(prediction == gold) for gold in golds)
    f1 = max(squad_f1(prediction, gold, version=version) for gold in golds)
    return exact, f1, any(golds)


class SQuAD(Metric):
    """SQuAD token F1 (the headline) and exact match, the official v1.1 / v2.0 scripts per segment.

    >>> SQuAD().sentence_scores(["a cat", "dogs"], [["the cat!", "cats"], "the dog"]).tolist()
    [1.0, 0.0]
    >>> SQuAD().score_names
    ('f1', 'exact_match')
    """

    name: ClassVar[str] = "squad"
    score_class = SQuADScore
    config_class: ClassVar[type] = SQuADConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    check_label: ClassVar[str | None] = "SQuAD F1"
    exact_to: ClassVar[str | None] = "evaluate squad / squad_v2 (0.4.6; SQuAD v1.1 / v2.0 scripts)"
    columns: ClassVar[tuple[str, ...]] = ("exact_match", "f1", "has_answer", "has_answer_exact_match",
                                          "has_answer_f1", "documents")
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--squad-version",), "version",
                  "SQuAD: 1.1 (default, evaluate's squad) or 2.0 (squad_v2's no-answer rule)", choices=VERSIONS),
    )

    config: SQuADConfig

    @property
    def score_names(self) -> tuple[str, ...]:
        return ("f1", "exact_match")

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: exact match, F1, whether it has an answer, the two again when it has, and a 1."""
        check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        data = np.ones((len(batch), 6), dtype=np.float64)
        version = self.config.version
        for i, hypothesis in enumerate(batch.hypotheses):
            exact, f1, answered = segment_values(version, hypothesis, batch.segment_references(i))
            data[i, :5] = (exact, f1, answered, exact * answered, f1 * answered)
        return self.new_statistics(self.columns, data, batch.nrefs)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, at_most=(("exact_match", "documents"), ("f1", "documents"),
                                                  ("has_answer", "documents")))

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        exact, f1, _ = segment_values(self.config.version, output, references)
        words = " ".join(squad_tokens(output))
        return (f"SQuAD F1 {f1:.3f}, exact match {exact} (normalised answer {words!r}; references "
                f"{', '.join(repr(' '.join(squad_tokens(r))) for r in references[:5])})")

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``(f1, exact_match) / documents`` per row (0 without documents): ``(m, 2)`` float64."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, 5:6]
        safe = np.where(documents > 0, documents, 1)
        return np.where(documents > 0, totals[:, [1, 0]] / safe, 0.0)

    def score_from_statistics(self, stats: Statistics) -> Score:
        exact, f1, answered, answered_exact, answered_f1, documents = (float(v) for v in stats.totals())

        def mean(value: float, count: float) -> float:
            return value / count if count > 0 else 0.0

        unanswered = documents - answered
        values: dict[str, Any] = {
            "exact_match": mean(exact, documents), "f1": mean(f1, documents), "total": int(documents),
            "has_answer_exact_match": mean(answered_exact, answered), "has_answer_f1": mean(answered_f1, answered),
            "has_answer_total": int(answered),
            "no_answer_exact_match": mean(exact - answered_exact, unanswered),
            "no_answer_f1": mean(f1 - answered_f1, unanswered), "no_answer_total": int(unanswered)}
        return self.new_score(stats, score=values["f1"], values=values)

    def signature(self, nrefs: int = 1) -> Signature:
        return Signature({"nrefs": nrefs_text(nrefs), "case": "lc", "norm": "squad", "version": self.config.version},
                         short_names={"nrefs": "#", "case": "c", "norm": "nr", "version": "v"})


def squad(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> SQuADScore:
    """SQuAD F1 and exact match of a batch (means over segments); ``options`` are :class:`SQuADConfig` fields.

    >>> squad(["1976"], [["1976", "in 1976"]]).values["exact_match"]
    1.0
    """
    return cast(SQuADScore, metric_with(SQuAD, options).corpus_score(hypotheses, references, num_threads=num_threads))


def sentence_squad(hypothesis: str, references: str | list[str], **options: Any) -> SQuADScore:
    """SQuAD F1 (``score``) and exact match (``values``) of one answer against one reference or the best of several.

    >>> round(sentence_squad("the cat sat", "a cat sat down").score, 4)
    0.8
    """
    return cast(SQuADScore, metric_with(SQuAD, options).sentence_score(hypothesis, references))
