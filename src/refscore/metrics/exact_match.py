"""Exact match with Hugging Face ``evaluate``'s ``exact_match`` options (evaluate 0.4.6's metric module).

A segment matches when its hypothesis equals one of its references after the options' normalisation
(``regexes_to_ignore`` removed first, then ``ignore_case``, ``ignore_punctuation``, ``ignore_numbers``); a
hypothesis that the options empty matches only when the original texts were equal (evaluate's rule). Statistics
per segment: ``matches`` (0 or 1) and ``segments`` (1); the corpus score is ``sum(matches) / sum(segments)``, the
share of segments that match (0–1; evaluate's ``exact_match`` value, also 0–1). For SQuAD's normalisation
(articles, whitespace) see :mod:`refscore.metrics.squad`.

>>> import refscore
>>> refscore.exact_match(["cat?", "theater", "yelling", "agent"], ["the cat", "theater", "YELLING", "agent007"]).score
0.25
>>> refscore.sentence_exact_match("YELLING!", "yelling", ignore_case=True, ignore_punctuation=True).score
1.0
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore.checks import check_bool, check_num_threads
from refscore.errors import InputError, InputTypeError
from refscore.inputs import prepare_batch
from refscore.metrics._answer_text import exact_match_texts
from refscore.protocol import CliOption, ColumnRules, Metric, Score, Signature, Statistics, metric_with, nrefs_text

#: The evaluate release whose ``exact_match`` module this metric reproduces (in the signature).
EVALUATE_VERSION = "0.4.6"


def _check_regexes(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):   # evaluate would iterate the characters: almost surely a mistake
        raise InputTypeError(f"ExactMatch: regexes_to_ignore must be a list of regular expressions, got the string "
                             f"{value!r}; write regexes_to_ignore=[{value!r}]")
    patterns = tuple(value)
    for index, pattern in enumerate(patterns):
        if not isinstance(pattern, str):
            raise InputTypeError(f"ExactMatch: regexes_to_ignore[{index}] must be a str (a regular expression), "
                                 f"got {type(pattern).__name__}")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise InputError(f"ExactMatch: regexes_to_ignore[{index}] {pattern!r} is not a valid regular "
                             f"expression ({exc}); escape literal characters with re.escape") from None
    return patterns


@dataclasses.dataclass(frozen=True)
class ExactMatchConfig:
    """evaluate's ``exact_match`` options (all off by default: the texts must be equal).

    Attributes:
        regexes_to_ignore: regular expressions removed (``re.sub(pattern, "", text)``, in order) before the others.
        ignore_case: lowercase both sides.
        ignore_punctuation: delete ``string.punctuation`` (ASCII punctuation only).
        ignore_numbers: delete the digits 0–9.
    """

    regexes_to_ignore: tuple[str, ...] = ()
    ignore_case: bool = False
    ignore_punctuation: bool = False
    ignore_numbers: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "regexes_to_ignore", _check_regexes(self.regexes_to_ignore))
        for name in ("ignore_case", "ignore_punctuation", "ignore_numbers"):
            object.__setattr__(self, name, check_bool(getattr(self, name), name, owner="ExactMatch"))


class ExactMatch(Metric):
    """The share of segments whose hypothesis equals a reference after evaluate's ``exact_match`` options.

    Several references per segment: the segment matches when any one does (evaluate takes one reference). Texts
    are normalised as evaluate's numpy arrays are, except that a lowercased text is never cut at the batch's
    array width (:mod:`refscore.metrics._answer_text`; the drop-in ``compat.evaluate.load("exact_match")`` cuts
    as evaluate does), so each segment's score depends on that segment alone.

    >>> metric = ExactMatch(ignore_case=True)
    >>> metric.sentence_scores(["Paris", "paris.", ""], [["London", "PARIS"], "Paris", ""]).tolist()
    [1.0, 0.0, 1.0]
    """

    name: ClassVar[str] = "exact_match"
    config_class: ClassVar[type] = ExactMatchConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    check_label: ClassVar[str | None] = "exact match"
    exact_to: ClassVar[str | None] = f"evaluate exact_match ({EVALUATE_VERSION})"
    columns: ClassVar[tuple[str, ...]] = ("matches", "segments")
    integer_statistics = True
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--em-ignore-case",), "ignore_case", "exact match: lowercase both sides", bool),
        CliOption(("--em-ignore-punctuation",), "ignore_punctuation",
                  "exact match: delete ASCII punctuation (string.punctuation)", bool),
        CliOption(("--em-ignore-numbers",), "ignore_numbers", "exact match: delete the digits 0-9", bool),
        CliOption(("--em-regexes-to-ignore",), "regexes_to_ignore",
                  "exact match: regular expressions removed before the other options, separated by a tab "
                  "(Python re syntax)", lambda text: tuple(text.split("\t"))),
    )

    config: ExactMatchConfig

    def matches(self, hypotheses: Sequence[str], references: Sequence[str], *,
                numpy_widths: bool = False) -> list[bool]:
        """evaluate's ``score_list``: each hypothesis against the reference at the same position
        (``numpy_widths``: with evaluate's cut of lowercased texts at numpy's array width, for the drop-in)."""
        cfg = self.config
        options = (cfg.regexes_to_ignore, cfg.ignore_case, cfg.ignore_punctuation, cfg.ignore_numbers)
        hyps = exact_match_texts(hypotheses, *options, numpy_widths=numpy_widths)
        refs = exact_match_texts(references, *options, numpy_widths=numpy_widths)
        return [h == r and (h != "" or a.rstrip("\x00") == b.rstrip("\x00"))
                for h, r, a, b in zip(hyps, refs, hypotheses, references)]

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: 1 when the hypothesis matches any of its references, and a 1 (``segments``)."""
        check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        owner = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
        paired = [batch.hypotheses[i] for i in owner]
        found = np.array(self.matches(paired, list(batch.references)), dtype=np.int64)
        data = np.ones((len(batch), 2), dtype=np.int64)
        if len(batch):
            data[:, 0] = np.maximum.reduceat(found, batch.ref_offsets[:-1])
        return self.new_statistics(self.columns, data, batch.nrefs)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, at_most=(("matches", "segments"),), integer=True)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        cfg = self.config
        options = (cfg.regexes_to_ignore, cfg.ignore_case, cfg.ignore_punctuation, cfg.ignore_numbers)
        shown = exact_match_texts([output], *options)[0]
        wanted = exact_match_texts(list(references), *options)
        if any(self.matches([output] * len(references), list(references))):
            return f"exact match 1 ({shown!r} matches a reference)"
        return f"exact match 0: {shown!r} equals none of {', '.join(repr(r) for r in wanted[:5])}"

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``matches / segments`` per row (0 without segments): ``(m, 1)`` float64."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        segments = totals[:, 1:2]
        return np.where(segments > 0, totals[:, 0:1] / np.where(segments > 0, segments, 1), 0.0)

    def signature(self, nrefs: int = 1) -> Signature:
        cfg = self.config
        return Signature({"nrefs": nrefs_text(nrefs), "case": "lc" if cfg.ignore_case else "mixed",
                          "punct": "no" if cfg.ignore_punctuation else "yes",
                          "numbers": "no" if cfg.ignore_numbers else "yes",
                          "regexes": str(len(cfg.regexes_to_ignore)), "evaluate": EVALUATE_VERSION},
                         short_names={"nrefs": "#", "case": "c", "punct": "pn", "numbers": "num", "regexes": "re"})


def exact_match(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """The share of segments matching a reference; ``options`` are :class:`ExactMatchConfig` fields.

    >>> exact_match(["a", "B"], [["a"], ["b"]], ignore_case=True).score
    1.0
    """
    return metric_with(ExactMatch, options).corpus_score(hypotheses, references, num_threads=num_threads)


def sentence_exact_match(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """1.0 when ``hypothesis`` matches ``references`` (one string, or any of a list), else 0.0.

    >>> sentence_exact_match("agent", "agent007", ignore_numbers=True).score
    1.0
    """
    return metric_with(ExactMatch, options).sentence_score(hypothesis, references)
