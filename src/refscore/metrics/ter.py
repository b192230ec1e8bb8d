"""TER (translation edit rate) with sacreBLEU 2.6's exact numbers: Tercom tokenizer, edit distance with shifts.

Per segment the statistics are the fewest edits over the segment's references (``edits``) and the **average**
reference length (``ref_length``), both float64 (edits are whole numbers, exact in float64). The corpus score is
``sum(edits) / sum(ref_length)``; an empty reference with a non-empty hypothesis scores 1, both empty score 0.
Lower is better. Scores are on the 0–1 scale (sacreBLEU's TER / 100).

>>> from refscore.metrics.ter import TER
>>> round(TER().sentence_score("The cat sat", ["the cat sat on the mat", "a cat sat"]).score, 4)
0.2222
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore._memory import check_segments_within_budget, memory_budget
from refscore.checks import check_bool, check_num_threads
from refscore.inputs import Batch, prepare_batch
from refscore._offsets import concatenate
from refscore._metric_facts import Arithmetic
from refscore.metrics._explaining import best_reference, quoted
from refscore.metrics.advice import warn_if_tokenized
from refscore.metrics._single import SentenceResults, single_text
from refscore.protocol import (CliOption, ColumnRules, DeprecatedValue, Metric, Score, Signature, Statistics,
                               metric_with, nrefs_text)

#: The sacreBLEU release whose TER this module reproduces (the signature's ``version`` field).
SACREBLEU_VERSION = "2.6.0"

_SHORT_NAMES = {"nrefs": "#", "case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as", "version": "v"}


@dataclasses.dataclass(frozen=True)
class TERConfig:
    """Options of sacreBLEU's ``TER`` / ``TercomTokenizer``.

    Attributes:
        normalized: Tercom normalization (XML unescaping, punctuation split, possessive ``'s``; with
            ``asian_support`` also CJK characters split one per word).
        no_punct: remove ``.,?:;!"()`` (with ``asian_support`` also CJK and full-width punctuation).
        asian_support: CJK handling for ``normalized`` / ``no_punct`` (no effect without either).
        case_sensitive: keep case (default: lowercase everything).
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            object.__setattr__(self, field.name, check_bool(getattr(self, field.name), field.name, owner="TERConfig"))

    @property
    def kernel_flags(self) -> int:
        from refscore._core import _ter

        return ((_ter.NORMALIZED if self.normalized else 0) | (_ter.NO_PUNCT if self.no_punct else 0)
                | (_ter.ASIAN_SUPPORT if self.asian_support else 0))


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class TERScore(Score):
    """Corpus TER: ``score`` = ``num_edits / ref_length`` (0–1 scale, may exceed 1; lower is better).

    ``values``: ``num_edits`` (the summed fewest edits per segment) and ``ref_length`` (the summed average reference
    length). The attributes of the same names are deprecated aliases.
    """

    num_edits = DeprecatedValue()
    ref_length = DeprecatedValue()


@dataclasses.dataclass(frozen=True)
class ReferenceEdits:
    """Edits of every hypothesis against every one of its references (before taking the minimum).

    ``edits[ref_offsets[i]:ref_offsets[i + 1]]`` and ``ref_lengths[...]`` belong to segment ``i``.
    """

    edits: np.ndarray
    ref_lengths: np.ndarray
    ref_offsets: np.ndarray


