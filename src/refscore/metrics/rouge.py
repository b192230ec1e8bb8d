"""ROUGE with rouge-score 0.1.2's exact numbers: ROUGE-N (any n >= 1), ROUGE-L and ROUGE-Lsum.

Per-document precision, recall and F are identical to ``rouge_score.rouge_scorer.RougeScorer`` (its default
tokenizer, optional NLTK Porter stemming, ``score_multi`` for several references); the corpus score is the mean of
the per-document scores, or rouge-score's bootstrap (:meth:`RougeResult.bootstrap`).

>>> result = rouge(["the cat sat on the mat"], ["the cat is on the mat"], types=("rouge1", "rougeL"))
>>> round(float(result["rouge1"].fmeasure[0]), 4), round(result["rougeL"].mean.recall, 4)
(0.8333, 0.8333)
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import re
import unicodedata
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from refscore._registry import import_entry
from refscore._core import _rouge
from refscore._inputs import Batch, prepare_batch
from refscore._offsets import offsets_from_lengths
from refscore.errors import InputError, RefscoreWarning, caller_stacklevel
from refscore.metrics._rouge_extended import EXTENDED_TYPES, best_per_document, pair_scores
from refscore.metrics._sentences import nltk_sentences, split_sentences
from refscore.metrics.base import Metric, Score, Signature, metric_with
from refscore.metrics.options import CliOption
from refscore.stats import Statistics

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
TOKENIZERS = ("rouge-score", "unicode")
#: Sentence splitting for ROUGE-Lsum: "newline" (rouge-score's default), "builtin" (rules in
#: refscore.metrics._sentences, no download), "nltk" (nltk.sent_tokenize, rouge-score's split_summaries=True).
SPLITTERS = ("newline", "builtin", "nltk")
#: flavor -> "module:Class" of a metric with ``compute(predictions, references, num_threads=...) -> RougeResult``.
FLAVORS: dict[str, str] = {
    "rouge-score": "refscore.metrics.rouge:ROUGE",
    "rouge155": "refscore.metrics.rouge155:ROUGE155",
}

_ROUGE_N = re.compile(r"rouge([0-9]+)$")


class PRF(NamedTuple):
    """Precision, recall and F-measure (0–1)."""

    precision: float
    recall: float
    fmeasure: float


class Interval(NamedTuple):
    """A bootstrap estimate: the low and high percentiles and the median (``mid``) of the resampled means."""

    low: PRF
    mid: PRF
    high: PRF


def rouge_type_code(name: str) -> int:
    """The kernel code of a rouge-score type: n for ``rouge<n>`` (any n >= 1), 0 for rougeL, -1 for rougeLsum."""
    if name == "rougeL":
        return 0
    if name == "rougeLsum":
        return -1
    match = _ROUGE_N.match(name) if isinstance(name, str) else None
    if match is None or int(match.group(1)) < 1:
        others = [flavor for flavor in FLAVORS if flavor != "rouge-score"]
        hint = f"; other flavors (flavor=...) may compute more types: {', '.join(others)}" if others else ""
        raise InputError(f"unknown ROUGE type {name!r} for flavor 'rouge-score'; it computes 'rouge<n>' for any "
                         f"n >= 1 ('rouge1', 'rouge2', ...), 'rougeL', 'rougeLsum', 'rougeW', 'rougeS' and "
                         f"'rougeSU'{hint}")
    return int(match.group(1))


def _parse_types(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    try:
        types = tuple(value)
    except TypeError:
        raise InputError(f"types must be a sequence of ROUGE type names, got {type(value).__name__}") from None
    if not types:
        raise InputError(f"types is empty; give at least one ROUGE type, e.g. {DEFAULT_TYPES}")
    for name in types:
        if name not in EXTENDED_TYPES:
            rouge_type_code(name)
    if len(set(types)) != len(types):
        raise InputError(f"types lists a ROUGE type twice: {types}")
    return types


def _parse_splitter(value: Any) -> str:
    if value is False or value is None:
        return "newline"
    if value is True:
        return "nltk"
    if value not in SPLITTERS:
        raise InputError(f"split_summaries must be False/'newline', True/'nltk' or 'builtin', got {value!r}")
    return value


@dataclasses.dataclass(frozen=True)
class ROUGEConfig:
    """Settings of the rouge-score flavor.

    ``types``: ROUGE types (``rouge<n>`` for any n >= 1 — rouge-score itself accepts single digits only —,
    ``rougeL``, ``rougeLsum``). ``stemmer``: NLTK Porter stemming of tokens longer than 3 characters.
    ``tokenizer``: ``"rouge-score"`` (lowercase, ASCII ``[a-z0-9]`` runs) or ``"unicode"`` (letters, marks and
    digits of every script; CJK ideographs and kana one token each). ``split_summaries``: how ROUGE-Lsum finds
    sentences (see :data:`SPLITTERS`). ``w_weight``: the weight of ``rougeW`` (``f(k) = k ** w_weight``);
    ``skip_distance``: the largest gap of ``rougeS``/``rougeSU`` skip-bigrams (``None``: unlimited, ROUGE-S*).
    """

    types: tuple[str, ...] = DEFAULT_TYPES
    stemmer: bool = False
    tokenizer: str = "rouge-score"
    split_summaries: str = "newline"
    w_weight: float = 1.2
    skip_distance: int | None = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", _parse_types(self.types))
        if not isinstance(self.stemmer, (bool, np.bool_)):
            raise InputError(f"stemmer must be True or False, got {self.stemmer!r}")
        object.__setattr__(self, "stemmer", bool(self.stemmer))
        if self.tokenizer not in TOKENIZERS:
            raise InputError(f"tokenizer must be one of {TOKENIZERS}, got {self.tokenizer!r}")
        object.__setattr__(self, "split_summaries", _parse_splitter(self.split_summaries))
        if isinstance(self.w_weight, bool) or not isinstance(self.w_weight, (int, float)) or not self.w_weight > 1:
            raise InputError(f"w_weight must be a number > 1 (ROUGE-W's f(k) = k ** w_weight), got {self.w_weight!r}")
        object.__setattr__(self, "w_weight", float(self.w_weight))
        if self.skip_distance is not None and (isinstance(self.skip_distance, bool)
                                               or not isinstance(self.skip_distance, (int, np.integer))
                                               or self.skip_distance < 0):
            raise InputError(f"skip_distance must be an int >= 0 or None (unlimited), got {self.skip_distance!r}")


@dataclasses.dataclass(frozen=True, kw_only=True)
class ROUGEScore(Score):
    """Corpus ROUGE: the mean per-document precision, recall and F of each type; ``score`` is the first type's F."""

    types: tuple[str, ...]
    precision: dict[str, float]
    recall: dict[str, float]
    fmeasure: dict[str, float]
    documents: int

    def format(self, digits: int = 2) -> str:
        return ", ".join(f"{name} = {100 * self.fmeasure[name]:.{digits}f}" for name in self.types)

    def summary(self) -> dict[str, float]:
        return {name: float(self.fmeasure[name]) for name in self.types}


