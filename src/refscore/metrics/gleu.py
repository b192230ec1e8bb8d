"""Google-BLEU (GLEU, Wu et al. 2016) with NLTK 3.10.4's ``corpus_gleu`` / ``sentence_gleu`` semantics.

For each segment, every n-gram of orders ``min_len..max_len`` counts; against each reference,
``tp`` = clipped matches and ``n_all = max(hypothesis n-grams, reference n-grams)``; the reference with the
highest ``tp / n_all`` (the first one on ties) contributes its ``(tp, n_all)`` (references with ``n_all == 0``
are skipped, as NLTK does). Statistics per segment are ``matches, n_all``; the score is
``sum(matches) / sum(n_all)`` (0 when ``sum(n_all) == 0``). The default tokenizer is ``13a``, as in Hugging
Face ``evaluate``'s ``google_bleu``; ``tokenize="none"`` splits on whitespace (the token lists NLTK users pass).

>>> round(sentence_gleu("the cat sat on the mat", ["the cat ate the mat"]).score, 4)
0.3333
>>> round(gleu(["the cat sat on the mat"], [["the cat sat", "a cat sat on the mat"]]).score, 4)
0.7778
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np

from refscore._core._ngrams import TextPairCounter, gleu_text_pair
from refscore.checks import check_bool, check_num_threads, check_order
from refscore.errors import InputError
from refscore.metrics._explaining import best_reference, missing, quoted, sacrebleu_tokens
from refscore.metrics._pair_counts import GLEUPairCounts
from refscore.metrics._single import SentenceResults
from refscore.metrics.word_batch import (WORD_TOKENIZERS, check_tokenizer,
                                         ngram_statistics)
from refscore.protocol import (CliOption, ColumnRules, DeprecatedValue, Metric, Score, Signature, Statistics,
                               metric_with, nrefs_text)


@dataclass(frozen=True)
class GLEUConfig:
    """Settings of :class:`GLEU`: n-gram orders ``min_len..max_len`` (NLTK's names) and the text preprocessing."""

    tokenize: str = "13a"
    min_len: int = 1
    max_len: int = 4
    lowercase: bool = False

    def __post_init__(self) -> None:
        check_tokenizer("GLEU", self.tokenize)
        object.__setattr__(self, "lowercase", check_bool(self.lowercase, "lowercase", owner="GLEU"))
        object.__setattr__(self, "min_len", check_order(self.min_len, "min_len", owner="GLEU"))
        object.__setattr__(self, "max_len", check_order(self.max_len, "max_len", owner="GLEU"))
        if self.max_len < self.min_len:
            raise InputError(f"GLEU: max_len ({self.max_len}) must be >= min_len ({self.min_len})")


@dataclass(frozen=True, kw_only=True, repr=False)
class GLEUScore(Score):
    """A Google-BLEU result on the 0–1 scale. ``values``: the summed statistics ``matches`` and ``n_all``; the
    attributes of the same names are deprecated aliases."""

    matches = DeprecatedValue()
    n_all = DeprecatedValue()


class GLEU(GLEUPairCounts, Metric):
    """Corpus and sentence Google-BLEU with NLTK's exact numbers (HF ``google_bleu`` with the default 13a).

    >>> metric = GLEU(tokenize="none", min_len=2)
    >>> metric.sentence_scores(["a b c", "x y"], [["a b d", "a b c"], "y x"]).tolist()
    [1.0, 0.0]
    """

    name: ClassVar[str] = "gleu"
    config_class: ClassVar[type] = GLEUConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    check_label: ClassVar[str | None] = "GLEU"
    columns: ClassVar[tuple[str, ...]] = ("matches", "n_all")
    score_class = GLEUScore   # values: the summed columns (the default corpus_values)
    integer_statistics = True
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--tokenize", "-tok"), "tokenize", "word tokenizer (sacreBLEU's; default 13a)",
                  choices=WORD_TOKENIZERS),
        CliOption(("--lowercase", "-lc"), "lowercase", "lowercase before tokenizing", type=bool),
        CliOption(("--gleu-min-len",), "min_len", "GLEU smallest n-gram order (default 1)", type=int),
        CliOption(("--gleu-max-len",), "max_len", "GLEU largest n-gram order (default 4)", type=int),
    )

    config: GLEUConfig

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns, (("matches", "n_all"),), integer=True)

    def explain_case(self, output: str, references: Sequence[str]) -> str:

        return explain_gleu(self, output, references)

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per-segment ``(matches, n_all)`` of the best reference (one row per hypothesis, input order)."""
        num_threads = check_num_threads(num_threads)
        batch, data = ngram_statistics("gleu", hypotheses, references, tokenize=self.config.tokenize,
                                       lowercase=self.config.lowercase,
                                       orders=(self.config.min_len, self.config.max_len), num_threads=num_threads)
        return self._new_statistics(self.columns, data, batch.nrefs)

    def sentence_score(self, hypothesis: Any, references: Any) -> GLEUScore:
        """Google-BLEU of one segment; plain ``str`` text takes the per-call fast path (one compiled call,
        ``_ngrams.gleu_text_pair``; no batch, no statistics table; the same numbers as :meth:`sentence_scores`).

        >>> GLEU(tokenize="none", max_len=2).sentence_score("a b c d", ["a b c e", "x"]).values
        {'matches': 5, 'n_all': 7}
        """
        row = self._pair_counter.counts(hypothesis, references)
        if row is None:
            return cast(GLEUScore, super().sentence_score(hypothesis, references))
        matches, n_all = row
        return cast(GLEUScore, self._sentence_results.make(
            matches / n_all if n_all else 0.0, 1 if type(references) is str else len(references),
            {"matches": matches, "n_all": n_all}))   # scores_from_totals and corpus_values of the one row

    @functools.cached_property
    def _pair_counter(self) -> TextPairCounter:
        config = self.config
        return gleu_text_pair(config.tokenize, config.lowercase, config.min_len, config.max_len)

    @functools.cached_property
    def _sentence_results(self) -> SentenceResults:
        return SentenceResults(self)

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``matches / n_all`` per row (0 where ``n_all == 0``): ``(m, 1)`` float64."""
        totals = np.atleast_2d(np.asarray(totals))
        matches, n_all = totals[:, 0].astype(np.float64), totals[:, 1].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(n_all == 0, 0.0, matches / np.where(n_all == 0, 1.0, n_all))[:, None]


    def signature(self, nrefs: int = 1) -> Signature:
        """e.g. ``nrefs:1|case:mixed|tok:13a|ngram:1-4|refscore:...``."""
        config = self.config
        return Signature({"nrefs": nrefs_text(nrefs),
                          "case": "lc" if config.lowercase else "mixed", "tok": config.tokenize,
                          "ngram": f"{config.min_len}-{config.max_len}"},
                         {"nrefs": "#", "case": "c", "ngram": "n"})


