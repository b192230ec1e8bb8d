"""chrF and chrF++ (Popović 2015, 2017) with sacreBLEU 2.6's exact semantics, counted by the compiled core.

Character n-grams (orders ``1..char_order``) are taken over Unicode code points of each segment with all
whitespace removed (unless ``whitespace=True``); chrF++ adds word n-grams (orders ``1..word_order``) over
whitespace-split words with one ASCII punctuation character peeled off each word, as sacreBLEU does. For
several references, each segment keeps the statistics of the reference with the best sentence chrF (the first
one on ties). The corpus score is the F-score of the summed statistics.

>>> import refscore
>>> round(100 * refscore.sentence_chrf("The cat sat.", ["The cat sat on the mat."]).score, 2)
49.26
>>> print(refscore.chrf(["The cat sat."], [["The cat sat on the mat."]], word_order=2))
chrF2++ = 49.41
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore._memory import check_table_within_budget
from refscore._core._chrf import (SPACE_KEEP, SPACE_PYTHON, SPACE_REGEX, PairScorer, chrf_f_scores,
                                  chrf_statistics)
from refscore.checks import check_bool, check_num_threads, check_number, check_order
from refscore.inputs import prepare_batch
from refscore.errors import InputError
from refscore.metrics.advice import warn_if_tokenized
from refscore.metrics._explaining import best_reference, quoted
from refscore.metrics._pair_counts import CHRFPairCounts
from refscore.metrics._single import SentenceResults
from refscore.protocol import (CliOption, ColumnRules, DeprecatedValue, Metric, Score, Signature, Statistics,
                               metric_with, nrefs_text)

#: The sacreBLEU release whose chrF semantics (and signature format) refscore reproduces.
SACREBLEU_VERSION = "2.6.0"

#: sacreBLEU's fallback value for undefined precision, recall or F in ``_compute_f_score``.
EPSILON = 1e-16


def _number(text: str) -> int | float:
    """CLI converter for beta: ``2`` stays an int (name ``chrF2``), ``2.5`` becomes a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


