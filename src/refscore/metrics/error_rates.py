"""Word and character error rates with jiwer 4.0's numbers: WER, CER, MER, WIL, WIP (or torchmetrics').

Each segment's reference and hypothesis are aligned by a bit-parallel Levenshtein kernel that picks jiwer's
alignment (RapidFuzz's opcodes; :mod:`refscore.metrics.edit_alignment`). Statistics per segment, all integer
counts: ``hits``, ``substitutions``, ``deletions``, ``insertions``, ``ref_length``, ``hyp_length`` and
``max_length`` (the longer side, for torchmetrics' MER/WIL/WIP). The corpus value comes from the column sums, as
jiwer computes it over a list of sentences (H, S, D, I totals; never a mean of sentence rates):

- ``wer`` / ``cer`` = (S + D + I) / (H + S + D); with no reference words at all, jiwer's rule: the insertions
  (a count, may exceed 1);
- ``mer`` = (S + D + I) / (H + S + D + I); no reference words: 0 when the hypotheses are empty too, else 1;
- ``wip`` = (H / ref_length) · (H / hyp_length) (0 without hypothesis words); no reference words: 1 or 0 as MER;
- ``wil`` = 1 − ``wip``.

Words are jiwer's default transform (runs of whitespace collapsed, ends stripped, split at spaces); characters are
the stripped text's code points (spaces count). Lower is better except for WIP. ``peer="torchmetrics"``
reproduces torchmetrics' ``WordErrorRate`` ... ``WordInfoPreserved`` instead: ``str.split()`` words, unstripped
characters, MER/WIL/WIP from the distance and the longer side, float32 arithmetic, x/0 = inf or nan.

Several references per segment (neither peer has them): the segment keeps the reference its hypothesis needs the
fewest edits against (the first of equals). Token ids (a list of ints per segment) are words or characters as given.

>>> import refscore
>>> refscore.wer(["the cat sit", "hello"], ["the cat sat", "hello world"]).score
0.4
>>> round(refscore.sentence_cer("kitten", "sitting").score, 4)
0.4286
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore.checks import check_choice, check_num_threads
from refscore.inputs import Batch, prepare_batch
from refscore.metrics.edit_alignment import align_characters, align_text_words, align_token_ids
from refscore.protocol import CliOption, ColumnRules, Metric, Score, Signature, Statistics, metric_with, nrefs_text

__all__ = ["CER", "MER", "WER", "WIL", "WIP", "ErrorRateConfig", "cer", "mer", "sentence_cer", "sentence_mer",
           "sentence_wer", "sentence_wil", "sentence_wip", "wer", "wil", "wip"]

#: The peers' releases these metrics reproduce (in the signature).
JIWER_VERSION = "4.0.0"
TORCHMETRICS_VERSION = "1.9.0"
PEERS = ("jiwer", "torchmetrics")
#: Default bands of a test case's check (upper bounds, best first): a few, a fifth, half of the words wrong.
ERROR_BANDS = (("near exact", 0.05), ("minor errors", 0.2), ("major errors", 0.5))
#: WIP's (lower bounds, best first).
WIP_BANDS = (("most information kept", 0.8), ("half kept", 0.5), ("little kept", 0.2))
COLUMNS = ("hits", "substitutions", "deletions", "insertions", "ref_length", "hyp_length", "max_length")


@dataclasses.dataclass(frozen=True)
class ErrorRateConfig:
    """Options of every error rate.

    Attributes:
        peer: ``"jiwer"`` (default: jiwer 4.0's transforms, formulas and empty-reference rule, float64) or
            ``"torchmetrics"`` (its ``str.split()`` words, unstripped characters, formulas, float32 results).
    """

    peer: str = "jiwer"

    def __post_init__(self) -> None:
        check_choice(self.peer, "peer", PEERS, owner="ErrorRateConfig")


def _segments(metric: _ErrorRate, batch: Batch, num_threads: int | None) -> np.ndarray:
    """Per reference: the seven statistics columns, int64 ``(n_refs, 7)``."""
    owner = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
    hyps = [batch.hypotheses[i] for i in owner]
    refs = list(batch.references)
    torchmetrics = metric.config.peer == "torchmetrics"
    if batch.is_token_ids:
        from refscore._offsets import concatenate

        ref_ids, ref_offsets = concatenate(refs, np.int64)
        hyp_ids, hyp_offsets = concatenate(hyps, np.int64)
        counts = align_token_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, num_threads=num_threads)
        ref_len, hyp_len = np.diff(ref_offsets), np.diff(hyp_offsets)
    elif metric.unit == "characters":
        if not torchmetrics:
            refs, hyps = [r.strip() for r in refs], [h.strip() for h in hyps]
        counts = align_characters(refs, hyps, num_threads=num_threads)
        ref_len = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
        hyp_len = np.fromiter(map(len, hyps), dtype=np.int64, count=len(hyps))
    else:   # the kernel splits the words (jiwer's transform or str.split) and aligns them
        both = align_text_words(refs, hyps, split="whitespace" if torchmetrics else "jiwer",
                                num_threads=num_threads).reshape(-1, 6)
        counts, ref_len, hyp_len = both[:, :4], both[:, 4], both[:, 5]
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    return np.column_stack([counts, ref_len, hyp_len, np.maximum(ref_len, hyp_len)]).astype(np.int64)


def _best_reference(rows: np.ndarray, ref_offsets: np.ndarray) -> np.ndarray:
    """One row per segment: the reference with the fewest edits (S + D + I), the first of equals."""
    if len(rows) == len(ref_offsets) - 1:
        return rows
    segment = np.repeat(np.arange(len(ref_offsets) - 1), np.diff(ref_offsets))
    edits = rows[:, 1] + rows[:, 2] + rows[:, 3]
    order = np.lexsort((np.arange(len(rows)), edits, segment))
    first = order[np.r_[0, np.flatnonzero(np.diff(segment[order])) + 1]] if len(rows) else order
    return rows[first]


class _ErrorRate(Metric):
    """The shared statistics and signature of the five error rates; each subclass has its formula."""

    config_class: ClassVar[type] = ErrorRateConfig
    higher_is_better: ClassVar[bool] = False
    #: a threshold above 2 passes unrelated outputs (an error rate is 1 for a hypothesis with nothing right)
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 2.0)
    #: jiwer's WER of an empty reference is the count of inserted words
    score_range: ClassVar[tuple[float, float] | None] = (0.0, float("inf"))
    columns: ClassVar[tuple[str, ...]] = COLUMNS
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = ERROR_BANDS
    integer_statistics = True
    example_task: ClassVar[str] = "translation"
    unit: ClassVar[str] = "words"
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--error-rate-peer",), "peer",
                  "WER/CER/MER/WIL/WIP: whose definitions (jiwer: jiwer 4.0, the default; torchmetrics: its "
                  "str.split words, unstripped characters, float32)", str, PEERS),
    )

    config: ErrorRateConfig

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: H, S, D, I, the reference's and the hypothesis's length and the longer of the two."""
        num_threads = check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=True)
        rows = _best_reference(_segments(self, batch, num_threads), batch.ref_offsets)
        return self.new_statistics(self.columns, rows.reshape(-1, len(COLUMNS)), batch.nrefs)

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, at_most=(("hits", "ref_length"), ("hits", "hyp_length"),
                                                  ("ref_length", "max_length"), ("hyp_length", "max_length")),
                           integer=True)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        h, s, d, i, n_ref, n_hyp, n_max = (totals[:, k] for k in range(7))
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.config.peer == "torchmetrics":
                return self.torchmetrics_formula(h, s, d, i, n_ref, n_hyp, n_max).astype(np.float64)[:, None]
            return self.jiwer_formula(h, s, d, i, n_ref, n_hyp)[:, None]

    def jiwer_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                      n_hyp: np.ndarray) -> np.ndarray:
        """jiwer's WER (CER): the error count over the reference length; the insertions without a reference."""
        safe = np.where(n_ref > 0, h + s + d, 1.0)
        return np.where(n_ref > 0, (s + d + i) / safe, i)

    def torchmetrics_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                             n_hyp: np.ndarray, n_max: np.ndarray) -> np.ndarray:
        """torchmetrics' WER (CER): the edit distance over the reference length, in float32."""
        return (s + d + i).astype(np.float32) / n_ref.astype(np.float32)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        stats = self.statistics([output], [list(references)], num_threads=1)
        h, s, d, i, n_ref, n_hyp, _ = (int(v) for v in stats.data[0])
        value = float(self.scores_from_totals(stats.data)[0, 0])
        label = self.check_label or self.name
        return (f"{label} {value:.3f}: {h} of {n_ref} reference {self.unit} right, {s} substituted, {d} deleted, "
                f"{i} inserted ({n_hyp} in the output)")

    def signature(self, nrefs: int = 1) -> Signature:
        peer = self.config.peer
        version = JIWER_VERSION if peer == "jiwer" else TORCHMETRICS_VERSION
        return Signature({"nrefs": nrefs_text(nrefs), "unit": self.unit, "peer": peer, "version": version},
                         short_names={"nrefs": "#", "unit": "u", "peer": "p", "version": "v"})


