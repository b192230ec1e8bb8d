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
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore._core._rouge155 import KIND_SKIP, MAX_SKIP_BIGRAMS, score_documents, skip_bigram_count
from refscore.checks import check_num_threads
from refscore.inputs import Batch, prepare_batch
from refscore.errors import InputError
from refscore.protocol import CliOption, ColumnRules, Metric, Signature, Statistics, metric_with, nrefs_text
from refscore.metrics.rouge.bootstrap import PerlAverage, perl_averages
from refscore.metrics.rouge.config import ROUGE155Config
from refscore.metrics.rouge.memory import check_skip_bigram_documents, segment_namer
from refscore.metrics.rouge.rouge155_text import encode_texts, read_summary
from refscore.metrics.rouge.score import COMPONENTS, ROUGE155Score
from refscore.metrics.rouge.types import ROUGE155_DEFAULT_TYPES, split_types

__all__ = ["ROUGE155", "ROUGE155Config", "ROUGE155Score", "read_summary", "rouge155"]


class ROUGE155(Metric):
    """ROUGE-1.5.5 (the Perl script) as a document-averaged refscore metric.

    Statistics hold each document's rounded R, P and F per type plus a ``documents`` count, so merged
    statistics average correctly.

    >>> metric = ROUGE155(types=("ROUGE-1", "ROUGE-L"))
    >>> metric.corpus_score(["the cat sat on the mat"], [["the cat sat"]]).values["averages"]["ROUGE-1"]["R"]
    1.0
    """

    name: ClassVar[str] = "rouge155"
    score_class = ROUGE155Score
    example_task = "summarization"
    config_class: ClassVar[type] = ROUGE155Config
    #: no check of its own: the check name ``rouge155`` stays ROUGE's ``rouge<n>`` check, as before
    offers_checks: ClassVar[bool] = False
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--rouge155-types",), "types", "ROUGE-1.5.5 measures, comma-separated "
                  "(e.g. ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-W-1.2,ROUGE-S*,ROUGE-SU*)", split_types),
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
    def primary_score_names(self) -> tuple[str, ...]:
        """Each measure's F (``ROUGE-1-F`` ...), the script's headline."""
        return tuple(f"{name}-F" for name in self.config.types)

    @property
    def columns(self) -> tuple[str, ...]:
        return (*(f"{name}-{c}" for name in self.config.types for c in COMPONENTS), "documents")

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns)

    def document_results(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> np.ndarray:
        """ROUGE-1.5.5's per-document results, float64 ``(documents, types, 6)``: model count, hits, R, peer
        count, P, F (R/P/F rounded as the script does)."""
        num_threads = check_num_threads(num_threads)
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
        doc_texts = [np.concatenate([[d], n_docs + np.arange(batch.ref_offsets[d], batch.ref_offsets[d + 1])])
                     for d in range(n_docs)] if any(t.kind == KIND_SKIP for t in types) else []
        for t in types:
            if t.kind == KIND_SKIP and len(lengths):
                check_skip_bigram_documents(encoded.flat_tokens, encoded.flat_offsets, doc_texts,
                                            None if t.int_param < 0 else t.int_param, t.unigrams,
                                            resolve_num_threads(num_threads), segment_namer(t.name, "hypotheses"))
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
        num_threads = check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        return self._statistics(self._results(batch, num_threads), batch.nrefs)

    def _statistics(self, results: np.ndarray, nrefs: int) -> Statistics:
        rpf = results[:, :, [2, 4, 5]].reshape(len(results), -1)
        data = np.concatenate([rpf, np.ones((len(results), 1))], axis=1)
        return self._new_statistics(self.columns, data, nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        n_types = len(self.config.types)
        documents = totals[:, -1:]
        sums = totals[:, :-1].reshape(len(totals), n_types, 3)[:, :, [2, 0, 1]].reshape(len(totals), -1)
        with np.errstate(invalid="ignore", divide="ignore"):
            # a NaN count (kept as a value) gives NaN means, never 0
            means = np.where(documents > 0, sums / np.where(documents > 0, documents, 1),
                             np.where(np.isnan(documents), np.nan, 0.0))
        return means

    def score_from_statistics(self, stats: Statistics) -> ROUGE155Score:
        """The plain means of the per-document values; ``result[measure]`` reads those values from ``stats``."""
        self.check_statistics(stats)
        means = self.scores_from_totals(stats.totals()[None, :])[0]
        averages = {name: {"R": float(means[3 * i + 1]), "P": float(means[3 * i + 2]), "F": float(means[3 * i])}
                    for i, name in enumerate(self.config.types)}
        first = self.config.types[0]
        result = self.new_score(stats, score=averages[first]["F"], statistics=stats,
                                values={"averages": averages, "documents": self.documents(stats), "intervals": {}})
        return cast(ROUGE155Score, result)   # new_score makes score_class

    def printed_lines(self, stats: Statistics, *, num_threads: int | None = None) -> dict[str, dict[str, PerlAverage]]:
        """The script's printed ``Average_R/P/F`` lines (bootstrap with the config's ``confidence`` and
        ``resamples``) by measure and component; empty for no documents."""
        self.check_statistics(stats)
        if not len(stats):
            return {}
        printed = perl_averages(np.ascontiguousarray(stats.data[:, :-1]), confidence=self.config.confidence,
                                resamples=self.config.resamples, num_threads=num_threads)
        return {name: dict(zip(COMPONENTS, printed[3 * t:3 * t + 3])) for t, name in enumerate(self.config.types)}

    def script_score(self, stats: Statistics, *, num_threads: int | None = None) -> ROUGE155Score:
        """The corpus result the Perl script prints: its bootstrap ``Average_R/P/F`` (``confidence``,
        ``resamples`` of the config) and their intervals, rounded to 5 decimals as printed.

        >>> metric = ROUGE155(types=("ROUGE-1",))
        >>> result = metric.script_score(metric.statistics(["a b c", "a b"], [["a b c"], ["a c"]]))
        >>> result.values["averages"]["ROUGE-1"]["F"], result.values["intervals"]["ROUGE-1"]["F"]
        (0.75, (0.5, 1.0))
        """
        printed = self.printed_lines(stats, num_threads=num_threads)
        if not printed:
            return self.score_from_statistics(stats)
        averages = {name: {c: line.average for c, line in lines.items()} for name, lines in printed.items()}
        intervals = {name: {c: (line.low, line.high) for c, line in lines.items()} for name, lines in printed.items()}
        first = self.config.types[0]
        result = self.new_score(stats, score=averages[first]["F"], statistics=stats, printed=printed,
                                values={"averages": averages, "documents": self.documents(stats),
                                        "intervals": intervals})
        return cast(ROUGE155Score, result)   # new_score makes score_class

    def reported_score(self, stats: Statistics, *, num_threads: int | None = None) -> ROUGE155Score:
        """What ``refscore score`` prints: :meth:`script_score`."""
        return self.script_score(stats, num_threads=num_threads)

    def signature(self, nrefs: int = 1) -> Signature:
        c = self.config
        fields = {"nrefs": nrefs_text(nrefs), "types": "+".join(c.types),
                  "stem": "yes" if c.stemming else "no", "stop": "yes" if c.remove_stopwords else "no",
                  "f": c.scoring_formula, "alpha": f"{c.alpha:g}"}
        if c.word_limit:
            fields["l"] = str(c.word_limit)
        if c.byte_limit:
            fields["b"] = str(c.byte_limit)
        fields["impl"] = "ROUGE-1.5.5"
        return Signature(fields)




def rouge155(predictions: Any, references: Any, *, types: Sequence[str] | str = ROUGE155_DEFAULT_TYPES,
             stemming: bool = False, remove_stopwords: bool = False, scoring_formula: str = "A", alpha: float = 0.5,
             word_limit: int = 0, byte_limit: int = 0, confidence: float = 95.0, resamples: int = 1000,
             printed_averages: bool = True, num_threads: int | None = None) -> ROUGE155Score:
    """ROUGE-1.5.5 per document and for the corpus: a :class:`ROUGE155Score` whose ``averages`` are the plain
    means, with ``result["ROUGE-1"]`` (:class:`~refscore.metrics.rouge.score.ROUGE155TypeResult`: per-document
    ``recall``/``precision``/``fmeasure``, their ``mean`` and the script's ``printed`` lines) for each measure.

    ``predictions[i]`` is a peer summary, ``references[i]`` its model summary or list of models; sentences
    are separated by newlines. ``printed_averages=False`` skips the bootstrap (``printed`` is then empty).
    """
    num_threads = check_num_threads(num_threads)
    metric = metric_with(ROUGE155, dict(
        types=tuple(types) if not isinstance(types, str) else types, stemming=stemming,
        remove_stopwords=remove_stopwords, scoring_formula=scoring_formula, alpha=alpha, word_limit=word_limit,
        byte_limit=byte_limit, confidence=confidence, resamples=resamples))
    stats = metric.statistics(predictions, references, num_threads=num_threads)
    score = cast(ROUGE155Score, metric.scored(stats))
    if printed_averages:
        score = dataclasses.replace(score, printed=metric.printed_lines(stats, num_threads=num_threads))
    return score