def gleu(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> GLEUScore:
    """Corpus Google-BLEU (NLTK ``corpus_gleu``); ``options`` are :class:`GLEUConfig` fields.

    >>> gleu(["a b c d"], ["a b c e"], tokenize="none", max_len=2).score   # 5 of 7 n-grams
    0.7142857142857143
    """
    return cast(GLEUScore, metric_with(GLEU, options).corpus_score(hypotheses, references, num_threads=num_threads))


def sentence_gleu(hypothesis: Any, references: Any, **options: Any) -> GLEUScore:
    """Google-BLEU of one segment (NLTK ``sentence_gleu``); ``references`` is a string or a list of strings.

    >>> sentence_gleu("a b c d", "a b c e", tokenize="none", max_len=2).score   # 5 of 7 n-grams
    0.7142857142857143
    """
    return metric_with(GLEU, options).sentence_score(hypothesis, references)


def explain_gleu(metric: Metric, output: str, references: Sequence[str]) -> str:
    hyp, *refs = sacrebleu_tokens(metric, [output, *references])
    reference = refs[best_reference(metric, output, references)]
    words = missing(reference, hyp, 1)
    if words:
        return f"reference words missing from the output: {quoted(words)}"
    return f"every reference word is in the output; reference n-grams missing: {quoted(missing(reference, hyp, 2))}"


__all__ = ["GLEU", "GLEUConfig", "GLEUScore", "gleu", "sentence_gleu"]