class TER(Metric):
    """Translation edit rate, sacreBLEU 2.6's ``TER`` exactly (per-segment edit counts included).

    Text is tokenized by sacreBLEU's Tercom tokenizer (``TERConfig`` options); token-id input
    (``list[int]`` / int arrays per segment) skips the tokenizer and compares ids.

    >>> metric = TER()
    >>> score = metric.corpus_score(["the cat sat", "a dog"], [["the cat sat down"], ["the dog"]])
    >>> score.values["num_edits"], score.values["ref_length"], round(score.score, 4), score.higher_is_better
    (2, 6.0, 0.3333, False)
    >>> str(metric.signature(1)).startswith("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0")
    True
    """

    name: ClassVar[str] = "ter"
    score_class = TERScore
    config_class: ClassVar[type] = TERConfig
    higher_is_better: ClassVar[bool] = False
    #: a test case's threshold (0–1 scale): TER passes 1 when an output needs more edits than the reference has
    #: words, but above 2 a threshold passes unrelated outputs and can only be a 0–100 number
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 2.0)
    #: one output can need many more edits than its reference has words
    score_range: ClassVar[tuple[float, float] | None] = (0.0, math.inf)
    check_label: ClassVar[str | None] = "TER"
    exact_to: ClassVar[str | None] = "sacrebleu.TER (2.6)"
    peer_arithmetic: ClassVar[str | None] = "refscore.metrics.ter:ter_arithmetic"
    peer_json_name: ClassVar[str | None] = "TER"
    columns: ClassVar[tuple[str, ...]] = ("edits", "ref_length")
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--ter-normalized",), "normalized", "TER: Tercom normalization (punctuation split, XML unescaping)",
                  bool),
        CliOption(("--ter-no-punct",), "no_punct", "TER: remove punctuation", bool),
        CliOption(("--ter-asian-support",), "asian_support",
                  "TER: CJK handling for --ter-normalized / --ter-no-punct", bool),
        CliOption(("--ter-case-sensitive",), "case_sensitive", "TER: do not lowercase", bool),
    )
    #: the fix a :class:`~refscore.errors.TokenizedInputWarning` gives
    tokenized_input_fix: ClassVar[str] = (
        "Detokenize the hypotheses (and references): TER compares the words as given (only normalized=True, "
        "--ter-normalized, splits punctuation off); if both sides are tokenized on purpose, this warning does "
        "not apply.")

    config: TERConfig

    def reference_edits(self, hypotheses: Any, references: Any, *,
                        num_threads: int | None = None) -> ReferenceEdits:
        """Edits of each hypothesis against each of its references and the reference lengths (Tercom words)."""
        return self._reference_edits(prepare_batch(hypotheses, references, allow_token_ids=True), num_threads)

    def _reference_edits(self, batch: Batch, num_threads: int | None) -> ReferenceEdits:
        from refscore._core import _ter

        check_ter_memory(batch, self.config, num_threads)
        if batch.is_token_ids:
            ids, offsets = concatenate([*batch.hypotheses, *batch.references], np.int64)
            edits, lengths = _ter.ter_ids(ids, offsets, batch.ref_offsets, len(batch), num_threads)
        else:
            edits, lengths = _ter.ter_text(batch.hypotheses, batch.references, batch.ref_offsets,
                                           self.config.kernel_flags, not self.config.case_sensitive, num_threads)
        return ReferenceEdits(edits, lengths, batch.ref_offsets)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns)   # edits and the average reference length: float64, never negative

    def explain_case(self, output: str, references: Sequence[str]) -> str:

        return explain_ter(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: fewest edits over the references and the average reference length (float64)."""
        num_threads = check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=True)
        if not batch.is_token_ids:
            warn_if_tokenized("TER", batch.hypotheses, self.tokenized_input_fix)
        return self.statistics_from_edits(self._reference_edits(batch, num_threads), batch.nrefs)

    def sentence_score(self, hypothesis: Any, references: Any) -> TERScore:
        """TER of one segment; plain ``str`` text within the memory budget takes the per-call fast path
        (``_ter.PairScorer``: no batch, no statistics table; the same numbers as :meth:`sentence_scores`).

        >>> TER().sentence_score("the cat sat", ["the cat sat down"]).values
        {'num_edits': 1, 'ref_length': 4.0}
        """
        refs = single_text(hypothesis, references)
        if refs is None or _workspace_bound(len(hypothesis), max(map(len, refs))) > memory_budget():
            return cast(TERScore, super().sentence_score(hypothesis, references))   # its memory check explains
        per_ref, lengths = self._pair_scorer.edits(hypothesis, refs)   # one compiled call, one reused workspace
        # as statistics_from_edits and scores_from_totals compute them, on one segment
        edits, ref_length = float(min(per_ref)), sum(lengths) / len(refs)
        score = edits / ref_length if ref_length > 0 else (1.0 if edits > 0 else 0.0)
        return cast(TERScore, self._sentence_results.make(score, len(refs), {"num_edits": int(edits),
                                                                              "ref_length": ref_length}))

    @functools.cached_property
    def _pair_scorer(self) -> Any:
        from refscore._core._ter import PairScorer   # imported on first use, as the batch kernel
        return PairScorer(self.config.kernel_flags, not self.config.case_sensitive)

    @functools.cached_property
    def _sentence_results(self) -> SentenceResults:
        return SentenceResults(self)

    def statistics_from_edits(self, per_ref: ReferenceEdits, nrefs: int) -> Statistics:
        """Statistics from :meth:`reference_edits`: the fewest edits and the average length per segment."""
        starts = per_ref.ref_offsets[:-1]
        edits = np.minimum.reduceat(per_ref.edits, starts).astype(np.float64)
        ref_length = np.add.reduceat(per_ref.ref_lengths, starts) / np.diff(per_ref.ref_offsets)
        return self._new_statistics(self.columns, np.column_stack([edits, ref_length]), nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``edits / ref_length``; 1 when the reference length is 0 but there are edits, else 0."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        edits, ref_length = totals[:, 0], totals[:, 1]
        ratio = np.divide(edits, ref_length, out=np.zeros_like(edits), where=ref_length > 0)
        scores = np.where(ref_length > 0, ratio, np.where(edits > 0, 1.0, 0.0))
        # a NaN statistic (kept as a value) compares False above: its score is NaN, never 0 or 1
        return np.where(np.isnan(edits) | np.isnan(ref_length), np.nan, scores)[:, None]

    def score_from_statistics(self, stats: Statistics) -> TERScore:
        self.check_statistics(stats)
        totals = stats.totals()
        result = self.new_score(stats, values={"num_edits": int(totals[0]) if np.isfinite(totals[0]) else float(totals[0]),
                                               "ref_length": float(totals[1])})
        return cast(TERScore, result)   # new_score makes score_class

    def signature(self, nrefs: int = 1) -> Signature:
        config = self.config
        fields = {
            "nrefs": nrefs_text(nrefs),
            "case": "mixed" if config.case_sensitive else "lc",
            "tok": "tercom",
            "norm": "yes" if config.normalized else "no",
            "punct": "no" if config.no_punct else "yes",
            "asian": "yes" if config.asian_support else "no",
            "version": SACREBLEU_VERSION,
        }
        return Signature(fields, _SHORT_NAMES)


_PUNCTUATION = re.compile(r"[^\w\s]")


def _word_bound(texts: Sequence[Any], config: TERConfig, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """(words, characters) of each text as the Tercom tokenizer could make them, at most. ``exact=False``: from
    the length alone (a word takes a character and, unless punctuation is split off, a space); ``exact=True``:
    whitespace words, plus, when punctuation is split off (``normalized``), two per punctuation character and
    one per character when ``asian_support`` splits CJK one per word."""
    chars = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    if not exact:
        return (chars if config.normalized else (chars + 1) // 2), chars
    if not config.normalized:
        return np.fromiter((len(t.split()) for t in texts), dtype=np.int64, count=len(texts)), chars
    if config.asian_support:
        return chars, chars
    words = [len(t.split()) + 2 * _PUNCTUATION.subn("", t)[1] for t in texts]   # subn: no str per match
    return np.minimum(np.array(words, dtype=np.int64), chars), chars


def ter_workspace_bytes(hyp_words: np.ndarray, ref_words: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """About the bytes a TER kernel thread holds for one (hypothesis, reference) pair (``_ter_distance.hpp``):
    the banded edit-distance matrix (8-byte cost and 1-byte operation per cell; each hypothesis row spans
    ``2 * width`` reference positions, ``width = max(25, ref/hyp / 2 + 25)``, at most the reference's), about ten
    8-byte entries per word (row bounds, trace, alignment, shifted copies) and about six 4-byte code points per
    character (tokenizer scratch).

    >>> int(ter_workspace_bytes(np.array([1_000_000]), np.array([70]), np.array([5_000_000]))[0]) // 2**20
    619
    """
    hyp = np.asarray(hyp_words, dtype=np.float64)
    ref = np.asarray(ref_words, dtype=np.float64)
    ratio = np.divide(ref, hyp, out=np.ones_like(ref), where=hyp > 0)
    width = np.where(ratio / 2 > 25, np.ceil(ratio / 2 + 25), 25)
    cells = (ref + 1) + hyp * np.minimum(ref + 1, 2 * width)
    return 9 * cells + 80 * (hyp + ref) + 24 * np.asarray(chars, dtype=np.float64)


def _workspace_bound(hyp_length: int, ref_length: int) -> int:
    """An upper bound of :func:`ter_workspace_bytes` for texts of these lengths (characters, or token ids): every
    band at most the whole reference, a word at most a character.

    >>> _workspace_bound(1_000_000, 70) >= int(ter_workspace_bytes(np.array([1_000_000]), np.array([70]),
    ...                                                          np.array([1_000_070]))[0])
    True
    """
    return 9 * (ref_length + 1) * (hyp_length + 1) + 104 * (hyp_length + ref_length)


def check_ter_memory(batch: Batch, config: TERConfig, num_threads: int | None) -> None:
    """Refuse a batch whose largest segments' TER workspaces (:func:`ter_workspace_bytes`) exceed the memory budget
    (:mod:`refscore._memory`), naming the segment, before the kernel allocates them. Bounds from the text lengths
    come first, so that ordinary batches cost one ``len`` per text; only when they exceed the budget are the words
    counted."""
    from refscore._core._parallel import resolve_num_threads

    if not len(batch):
        return
    budget = memory_budget()
    threads = resolve_num_threads(num_threads)
    # First one bound for the whole batch: the longest hypothesis against the longest reference, a word counted
    # as a character (the workspace grows with both), so that a batch of ordinary sentences costs a len per text.
    longest_hyp = max(map(len, batch.hypotheses), default=0)
    longest_ref = max(map(len, batch.references), default=0)
    if threads * _workspace_bound(longest_hyp, longest_ref) <= budget:
        return
    owner = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
    hyp_texts = [batch.hypotheses[i] for i in owner]
    for exact in (False, True):
        if batch.is_token_ids:
            exact = True
            hyp_words = np.array([len(h) for h in hyp_texts], dtype=np.int64)
            ref_words = np.array([len(r) for r in batch.references], dtype=np.int64)
            chars = np.zeros(len(owner))
        else:
            hyp_words, hyp_chars = _word_bound(hyp_texts, config, exact)
            ref_words, ref_chars = _word_bound(batch.references, config, exact)
            chars = hyp_chars + ref_chars
        pair_bytes = ter_workspace_bytes(hyp_words, ref_words, chars)
        needs = np.maximum.reduceat(pair_bytes, batch.ref_offsets[:-1]) if len(pair_bytes) else pair_bytes
        if exact:
            break
        largest = np.sort(needs)[-min(threads, len(needs)):].sum()
        if largest <= budget:
            return

    def what(segment: int) -> str:
        return (f"TER of segment {segment} (hypotheses[{segment}], about {int(hyp_words[batch.ref_offsets[segment]]):,}"
                f" words, against its references)")

    check_segments_within_budget(needs, what, concurrent=threads, budget=budget,
                                 hint="or split the segment (TER's shift search also takes time growing faster "
                                      "than the square of its words)")


def ter(hypotheses: Any, references: Any, *, normalized: bool = False, no_punct: bool = False,
        asian_support: bool = False, case_sensitive: bool = False, num_threads: int | None = None) -> TERScore:
    """Corpus TER of a batch; ``references[i]`` is a string or a list of strings (per-segment layout).

    >>> import refscore
    >>> round(refscore.ter(["The cat sat"], [["the cat sat on the mat", "a cat sat"]]).score, 6)
    0.222222
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return cast(TERScore, metric.corpus_score(hypotheses, references, num_threads=num_threads))


def sentence_ter(hypothesis: Any, references: Any, *, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """TER of one hypothesis against one reference (a string) or several (a list of strings).

    >>> import refscore
    >>> refscore.sentence_ter("a b", "").score  # empty reference, non-empty hypothesis
    1.0
    """
    if normalized is False and no_punct is False and asian_support is False and case_sensitive is False:
        return _sentence_ter_metric().sentence_score(hypothesis, references)   # the common call, no options key
    metric = metric_with(TER, {"normalized": normalized, "no_punct": no_punct, "asian_support": asian_support,
                               "case_sensitive": case_sensitive})   # built once per setting, not per call
    return metric.sentence_score(hypothesis, references)


@functools.cache
def _sentence_ter_metric() -> TER:
    return TER()


def explain_ter(metric: Metric, output: str, references: Sequence[str]) -> str:
    stats = metric.statistics([output], [list(references)], num_threads=1)
    scores = metric.segment_scores(stats)
    edits, length = stats.column("edits")[0], stats.column("ref_length")[0]
    reference = references[best_reference(metric, output, references)]
    present = set(output.lower().split()) if not metric.config.case_sensitive else set(output.split())
    words = reference.split() if metric.config.case_sensitive else reference.lower().split()
    missing = list(dict.fromkeys(word for word in words if word not in present))
    average = " (average of the references)" if len(references) > 1 else ""
    text = f"TER {scores[0]:.3f}: {edits:g} edits over {length:g} reference words{average}"
    return text + (f"; reference words not in the output: {quoted(missing)}" if missing else "")


# -- sacreBLEU 2.6's arithmetic of resampled scores (TER's peer_arithmetic): float32 sums, np.float32 ratio
def ter_arithmetic(metric: object) -> Arithmetic:
    """sacreBLEU's ``TER._compute_score_from_stats``: exact and on float32 resample sums."""
    return Arithmetic(100.0, _ter_exact, _ter_resampled)


def _ter_ratios(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    edits, ref_length = totals[:, 0], totals[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / ref_length
    return ratio, ref_length > 0


def _ter_exact(totals: np.ndarray) -> np.ndarray:
    """sacreBLEU: ``100 * (edits / ref_length)``; 100 with edits but no reference words, else 0."""
    totals = np.asarray(totals, dtype=np.float64)
    ratio, has_reference = _ter_ratios(totals)
    return np.where(has_reference, 100 * ratio, np.where(totals[:, 0] > 0, 100.0, 0.0))[:, None]


def _ter_resampled(sums: np.ndarray) -> np.ndarray:
    """The same on float32 sums: ``np.float32`` division and product; the two constants are Python floats."""
    sums = np.asarray(sums, dtype=np.float32)
    ratio, has_reference = _ter_ratios(sums)
    percent = np.float32(100) * ratio
    if np.all(has_reference):
        return percent[:, None]
    return np.where(has_reference, percent.astype(np.float64), np.where(sums[:, 0] > 0, 100.0, 0.0))[:, None]