class WER(_ErrorRate):
    """Word error rate, jiwer 4.0's ``wer`` (corpus value from the summed counts).

    >>> WER().sentence_scores(["a b c", "", "x"], ["a b d", "a", ""]).tolist()
    [0.3333333333333333, 1.0, 1.0]
    """

    name: ClassVar[str] = "wer"
    check_label: ClassVar[str | None] = "WER"
    exact_to: ClassVar[str | None] = f"jiwer.wer ({JIWER_VERSION})"


class CER(_ErrorRate):
    """Character error rate, jiwer 4.0's ``cer`` (spaces are characters; the ends are stripped).

    >>> round(CER().corpus_score(["abd", "xyz"], ["abc", "xyz"]).score, 4)
    0.1667
    """

    name: ClassVar[str] = "cer"
    unit: ClassVar[str] = "characters"
    check_label: ClassVar[str | None] = "CER"
    exact_to: ClassVar[str | None] = f"jiwer.cer ({JIWER_VERSION})"


class MER(_ErrorRate):
    """Match error rate, jiwer 4.0's ``mer``: (S + D + I) / (H + S + D + I), 0–1.

    >>> MER().sentence_score("a b", "a c").score
    0.5
    """

    name: ClassVar[str] = "mer"
    check_label: ClassVar[str | None] = "MER"
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    score_range: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    exact_to: ClassVar[str | None] = f"jiwer.mer ({JIWER_VERSION})"

    def jiwer_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                      n_hyp: np.ndarray) -> np.ndarray:
        safe = np.where(n_ref > 0, h + s + d + i, 1.0)
        return np.where(n_ref > 0, (s + d + i) / safe, np.where(n_hyp == 0, 0.0, 1.0))

    def torchmetrics_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                             n_hyp: np.ndarray, n_max: np.ndarray) -> np.ndarray:
        return (s + d + i).astype(np.float32) / n_max.astype(np.float32)


