"""BLEU with sacreBLEU 2.6's exact semantics, on the 0–1 scale.

Statistics per segment (int64): ``hyp_len``, ``ref_len`` (the closest reference length, ties to the shorter),
``match_1..N`` (hypothesis n-grams clipped by the largest count in any one reference) and ``total_1..N``.
The corpus score is the formula on the column sums; a sentence score is the formula on one row. The formula
(:func:`bleu_from_counts`) follows ``sacrebleu.BLEU.compute_bleu`` operation by operation: smoothing ``none``,
``floor``, ``add-k`` (applied before the empty-order check) and ``exp``, effective order, the early zero when no
n-gram matches, and ``log(0) = -9999999999``.

>>> result = bleu(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat on the mat"]])
>>> round(100 * result.score, 2), result.counts
(95.54, (5, 5, 4, 3))
>>> round(100 * sentence_bleu("the cat sat", "the dog sat").score, 2)   # effective order by default
34.67
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from refscore._core._bleu import bleu_score_one, bleu_scores
from refscore._core._parallel import resolve_num_threads
from refscore._inputs import prepare_batch
from refscore._checks import check_bool, check_choice, check_int, check_num_threads, check_number
from refscore.errors import InputError, InputTypeError
from refscore.metrics._advice import warn_if_tokenized
from refscore.metrics._pair_counts import bleu_rows, word_streams
from refscore.metrics._word_batch import (WORD_TOKENIZERS, check_tokenizer,
                                          ngram_statistics)
from refscore.protocol import CliOption, Metric, Score, Signature, Statistics, metric_with
from refscore.tokenizers import EXTERNAL_TOKENIZERS, SPM_MODELS, tokenize_texts, tokenizer_signature

#: The sacreBLEU release whose semantics (and signature format) refscore's BLEU reproduces.
SACREBLEU_VERSION = "2.6.0"
#: Default smoothing values (Chen & Cherry 2014), as sacreBLEU's ``BLEU.SMOOTH_DEFAULTS``.
SMOOTH_DEFAULTS: dict[str, float | int | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: sacreBLEU's ``my_log(0)``.
LOG_ZERO = -9999999999


@dataclass(frozen=True)
class BLEUConfig:
    """Settings of :class:`BLEU` (sacreBLEU's ``BLEU`` arguments; ``max_order`` is ``max_ngram_order``).

    ``tokenize`` and ``lowercase`` apply to text input only (token ids are used as given). ``spm_model`` is the
    SentencePiece model file of the ``flores101`` / ``spm`` / ``flores200`` / ``spBLEU-1K`` tokenizers when it is
    not in sacreBLEU's cache (:func:`refscore.tokenizers.find_sentencepiece_model`).
    """

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = 4
    effective_order: bool = False
    spm_model: str | None = None

    def __post_init__(self) -> None:
        check_tokenizer("BLEU", self.tokenize, external=EXTERNAL_TOKENIZERS)
        if self.spm_model is not None:
            if not isinstance(self.spm_model, (str, os.PathLike)):
                raise InputTypeError(f"BLEU: spm_model must be a path (str), got {type(self.spm_model).__name__}")
            if self.tokenize not in SPM_MODELS:
                raise InputError(f"BLEU: spm_model applies to the SentencePiece tokenizers {tuple(SPM_MODELS)}, "
                                 f"not tokenize={self.tokenize!r}; drop spm_model or choose one of those")
            object.__setattr__(self, "spm_model", os.fspath(self.spm_model))
        object.__setattr__(self, "lowercase", check_bool(self.lowercase, "lowercase", owner="BLEU"))
        object.__setattr__(self, "effective_order", check_bool(self.effective_order, "effective_order", owner="BLEU"))
        object.__setattr__(self, "max_order", check_int(self.max_order, "max_order", minimum=1, owner="BLEU"))
        check_smoothing(self.smooth_method, self.smooth_value)

    @property
    def resolved_smooth_value(self) -> float | int | None:
        """``smooth_value``, or the method's default when it is None."""
        return SMOOTH_DEFAULTS[self.smooth_method] if self.smooth_value is None else self.smooth_value


def check_smoothing(smooth_method: Any, smooth_value: Any) -> None:
    """Raise a clear error for an unknown smoothing method or a negative / non-numeric smoothing value."""
    check_choice(smooth_method, "smooth_method", SMOOTH_DEFAULTS, owner="BLEU")
    if smooth_value is not None:
        check_number(smooth_value, "smooth_value", minimum=0, owner="BLEU", hint="or None for the method's default")


class BLEUComponents(NamedTuple):
    """Vectorised BLEU results on sacreBLEU's 0–100 scale: one entry (or row) per input row."""

    score: np.ndarray       # (m,)
    precisions: np.ndarray  # (m, max_order)
    bp: np.ndarray          # (m,)


def bleu_from_counts(matches: np.ndarray, totals: np.ndarray, sys_len: np.ndarray, ref_len: np.ndarray, *,
                     smooth_method: str = "exp", smooth_value: float | None = None,
                     effective_order: bool = False, dtype: type = np.float64) -> BLEUComponents:
    """sacreBLEU's ``BLEU.compute_bleu`` for many rows at once, on the 0–100 scale, without mutating its inputs.

    ``matches`` and ``totals`` are ``(m, max_order)``; ``sys_len`` and ``ref_len`` are ``(m,)``. In float64 (the
    default) every row runs sacreBLEU's statements compiled (``refscore._core._bleu``), with the C library's
    ``log``/``exp`` that Python's ``math`` module calls: equal to sacreBLEU to the last bit.
    ``dtype=np.float32`` evaluates the counts and precisions in float32 with numpy, in sacreBLEU's order of
    operations, as sacreBLEU does for its float32 bootstrap resamples.

    >>> r = bleu_from_counts(np.array([[2, 1, 0]]), np.array([[3, 2, 1]]), np.array([3]), np.array([3]),
    ...                      smooth_method="add-k")
    >>> [round(float(x), 2) for x in r.precisions[0]], round(float(r.score[0]), 2)
    ([66.67, 66.67, 50.0], 60.57)
    """
    check_smoothing(smooth_method, smooth_value)
    value = SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
    matches = np.atleast_2d(np.asarray(matches))
    totals = np.atleast_2d(np.asarray(totals))
    sys_len, ref_len = np.asarray(sys_len).reshape(-1), np.asarray(ref_len).reshape(-1)
    rows, max_order = matches.shape
    if totals.shape != matches.shape or sys_len.shape[0] != rows or ref_len.shape[0] != rows:
        raise InputError(f"bleu_from_counts: matches {matches.shape} and totals {totals.shape} must have the same "
                         f"(rows, max_order) shape, sys_len and ref_len one entry per row")
    if dtype is np.float64:     # sacreBLEU's scalar statements in one compiled loop
        arrays = (matches, totals, sys_len, ref_len)
        if not all(array.dtype == np.int64 for array in arrays):   # int64 statistics are read in place
            arrays = tuple(array.astype(np.float64, copy=False) for array in arrays)
        return BLEUComponents(*bleu_scores(*arrays, smooth_method, 0.0 if value is None else float(value),
                                           effective_order))
    sys_len, ref_len = sys_len.astype(np.float64), ref_len.astype(np.float64)

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # bp = 1 if sys_len >= ref_len else (exp(1 - ref_len / sys_len) if sys_len > 0 else 0)
        bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)

        correct = matches.astype(dtype)
        total = totals.astype(dtype)
        if smooth_method == "add-k":
            correct[:, 1:] += value
            total[:, 1:] += value

        precisions = np.zeros((rows, max_order), dtype=np.float64)
        stopped = np.zeros(rows, dtype=bool)        # sacreBLEU's `break` at the first order with total 0
        eff_order = np.full(rows, max_order, dtype=np.int64)
        smooth_mteval = np.ones(rows, dtype=dtype)
        for n in range(max_order):
            stopped |= total[:, n] == 0
            live = ~stopped
            if effective_order:
                eff_order = np.where(live, n + 1, eff_order)
            no_match = live & (correct[:, n] == 0)
            precision = np.where(live & ~no_match, 100. * correct[:, n] / total[:, n], 0.0)
            if smooth_method == "exp":
                smooth_mteval = np.where(no_match, smooth_mteval * 2, smooth_mteval)
                precision = np.where(no_match, 100. / (smooth_mteval * total[:, n]), precision)
            elif smooth_method == "floor":
                precision = np.where(no_match, 100. * value / total[:, n], precision)
            precisions[:, n] = precision

        # score = bp * exp(sum(my_log(p) for p in precisions[:eff_order]) / eff_order), summed left to right
        log_sum = np.zeros(rows, dtype=np.float64)
        for n in range(max_order):
            p = precisions[:, n]
            log_p = np.where(p == 0, float(LOG_ZERO), np.log(np.where(p == 0, 1.0, p)))
            log_sum = np.where(n < eff_order, log_sum + log_p, log_sum)
        score = bp * np.exp(log_sum / eff_order)

    no_matches = ~np.any(matches != 0, axis=1)        # early zero (sacreBLEU #141): precisions reported as 0
    score[no_matches] = 0.0
    precisions[no_matches] = 0.0
    return BLEUComponents(score, precisions, bp)


