"""ROUGE with rouge-score 0.1.2's exact numbers (the ``"rouge-score"`` flavor): ROUGE-N (any n >= 1), ROUGE-L
and ROUGE-Lsum, plus ROUGE-W/S/SU on rouge-score's tokens.

Per-document precision, recall and F are identical to ``rouge_score.rouge_scorer.RougeScorer`` (its default
tokenizer, optional NLTK Porter stemming, ``score_multi`` for several references); the corpus score is the mean of
the per-document scores, or rouge-score's bootstrap (:meth:`ROUGEScore.bootstrap`).

>>> result = ROUGE(types=("rouge1", "rougeL")).corpus_score(["the cat sat on the mat"], ["the cat is on the mat"])
>>> round(float(result["rouge1"].fmeasure[0]), 4), round(result["rougeL"].mean.recall, 4)
(0.8333, 0.8333)
"""
from __future__ import annotations

import dataclasses

import functools
import itertools
import math
import re
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore._core import _rouge
from refscore._metric_facts import CheckSpec
from refscore.checks import check_num_threads
from refscore._offsets import offsets_from_lengths
from refscore._core._parallel import resolve_num_threads
from refscore.inputs import Batch, prepare_batch
from refscore.errors import RefscoreWarning, RougeLsumWarning, caller_stacklevel
from refscore.metrics.advice import advise
from refscore.text.sentences import first_with_several_sentences, nltk_sentences, split_sentences
from refscore.protocol import CliOption, ColumnRules, Metric, Signature, Statistics, nrefs_text
from refscore.metrics.rouge.config import SPLITTERS, TOKENIZERS, ROUGEConfig
from refscore.metrics.rouge.extended import best_per_document, pair_scores
from refscore.metrics.rouge.memory import (check_lsum, check_lsum_texts, check_skip_bigram_pairs, pair_namer,
                                           segment_namer)
from refscore.metrics.rouge.score import ROUGEScore
from refscore.metrics.rouge.tokenize import intern_tokens
from refscore.metrics.rouge.words import rouge_tokenizer, share_if_mostly_dropped, tokenize_documents
from refscore.metrics.rouge.types import EXTENDED_TYPES, parse_types, rouge_type_code


def _prf_from_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rouge-score's P = matches / max(prediction total, 1), R likewise, F = 2PR / (P + R) from kernel counts."""
    return _rouge.prf_from_counts(np.ascontiguousarray(counts, dtype=np.int64))


def _split_at(texts: Sequence[np.ndarray], separator: int) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Token-id texts without ``separator``, and each text's sentences (the runs between separators)."""
    wholes, sentences = [], []
    for text in texts:
        breaks = np.flatnonzero(text == separator)
        wholes.append(np.delete(text, breaks) if len(breaks) else text)
        sentences.append([piece[piece != separator] for piece in np.split(text, breaks + 1)])
    return wholes, sentences


#: A check name of one ROUGE type (lowercase, dashes removed): rouge<n>, rougel, rougelsum.
_CHECK_NAME = re.compile(r"rouge([0-9]+|l|lsum)$")


