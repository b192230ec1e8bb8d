"""ROUGE exactly as the original ROUGE-1.5.5.pl script computes it (Lin 2004), for summaries whose sentences are
separated by newlines (the script's SPL format).

Per document (peer summary against its models/references) the script reports recall, precision and F for
ROUGE-N, ROUGE-L (summary-level union LCS with unigram clipping), ROUGE-W (weighted LCS), ROUGE-S (skip-bigrams)
and ROUGE-SU; each value is rounded to 5 decimals (``sprintf("%7.5f")``) and F is computed from the *rounded*
R and P. The corpus score is the mean of the per-document values; :func:`rouge155` also gives the script's
printed averages and confidence intervals (its seeded bootstrap).

Options map to the script's flags: ``stemming`` = ``-m``, ``remove_stopwords`` = ``-s``,
``scoring_formula`` = ``-f A|B``, ``alpha`` = ``-p``, ``word_limit`` = ``-l``, ``byte_limit`` = ``-b``,
``confidence`` = ``-c``, ``resamples`` = ``-r``; ``types`` names what ``-n``, ``-w``, ``-2``/``-u``/``-U`` and
``-x`` select. See docs/rouge155.md.

>>> result = rouge155(["the cat was found under the bed .\\nit was asleep ."],
...                   [["the cat was under the bed .\\nthe cat slept .", "a cat slept beneath the bed ."]],
...                   types=("ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"), stemming=True)
>>> [round(float(result[t].fmeasure[0]), 5) for t in result]
[0.51429, 0.51429, 0.43098, 0.34246]
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from refscore._core._rouge155 import (KIND_LCS, KIND_NGRAM, KIND_SKIP, KIND_WLCS, MAX_SKIP_BIGRAMS,
                                       perl_bootstrap_means, score_documents, skip_bigram_count)
from refscore._inputs import Batch, prepare_batch
from refscore.errors import InputError, InputTypeError
from refscore.metrics._rouge155_text import encode_texts, read_summary
from refscore.metrics.base import Metric, Score, Signature
from refscore.metrics.options import CliOption
from refscore.metrics.rouge import RougeResult, RougeTypeScores
from refscore.stats import Statistics

__all__ = ["ROUGE155", "ROUGE155Config", "ROUGE155Score", "ROUGE155TypeResult", "PerlAverage", "RougeType",
           "parse_type", "perl_averages", "read_summary", "rouge155"]

COMPONENTS = ("R", "P", "F")
_NGRAM = re.compile(r"^(\d+)$")
_WLCS = re.compile(r"^w-?(\d+(?:\.\d*)?|\.\d+)$")
_SKIP = re.compile(r"^(su|s)(\*|-?\d+)$")


@dataclasses.dataclass(frozen=True)
class RougeType:
    """One ROUGE-1.5.5 measure: its printed name and the kernel parameters."""

    name: str
    kind: int
    int_param: int = 0
    weight: float = 0.0
    unigrams: bool = False


def parse_type(name: Any, *, where: str = "types") -> RougeType:
    """``"ROUGE-2"``/``"rouge2"``/``"2"``, ``"L"``, ``"W-1.2"``, ``"S4"``, ``"S*"``, ``"SU*"``, ``"SU-1"`` ...

    >>> parse_type("rougeSU4"), parse_type("W-1.2").name, parse_type("s-1").name
    (RougeType(name='ROUGE-SU4', kind=3, int_param=4, weight=0.0, unigrams=True), 'ROUGE-W-1.2', 'ROUGE-S*')
    """
    if not isinstance(name, str):
        raise InputTypeError(f"{where}: each ROUGE type must be a string such as 'ROUGE-1', got {name!r}")
    key = name.strip().lower()
    key = key[len("rouge"):] if key.startswith("rouge") else key
    key = key.lstrip("-_")
    if m := _NGRAM.match(key):
        n = int(m.group(1))
        if n < 1:
            raise InputError(f"{where}: {name!r}: the n-gram order must be >= 1")
        return RougeType(f"ROUGE-{n}", KIND_NGRAM, int_param=n)
    if key == "l":
        return RougeType("ROUGE-L", KIND_LCS)
    if m := _WLCS.match(key):
        weight = float(m.group(1))
        if weight <= 0:
            raise InputError(f"{where}: {name!r}: the ROUGE-W weight must be > 0 (ROUGE-1.5.5's -w)")
        return RougeType(f"ROUGE-W-{weight:g}", KIND_WLCS, weight=weight)
    if m := _SKIP.match(key):
        unigrams = m.group(1) == "su"
        distance = -1 if m.group(2) == "*" else int(m.group(2))
        label = "*" if distance < 0 else str(distance)
        return RougeType(f"ROUGE-{m.group(1).upper()}{label}", KIND_SKIP, int_param=distance, unigrams=unigrams)
    hint = " (ROUGE-1.5.5's ROUGE-L is already summary-level over the lines of a text)" if "sum" in key else ""
    raise InputError(f"{where}: unknown ROUGE-1.5.5 type {name!r}{hint}; use 'ROUGE-<n>', 'ROUGE-L', "
                     f"'ROUGE-W-<weight>', 'ROUGE-S<distance>', 'ROUGE-S*', 'ROUGE-SU<distance>' or 'ROUGE-SU*'")


def _split_types(value: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[,\s]+", value) if part)


def _parse_limit(value: Any, name: str, flag: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(f"{name} must be a non-negative int (ROUGE-1.5.5's {flag}), got {value!r}")
    if value < 0:
        raise InputError(f"{name} must be >= 0 (0 = no limit, ROUGE-1.5.5's {flag}), got {value}")
    return int(value)


@dataclasses.dataclass(frozen=True)
class ROUGE155Config:
    """Settings of ROUGE-1.5.5 (the flag each field stands for is in brackets).

    ``types``: measures to compute (``-n``, ``-x``, ``-w``, ``-2``, ``-u``/``-U``), e.g.
    ``("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*")``; a comma-separated string works.
    ``stemming`` (``-m``), ``remove_stopwords`` (``-s``), ``scoring_formula`` (``-f``: ``"A"`` model average,
    ``"B"`` best model), ``alpha`` (``-p``), ``word_limit`` (``-l``) / ``byte_limit`` (``-b``): 0 = no limit,
    ``confidence`` (``-c``) and ``resamples`` (``-r``) for the bootstrap averages of :func:`rouge155`.
    """

    types: tuple[str, ...] = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
    stemming: bool = False
    remove_stopwords: bool = False
    scoring_formula: str = "A"
    alpha: float = 0.5
    word_limit: int = 0
    byte_limit: int = 0
    confidence: float = 95.0
    resamples: int = 1000

    def __post_init__(self) -> None:
        types = _split_types(self.types) if isinstance(self.types, str) else self.types
        if not isinstance(types, (tuple, list)) or not types:
            raise InputError(f"types must be a non-empty list of ROUGE type names, got {self.types!r}")
        names = tuple(parse_type(t, where=f"types[{i}]").name for i, t in enumerate(types))
        if len(set(names)) != len(names):
            raise InputError(f"types lists a measure twice: {list(names)}")
        object.__setattr__(self, "types", names)
        formula = str(self.scoring_formula).strip().upper()
        formula = {"AVERAGE": "A", "BEST": "B"}.get(formula, formula)
        if formula not in ("A", "B"):
            raise InputError(f"scoring_formula must be 'A' (model average) or 'B' (best model), "
                             f"got {self.scoring_formula!r}")
        object.__setattr__(self, "scoring_formula", formula)
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) or not 0 <= self.alpha <= 1:
            raise InputError(f"alpha must be a number in [0, 1] (ROUGE-1.5.5's -p), got {self.alpha!r}")
        object.__setattr__(self, "alpha", float(self.alpha))
        word_limit = _parse_limit(self.word_limit, "word_limit", "-l")
        byte_limit = _parse_limit(self.byte_limit, "byte_limit", "-b")
        if word_limit and byte_limit:
            raise InputError("give word_limit or byte_limit, not both (ROUGE-1.5.5 refuses -l together with -b)")
        object.__setattr__(self, "word_limit", word_limit)
        object.__setattr__(self, "byte_limit", byte_limit)
        if isinstance(self.confidence, bool) or not isinstance(self.confidence, (int, float)) \
                or not 0 <= self.confidence <= 100:
            raise InputError(f"confidence must be in [0, 100] (ROUGE-1.5.5's -c), got {self.confidence!r}")
        if isinstance(self.resamples, bool) or not isinstance(self.resamples, (int, np.integer)) \
                or self.resamples < 1:
            raise InputError(f"resamples must be a positive int (ROUGE-1.5.5's -r), got {self.resamples!r}")

    @property
    def parsed_types(self) -> tuple[RougeType, ...]:
        return tuple(parse_type(t) for t in self.types)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ROUGE155Score(Score):
    """Corpus ROUGE-1.5.5 result: the mean of per-document R/P/F per type (``score`` = first type's F)."""

    averages: dict[str, dict[str, float]]
    documents: int

    def summary(self) -> dict[str, float]:
        """The F of each measure for tables (``ROUGE-1-F`` ...); R and P are in ``averages``."""
        return {f"{name}-F": values["F"] for name, values in self.averages.items()}

    def format(self, digits: int = 2) -> str:
        return " ".join(f"{name}-F = {100 * values['F']:.{digits}f}" for name, values in self.averages.items())


class ROUGE155(Metric):
    """ROUGE-1.5.5 (the Perl script) as a document-averaged refscore metric.

    Statistics hold each document's rounded R, P and F per type plus a ``documents`` count, so merged
    statistics average correctly.

    >>> metric = ROUGE155(types=("ROUGE-1", "ROUGE-L"))
    >>> metric.corpus_score(["the cat sat on the mat"], [["the cat sat"]]).averages["ROUGE-1"]["R"]
    1.0
    """

    name: ClassVar[str] = "rouge155"
    config_class: ClassVar[type] = ROUGE155Config
    document_averaged: ClassVar[bool] = True
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--rouge155-types",), "types", "ROUGE-1.5.5 measures, comma-separated "
                  "(e.g. ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-W-1.2,ROUGE-S*,ROUGE-SU*)", _split_types),
        CliOption(("--rouge155-stem",), "stemming", "ROUGE-1.5.5 -m: Porter stemmer + WordNet exceptions", bool),
        CliOption(("--rouge155-stopwords",), "remove_stopwords", "ROUGE-1.5.5 -s: remove SMART stopwords", bool),
        CliOption(("--rouge155-formula",), "scoring_formula", "ROUGE-1.5.5 -f: A = model average, B = best model",
                  str, ("A", "B")),
        CliOption(("--rouge155-alpha",), "alpha", "ROUGE-1.5.5 -p: F-measure alpha (0.5 = F1)", float),
        CliOption(("--rouge155-word-limit",), "word_limit", "ROUGE-1.5.5 -l: use only the first N words", int),
        CliOption(("--rouge155-byte-limit",), "byte_limit", "ROUGE-1.5.5 -b: use only the first N bytes", int),
    )

    @property
    def score_names(self) -> tuple[str, ...]:
        return tuple(f"{name}-{c}" for name in self.config.types for c in ("F", "R", "P"))

    @property
    def columns(self) -> tuple[str, ...]:
        return (*(f"{name}-{c}" for name in self.config.types for c in COMPONENTS), "documents")

    def document_results(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> np.ndarray:
        """ROUGE-1.5.5's per-document results, float64 ``(documents, types, 6)``: model count, hits, R, peer
        count, P, F (R/P/F rounded as the script does)."""
        return self._results(prepare_batch(hypotheses, references, allow_token_ids=False), num_threads)

    def _results(self, batch: Batch, num_threads: int | None) -> np.ndarray:
        config = self.config
        n_docs = len(batch)
        ref_owner = np.repeat(np.arange(n_docs), batch.refs_per_segment)
        types = config.parsed_types

        def describe(index: int) -> str:
            if index < n_docs:
                return f"hypotheses[{index}]"
            ref = index - n_docs
            return f"references[{ref_owner[ref]}][{ref - batch.ref_offsets[ref_owner[ref]]}]"

        encoded = encode_texts(batch.hypotheses + batch.references, stemming=config.stemming,
                               remove_stopwords=config.remove_stopwords, word_limit=config.word_limit,
                               byte_limit=config.byte_limit, describe=describe)
        lengths = np.diff(encoded.flat_offsets)
        for t in types:
            if t.kind == KIND_SKIP and len(lengths):
                longest = int(np.argmax(lengths))
                count = skip_bigram_count(int(lengths[longest]), t.int_param, t.unigrams)
                if count > MAX_SKIP_BIGRAMS:
                    raise InputError(f"{t.name}: {describe(longest)} has {lengths[longest]} tokens, i.e. {count} "
                                     f"skip-bigrams (quadratic in the length); use a maximum skip distance "
                                     f"(e.g. ROUGE-S4) or shorter texts")
        return score_documents(
            encoded.flat_tokens, encoded.flat_offsets, encoded.unit_tokens, encoded.unit_offsets,
            encoded.text_units, np.arange(n_docs, dtype=np.int64), np.ascontiguousarray(batch.ref_offsets),
            np.arange(n_docs, n_docs + len(batch.references), dtype=np.int64),
            np.array([t.kind for t in types], dtype=np.int64), np.array([t.int_param for t in types], dtype=np.int64),
            np.array([t.weight for t in types], dtype=np.float64),
            np.array([t.unigrams for t in types], dtype=np.int64),
            best_model=config.scoring_formula == "B", alpha=config.alpha, num_threads=num_threads)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        return self._statistics(self._results(batch, num_threads), batch.nrefs)

    def _statistics(self, results: np.ndarray, nrefs: int) -> Statistics:
        rpf = results[:, :, [2, 4, 5]].reshape(len(results), -1)
        data = np.concatenate([rpf, np.ones((len(results), 1))], axis=1)
        return self._new_statistics(self.columns, data, nrefs)

    def compute(self, predictions: Any, references: Any, *, num_threads: int | None = None) -> RougeResult:
        """The result shape of :func:`refscore.rouge` (``flavor="rouge155"``): per measure, per-document P/R/F.

        ROUGE-1.5.5 averages the models (``-f A``) or takes the best (``-f B``) per count, not per reference, so
        ``best_reference`` is -1 for every document.
        """
        batch = prepare_batch(predictions, references, allow_token_ids=False, hyp_name="predictions")
        results = self._results(batch, num_threads)
        no_best = np.full(len(batch), -1, dtype=np.int64)
        scores = {name: RougeTypeScores(results[:, t, 4].copy(), results[:, t, 2].copy(), results[:, t, 5].copy(),
                                        no_best)
                  for t, name in enumerate(self.config.types)}
        stats = self._statistics(results, batch.nrefs)
        return RougeResult(scores, self.score_from_statistics(stats), stats)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        n_types = len(self.config.types)
        documents = totals[:, -1:]
        sums = totals[:, :-1].reshape(len(totals), n_types, 3)[:, :, [2, 0, 1]].reshape(len(totals), -1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(documents > 0, sums / np.where(documents > 0, documents, 1), 0.0)
        return means

    def score_from_statistics(self, stats: Statistics) -> ROUGE155Score:
        self.check_statistics(stats)
        means = self.scores_from_totals(stats.totals()[None, :])[0]
        averages = {name: {"R": float(means[3 * i + 1]), "P": float(means[3 * i + 2]), "F": float(means[3 * i])}
                    for i, name in enumerate(self.config.types)}
        first = self.config.types[0]
        return ROUGE155Score(metric=self.name, score=averages[first]["F"], signature=self.signature_text(stats.nrefs),
                             averages=averages, documents=len(stats))

    def signature(self, nrefs: int = 1) -> Signature:
        c = self.config
        fields = {"nrefs": "var" if nrefs < 0 else str(nrefs), "types": "+".join(c.types),
                  "stem": "yes" if c.stemming else "no", "stop": "yes" if c.remove_stopwords else "no",
                  "f": c.scoring_formula, "alpha": f"{c.alpha:g}"}
        if c.word_limit:
            fields["l"] = str(c.word_limit)
        if c.byte_limit:
            fields["b"] = str(c.byte_limit)
        fields["impl"] = "ROUGE-1.5.5"
        return Signature(fields)


# --- the script's printed averages ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class PerlAverage:
    """One printed ``Average_X: value (95%-conf.int. low - high)`` line of ROUGE-1.5.5."""

    average: float
    low: float
    high: float


@dataclasses.dataclass(frozen=True)
class ROUGE155TypeResult:
    """Per-document ``recall``/``precision``/``fmeasure`` (input order) of one measure, their plain ``mean``,
    and the script's printed averages and intervals (``printed``: component -> :class:`PerlAverage`)."""

    name: str
    recall: np.ndarray
    precision: np.ndarray
    fmeasure: np.ndarray
    mean: dict[str, float]
    printed: dict[str, PerlAverage]


def _round5(value: float) -> float:
    return float(f"{value:.5f}")


def perl_averages(values: np.ndarray, *, eval_ids: Sequence[str] | None = None, confidence: float = 95.0,
                  resamples: int = 1000, num_threads: int | None = None) -> list[PerlAverage]:
    """ROUGE-1.5.5's ``computeAverages`` (``-t 0``) for the columns of ``values`` (documents x k).

    Rows are put in the script's instance order (test ids ``"<eval id>.<peer>"`` sorted as strings; the eval
    ids default to ``"1"``..``"n"`` as with ``-z``), resampled with its seeded bootstrap, and the printed
    average (the mean of the resample means) and interval are returned per column, rounded as printed.
    """
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    ids = [str(i + 1) for i in range(n)] if eval_ids is None else [str(e) for e in eval_ids]
    if len(ids) != n:
        raise InputError(f"eval_ids has {len(ids)} entries for {n} documents")
    order = sorted(range(n), key=lambda i: (ids[i] + ".").encode("utf-8"))
    means = np.sort(perl_bootstrap_means(np.ascontiguousarray(values[order]), resamples, num_threads), axis=0)
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a

    def at(column: np.ndarray, index: int) -> float:
        return float(column[index]) if 0 <= index < len(column) else 0.0  # Perl: undef reads as 0

    results = []
    for k in range(values.shape[1]):
        column = means[:, k]
        total = 0.0
        for value in column.tolist():  # the script's summation order: ascending
            total += value
        low = at(column, lower_a) + (at(column, lower_a + 1) - at(column, lower_a)) * ratio
        high = at(column, upper_a) + (at(column, upper_a + 1) - at(column, upper_a)) * ratio
        results.append(PerlAverage(_round5(total / resamples), _round5(low), _round5(high)))
    return results


def rouge155(predictions: Any, references: Any, *, types: Sequence[str] | str = ("ROUGE-1", "ROUGE-2", "ROUGE-L"),
             stemming: bool = False, remove_stopwords: bool = False, scoring_formula: str = "A", alpha: float = 0.5,
             word_limit: int = 0, byte_limit: int = 0, confidence: float = 95.0, resamples: int = 1000,
             printed_averages: bool = True, num_threads: int | None = None) -> dict[str, ROUGE155TypeResult]:
    """ROUGE-1.5.5 per document and for the corpus, by measure name (``"ROUGE-1"``, ``"ROUGE-L"`` ...).

    ``predictions[i]`` is a peer summary, ``references[i]`` its model summary or list of models; sentences
    are separated by newlines. ``printed_averages=False`` skips the bootstrap (``printed`` is then empty).
    """
    metric = ROUGE155(types=tuple(types) if not isinstance(types, str) else types, stemming=stemming,
                      remove_stopwords=remove_stopwords, scoring_formula=scoring_formula, alpha=alpha,
                      word_limit=word_limit, byte_limit=byte_limit, confidence=confidence, resamples=resamples)
    results = metric.document_results(predictions, references, num_threads=num_threads)
    config = metric.config
    printed: list[PerlAverage] = []
    if printed_averages and len(results):
        rpf = np.ascontiguousarray(results[:, :, [2, 4, 5]].reshape(len(results), -1))
        printed = perl_averages(rpf, confidence=config.confidence, resamples=config.resamples,
                                num_threads=num_threads)
    out: dict[str, ROUGE155TypeResult] = {}
    for t, name in enumerate(config.types):
        recall, precision, fmeasure = (results[:, t, c].copy() for c in (2, 4, 5))
        mean = {c: float(v.mean()) if len(v) else 0.0 for c, v in zip(COMPONENTS, (recall, precision, fmeasure))}
        shown = {c: printed[3 * t + k] for k, c in enumerate(COMPONENTS)} if printed else {}
        out[name] = ROUGE155TypeResult(name, recall, precision, fmeasure, mean, shown)
    return out
