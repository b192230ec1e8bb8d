"""BLEU with sacreBLEU 2.6's exact semantics, on the 0–1 scale.

Statistics per segment (int64): ``hyp_len``, ``ref_len`` (the closest reference length, ties to the shorter),
``match_1..N`` (hypothesis n-grams clipped by the largest count in any one reference) and ``total_1..N``.
The corpus score is the formula on the column sums; a sentence score is the formula on one row. The formula
(:func:`bleu_from_counts`) follows ``sacrebleu.BLEU.compute_bleu`` operation by operation: smoothing ``none``,
``floor``, ``add-k`` (applied before the empty-order check) and ``exp``, effective order, the early zero when no
n-gram matches, and ``log(0) = -9999999999``.

>>> result = bleu(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat on the mat"]])
>>> round(100 * result.score, 2), result.values["counts"]
(95.54, (5, 5, 4, 3))
>>> round(100 * sentence_bleu("the cat sat", "the dog sat").score, 2)   # effective order by default
34.67
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore._core._bleu import sacrebleu_sentence
from refscore._core._ngrams import TextPairCounter, bleu_text_pair, has_cjk
from refscore._core._parallel import resolve_num_threads
from refscore._metric_facts import Arithmetic, ColumnRules
from refscore.inputs import per_segment, prepare_batch
from refscore.checks import check_num_threads
from refscore.errors import InputError, InputTypeError
from refscore.metrics.advice import warn_if_cjk, warn_if_tokenized
from refscore.metrics._pair_counts import BLEUPairCounts
from refscore.metrics._single import SentenceResults
from refscore.metrics.bleu.config import BLEUConfig
from refscore.metrics.bleu.formula import (SMOOTH_DEFAULTS, BLEUComponents, bleu_from_counts,
                                           sacrebleu_reported_counts)
from refscore.metrics.bleu.flavors import (FLAVOR_FIELDS, brevity_penalty,
                                           evaluate_text_counts, nltk_bleu_from_sums, nmt_bleu_from_sums,
                                           smoothing_name, token_list_counts)
from refscore.metrics.word_batch import ngram_statistics
from refscore.protocol import CliOption, DeprecatedValue, Metric, Score, Signature, Statistics, metric_with, nrefs_text
from refscore.text.external import EXTERNAL_TOKENIZERS, tokenize_texts, tokenizer_signature
from refscore.text.languages import SPACE_TOKENIZERS, TARGET_TOKENIZERS
from refscore.text.tokenizer_registry import tokenizers

#: The sacreBLEU release whose semantics (and signature format) refscore's BLEU reproduces.
SACREBLEU_VERSION = "2.6.0"
#: The NLTK release whose ``corpus_bleu`` the ``nltk`` flavor reproduces.
NLTK_VERSION = "3.10.4"


@dataclasses.dataclass(frozen=True, kw_only=True)
class BLEUScore(Score):
    """A BLEU result. ``score`` and ``values["precisions"]`` are on the 0–1 scale (sacreBLEU's values / 100).

    ``values``: ``counts`` and ``totals`` (the summed n-gram statistics as counted; sacreBLEU's add-k smoothing
    also adds ``k`` to the ``counts``/``totals`` it reports, refscore reports the unmodified counts),
    ``precisions``, ``bp`` (brevity penalty), ``sys_len``, ``ref_len`` and ``ratio``. The attributes of the same
    names are deprecated aliases.
    """

    counts = DeprecatedValue()
    totals = DeprecatedValue()
    precisions = DeprecatedValue()
    bp = DeprecatedValue()
    sys_len = DeprecatedValue()
    ref_len = DeprecatedValue()
    ratio = DeprecatedValue()

    def format(self, digits: int = 2, signature: bool = False) -> str:
        """sacreBLEU's score line on the 0–100 scale, e.g. ``BLEU = 34.28 65.5/41.0/27.9/19.8 (BP = 1.000 ...)``."""
        name = f"BLEU|{self.signature}" if signature else "BLEU"
        return f"{name} = {100 * self.score:.{digits}f} {self.verbose()}"

    def verbose(self) -> str:
        """sacreBLEU's ``verbose_score``: precisions (0–100), brevity penalty, ratio and lengths."""
        values = self.values
        precisions = "/".join(f"{100 * p:.1f}" for p in values["precisions"])
        return (f"{precisions} (BP = {values['bp']:.3f} ratio = {values['ratio']:.3f} hyp_len = "
                f"{values['sys_len']:d} ref_len = {values['ref_len']:d})")

    def __str__(self) -> str:
        return self.format()


def bleu_values(counts: tuple[int, ...], totals: tuple[int, ...], precisions: tuple[float, ...], bp: float,
                sys_len: int, ref_len: int, ratio: float) -> dict[str, Any]:
    """A :class:`BLEUScore`'s named corpus values, in sacreBLEU's order."""
    return {"counts": counts, "totals": totals, "precisions": precisions, "bp": bp, "sys_len": sys_len,
            "ref_len": ref_len, "ratio": ratio}


#: BLEU's documented default bands of a test case (lower bounds): the reading evaluation platforms give sentence BLEU.
BLEU_BANDS: dict[str, float] = {"very strong overlap": 0.6, "moderate overlap": 0.3, "low overlap": 0.0}

class BLEU(BLEUPairCounts, Metric):
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
    score_class = BLEUScore
    integer_statistics = True
    config_class: ClassVar[type] = BLEUConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    check_label: ClassVar[str | None] = "BLEU"
    #: test cases score single sentences as sacreBLEU's sentence_bleu does: effective order
    check_defaults: ClassVar[tuple[tuple[str, Any], ...]] = (("effective_order", True),)
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = tuple(BLEU_BANDS.items())
    exact_to: ClassVar[str | None] = "sacrebleu.BLEU (2.6)"
    peer_arithmetic: ClassVar[str | None] = "refscore.metrics.bleu.arithmetic:bleu_arithmetic"
    peer_json_name: ClassVar[str | None] = "BLEU"
    target_tokenizers: ClassVar[dict[str, str]] = TARGET_TOKENIZERS   # -l SRC-TGT: sacreBLEU's choice
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--tokenize", "-tok"), "tokenize", "word tokenizer (sacreBLEU's; default 13a)",
                  choices=tokenizers("sacrebleu")),
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

    def statistics_rules(self) -> ColumnRules:
        orders = range(1, self.config.max_order + 1)
        return ColumnRules(self.columns, tuple((f"match_{n}", f"total_{n}") for n in orders), integer=True)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        from refscore.metrics.bleu.explain import explain_bleu

        return explain_bleu(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment BLEU statistics (one row per hypothesis, input order). Text that looks tokenized (100 or more
        hypotheses ending in ``" ."``, sacreBLEU's rule) gets a :class:`~refscore.errors.TokenizedInputWarning`
        unless ``tokenize='none'``."""
        num_threads = check_num_threads(num_threads)
        if self.config.flavor == "nltk":     # NLTK's input: token lists
            return self.token_list_statistics(hypotheses, references, num_threads=num_threads)
        if self.config.flavor == "evaluate":
            data, nrefs = evaluate_text_counts(hypotheses, references, self.config.max_order, num_threads=num_threads)
            return self._new_statistics(self.columns, data, nrefs)
        tokenize, lowercase = self.config.tokenize, self.config.lowercase
        if tokenize in EXTERNAL_TOKENIZERS:
            hypotheses, references = self._external_tokens(hypotheses, references, num_threads)
            tokenize, lowercase = "none", False
        batch, data = ngram_statistics("bleu", hypotheses, references, tokenize=tokenize, lowercase=lowercase,
                                       orders=(self.config.max_order,), num_threads=num_threads)
        if tokenize != "none" and not batch.is_token_ids:   # external tokenizers: checked on their input text
            warn_if_tokenized("BLEU", batch.hypotheses, self.tokenized_input_fix)
            warn_if_cjk("BLEU", batch.hypotheses, tokenize)
        return self._new_statistics(self.columns, data, batch.nrefs)

    def token_list_statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment statistics of token lists (NLTK's input: a list of any hashable tokens per hypothesis, a list
        of such lists per segment), counted as the flavor counts (``nltk``: ``max(1, ·)`` n-grams; ``evaluate``: the
        shortest reference length).

        >>> BLEU(flavor="nltk").token_list_statistics([["a", "b"]], [[["a", "b"]]]).data.tolist()
        [[2, 2, 2, 1, 0, 0, 2, 1, 1, 1]]
        """
        counts = {len(group) for group in references}
        return self._new_statistics(self.columns, self.token_list_rows(hypotheses, references, num_threads=num_threads),
                                    counts.pop() if len(counts) == 1 else -1)

    def token_list_rows(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> np.ndarray:
        """The int64 rows of :meth:`token_list_statistics` without the :class:`Statistics` around them (the NLTK
        drop-in's one-sentence calls)."""
        data = token_list_counts(hypotheses, references, self.config.max_order,
                                 shortest_ref=self.config.flavor == "evaluate", num_threads=num_threads)
        if self.config.flavor == "nltk":   # NLTK's per-segment max(1, hypothesis n-grams)
            np.maximum(data[:, 2 + self.config.max_order:], 1, out=data[:, 2 + self.config.max_order:])
        return data

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
        offsets = batch.ref_offsets.tolist()   # per segment already: never asked about its layout again
        return hyps, per_segment([refs[offsets[i]:offsets[i + 1]] for i in range(len(batch))])

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
        if self.config.flavor != "sacrebleu":   # the peers' scalar formulas, row by row
            return np.array([[float(self.flavor_score(row).score)] for row in np.atleast_2d(totals).tolist()],
                            dtype=np.float64).reshape(-1, 1)
        return (self._components(totals).score / 100.0)[:, None]

    def percent_scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacreBLEU's own 0–100 BLEU of each row, to the last bit (100 × the 0–1 value may differ by an ulp)."""
        if self.config.flavor != "sacrebleu":
            return 100.0 * self.scores_from_totals(totals)
        return self._components(totals).score[:, None]

    def flavor_score(self, sums: Sequence[int] | np.ndarray, *, last_segment: tuple[Any, Any] | None = None,
                     signature: str = "") -> BLEUScore:
        """The ``nltk`` or ``evaluate`` flavor's result of one row of summed statistics: ``score`` the first weight
        tuple's (``nltk``: every tuple's in ``details["scores"]``, NLTK's values), ``precisions`` and ``bp`` the
        peer's. ``last_segment`` is the corpus's last ``(references, hypothesis)``, which NLTK hands the smoothing
        function (methods 5–7 and user functions may read them; None: they get None)."""
        config, order = self.config, self.config.max_order
        sums = sums.tolist() if isinstance(sums, np.ndarray) else [int(value) for value in sums]
        counts, totals, sys_len, ref_len = tuple(sums[2:2 + order]), tuple(sums[2 + order:]), sums[0], sums[1]
        if config.flavor == "evaluate":
            nmt = nmt_bleu_from_sums(sums, order, smooth=config.smooth)
            return BLEUScore(metric=self.name, score=nmt.bleu, signature=signature, values=bleu_values(
                counts, totals, tuple(nmt.precisions), nmt.brevity_penalty, sys_len, ref_len, nmt.length_ratio))
        references, hypothesis = last_segment if last_segment is not None else (None, None)
        scores = nltk_bleu_from_sums(sums, config.weights,  # type: ignore[arg-type]  # the nltk flavor sets weights
                                     config.smoothing_function, config.auto_reweigh,
                                     references, hypothesis)
        return BLEUScore(metric=self.name, score=scores[0], signature=signature, details={"scores": scores},
                         values=bleu_values(counts, totals, tuple(c / t for c, t in zip(counts, totals)),
                                            float(brevity_penalty(ref_len, sys_len)), sys_len, ref_len,
                                            sys_len / ref_len if ref_len else 0.0))

    def score_from_statistics(self, stats: Statistics) -> BLEUScore:
        self.check_statistics(stats)
        if self.config.flavor != "sacrebleu":
            return self.flavor_score(stats.totals(), signature=self.signature_text(stats.nrefs))
        return self._sacrebleu_result([int(v) for v in stats.totals().tolist()], stats.nrefs)   # ints, as counted

    def _sacrebleu_result(self, totals: list[int], nrefs: int) -> BLEUScore:
        """The sacreBLEU flavor's result of one row of summed statistics (a list of ints), checked by the caller."""
        config = self.config
        score, values = sacrebleu_sentence(totals, config.max_order, config.smooth_method, self._smooth_value,
                                           config.effective_order)   # bleu_score_one, and bleu_values' order
        return cast(BLEUScore, self._sentence_results.make(score, nrefs, values))

    @functools.cached_property
    def _sentence_results(self) -> SentenceResults:
        return SentenceResults(self)

    @functools.cached_property
    def _smooth_value(self) -> float:
        return float(self.config.resolved_smooth_value or 0.0)

    @functools.cached_property
    def _pair_counter(self) -> TextPairCounter | None:
        """The compiled single-pair counter of :meth:`sentence_score` for plain text (the sacreBLEU flavor with a
        compiled tokenizer; MeCab / SentencePiece and the other flavors take the batch path)."""
        config = self.config
        if config.flavor != "sacrebleu" or config.tokenize in EXTERNAL_TOKENIZERS:
            return None
        return bleu_text_pair(config.tokenize, config.lowercase, config.max_order)

    def sentence_score(self, hypothesis: Any, references: Any) -> BLEUScore:
        """BLEU of one segment; plain ``str`` text takes the per-call fast path (:mod:`refscore.metrics._single`:
        one compiled call, no batch, no statistics table; the same numbers as :meth:`sentence_scores`).

        >>> round(BLEU(effective_order=True).sentence_score("the cat sat", ["the dog sat"]).score, 4)
        0.3467
        """
        row = self.sentence_row(hypothesis, references)
        if row is None:
            return cast(BLEUScore, super().sentence_score(hypothesis, references))
        if self.config.tokenize in SPACE_TOKENIZERS and has_cjk(hypothesis):   # cjk_advice's only tokenizers
            warn_if_cjk("BLEU", (hypothesis,), self.config.tokenize)   # tokenized text: only from 100 hypotheses on
        return self._sacrebleu_result(row, 1 if type(references) is str else len(references))

    def sentence_row(self, hypothesis: Any, references: Any) -> list[int] | None:
        """The statistics row (:attr:`columns`, ints) of one plain-``str`` pair from the compiled single-pair entry
        point, or None where :meth:`sentence_score` takes the batch path (other input, other flavors, MeCab)."""
        counter = self._pair_counter
        return None if counter is None else counter.counts(hypothesis, references)

    @property
    def compare_mt_words(self) -> bool:  # type: ignore[override]  # a property over the base class's plain attribute
        """sacreBLEU's BLEU counts the words of its tokenizer (the other flavors count as their peers do)."""
        return self.config.flavor == "sacrebleu"

    def arithmetic(self) -> Arithmetic:
        """sacreBLEU's float32 arithmetic for the sacreBLEU flavor; the metric's own formula for the others."""
        if self.config.flavor != "sacrebleu":
            return Arithmetic(1.0, self.scores_from_totals, None)
        return super().arithmetic()

    def hashed_config(self) -> dict[str, Any]:
        """Every config field; the other flavors' fields only when they apply, so that sacreBLEU BLEU's hash is
        the one it had before flavors existed (its statistics pickles keep merging)."""
        fields = {f.name: getattr(self.config, f.name) for f in dataclasses.fields(self.config)}
        if self.config.flavor == "sacrebleu":
            for name in ("flavor", *FLAVOR_FIELDS):
                del fields[name]
        return fields

    def signature(self, nrefs: int = 1) -> Signature:
        """sacreBLEU's BLEU signature, e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""
        config, smooth = self.config, self.config.smooth_method
        if SMOOTH_DEFAULTS[smooth] is not None:
            smooth += f"[{config.resolved_smooth_value:.2f}]"
        fields = {"nrefs": nrefs_text(nrefs), "case": "lc" if config.lowercase else "mixed",
                  "eff": "yes" if config.effective_order else "no", "tok": config.tokenize, "smooth": smooth}
        if config.tokenize in EXTERNAL_TOKENIZERS:   # sacreBLEU's: the MeCab version, or the model's name
            fields["tok"] = tokenizer_signature(config.tokenize, spm_model=config.spm_model)
        if config.max_order != 4:  # sacreBLEU's signature omits the order; refscore records a non-default one
            fields["order"] = str(config.max_order)
        if config.flavor != "sacrebleu":   # the peer's own settings instead of sacreBLEU's
            fields = {"nrefs": fields["nrefs"], "flavor": config.flavor, "order": str(config.max_order)}
            if config.flavor == "nltk":
                fields.update(smooth=smoothing_name(config.smoothing_function), weights=repr(config.weights),
                              reweigh="yes" if config.auto_reweigh else "no", version=NLTK_VERSION)
            else:
                fields.update(smooth="add-one" if config.smooth else "none", version="evaluate-bleu")
            return Signature(fields)
        fields["version"] = SACREBLEU_VERSION
        return Signature(fields, {"nrefs": "#", "case": "c", "eff": "e", "smooth": "s", "version": "v"})


def bleu(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> BLEUScore:
    """Corpus BLEU (0–1) of hypotheses against per-segment references; ``options`` are :class:`BLEUConfig` fields.

    >>> round(bleu(["a b c d e"], ["a b c d f"], tokenize="none").score, 4)
    0.6687
    """
    return cast(BLEUScore, metric_with(BLEU, options).corpus_score(hypotheses, references, num_threads=num_threads))


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
    if not options:   # the common call: its metric found without building the options' key
        return _sentence_bleu_metric().sentence_score(hypothesis, references)
    options.setdefault("effective_order", True)
    return metric_with(BLEU, options).sentence_score(hypothesis, references)


@functools.cache
def _sentence_bleu_metric() -> BLEU:
    return metric_with(BLEU, {"effective_order": True})


__all__ = ["BLEU", "BLEU_BANDS", "BLEUConfig", "BLEUScore", "BLEUComponents", "bleu", "bleu_from_counts",
           "sentence_bleu", "sacrebleu_reported_counts", "SMOOTH_DEFAULTS", "SACREBLEU_VERSION", "NLTK_VERSION"]