@dataclasses.dataclass(frozen=True)
class RougeTypeScores:
    """One ROUGE type over a batch: per-document arrays (input order) and the index of the reference that gave
    each document's score (the best F, the first on ties)."""

    precision: np.ndarray
    recall: np.ndarray
    fmeasure: np.ndarray
    best_reference: np.ndarray

    @property
    def mean(self) -> PRF:
        """The corpus score: mean precision, recall and F over documents."""
        return PRF(float(np.mean(self.precision)), float(np.mean(self.recall)), float(np.mean(self.fmeasure)))


@dataclasses.dataclass(frozen=True)
class RougeResult:
    """What :func:`rouge` returns: ``result["rouge1"].fmeasure`` (array), ``result["rougeL"].mean`` (PRF),
    ``result.score`` (the corpus :class:`ROUGEScore`), ``result.statistics`` and :meth:`bootstrap`."""

    scores: dict[str, RougeTypeScores]
    score: ROUGEScore
    statistics: Statistics

    def __getitem__(self, rouge_type: str) -> RougeTypeScores:
        try:
            return self.scores[rouge_type]
        except KeyError:
            raise KeyError(f"no ROUGE type {rouge_type!r} in this result; it has {list(self.scores)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.scores)

    @property
    def means(self) -> dict[str, PRF]:
        return {name: scores.mean for name, scores in self.scores.items()}

    def bootstrap(self, n_samples: int = 1000, confidence_interval: float = 0.95,
                  seed: int | np.random.RandomState | None = None) -> dict[str, Interval]:
        """rouge-score's ``BootstrapAggregator`` on these documents: low/mid/high percentiles of resampled means.

        ``seed=None`` draws from NumPy's global random state exactly as rouge-score does (so after
        ``np.random.seed(s)`` both give the same numbers); an int seeds a private ``RandomState`` that draws the
        same numbers as the global state after ``np.random.seed(seed)``.
        """
        matrices = [np.column_stack([s.precision, s.recall, s.fmeasure]) for s in self.scores.values()]
        bounds = bootstrap_percentiles(matrices, n_samples, confidence_interval, seed)
        return {name: Interval(*(PRF(*map(float, row)) for row in bound))
                for name, bound in zip(self.scores, bounds)}


def bootstrap_percentiles(matrices: Sequence[np.ndarray], n_samples: int = 1000, confidence_interval: float = 0.95,
                          seed: int | np.random.RandomState | None = None) -> list[np.ndarray]:
    """rouge-score's ``BootstrapAggregator._bootstrap_resample`` for each ``(documents, measures)`` matrix in turn,
    consuming the random stream in the same order; returns ``(3, measures)`` arrays (low, mid, high)."""
    if not 0 <= confidence_interval <= 1:
        raise InputError(f"confidence_interval must be in [0, 1], got {confidence_interval}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples <= 0:
        raise InputError(f"n_samples must be a positive int, got {n_samples!r}")
    rng = np.random.RandomState(seed) if isinstance(seed, (int, np.integer)) else (seed or np.random)
    delta = (1 - confidence_interval) / 2
    quantiles = 100 * np.array([delta, 0.5, 1 - delta])
    results = []
    for matrix in matrices:
        matrix = np.asarray(matrix, dtype=np.float64)
        n = matrix.shape[0]
        if n == 0:
            raise InputError("bootstrap needs at least one document")
        sample_mean = np.zeros((n_samples, matrix.shape[1]))
        for i in range(n_samples):
            sample_mean[i, :] = np.mean(matrix[rng.choice(n, size=n), :], axis=0)
        results.append(np.percentile(sample_mean, quantiles, axis=0))
    return results


_CJK_RANGES = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0xFF66, 0xFF9D), (0x20000, 0x3134F))