@dataclass(frozen=True, kw_only=True)
class BLEUScore(Score):
    """A BLEU result. ``score`` and ``precisions`` are on the 0–1 scale (sacreBLEU's values / 100).

    ``counts`` and ``totals`` are the summed n-gram statistics as counted (sacreBLEU's add-k smoothing also adds
    ``k`` to the ``counts``/``totals`` it reports; refscore reports the unmodified counts).
    """

    counts: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    ratio: float

    def format(self, digits: int = 2, signature: bool = False) -> str:
        """sacreBLEU's score line on the 0–100 scale, e.g. ``BLEU = 34.28 65.5/41.0/27.9/19.8 (BP = 1.000 ...)``."""
        name = f"BLEU|{self.signature}" if signature else "BLEU"
        return f"{name} = {100 * self.score:.{digits}f} {self.verbose()}"

    def verbose(self) -> str:
        """sacreBLEU's ``verbose_score``: precisions (0–100), brevity penalty, ratio and lengths."""
        precisions = "/".join(f"{100 * p:.1f}" for p in self.precisions)
        return (f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} "
                f"ref_len = {self.ref_len:d})")

    def __str__(self) -> str:
        return self.format()


#: BLEU's documented default bands of a test case (lower bounds): the reading evaluation platforms give sentence BLEU.
BLEU_BANDS: dict[str, float] = {"very strong overlap": 0.6, "moderate overlap": 0.3, "low overlap": 0.0}