def _wip_jiwer(h: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray) -> np.ndarray:
    """jiwer's WIP: ``(H / ref) * (H / hyp)`` in that order of operations; its empty-side rules."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (h / np.where(n_ref > 0, n_ref, 1.0)) * (h / np.where(n_hyp > 0, n_hyp, 1.0))
    return np.where(n_ref > 0, np.where(n_hyp >= 1, value, 0.0), np.where(n_hyp == 0, 1.0, 0.0))


def _wip_torchmetrics(s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray, n_hyp: np.ndarray,
                      n_max: np.ndarray) -> np.ndarray:
    """torchmetrics' WIP: ``(e / ref) * (e / hyp)`` with ``e = distance - longer side`` (float32)."""
    e = (s + d + i).astype(np.float32) - n_max.astype(np.float32)
    return (e / n_ref.astype(np.float32)) * (e / n_hyp.astype(np.float32))


class WIP(_ErrorRate):
    """Word information preserved, jiwer 4.0's ``wip``: (H / ref words) · (H / hypothesis words); higher is better.

    >>> WIP().sentence_score("a b", "a c").score
    0.25
    """

    name: ClassVar[str] = "wip"
    check_label: ClassVar[str | None] = "WIP"
    higher_is_better: ClassVar[bool] = True
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = WIP_BANDS
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    score_range: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    exact_to: ClassVar[str | None] = f"jiwer.wip ({JIWER_VERSION})"

    def jiwer_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                      n_hyp: np.ndarray) -> np.ndarray:
        return _wip_jiwer(h, n_ref, n_hyp)

    def torchmetrics_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                             n_hyp: np.ndarray, n_max: np.ndarray) -> np.ndarray:
        return _wip_torchmetrics(s, d, i, n_ref, n_hyp, n_max)