def unicode_classes(code_points: np.ndarray) -> np.ndarray:
    """Classes of non-ASCII code points for the Unicode tokenizer: letters, marks and digits are word characters;
    CJK ideographs, kana and the prolonged-sound mark are single-character tokens; the rest separates."""
    classes = np.zeros(len(code_points), dtype=np.uint8)
    for k, cp in enumerate(code_points.tolist()):
        category = unicodedata.category(chr(cp))[0]
        if category in "LNM":
            single = category != "M" and any(lo <= cp <= hi for lo, hi in _CJK_RANGES)
            classes[k] = _rouge.CLASS_SINGLE if single else _rouge.CLASS_WORD
    return classes


def _intern(sequences: Sequence[Sequence[Any]], vocabulary: dict[Any, int]) -> tuple[np.ndarray, np.ndarray, dict]:
    """Dense uint32 ids of the tokens of many sequences (shared ``vocabulary``) and the int64 offsets."""
    offsets = offsets_from_lengths(map(len, sequences))
    ids = np.fromiter((vocabulary.setdefault(token.item() if isinstance(token, np.generic) else token,
                                             len(vocabulary))
                       for sequence in sequences for token in sequence), dtype=np.uint32, count=int(offsets[-1]))
    return ids, offsets, vocabulary


#: The empty code point table passed to the kernels by the ASCII tokenizer (read-only, shared).
_NO_CODE_POINTS = np.zeros(0, dtype=np.uint32)
_NO_CLASSES = np.zeros(0, dtype=np.uint8)
_NO_CODE_POINTS.setflags(write=False)
_NO_CLASSES.setflags(write=False)