class BLEU(Metric):
    """Corpus and sentence BLEU with sacreBLEU 2.6's exact numbers (divided by 100).

    Options (:class:`BLEUConfig`): ``tokenize`` (``13a``, ``intl``, ``zh``, ``char``, ``none``, and with their
    extras ``ja-mecab``, ``ko-mecab``, ``flores101``/``spm``, ``flores200``, ``spBLEU-1K``), ``lowercase``,
    ``smooth_method`` (``exp``, ``floor``, ``add-k``, ``none``), ``smooth_value``, ``max_order``,
    ``effective_order``. References are per segment (a string or a list of strings each); token ids (lists of
    ints, integer numpy arrays) skip tokenization.

    >>> metric = BLEU(tokenize="none")
    >>> stats = metric.statistics(["a b c d", "x y"], ["a b c d", ["x z", "x y"]])
    >>> round(metric.score_from_statistics(stats).score, 12)   # sacreBLEU: 100.00000000000004
    1.0
    >>> metric.sentence_scores(["a b c d", "x y"], ["a b c d", "x z"]).round(4).tolist()
    [1.0, 0.0]
    """

    name: ClassVar[str] = "bleu"
    config_class: ClassVar[type] = BLEUConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    check_label: ClassVar[str | None] = "BLEU"
    #: test cases score single sentences as sacreBLEU's sentence_bleu does: effective order
    check_defaults: ClassVar[tuple[tuple[str, Any], ...]] = (("effective_order", True),)
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = tuple(BLEU_BANDS.items())
    exact_to: ClassVar[str | None] = "sacrebleu.BLEU (2.6)"
    peer_arithmetic: ClassVar[str | None] = "refscore.metrics.sacrebleu_arithmetic:bleu_arithmetic"
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--tokenize", "-tok"), "tokenize", "word tokenizer (sacreBLEU's; default 13a)",
                  choices=WORD_TOKENIZERS + EXTERNAL_TOKENIZERS),
        CliOption(("--spm-model",), "spm_model",
                  "SentencePiece model file for --tokenize flores101/spm/flores200/spBLEU-1K (default: sacreBLEU's "
                  "cached copy in $SACREBLEU/models)"),
        CliOption(("--lowercase", "-lc"), "lowercase", "lowercase before tokenizing", type=bool),
        CliOption(("--smooth-method", "--smooth", "-s"), "smooth_method", "BLEU smoothing (default exp)",
                  choices=tuple(SMOOTH_DEFAULTS)),
        CliOption(("--smooth-value", "-sv"), "smooth_value", "BLEU smoothing value for floor / add-k", type=float),
        CliOption(("--max-order",), "max_order", "BLEU maximum n-gram order (default 4)", type=int),
        CliOption(("--effective-order",), "effective_order",
                  "BLEU effective order (on by default with --segments, as sacrebleu -sl)", type=bool),
    )

    #: the fix a :class:`~refscore.errors.TokenizedInputWarning` gives (BLEU warns unless ``tokenize='none'``)
    tokenized_input_fix: ClassVar[str] = (
        "Detokenize the hypotheses (and references); if both sides are tokenized on purpose, pass tokenize='none' "
        "(command line: --tokenize none) so that they are not tokenized again.")

    config: BLEUConfig

    @functools.cached_property
    def columns(self) -> tuple[str, ...]:
        """Statistics columns: hyp_len, ref_len, match_1..N, total_1..N."""
        orders = range(1, self.config.max_order + 1)
        return ("hyp_len", "ref_len", *(f"match_{n}" for n in orders), *(f"total_{n}" for n in orders))

    @classmethod
    def command_line_defaults(cls, options: dict[str, Any], *, segments: bool) -> dict[str, Any]:
        """Effective order for ``--segments`` unless set, as ``sacrebleu -sl`` (the API keeps it off).

        >>> BLEU.command_line_defaults({}, segments=True), BLEU.command_line_defaults({}, segments=False)
        ({'effective_order': True}, {})
        """
        if segments and "effective_order" not in options:
            return {**options, "effective_order": True}
        return options

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        from refscore.metrics.explanations import explain_bleu

        return explain_bleu(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment BLEU statistics (one row per hypothesis, input order). Text that looks tokenized (100 or more
        hypotheses ending in ``" ."``, sacreBLEU's rule) gets a :class:`~refscore.errors.TokenizedInputWarning`
        unless ``tokenize='none'``."""
        num_threads = check_num_threads(num_threads)
        tokenize, lowercase = self.config.tokenize, self.config.lowercase
        if tokenize in EXTERNAL_TOKENIZERS:
            hypotheses, references = self._external_tokens(hypotheses, references, num_threads)
            tokenize, lowercase = "none", False
        batch, data = ngram_statistics("bleu", hypotheses, references, tokenize=tokenize, lowercase=lowercase,
                                       orders=(self.config.max_order,), num_threads=num_threads)
        if tokenize != "none" and not batch.is_token_ids:   # external tokenizers: checked on their input text
            warn_if_tokenized("BLEU", batch.hypotheses, self.tokenized_input_fix)
        return self._new_statistics(self.columns, data, batch.nrefs)

    def count_streams(self, texts: list[str]) -> list[tuple[np.ndarray, np.ndarray, int]] | None:
        """Word ids of the compiled tokenizers; None for MeCab / SentencePiece (scored pair by pair)."""
        config = self.config
        if config.tokenize in EXTERNAL_TOKENIZERS:
            return None
        return word_streams(texts, tokenize=config.tokenize, lowercase=config.lowercase, max_order=config.max_order)

    def statistics_from_counts(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray) -> np.ndarray:
        return bleu_rows(hyp, ref, match)

    def _external_tokens(self, hypotheses: Any, references: Any, num_threads: int | None) -> tuple[Any, Any]:
        """Text run through the MeCab / SentencePiece tokenizer (lowercased first, as sacreBLEU does), as
        space-joined tokens per segment; token-id input is returned as given."""
        batch = prepare_batch(hypotheses, references, allow_token_ids=True)
        if batch.is_token_ids:
            return hypotheses, references
        warn_if_tokenized("BLEU", batch.hypotheses, self.tokenized_input_fix)
        config, threads = self.config, resolve_num_threads(num_threads)
        hyps, refs = (tokenize_texts(config.tokenize, texts, lowercase=config.lowercase, num_threads=threads,
                                     spm_model=config.spm_model, what=what)
                      for texts, what in ((batch.hypotheses, "hypotheses"),
                                          (batch.references, "references (flattened)")))
        offsets = batch.ref_offsets.tolist()
        return hyps, [refs[offsets[i]:offsets[i + 1]] for i in range(len(batch))]

    def _components(self, totals: np.ndarray) -> BLEUComponents:
        totals = np.atleast_2d(np.asarray(totals))
        if totals.shape[1] != len(self.columns):
            raise InputError(f"BLEU: statistics rows must have {len(self.columns)} columns {self.columns}, "
                             f"got {totals.shape[1]}")
        order = self.config.max_order
        return bleu_from_counts(totals[:, 2:2 + order], totals[:, 2 + order:], totals[:, 0], totals[:, 1],
                                smooth_method=self.config.smooth_method, smooth_value=self.config.smooth_value,
                                effective_order=self.config.effective_order)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """BLEU (0–1) of each row of summed statistics: ``(m, 1)`` float64."""
        return (self._components(totals).score / 100.0)[:, None]

    def percent_scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacreBLEU's own 0–100 BLEU of each row, to the last bit (100 × the 0–1 value may differ by an ulp)."""
        return self._components(totals).score[:, None]

    def score_from_statistics(self, stats: Statistics) -> BLEUScore:
        self.check_statistics(stats)
        totals = stats.totals().tolist()
        config, order = self.config, self.config.max_order
        counts, order_totals = [int(c) for c in totals[2:2 + order]], [int(t) for t in totals[2 + order:]]
        sys_len, ref_len = int(totals[0]), int(totals[1])
        score, precisions, bp = bleu_score_one(counts, order_totals, sys_len, ref_len, config.smooth_method,
                                               float(config.resolved_smooth_value or 0.0), config.effective_order)
        return BLEUScore(metric=self.name, score=score / 100.0, signature=self.signature_text(stats.nrefs),
                         higher_is_better=True, counts=tuple(counts), totals=tuple(order_totals),
                         precisions=tuple(p / 100.0 for p in precisions), bp=bp, sys_len=sys_len, ref_len=ref_len,
                         ratio=sys_len / ref_len if ref_len else 0.0)

    def signature(self, nrefs: int = 1) -> Signature:
        """sacreBLEU's BLEU signature, e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""
        config = self.config
        smooth = config.smooth_method
        if SMOOTH_DEFAULTS[smooth] is not None:
            smooth += f"[{config.resolved_smooth_value:.2f}]"
        fields = {"nrefs": "var" if nrefs == -1 else str(nrefs), "case": "lc" if config.lowercase else "mixed",
                  "eff": "yes" if config.effective_order else "no", "tok": config.tokenize, "smooth": smooth}
        if config.tokenize in EXTERNAL_TOKENIZERS:   # sacreBLEU's: the MeCab version, or the model's name
            fields["tok"] = tokenizer_signature(config.tokenize, spm_model=config.spm_model)
        if config.max_order != 4:  # sacreBLEU's signature omits the order; refscore records a non-default one
            fields["order"] = str(config.max_order)
        fields["version"] = SACREBLEU_VERSION
        return Signature(fields, {"nrefs": "#", "case": "c", "eff": "e", "smooth": "s", "version": "v"})


def bleu(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> BLEUScore:
    """Corpus BLEU (0–1) of hypotheses against per-segment references; ``options`` are :class:`BLEUConfig` fields.

    >>> round(bleu(["a b c d e"], ["a b c d f"], tokenize="none").score, 4)
    0.6687
    """
    return metric_with(BLEU, options).corpus_score(hypotheses, references, num_threads=num_threads)


def sentence_bleu(hypothesis: Any, references: Any, **options: Any) -> BLEUScore:
    """BLEU of one segment; ``references`` is a string or a list of strings (or token ids).

    Like sacreBLEU's ``sentence_bleu`` and ``sacrebleu -sl``, ``effective_order`` defaults to True here (orders
    longer than the hypothesis are left out instead of zeroing the score); pass ``effective_order=False`` for
    ``BLEU().sentence_score`` numbers.

    >>> round(sentence_bleu("the cat sat", ["the dog sat"]).score, 4)
    0.3467
    """
    if isinstance(hypothesis, (list, tuple)) and hypothesis and isinstance(hypothesis[0], str):
        raise InputTypeError("sentence_bleu: hypothesis must be one string (or one token-id sequence), got a list "
                             "of strings; use refscore.bleu(...) or BLEU().sentence_scores(...) for many segments")
    options.setdefault("effective_order", True)
    return metric_with(BLEU, options).sentence_score(hypothesis, references)


__all__ = ["BLEU", "BLEUConfig", "BLEUScore", "BLEUComponents", "bleu", "bleu_from_counts", "sentence_bleu",
           "SMOOTH_DEFAULTS", "SACREBLEU_VERSION"]