@dataclasses.dataclass(frozen=True)
class CHRFConfig:
    """Settings of chrF / chrF++; the defaults are sacreBLEU's (``chrF2``, ``word_order=2`` gives ``chrF2++``).

    Attributes:
        char_order: maximum character n-gram order.
        word_order: maximum word n-gram order (0 = chrF, 2 = chrF++).
        beta: weight of recall relative to precision in the F-score.
        lowercase: lowercase hypotheses and references (Python's ``str.lower``) before counting.
        whitespace: keep whitespace characters in character n-grams (default: removed).
        eps_smoothing: average per-order F-scores with 1e-16 for undefined values (chrF++.py / NLTK / Moses style);
            default: average precision and recall over the orders both sides have (sacreBLEU's ``eff:yes``).
    """

    char_order: int = 6
    word_order: int = 0
    beta: int | float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        for name in ("char_order", "word_order"):
            object.__setattr__(self, name, check_order(getattr(self, name), name, minimum=0, owner="CHRFConfig"))
        if self.char_order + self.word_order < 1:
            raise InputError("CHRFConfig: char_order + word_order must be >= 1 (nothing to count otherwise)")
        check_number(self.beta, "beta", minimum=0, owner="CHRFConfig")
        try:
            square = float(self.beta) * float(self.beta)
        except OverflowError:
            square = math.inf
        if not math.isfinite(square) or self.beta < 0:
            raise InputError(f"CHRFConfig: beta must be a finite number >= 0 whose square is finite, got {self.beta}")
        beta = int(self.beta) if isinstance(self.beta, (int, np.integer)) else float(self.beta)
        object.__setattr__(self, "beta", beta)
        for name in ("lowercase", "whitespace", "eps_smoothing"):
            object.__setattr__(self, name, check_bool(getattr(self, name), name, owner="CHRFConfig"))

    @property
    def order(self) -> int:
        """Number of n-gram orders scored: ``char_order + word_order``."""
        return self.char_order + self.word_order

    @property
    def display_name(self) -> str:
        """sacreBLEU's name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


def statistics_columns(char_order: int, word_order: int) -> tuple[str, ...]:
    """Column names in sacreBLEU's statistics order: ``[hyp, ref, match]`` per character order, then per word order.

    >>> statistics_columns(1, 1)
    ('char1_hyp', 'char1_ref', 'char1_match', 'word1_hyp', 'word1_ref', 'word1_match')
    """
    orders = [f"char{n}" for n in range(1, char_order + 1)] + [f"word{n}" for n in range(1, word_order + 1)]
    return tuple(f"{order}_{kind}" for order in orders for kind in ("hyp", "ref", "match"))


def f_scores_percent(totals: np.ndarray, config: CHRFConfig) -> np.ndarray:
    """sacreBLEU's ``CHRF._compute_f_score`` (0–100 scale) for every row of ``totals`` at once.

    The operations are sacreBLEU's, in its order, so each value is the very float sacreBLEU computes: compiled
    row by row for integer counts (``refscore._core._chrf.chrf_f_scores``, the function the kernel ranks
    references with), vectorised with numpy on float64 for other totals (exact for counts below 2**53).

    >>> cfg = CHRFConfig(char_order=1)
    >>> f_scores_percent(np.array([[4, 5, 2]]), cfg).round(4).tolist()
    [41.6667]
    """
    totals = np.asarray(totals)
    if totals.ndim != 2 or totals.shape[1] != 3 * config.order:
        raise InputError(f"chrF totals must have shape (m, {3 * config.order}), got {totals.shape}")
    factor = config.beta ** 2
    if totals.dtype.kind in "iu":   # counts: sacreBLEU's statements compiled, row by row
        return chrf_f_scores(np.ascontiguousarray(totals, dtype=np.int64), config.order, float(factor),
                             config.eps_smoothing)
    stats = totals.astype(np.float64)
    rows = stats.shape[0]
    score = np.zeros(rows)
    avg_prec = np.zeros(rows)
    avg_rec = np.zeros(rows)
    effective_order = np.zeros(rows, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(config.order):
            n_hyp, n_ref, n_match = stats[:, 3 * i], stats[:, 3 * i + 1], stats[:, 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, EPSILON)
            rec = np.where(n_ref > 0, n_match / n_ref, EPSILON)
            denom = factor * prec + rec
            score += np.where(denom > 0, (1 + factor) * prec * rec / denom, EPSILON)
            effective = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(effective, avg_prec + prec, avg_prec)
            avg_rec = np.where(effective, avg_rec + rec, avg_rec)
            effective_order += effective
        if config.eps_smoothing:
            return 100 * score / config.order
        has_order = effective_order > 0
        avg_prec = np.where(has_order, avg_prec / np.maximum(effective_order, 1), 0.0)
        avg_rec = np.where(has_order, avg_rec / np.maximum(effective_order, 1), 0.0)
        f_beta = (1 + factor) * avg_prec * avg_rec
        f_beta /= factor * avg_prec + avg_rec
        return np.where(avg_prec + avg_rec != 0, 100 * f_beta, 0.0)


def nltk_chrf_statistics(hypotheses: list[str], references: list[str], max_len: int, beta: float,
                         ignore_whitespace: bool, *, num_threads: int | None = None) -> np.ndarray:
    """NLTK's chrF counts per segment (one reference each): ``char<n>_hyp/ref/match`` for orders ``1..max_len``,
    whitespace removed as NLTK removes it (the ``regex`` module's ``\\s``) unless ``ignore_whitespace`` is False."""
    return chrf_statistics(hypotheses, references, np.arange(len(references) + 1, dtype=np.int64), int(max_len), 0,
                           float(beta ** 2), True, SPACE_REGEX if ignore_whitespace else SPACE_KEEP, num_threads)


def nltk_chrf_from_statistics(data: np.ndarray, min_len: int, max_len: int, beta: float) -> float:
    """NLTK's ``corpus_chrf`` formula: the mean over segments (in NLTK's order: orders summed over segments with
    Python's ``sum``) of the mean over orders ``min_len..max_len`` of each order's F-beta, ``1e-16`` without a match.

    >>> nltk_chrf_from_statistics(np.array([[2, 2, 2], [2, 2, 1]]), 1, 1, 3.0)
    0.75
    """
    factor = beta ** 2
    order_sums = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for n in range(min_len, max_len + 1):
            hyp_count, ref_count, matches = (data[:, 3 * (n - 1) + k] for k in range(3))
            prec = matches / hyp_count
            rec = matches / ref_count
            fscore = np.where(matches > 0, (1 + factor) * (prec * rec) / (factor * prec + rec), EPSILON)
            order_sums.append(sum(fscore.tolist()))  # Python's sum, as NLTK adds the sentence scores
    return (sum(order_sums) / len(order_sums)) / len(data)


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class CHRFScore(Score):
    """A chrF result on the 0–1 scale. ``values``: ``name`` (sacreBLEU's: ``chrF2``, ``chrF2++``), ``char_order``,
    ``word_order`` and ``beta``. The attributes of the same names are deprecated aliases.

    >>> print(CHRFScore(metric="chrf", score=0.4926, signature="", values=chrf_values("chrF2", 6, 0, 2)))
    chrF2 = 49.26
    """

    name = DeprecatedValue()
    char_order = DeprecatedValue()
    word_order = DeprecatedValue()
    beta = DeprecatedValue()

    def format(self, digits: int = 2) -> str:
        return f"{self.values['name']} = {100 * self.score:.{digits}f}"

    def __str__(self) -> str:
        return self.format()


def chrf_values(name: str, char_order: int, word_order: int, beta: int | float) -> dict[str, Any]:
    """A :class:`CHRFScore`'s named corpus values."""
    return {"name": name, "char_order": char_order, "word_order": word_order, "beta": beta}


class CHRF(CHRFPairCounts, Metric):
    """chrF / chrF++ with sacreBLEU 2.6 semantics; text only (token ids are rejected: chrF counts characters).

    >>> metric = CHRF(word_order=2)
    >>> metric.sentence_scores(["The cat sat.", "a"], ["The cat sat on the mat.", ["b", "a"]]).round(4).tolist()
    [0.4941, 1.0]
    >>> str(metric.signature(1))[:52]
    'nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|versio'
    """

    name: ClassVar[str] = "chrf"
    score_class = CHRFScore
    integer_statistics = True
    config_class: ClassVar[type] = CHRFConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    check_label: ClassVar[str | None] = "chrF"
    exact_to: ClassVar[str | None] = "sacrebleu.CHRF (2.6)"
    peer_arithmetic: ClassVar[str | None] = "refscore.metrics.chrf.arithmetic:chrf_arithmetic"
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--chrf-char-order", "-cc"), "char_order", "chrF: character n-gram order (default 6)", int),
        CliOption(("--chrf-word-order", "-cw"), "word_order", "chrF: word n-gram order (default 0; 2 = chrF++)", int),
        CliOption(("--chrf-beta",), "beta", "chrF: weight of recall vs precision (default 2)", _number),
        CliOption(("--chrf-whitespace",), "whitespace", "chrF: keep whitespace in character n-grams", bool),
        CliOption(("--chrf-lowercase",), "lowercase", "chrF: case-insensitive", bool),
        CliOption(("--chrf-eps-smoothing",), "eps_smoothing",
                  "chrF: epsilon smoothing (chrF++.py / NLTK / Moses) instead of effective order", bool),
    )
    #: the fix a :class:`~refscore.errors.TokenizedInputWarning` gives
    tokenized_input_fix: ClassVar[str] = (
        "Detokenize the hypotheses (and references): chrF ignores spaces, not what a tokenizer changes besides "
        "them (escaped characters such as &quot;, contractions split into chrF++'s words); if both sides are "
        "tokenized on purpose, this warning does not apply.")
    config: CHRFConfig

    @functools.cached_property
    def columns(self) -> tuple[str, ...]:
        return statistics_columns(self.config.char_order, self.config.word_order)

    def statistics_rules(self) -> ColumnRules:
        orders = {name.rsplit("_", 1)[0]: None for name in self.columns}   # a match is at most either side's count
        pairs = tuple((f"{order}_match", f"{order}_{side}") for order in orders for side in ("hyp", "ref"))
        return ColumnRules(self.columns, pairs, integer=True)

    def explain_case(self, output: str, references: Sequence[str]) -> str:

        return explain_chrf(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment ``[hyp, ref, match]`` counts per order, from the best reference of each segment."""
        num_threads = check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        config = self.config
        check_table_within_budget(len(batch.hypotheses), len(self.columns), f"{config.display_name} statistics of "
                                  f"{len(batch.hypotheses):,} segments with char_order={config.char_order}, "
                                  f"word_order={config.word_order} ({len(self.columns):,} columns)",
                                  hint="or lower char_order / word_order")
        warn_if_tokenized(self.config.display_name, batch.hypotheses, self.tokenized_input_fix)
        data = chrf_statistics(batch.hypotheses, batch.references, batch.ref_offsets, self.config.char_order,
                               self.config.word_order, float(self.config.beta ** 2), self.config.eps_smoothing,
                               SPACE_KEEP if self.config.whitespace else SPACE_PYTHON, num_threads,
                               lowercase=self.config.lowercase)
        return self._new_statistics(self.columns, data, batch.nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return (f_scores_percent(np.atleast_2d(totals), self.config) / 100.0)[:, None]

    def score_from_statistics(self, stats: Statistics) -> CHRFScore:
        self.check_statistics(stats)
        percent = float(f_scores_percent(stats.totals()[None, :], self.config)[0])
        result = self.new_score(stats, score=percent / 100.0,
                                values=chrf_values(self.config.display_name, self.config.char_order,
                                                   self.config.word_order, self.config.beta))
        return cast(CHRFScore, result)   # new_score makes score_class

    def sentence_score(self, hypothesis: Any, references: Any) -> CHRFScore:
        """chrF of one segment; plain ``str`` text takes the per-call fast path (one compiled call,
        ``_chrf.PairScorer``; no batch, no statistics table; the same numbers as :meth:`sentence_scores`).

        >>> round(CHRF().sentence_score("The cat sat.", ["The cat sat on the mat."]).score, 4)
        0.4926
        """
        percent = self._pair_scorer.score(hypothesis, references)
        if percent is None:
            return cast(CHRFScore, super().sentence_score(hypothesis, references))
        return cast(CHRFScore, self._sentence_results.make(percent / 100.0, 1 if type(references) is str
                                                           else len(references), self._sentence_values.copy()))

    @functools.cached_property
    def _pair_scorer(self) -> PairScorer:
        """The compiled single-pair entry point of :meth:`sentence_score` (one reused scratch, no arrays)."""
        config = self.config
        return PairScorer(config.char_order, config.word_order, self._factor, config.eps_smoothing,
                          SPACE_KEEP if config.whitespace else SPACE_PYTHON, lowercase=config.lowercase)

    @functools.cached_property
    def _sentence_results(self) -> SentenceResults:
        return SentenceResults(self)

    @functools.cached_property
    def _sentence_values(self) -> dict[str, Any]:
        config = self.config   # a sentence's named values depend on the config only
        return chrf_values(config.display_name, config.char_order, config.word_order, config.beta)

    @functools.cached_property
    def _factor(self) -> float:
        return float(self.config.beta ** 2)

    def signature(self, nrefs: int = 1) -> Signature:
        cfg = self.config
        return Signature({"nrefs": nrefs_text(nrefs),
                          "case": "lc" if cfg.lowercase else "mixed",
                          "eff": "no" if cfg.eps_smoothing else "yes",
                          "nc": str(cfg.char_order),
                          "nw": str(cfg.word_order),
                          "space": "yes" if cfg.whitespace else "no",
                          "version": SACREBLEU_VERSION},
                         short_names={"nrefs": "#", "case": "c", "eff": "e", "space": "s", "version": "v"})


def chrf(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> CHRFScore:
    """Corpus chrF (chrF++ with ``word_order=2``); ``references[i]`` is a string or a list of strings.

    >>> print(chrf(["The cat sat."], ["The cat sat on the mat."], eps_smoothing=True))
    chrF2 = 49.19
    """
    return cast(CHRFScore, metric_with(CHRF, options).corpus_score(hypotheses, references, num_threads=num_threads))


def sentence_chrf(hypothesis: str, references: str | list[str], **options: Any) -> CHRFScore:
    """chrF of one hypothesis against one reference or a list of references.

    >>> print(sentence_chrf("The cat sat.", ["The cat sat on the mat."]))
    chrF2 = 49.26
    """
    if not options:   # the common call: its metric found without building the options' key
        return _sentence_chrf_metric().sentence_score(hypothesis, references)
    return metric_with(CHRF, options).sentence_score(hypothesis, references)


@functools.cache
def _sentence_chrf_metric() -> CHRF:
    return metric_with(CHRF, {})


def explain_chrf(metric: Metric, output: str, references: Sequence[str]) -> str:
    reference = references[best_reference(metric, output, references)]
    present = set(output.split())
    missing = list(dict.fromkeys(word for word in reference.split() if word not in present))
    if missing:
        return f"reference words not in the output: {quoted(missing)}"
    return "every reference word is in the output; the character n-grams differ (order, spacing or extra text)"