class ROUGE(Metric):
    """ROUGE with rouge-score 0.1.2's numbers (the ``"rouge-score"`` flavor), document-averaged.

    Statistics hold, per type, each document's precision, recall and F (float64) plus a ``documents`` column, so
    the corpus score (and every bootstrap replicate) is a mean.

    >>> metric = ROUGE(types=("rouge1",))
    >>> metric.corpus_score(["a b c"], ["a b d"]).values["fmeasure"]["rouge1"]
    0.6666666666666666
    """

    name = "rouge"
    score_class = ROUGEScore
    example_task = "summarization"
    config_class = ROUGEConfig
    flavor: ClassVar[str] = "rouge-score"
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    exact_to: ClassVar[str | None] = "rouge_score.rouge_scorer.RougeScorer (0.1.2)"
    cli_options = (
        CliOption(("--rouge-types",), "types", "comma-separated ROUGE types (default rouge1,rouge2,rougeL,rougeLsum; "
                  "rouge<n> for any n >= 1)", parse_types),
        CliOption(("--stemmer",), "stemmer", "ROUGE: Porter-stem tokens longer than 3 characters", bool),
        CliOption(("--tokenize", "-tok"), "tokenizer", "ROUGE: rouge-score (default), unicode, or sacreBLEU's "
                  "ja-mecab, ko-mecab, flores101/spm, flores200, spBLEU-1K", str, TOKENIZERS),
        CliOption(("--spm-model",), "spm_model",
                  "SentencePiece model file for --tokenize flores101/spm/flores200/spBLEU-1K (default: sacreBLEU's "
                  "cached copy in $SACREBLEU/models)"),
        CliOption(("--rouge-tokenizer",), "tokenizer", "ROUGE tokenizer, overriding --tokenize for ROUGE only",
                  str, TOKENIZERS),
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

    @property
    def primary_score_names(self) -> tuple[str, ...]:
        """Each type's F-measure (``rouge1``, ``rouge2`` ...), as ``rouge_scorer`` users report them."""
        return tuple(self.config.types)

    # -- computing ---------------------------------------------------------------------------------------------
    def _document_scores(self, predictions: Any, references: Any, num_threads: int | None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """``(precision, recall, fmeasure, best reference, nrefs)``: ``(documents, types)`` arrays."""
        batch = prepare_batch(predictions, references, hyp_name="predictions", ref_name="references")
        if "rougeLsum" in self.config.types and self.config.split_summaries == "newline":
            self._warn_if_lsum_is_rouge_l(batch)
        shape = (len(batch), len(self.config.types))
        kernel_columns = self._kernel_columns
        if kernel_columns:
            if batch.is_token_ids:
                counts, kernel_best = self._score_ids(*self._id_texts(batch), batch.ref_offsets, num_threads)
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
            ids, offsets = self._token_ids(batch, num_threads)
            hyp_texts = np.repeat(np.arange(len(batch)), batch.refs_per_segment)
            ref_texts = len(batch) + np.arange(len(batch.references))
            for t in extended_columns:
                if self.config.types[t] != "rougeW":
                    check_skip_bigram_pairs(np.diff(offsets), hyp_texts, ref_texts, self.config.skip_distance,
                                            self.config.types[t] == "rougeSU", resolve_num_threads(num_threads),
                                            pair_namer(self.config.types[t], hyp_texts, batch.ref_offsets))
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

    @functools.cached_property
    def best_reference_columns(self) -> tuple[str, ...]:
        """The carried (never summed) statistics columns: per type the index of the reference each document's
        scores came from."""
        return tuple(f"best_reference_{name}" for name in self.config.types)

    def merge_rules(self) -> dict[str, str]:
        """The per-document P/R/F summed, ``documents`` the count, each type's best reference carried."""
        return {**super().merge_rules(), **{name: "carried" for name in self.best_reference_columns}}

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns)   # per-document P/R/F and the document count: never negative

    def _statistics(self, precision: np.ndarray, recall: np.ndarray, fmeasure: np.ndarray, best: np.ndarray,
                    nrefs: int) -> Statistics:
        """Per type its (precision, recall, F) columns, then ``documents`` (1 per row); each document's best
        reference per type is carried beside them."""
        documents, n_types = precision.shape
        data = np.empty((documents, 3 * n_types + 1))
        data[:, 0:-1:3], data[:, 1:-1:3], data[:, 2:-1:3] = precision, recall, fmeasure
        data[:, -1] = 1.0
        return self._new_statistics(self.columns, data, nrefs, carried_columns=self.best_reference_columns,
                                    carried=np.asarray(best, dtype=np.int64).reshape(documents, n_types))

    def _id_texts(self, batch: Batch) -> tuple[list[np.ndarray], list[list[np.ndarray]] | None]:
        """Token-id texts (predictions, then references) and, with a ``sentence_separator``, their sentences."""
        texts = batch.hypotheses + batch.references
        if self.config.sentence_separator is None:
            return texts, None
        return _split_at(texts, self.config.sentence_separator)

    def _score_ids(self, sequences: Sequence[Sequence[Any] | np.ndarray],
                   sentences: Sequence[Sequence[Sequence[Any] | np.ndarray]] | None,
                   ref_offsets: np.ndarray, num_threads: int | None) -> tuple[np.ndarray, np.ndarray]:
        """Kernel counts for token-id texts laid out as :func:`~refscore.inputs.prepare_batch` lays them out;
        ``sentences[k]``: text k's sentences for ROUGE-Lsum (``None``: one sentence per text)."""
        ids, offsets, vocabulary = intern_tokens(sequences, {})
        if sentences is None:
            sentence_ids, sentence_offsets = ids, offsets
            lengths = np.diff(offsets)
            bounds = np.column_stack([np.zeros_like(lengths), lengths]).ravel()
            bound_offsets = np.arange(0, 2 * len(sequences) + 1, 2, dtype=np.int64)
        else:
            if "rougeLsum" in self.config.types:
                check_lsum(sentences, ref_offsets, resolve_num_threads(num_threads), segment_namer("rougeLsum"))
            flat = [list(itertools.chain.from_iterable(text)) for text in sentences]
            sentence_ids, sentence_offsets, vocabulary = intern_tokens(flat, vocabulary)
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

    @property
    def _word_tokenizer(self) -> Any:
        """The tokenizer object of a tokenizer other than rouge-score's (see :mod:`~refscore.metrics.rouge.words`;
        not kept on the metric, which must stay picklable: MeCab's and SentencePiece's objects are cached there)."""
        return rouge_tokenizer(self.config.tokenizer, stemmer=self.config.stemmer, spm_model=self.config.spm_model)

    def _word_tokens(self, batch: Batch, num_threads: int | None, with_sentences: bool
                     ) -> tuple[list[list[str]], list[list[list[str]]] | None]:
        """Tokens of predictions then references by a tokenizer other than rouge-score's, as rouge-score tokenizes
        with a custom tokenizer: whole texts, and (ROUGE-Lsum) each non-empty line of the sentence-split texts."""
        texts = batch.hypotheses + batch.references
        sentence_texts = self._texts(batch) if with_sentences else None
        return tokenize_documents(self._word_tokenizer, texts, sentence_texts, resolve_num_threads(num_threads))

    def _score_texts(self, batch: Batch, num_threads: int | None) -> tuple[np.ndarray, np.ndarray]:
        if self.config.tokenizer != "rouge-score":
            sequences, sentences = self._word_tokens(batch, num_threads, "rougeLsum" in self.config.types)
            return self._score_ids(sequences, sentences, batch.ref_offsets, num_threads)
        texts = self._texts(batch)   # the kernel lowercases them
        if "rougeLsum" in self.config.types:
            stem = self.config.stemmer
            check_lsum_texts(texts, batch.ref_offsets, lambda some: _rouge.tokenize_texts(some, stem, True),
                             resolve_num_threads(num_threads), segment_namer("rougeLsum"))
        counts, best = _rouge.score_batch(texts, batch.ref_offsets, self.type_codes, self.config.stemmer,
                                          num_threads)
        self._warn_dropped_text(texts)
        return counts, best

    def _token_ids(self, batch: Batch, num_threads: int | None) -> tuple[np.ndarray, np.ndarray]:
        """Interned token ids (CSR) of predictions then references, tokenized (and stemmed) as the kernels do."""
        if batch.is_token_ids:
            ids, offsets, _ = intern_tokens(self._id_texts(batch)[0], {})
            return ids, offsets
        if self.config.tokenizer != "rouge-score":
            tokens = self._word_tokens(batch, num_threads, False)[0]
        else:
            tokens = _rouge.tokenize_texts(self._texts(batch), self.config.stemmer)
        ids, token_offsets, _ = intern_tokens(tokens, {})
        return ids, token_offsets

    def _warn_if_lsum_is_rouge_l(self, batch: Batch) -> None:
        """Warn (once per call, :class:`~refscore.errors.RougeLsumWarning`) when ROUGE-Lsum can only equal ROUGE-L:
        token ids without a ``sentence_separator``, or texts none of which has a newline (ROUGE-Lsum's sentence
        break with ``split_summaries='newline'``) while some hold several sentences by the built-in splitter."""
        fix = ("To silence this warning: warnings.filterwarnings('ignore', category=refscore.errors."
               "RougeLsumWarning) (command line: PYTHONWARNINGS=ignore::UserWarning)")
        if batch.is_token_ids:
            if self.config.sentence_separator is None:
                advise("ROUGE-Lsum equals ROUGE-L here: token-id input without sentence_separator is one sentence "
                       "per text. Pass sentence_separator=<the id that ends a sentence> (it is no token of any "
                       f"type), or drop rougeLsum from types. {fix}", RougeLsumWarning)
            return
        texts = batch.hypotheses + batch.references
        if any("\n" in text for text in texts):
            return
        where = first_with_several_sentences(texts)
        if where is None:   # one sentence each: ROUGE-Lsum rightly equals ROUGE-L
            return
        n = len(batch)
        name = (f"predictions[{where}]" if where < n else
                f"references[{int(np.searchsorted(batch.ref_offsets, where - n, side='right')) - 1}]")
        advise(f"ROUGE-Lsum equals ROUGE-L here: its sentences are the lines of each text (split_summaries="
               f"'newline', rouge-score's default) and no prediction or reference has a newline, yet {name} holds "
               f"{len(split_sentences(texts[where]))} sentences. Split the texts into sentences: "
               f"split_summaries='builtin' (rules, no download) or 'nltk' (rouge-score's split_summaries=True; "
               f"command line: --split-summaries builtin|nltk), or put a newline after each sentence. {fix}",
               RougeLsumWarning)

    @staticmethod
    def _warn_dropped_text(texts: list[str]) -> None:
        """Warn (once per call) when rouge-score's tokenizer drops most of the batch: over half of its non-space
        characters are letters, digits or marks outside ASCII."""
        share = share_if_mostly_dropped(texts)
        if share is not None:
            warnings.warn(
                f"tokenizer='rouge-score' (rouge-score's default: ASCII a-z and 0-9 only) drops the letters, digits "
                f"and marks of other scripts, {share:.0%} of the non-space characters of these texts, so their "
                f"ROUGE is meaningless; "
                f"use tokenizer='unicode' (letters and digits of every script) or a sacreBLEU tokenizer "
                f"('ja-mecab', 'ko-mecab', 'flores200', ...)", RefscoreWarning, stacklevel=caller_stacklevel())

    # -- Metric protocol ---------------------------------------------------------------------------------------
    @classmethod
    def for_example(cls) -> ROUGE:
        """The ROUGE ``refscore example`` scores: sentences split by rules (``split_summaries='builtin'``), since the
        bundled XSum summaries hold no newline and ROUGE-Lsum would otherwise only repeat ROUGE-L."""
        return cls(split_summaries="builtin")

    @classmethod
    def check_names(cls) -> tuple[str, ...]:
        """A test case checks one ROUGE type's F-measure: ``rouge1``, ``rouge2`` (any ``rouge<n>``), ``rougeL``..."""
        return ("rouge1", "rouge2", "rouge<n>", "rougeL", "rougeLsum")

    @classmethod
    def check_spec(cls, key: str) -> CheckSpec | None:
        """``rouge<n>``, ``rougel``, ``rougelsum`` (any case, ``ROUGE-L`` too): a check of that one type.

        >>> ROUGE.check_spec("rougel").label, ROUGE.check_spec("rougel").options
        ('ROUGE-L', (('types', ('rougeL',)),))
        """
        match = _CHECK_NAME.match(key)
        if not match:
            return None
        kind = {"l": "L", "lsum": "Lsum"}.get(match.group(1), match.group(1))
        return CheckSpec(f"rouge{kind}", cls.name, f"ROUGE-{kind}", (("types", (f"rouge{kind}",)),))

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        from refscore.metrics.rouge.explain import explain_rouge

        return explain_rouge(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        num_threads = check_num_threads(num_threads)
        precision, recall, fmeasure, best, nrefs = self._document_scores(hypotheses, references, num_threads)
        return self._statistics(precision, recall, fmeasure, best, nrefs)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, -1:]
        means = np.divide(totals[:, :-1], documents, out=np.zeros_like(totals[:, :-1]), where=documents > 0)
        means[np.isnan(documents[:, 0])] = np.nan   # a NaN count (kept as a value) gives NaN means, never 0
        n_types = len(self.config.types)
        by_type = means.reshape(len(totals), n_types, 3)
        return np.concatenate([by_type[:, :, 2], by_type[:, :, 0], by_type[:, :, 1]], axis=1)

    def score_from_statistics(self, stats: Statistics) -> ROUGEScore:
        """The corpus :class:`ROUGEScore` of (possibly merged) statistics: ``result[type]`` reads the per-document
        values and the best reference of each (a carried column) from them."""
        self.check_statistics(stats)
        totals = stats.totals().tolist()
        documents = totals[-1]
        means = [value / documents if documents > 0 or math.isnan(documents) else 0.0   # as scores_from_totals
                 for value in totals[:-1]]
        types = self.config.types
        precision, recall, fmeasure = ({name: means[3 * t + k] for t, name in enumerate(types)} for k in range(3))
        first = types[0]
        result = self.new_score(stats, score=fmeasure[first], statistics=stats,
                                values={"types": self.config.types, "precision": precision, "recall": recall,
                                        "fmeasure": fmeasure, "documents": documents if math.isnan(documents)
                                        else int(documents)},
                                best_reference=stats.carried if stats.carried_columns == self.best_reference_columns
                                else None)
        return cast(ROUGEScore, result)   # new_score makes score_class

    @functools.cached_property
    def _tokenizer_signature(self) -> str:
        """``rouge-score``, ``unicode-14.0.0`` (the pinned Unicode version) or sacreBLEU's own field of its
        tokenizer (``ja-mecab-0.996-IPA``, ``flores200``, ...)."""
        if self.config.tokenizer == "rouge-score":
            return "rouge-score"
        return self._word_tokenizer.signature()

    def signature(self, nrefs: int = 1) -> Signature:
        config = self.config
        return Signature({
            "nrefs": nrefs_text(nrefs),
            "flavor": self.flavor,
            "types": ",".join(config.types),
            "stem": "yes" if config.stemmer else "no",
            "tok": self._tokenizer_signature,
            "split": config.split_summaries,
            **({"w": f"{config.w_weight:g}"} if "rougeW" in config.types else {}),
            **({"skip": "*" if config.skip_distance is None else str(config.skip_distance)}
               if {"rougeS", "rougeSU"} & set(config.types) else {}),
            **({"sep": str(config.sentence_separator)} if config.sentence_separator is not None else {}),
            "multi": "best-f",
            "agg": "mean",
        })