def _prf_from_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rouge-score's P = matches / max(prediction total, 1), R likewise, F = 2PR / (P + R) from kernel counts."""
    return _rouge.prf_from_counts(np.ascontiguousarray(counts, dtype=np.int64))


def _text_name(index: int, batch: Batch) -> str:
    n = len(batch)
    if index < n:
        return f"predictions[{index}]"
    flat = index - n
    segment = int(np.searchsorted(batch.ref_offsets, flat, side="right")) - 1
    if batch.refs_per_segment[segment] == 1:
        return f"references[{segment}]"
    return f"references[{segment}][{flat - int(batch.ref_offsets[segment])}]"


class ROUGE(Metric):
    """ROUGE with rouge-score 0.1.2's numbers (the ``"rouge-score"`` flavor), document-averaged.

    Statistics hold, per type, each document's precision, recall and F (float64) plus a ``documents`` column, so
    the corpus score (and every bootstrap replicate) is a mean.

    >>> metric = ROUGE(types=("rouge1",))
    >>> metric.corpus_score(["a b c"], ["a b d"]).fmeasure["rouge1"]
    0.6666666666666666
    """

    name = "rouge"
    config_class = ROUGEConfig
    document_averaged = True
    flavor: ClassVar[str] = "rouge-score"
    cli_options = (
        CliOption(("--rouge-types",), "types", "comma-separated ROUGE types (default rouge1,rouge2,rougeL,rougeLsum; "
                  "rouge<n> for any n >= 1)", _parse_types),
        CliOption(("--stemmer",), "stemmer", "ROUGE: Porter-stem tokens longer than 3 characters", bool),
        CliOption(("--rouge-tokenizer",), "tokenizer", "ROUGE tokenizer (default rouge-score)", str, TOKENIZERS),
        CliOption(("--split-summaries",), "split_summaries",
                  "ROUGE-Lsum sentences: newline (default), builtin (rule-based), nltk (needs punkt_tab)", str,
                  SPLITTERS),
    )

    @functools.cached_property
    def columns(self) -> tuple[str, ...]:
        names = [f"{t}_{measure}" for t in self.config.types for measure in ("precision", "recall", "fmeasure")]
        return (*names, "documents")

    @property
    def score_names(self) -> tuple[str, ...]:
        types = self.config.types
        return (*types, *(f"{t}_precision" for t in types), *(f"{t}_recall" for t in types))

    # -- computing ---------------------------------------------------------------------------------------------
    def compute(self, predictions: Any, references: Any, *, num_threads: int | None = None) -> RougeResult:
        """Per-document scores of every type, their means and the statistics (one kernel call per family)."""
        return self._result(*self._document_scores(predictions, references, num_threads))

    def _document_scores(self, predictions: Any, references: Any, num_threads: int | None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """``(precision, recall, fmeasure, best reference, nrefs)``: ``(documents, types)`` arrays."""
        batch = prepare_batch(predictions, references, hyp_name="predictions", ref_name="references")
        shape = (len(batch), len(self.config.types))
        kernel_columns = self._kernel_columns
        if kernel_columns:
            if batch.is_token_ids:
                counts, kernel_best = self.score_sequences(batch.hypotheses + batch.references, None,
                                                           batch.ref_offsets, num_threads=num_threads)
            else:
                counts, kernel_best = self._score_texts(batch, num_threads)
            kernel_scores = _prf_from_counts(counts)
        if len(kernel_columns) == shape[1]:    # no extended type: the kernel's arrays are the result
            return (*kernel_scores, np.asarray(kernel_best, dtype=np.int64), batch.nrefs)
        precision, recall, fmeasure = np.zeros(shape), np.zeros(shape), np.zeros(shape)
        best = np.zeros(shape, dtype=np.int64)
        if kernel_columns:
            precision[:, kernel_columns], recall[:, kernel_columns], fmeasure[:, kernel_columns] = kernel_scores
            best[:, kernel_columns] = kernel_best
        extended_columns = [t for t in range(shape[1]) if t not in kernel_columns]
        if extended_columns:
            ids, offsets = self._token_ids(batch)
            hyp_texts = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
            ref_texts = len(batch) + np.arange(len(batch.references))
            for t in extended_columns:
                p, r, f = pair_scores(self.config.types[t], ids, offsets, hyp_texts, ref_texts,
                                      w_weight=self.config.w_weight, skip_distance=self.config.skip_distance,
                                      num_threads=num_threads)
                best[:, t] = best_per_document(f, batch.ref_offsets)
                chosen = batch.ref_offsets[:-1] + best[:, t]
                precision[:, t], recall[:, t], fmeasure[:, t] = p[chosen], r[chosen], f[chosen]
        return precision, recall, fmeasure, best, batch.nrefs

    @functools.cached_property
    def type_codes(self) -> np.ndarray:
        """Kernel codes of the types computed by ``_rouge`` (all but rougeW/S/SU)."""
        codes = np.array([rouge_type_code(t) for t in self.config.types if t not in EXTENDED_TYPES], dtype=np.int64)
        codes.setflags(write=False)
        return codes

    @functools.cached_property
    def _kernel_columns(self) -> list[int]:
        """Positions in ``types`` of the types computed by ``_rouge``."""
        return [t for t, name in enumerate(self.config.types) if name not in EXTENDED_TYPES]

    def result_from_counts(self, counts: np.ndarray, best: np.ndarray, nrefs: int) -> RougeResult:
        """Scores from the kernel's ``(documents, types, 3)`` counts (matches, prediction and reference totals),
        with rouge-score's formulas: P = matches / max(prediction total, 1), R likewise, F = 2PR / (P + R)."""
        return self._result(*_prf_from_counts(counts), best, nrefs)

    def _result(self, precision: np.ndarray, recall: np.ndarray, fmeasure: np.ndarray, best: np.ndarray,
                nrefs: int) -> RougeResult:
        scores = {name: RougeTypeScores(precision[:, t].copy(), recall[:, t].copy(), fmeasure[:, t].copy(),
                                        best[:, t].copy())
                  for t, name in enumerate(self.config.types)}
        stats = self._statistics(precision, recall, fmeasure, nrefs)
        return RougeResult(scores, self.score_from_statistics(stats), stats)

    def _statistics(self, precision: np.ndarray, recall: np.ndarray, fmeasure: np.ndarray, nrefs: int) -> Statistics:
        """Per type its (precision, recall, F) columns, then ``documents`` (1 per row)."""
        documents, n_types = precision.shape
        data = np.empty((documents, 3 * n_types + 1))
        data[:, 0:-1:3], data[:, 1:-1:3], data[:, 2:-1:3] = precision, recall, fmeasure
        data[:, -1] = 1.0
        return self._new_statistics(self.columns, data, nrefs)

    def score_sequences(self, sequences: Sequence[Sequence[Any]], sentences: Sequence[Sequence[Sequence[Any]]] | None,
                        ref_offsets: np.ndarray, *, num_threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Kernel counts for pre-tokenized texts (predictions first, then the flattened references, as
        :func:`~refscore._inputs.prepare_batch` lays them out). ``sequences[k]`` are text k's tokens (any hashable
        values, or integer arrays); ``sentences[k]`` its sentences' tokens for ROUGE-Lsum (``None``: one sentence
        per text)."""
        ids, offsets, vocabulary = _intern(sequences, {})
        if sentences is None:
            sentence_ids, sentence_offsets = ids, offsets
            lengths = np.diff(offsets)
            bounds = np.column_stack([np.zeros_like(lengths), lengths]).ravel()
            bound_offsets = np.arange(0, 2 * len(sequences) + 1, 2, dtype=np.int64)
        else:
            flat = [list(itertools.chain.from_iterable(text)) for text in sentences]
            sentence_ids, sentence_offsets, vocabulary = _intern(flat, vocabulary)
            bound_lists = [np.cumsum([0, *map(len, text)]) if len(text) else np.zeros(2, dtype=np.int64)
                           for text in sentences]
            bounds = np.concatenate(bound_lists).astype(np.int64) if bound_lists else np.zeros(0, dtype=np.int64)
            bound_offsets = offsets_from_lengths(map(len, bound_lists))
        return _rouge.score_batch_ids(ids, offsets, sentence_ids, sentence_offsets, bounds, bound_offsets,
                                      np.asarray(ref_offsets, dtype=np.int64), self.type_codes,
                                      max(len(vocabulary), 1), num_threads)

    def _texts(self, batch: Batch) -> list[str]:
        texts = batch.hypotheses + batch.references
        splitter = self.config.split_summaries
        if splitter != "newline" and "rougeLsum" in self.config.types:
            split = split_sentences if splitter == "builtin" else nltk_sentences
            texts = ["\n".join(s.replace("\n", " ") for s in split(text)) for text in texts]
        return texts

    def _encode(self, batch: Batch) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The batch's texts (the kernels lowercase them) and the Unicode class table."""
        texts = self._texts(batch)
        return (texts, *self._unicode_table(texts))

    def _score_texts(self, batch: Batch, num_threads: int | None) -> tuple[np.ndarray, np.ndarray]:
        texts, keys, classes = self._encode(batch)
        tokenizer = _rouge.TOKENIZERS[self.config.tokenizer]
        counts, best, token_counts = _rouge.score_batch(
            texts, batch.ref_offsets, self.type_codes, tokenizer, self.config.stemmer, keys, classes, num_threads)
        if self.config.tokenizer == "rouge-score":
            self._warn_dropped_text(batch, texts, token_counts)
        return counts, best

    def _token_ids(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Interned token ids (CSR) of predictions then references, tokenized (and stemmed) as the kernels do."""
        if batch.is_token_ids:
            ids, offsets, _ = _intern(batch.hypotheses + batch.references, {})
            return ids, offsets
        texts, keys, classes = self._encode(batch)
        tokens = _rouge.tokenize_texts(texts, _rouge.TOKENIZERS[self.config.tokenizer], self.config.stemmer, keys,
                                       classes)
        ids, token_offsets, _ = _intern(tokens, {})
        return ids, token_offsets

    def _unicode_table(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        if self.config.tokenizer != "unicode":
            return _NO_CODE_POINTS, _NO_CLASSES
        keys = _rouge.distinct_code_points(texts)
        return keys, unicode_classes(keys)

    @staticmethod
    def _warn_dropped_text(batch: Batch, texts: list[str], token_counts: np.ndarray) -> None:
        if token_counts.all():
            return
        dropped = [k for k in np.flatnonzero(token_counts == 0).tolist()
                   if any(ch.isalnum() for ch in texts[k])]
        if dropped:
            warnings.warn(
                f"{len(dropped)} text(s), first {_text_name(dropped[0], batch)}, contain letters or digits but no "
                f"token for tokenizer='rouge-score' (it keeps ASCII a-z and 0-9 only), so they score 0; use "
                f"tokenizer='unicode' for text in other scripts", RefscoreWarning,
                stacklevel=caller_stacklevel())

    # -- Metric protocol ---------------------------------------------------------------------------------------
    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        precision, recall, fmeasure, _, nrefs = self._document_scores(hypotheses, references, num_threads)
        return self._statistics(precision, recall, fmeasure, nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, -1:]
        means = np.divide(totals[:, :-1], documents, out=np.zeros_like(totals[:, :-1]), where=documents > 0)
        n_types = len(self.config.types)
        by_type = means.reshape(len(totals), n_types, 3)
        return np.concatenate([by_type[:, :, 2], by_type[:, :, 0], by_type[:, :, 1]], axis=1)

    def score_from_statistics(self, stats: Statistics) -> ROUGEScore:
        self.check_statistics(stats)
        totals = stats.totals().tolist()
        documents = totals[-1]
        means = [value / documents if documents > 0 else 0.0 for value in totals[:-1]]   # as scores_from_totals
        types = self.config.types
        precision, recall, fmeasure = ({name: means[3 * t + k] for t, name in enumerate(types)} for k in range(3))
        first = types[0]
        return ROUGEScore(metric=self.name, score=fmeasure[first], signature=self.signature_text(stats.nrefs),
                          types=self.config.types, precision=precision, recall=recall, fmeasure=fmeasure,
                          documents=len(stats))

    def signature(self, nrefs: int = 1) -> Signature:
        config = self.config
        return Signature({
            "nrefs": "var" if nrefs == -1 else str(nrefs),
            "flavor": self.flavor,
            "types": ",".join(config.types),
            "stem": "yes" if config.stemmer else "no",
            "tok": config.tokenizer,
            "split": config.split_summaries,
            **({"w": f"{config.w_weight:g}"} if "rougeW" in config.types else {}),
            **({"skip": "*" if config.skip_distance is None else str(config.skip_distance)}
               if {"rougeS", "rougeSU"} & set(config.types) else {}),
            "multi": "best-f",
            "agg": "mean",
        })


def rouge_flavor(flavor: str) -> type[Metric]:
    """The metric class implementing a ROUGE flavor."""
    if flavor not in FLAVORS:
        raise InputError(f"unknown ROUGE flavor {flavor!r}; available: {', '.join(FLAVORS)}")
    return import_entry(FLAVORS[flavor])


def rouge(predictions: Any, references: Any, types: Sequence[str] | str = DEFAULT_TYPES, *,
          flavor: str = "rouge-score", stemmer: bool = False, tokenizer: str | None = None,
          split_summaries: bool | str | None = None, num_threads: int | None = None, **options: Any) -> RougeResult:
    """ROUGE scores of a batch: per type, per-document ``precision``/``recall``/``fmeasure`` arrays (input order),
    their means (``result[type].mean``) and the best reference's index (``result[type].best_reference``).

    ``references[i]`` is a string or a list of strings; with several, each type takes the reference with the best
    F (the first on ties), as rouge-score's ``score_multi``. ``flavor`` selects the implementation whose numbers
    are reproduced (see :data:`FLAVORS`); ``tokenizer`` (``"rouge-score"`` or ``"unicode"``) and
    ``split_summaries`` (``False``/``"newline"``, ``"builtin"``, ``True``/``"nltk"``) default to the flavor's
    defaults; further ``options`` go to the flavor's configuration.

    >>> r = rouge(["to make people trustworthy you need to trust them"],
    ...           ["the way to make people trustworthy is to trust them"])
    >>> float(r["rouge1"].recall[0]), round(float(r["rougeL"].fmeasure[0]), 5)
    (0.7, 0.73684)
    """
    cls = rouge_flavor(flavor)
    if flavor == "rouge155":
        names, settings = _rouge155_settings(types, stemmer, tokenizer, split_summaries, options)
        result = metric_with(cls, settings).compute(predictions, references, num_threads=num_threads)
        # Report under the names the caller used (result["rouge1"], not only "ROUGE-1").
        return RougeResult({name: result.scores[canonical] for name, canonical in names.items()},
                           result.score, result.statistics)
    settings = dict(types=tuple(types) if isinstance(types, list) else types, stemmer=stemmer, **options)
    if tokenizer is not None:
        settings["tokenizer"] = tokenizer
    if split_summaries is not None:
        settings["split_summaries"] = split_summaries
    return metric_with(cls, settings).compute(predictions, references, num_threads=num_threads)


def _rouge155_settings(types: Sequence[str] | str, stemmer: bool, tokenizer: str | None,
                       split_summaries: bool | str | None,
                       options: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """rouge()'s arguments as ROUGE155Config settings: rouge-score names (rouge1, rougeL, rougeW with
    ``w_weight``, rougeS/rougeSU with ``skip_distance``) become ROUGE-1.5.5 measures; returns caller name ->
    measure name, and the settings."""
    from refscore.metrics.rouge155 import parse_type

    if tokenizer is not None or split_summaries is not None:
        raise InputError("flavor='rouge155' tokenizes and splits sentences as the Perl script does (newlines); "
                         "tokenizer= and split_summaries= apply to flavor='rouge-score' only")
    options = dict(options)
    w_weight = options.pop("w_weight", 1.2)
    skip_distance = options.pop("skip_distance", 4)
    requested = [t.strip() for t in types.split(",")] if isinstance(types, str) else list(types)
    names: dict[str, str] = {}
    for index, name in enumerate(requested):
        if name == "rougeW":
            measure = f"ROUGE-W-{w_weight}"
        elif name in ("rougeS", "rougeSU"):
            measure = f"ROUGE-{name[5:]}{'*' if skip_distance is None else skip_distance}"
        else:
            measure = name
        names[name] = parse_type(measure, where=f"types[{index}]").name
    return names, dict(types=tuple(names.values()), stemming=stemmer, **options)