class WIL(_ErrorRate):
    """Word information lost, jiwer 4.0's ``wil``: 1 − WIP.

    >>> WIL().sentence_score("a b", "a c").score
    0.75
    """

    name: ClassVar[str] = "wil"
    check_label: ClassVar[str | None] = "WIL"
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    score_range: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    exact_to: ClassVar[str | None] = f"jiwer.wil ({JIWER_VERSION})"

    def jiwer_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                      n_hyp: np.ndarray) -> np.ndarray:
        return 1 - _wip_jiwer(h, n_ref, n_hyp)

    def torchmetrics_formula(self, h: np.ndarray, s: np.ndarray, d: np.ndarray, i: np.ndarray, n_ref: np.ndarray,
                             n_hyp: np.ndarray, n_max: np.ndarray) -> np.ndarray:
        return np.float32(1) - _wip_torchmetrics(s, d, i, n_ref, n_hyp, n_max)


def _corpus(cls: type[_ErrorRate], hypotheses: Any, references: Any, num_threads: int | None,
            options: dict[str, Any]) -> Score:
    return metric_with(cls, options).corpus_score(hypotheses, references, num_threads=num_threads)


def wer(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Corpus word error rate (jiwer's ``wer``); ``options`` are :class:`ErrorRateConfig` fields.

    >>> wer(["a b"], ["a c"]).score
    0.5
    """
    return _corpus(WER, hypotheses, references, num_threads, options)


def cer(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Corpus character error rate (jiwer's ``cer``).

    >>> cer(["ab"], ["ac"]).score
    0.5
    """
    return _corpus(CER, hypotheses, references, num_threads, options)


def mer(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Corpus match error rate (jiwer's ``mer``).

    >>> mer(["a b c"], ["a c"]).score
    0.3333333333333333
    """
    return _corpus(MER, hypotheses, references, num_threads, options)


def wil(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Corpus word information lost (jiwer's ``wil``).

    >>> wil(["a b"], ["a b"]).score
    0.0
    """
    return _corpus(WIL, hypotheses, references, num_threads, options)


def wip(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> Score:
    """Corpus word information preserved (jiwer's ``wip``).

    >>> wip(["a b"], ["a b"]).score
    1.0
    """
    return _corpus(WIP, hypotheses, references, num_threads, options)


def _sentence(cls: type[_ErrorRate], hypothesis: Any, references: Any, options: dict[str, Any]) -> Score:
    return metric_with(cls, options).sentence_score(hypothesis, references)


def sentence_wer(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """WER of one segment (several references: the one with the fewest edits).

    >>> sentence_wer("a b", ["a c", "a b"]).score
    0.0
    """
    return _sentence(WER, hypothesis, references, options)


def sentence_cer(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """CER of one segment.

    >>> sentence_cer("abc", "abd").score
    0.3333333333333333
    """
    return _sentence(CER, hypothesis, references, options)


def sentence_mer(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """MER of one segment.

    >>> sentence_mer("a", "b").score
    1.0
    """
    return _sentence(MER, hypothesis, references, options)


def sentence_wil(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """WIL of one segment.

    >>> sentence_wil("a", "a").score
    0.0
    """
    return _sentence(WIL, hypothesis, references, options)


def sentence_wip(hypothesis: str, references: str | list[str], **options: Any) -> Score:
    """WIP of one segment.

    >>> sentence_wip("a", "a").score
    1.0
    """
    return _sentence(WIP, hypothesis, references, options)
