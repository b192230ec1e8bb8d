"""METEOR (Lavie and Agarwal 2007) with NLTK 3.10.4's exact numbers: ``nltk.translate.meteor_score.meteor_score``
with its defaults (exact, Porter-stem and WordNet-synonym stages; ``alpha=0.9, beta=3, gamma=0.5``).

NLTK scores token lists; refscore splits each text on whitespace (``tokenize="whitespace"``, in the signature as
``tok:whitespace``), or, for Hugging Face ``evaluate``'s ``meteor``, with NLTK's ``word_tokenize``
(``tokenize="word_tokenize"``). A segment with several references scores the best of them (NLTK's ``max``).
NLTK has no corpus METEOR: the corpus score is the mean of the segment scores (as ``evaluate``'s). WordNet 3.0 is
read from its database files (Debian's ``wordnet-base``, or ``$REFSCORE_WORDNET``); see docs/meteor.md.

>>> import refscore
>>> round(refscore.sentence_meteor("the cats sat on a mat", ["the cat sat on the mat"]).score, 4)
0.7433
>>> print(refscore.meteor(["the cat sat", "a dog barked"], [["the cat sat down"], ["the dog barks"]]))
METEOR = 69.00
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np

from refscore.checks import check_choice, check_num_threads, check_number
from refscore.inputs import prepare_batch
from refscore.metrics.meteor.align import Aligner, chunk_count
from refscore.metrics.meteor.wordnet import load_wordnet, wordnet_directory
from refscore.protocol import (CliOption, ColumnRules, DeprecatedValue, Metric, Score, Signature, Statistics,
                               metric_with, nrefs_text)
from refscore.text.tokenizer_registry import get_tokenizer, tokenizers

#: The NLTK release whose ``meteor_score`` refscore reproduces (in the signature).
NLTK_VERSION = "3.10.4"

#: How a text can become NLTK's token list (:attr:`METEORConfig.tokenize`): the ``"nltk"`` family of the tokenizer
#: registry, :mod:`refscore.text.tokenizer_registry`.
TOKENIZERS: tuple[str, ...] = tokenizers("nltk")


@dataclasses.dataclass(frozen=True)
class METEORConfig:
    """Settings of :class:`METEOR`; the defaults are NLTK's ``meteor_score`` on whitespace-split text.

    Attributes:
        alpha: weight of precision vs recall in the harmonic mean, in [0, 1].
        beta: shape of the fragmentation penalty (its exponent), >= 0.
        gamma: weight of the fragmentation penalty, in [0, 1].
        tokenize: ``"whitespace"`` (``str.split``, the token lists NLTK users pass) or ``"word_tokenize"``
            (NLTK's ``word_tokenize(text, preserve_line=True)``, Hugging Face ``evaluate``'s flavor).
    """

    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5
    tokenize: str = "whitespace"

    def __post_init__(self) -> None:
        object.__setattr__(self, "alpha", check_number(self.alpha, "alpha", minimum=0, maximum=1, owner="METEOR"))
        object.__setattr__(self, "beta", check_number(self.beta, "beta", minimum=0, owner="METEOR"))
        object.__setattr__(self, "gamma", check_number(self.gamma, "gamma", minimum=0, maximum=1, owner="METEOR"))
        check_choice(self.tokenize, "tokenize", TOKENIZERS, owner="METEOR")


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class METEORScore(Score):
    """A METEOR result on the 0–1 scale: the mean of ``values["documents"]`` segment scores (the attribute
    ``documents`` is a deprecated alias).

    >>> print(METEORScore(metric="meteor", score=0.709, signature="", values={"documents": 2}))
    METEOR = 70.90
    """

    documents = DeprecatedValue()

    def __str__(self) -> str:
        return self.format()


class METEOR(Metric):
    """METEOR with NLTK 3.10.4's numbers per segment (best reference), the corpus score their mean.

    >>> METEOR().sentence_scores(["a cat", "nothing here"], [["the cat", "a cat"], "x y"]).round(4).tolist()
    [0.9375, 0.0]
    >>> str(METEOR().signature(1))[:63]
    'nrefs:1|case:lc|tok:whitespace|stages:exact+stem+wordnet|alpha:'
    """

    name: ClassVar[str] = "meteor"
    score_class = METEORScore
    example_task = "summarization"
    config_class: ClassVar[type] = METEORConfig
    higher_is_better: ClassVar[bool] = True
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)  # of a test case's threshold (0–1 scale)
    check_label: ClassVar[str | None] = "METEOR"
    exact_to: ClassVar[str | None] = f"nltk.translate.meteor_score.meteor_score ({NLTK_VERSION})"
    #: one score per segment and a ``documents`` count, so means of any set of segments are ``sum / documents``
    columns: ClassVar[tuple[str, ...]] = ("meteor", "documents")
    cli_options: ClassVar[tuple[CliOption, ...]] = (
        CliOption(("--meteor-alpha",), "alpha", "METEOR: precision weight in the harmonic mean (default 0.9)", float),
        CliOption(("--meteor-beta",), "beta", "METEOR: fragmentation penalty exponent (default 3)", float),
        CliOption(("--meteor-gamma",), "gamma", "METEOR: fragmentation penalty weight (default 0.5)", float),
        CliOption(("--meteor-tokenize",), "tokenize",
                  "METEOR: whitespace (default; NLTK on str.split) or word_tokenize (Hugging Face evaluate's)",
                  choices=TOKENIZERS),
    )
    config: METEORConfig

    def statistics(self, hypotheses: Any, references: Any, *, num_threads: int | None = None) -> Statistics:
        """Per segment: the best reference's METEOR and a 1 (``documents``). Scoring runs in this thread."""
        check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, allow_token_ids=False)
        aligner = Aligner(load_wordnet())
        tokenize = get_tokenizer(self.config.tokenize)
        cfg = self.config
        data = np.ones((len(batch), 2), dtype=np.float64)
        for i, hypothesis in enumerate(batch.hypotheses):
            words = tokenize(hypothesis)
            data[i, 0] = max(aligner.score(words, tokenize(reference), cfg.alpha, cfg.beta, cfg.gamma)
                             for reference in batch.segment_references(i))
        return self._new_statistics(self.columns, data, batch.nrefs)

    @classmethod
    def for_example(cls) -> METEOR:
        """The metric ``refscore example`` scores; without WordNet a :class:`~refscore.errors.MissingModelError`
        that names the packages (the example reports it and scores the other metrics)."""
        wordnet_directory()
        return cls()

    def statistics_rules(self) -> ColumnRules:
        return ColumnRules(self.columns)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        """The best reference's matches by stage, the chunks, and the reference words left unmatched.

        >>> print(METEOR().explain_case("the cats sat on a mat", ["the cat sat on the mat"]))
        METEOR 0.743 (precision 0.833, recall 0.833; 4 exact, 1 stem, 0 synonym matches in 3 chunks); reference words not matched: 'the'
        """
        aligner = Aligner(load_wordnet())
        tokenize = get_tokenizer(self.config.tokenize)
        cfg = self.config
        words = tokenize(output)
        scored = [(aligner.score(words, tokenize(r), cfg.alpha, cfg.beta, cfg.gamma), tokenize(r)) for r in references]
        score, reference = max(scored, key=lambda pair: pair[0])   # the first best, as NLTK's max
        stages = aligner.stage_matches(words, reference)
        matches = sorted(pair for stage in stages for pair in stage)
        matched = {j for _, j in matches}
        missing = [word for j, word in enumerate(reference) if j not in matched]
        text = f"METEOR {score:.3f}"
        if words and reference:
            text += (f" (precision {len(matches) / len(words):.3f}, recall {len(matches) / len(reference):.3f}; "
                     f"{len(stages[0])} exact, {len(stages[1])} stem, {len(stages[2])} synonym matches in "
                     f"{chunk_count(matches) if matches else 0} chunks)")
        if missing:
            shown = ", ".join(f"'{word}'" for word in missing[:8]) + (f" and {len(missing) - 8} more"
                                                                     if len(missing) > 8 else "")
            text += f"; reference words not matched: {shown}"
        return text

    def scores_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """``meteor / documents`` per row (0 for no documents): ``(m, 1)`` float64."""
        totals = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        documents = totals[:, 1:2]
        return np.where(documents > 0, totals[:, 0:1] / np.where(documents > 0, documents, 1), 0.0)

    def score_from_statistics(self, stats: Statistics) -> Score:
        self.check_statistics(stats)   # before the columns are read
        documents = stats.column("documents")
        if len(stats) and bool(np.all(documents == 1)):
            # one row per segment: numpy's mean, the very float of evaluate's np.mean(scores)
            mean = float(np.mean(np.ascontiguousarray(stats.column("meteor"))))
        else:
            mean = float(self.scores_from_totals(stats.totals())[0, 0])
        return self.new_score(stats, score=mean, values={"documents": int(documents.sum())})

    def signature(self, nrefs: int = 1) -> Signature:
        """e.g. ``nrefs:1|case:lc|tok:whitespace|stages:exact+stem+wordnet|alpha:0.9|beta:3.0|gamma:0.5|wordnet:3.0|
        nltk:3.10.4|refscore:...``."""
        cfg = self.config
        return Signature({"nrefs": nrefs_text(nrefs), "case": "lc", "tok": cfg.tokenize,
                          "stages": "exact+stem+wordnet", "alpha": str(cfg.alpha), "beta": str(cfg.beta),
                          "gamma": str(cfg.gamma), "wordnet": "3.0", "nltk": NLTK_VERSION},
                         short_names={"nrefs": "#", "case": "c", "stages": "s", "alpha": "a", "beta": "b",
                                      "gamma": "g", "wordnet": "wn"})


def meteor(hypotheses: Any, references: Any, *, num_threads: int | None = None, **options: Any) -> METEORScore:
    """Corpus METEOR: the mean of NLTK's ``meteor_score`` per segment; ``references[i]`` is a string or a list of
    strings; ``options`` are :class:`METEORConfig` fields.

    >>> round(meteor(["the cat sat"], ["the cat sat down"]).score, 4)
    0.755
    """
    return cast(METEORScore, metric_with(METEOR, options).corpus_score(hypotheses, references, num_threads=num_threads))


def sentence_meteor(hypothesis: str, references: str | list[str], **options: Any) -> METEORScore:
    """NLTK's ``meteor_score`` of one hypothesis against one reference or the best of several.

    >>> round(sentence_meteor("a cat", ["the cat", "a cat"]).score, 4)
    0.9375
    """
    return cast(METEORScore, metric_with(METEOR, options).sentence_score(hypothesis, references))
