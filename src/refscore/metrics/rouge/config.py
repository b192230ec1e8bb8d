"""The frozen settings of both ROUGE flavors: :class:`ROUGEConfig` (rouge-score) and :class:`ROUGE155Config`
(ROUGE-1.5.5, one field per flag of the Perl script).

>>> ROUGEConfig(types="rouge1,rougeL").types, ROUGE155Config(types="rouge1 su4").types
(('rouge1', 'rougeL'), ('ROUGE-1', 'ROUGE-SU4'))
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any

from refscore.checks import check_bool, check_choice, check_int, check_number, check_optional_int
from refscore.errors import InputError
from refscore.metrics.rouge.types import (DEFAULT_TYPES, ROUGE155_DEFAULT_TYPES, RougeType, parse_type, parse_types,
                                          split_types)
from refscore.text.external import EXTERNAL_TOKENIZERS, SPM_MODELS
from refscore.text.tokenizer_registry import stems, tokenizers

#: ROUGE's tokenizers, from the tokenizer registry: its ``"rouge"`` family (rouge-score's own, the default, and the
#: Unicode word tokenizer: letters, marks and digits of every script, Unicode 14.0.0) and sacreBLEU's MeCab and
#: SentencePiece tokenizers (see docs/rouge.md).
TOKENIZERS = (*tokenizers("rouge"), *EXTERNAL_TOKENIZERS)
#: Sentence splitting for ROUGE-Lsum: "newline" (rouge-score's default), "builtin" (rules in
#: refscore.text.sentences, no download), "nltk" (nltk.sent_tokenize, rouge-score's split_summaries=True).
SPLITTERS = ("newline", "builtin", "nltk")


def check_stemmer(stemmer: bool, tokenizer: str) -> None:
    """Stemming is English-only: refuse it with sacreBLEU's tokenizers (Japanese, Korean, SentencePiece pieces)."""
    if stemmer and tokenizer in TOKENIZERS and not stems(tokenizer):
        raise InputError(f"stemmer=True cannot be used with tokenizer={tokenizer!r}: stemming is English-only (NLTK's "
                         f"Porter stemmer, for tokenizer='rouge-score' and the ASCII words of 'unicode'); "
                         f"use stemmer=False")


def parse_splitter(value: Any) -> str:
    """``split_summaries`` as one of :data:`SPLITTERS` (``False``/``None``: newline, ``True``: nltk)."""
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
    ``tokenizer``: ``"rouge-score"`` (lowercase, ASCII ``[a-z0-9]`` runs), ``"unicode"`` (letters, marks and
    digits of every script by Unicode 14.0.0's General Categories; CJK ideographs and kana one token each) or one
    of sacreBLEU's ``ja-mecab``, ``ko-mecab``, ``flores101``/``spm``, ``flores200``, ``spBLEU-1K`` (tokens
    lowercased; ``spm_model``: the SentencePiece model file instead of sacreBLEU's cached one); see
    :mod:`~refscore.metrics.rouge.words`. ``split_summaries``: how ROUGE-Lsum finds
    sentences (see :data:`SPLITTERS`). ``w_weight``: the weight of ``rougeW`` (``f(k) = k ** w_weight``);
    ``skip_distance``: the largest gap of ``rougeS``/``rougeSU`` skip-bigrams (``None``: unlimited, ROUGE-S*).
    ``sentence_separator``: for token-id input, the id that ends a sentence (ROUGE-Lsum's sentences; it is no
    token of any type); ``None``: each token sequence is one sentence.
    """

    types: tuple[str, ...] = DEFAULT_TYPES
    stemmer: bool = False
    tokenizer: str = "rouge-score"
    split_summaries: str = "newline"
    w_weight: float = 1.2
    skip_distance: int | None = 4
    sentence_separator: int | None = None
    spm_model: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", parse_types(self.types))
        object.__setattr__(self, "stemmer", check_bool(self.stemmer, "stemmer"))
        check_choice(self.tokenizer, "tokenizer", TOKENIZERS)
        check_stemmer(self.stemmer, self.tokenizer)
        if self.spm_model is not None and self.tokenizer not in SPM_MODELS:
            raise InputError(f"spm_model is the SentencePiece model of tokenizer='flores101'/'spm'/'flores200'/"
                             f"'spBLEU-1K', not of tokenizer={self.tokenizer!r}")
        object.__setattr__(self, "split_summaries", parse_splitter(self.split_summaries))
        object.__setattr__(self, "w_weight", check_number(self.w_weight, "w_weight", above=1,
                                                          hint="ROUGE-W's f(k) = k ** w_weight"))
        object.__setattr__(self, "skip_distance", check_optional_int(self.skip_distance, "skip_distance", minimum=0,
                                                                     none_means="unlimited, ROUGE-S*"))
        if self.sentence_separator is not None:
            object.__setattr__(self, "sentence_separator", check_int(
                self.sentence_separator, "sentence_separator", hint="a token id, or None for one sentence per text"))


def _parse_limit(value: Any, name: str, flag: str) -> int:
    if value is None:
        return 0
    return check_int(value, name, minimum=0, hint=f"0 = no limit, ROUGE-1.5.5's {flag}")


@dataclasses.dataclass(frozen=True)
class ROUGE155Config:
    """Settings of ROUGE-1.5.5 (the flag each field stands for is in brackets).

    ``types``: measures to compute (``-n``, ``-x``, ``-w``, ``-2``, ``-u``/``-U``), e.g.
    ``("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*")``; a comma-separated string works.
    ``stemming`` (``-m``), ``remove_stopwords`` (``-s``), ``scoring_formula`` (``-f``: ``"A"`` model average,
    ``"B"`` best model), ``alpha`` (``-p``), ``word_limit`` (``-l``) / ``byte_limit`` (``-b``): 0 = no limit,
    ``confidence`` (``-c``) and ``resamples`` (``-r``) for the bootstrap averages of :func:`rouge155`.
    """

    types: tuple[str, ...] = ROUGE155_DEFAULT_TYPES
    stemming: bool = False
    remove_stopwords: bool = False
    scoring_formula: str = "A"
    alpha: float = 0.5
    word_limit: int = 0
    byte_limit: int = 0
    confidence: float = 95.0
    resamples: int = 1000

    def __post_init__(self) -> None:
        types = split_types(self.types) if isinstance(self.types, str) else self.types
        if not isinstance(types, (tuple, list)) or not types:
            raise InputError(f"types must be a non-empty list of ROUGE type names, got {self.types!r}")
        names = tuple(parse_type(t, where=f"types[{i}]").name for i, t in enumerate(types))
        if len(set(names)) != len(names):
            raise InputError(f"types lists a measure twice: {list(names)}")
        object.__setattr__(self, "types", names)
        for name in ("stemming", "remove_stopwords"):
            object.__setattr__(self, name, check_bool(getattr(self, name), name))
        formula = self.scoring_formula
        formula = formula.strip().upper() if isinstance(formula, str) else formula
        formula = {"AVERAGE": "A", "BEST": "B"}.get(formula, formula)
        check_choice(formula, "scoring_formula", ("A", "B"), hint="'A' model average, 'B' best model (-f)")
        object.__setattr__(self, "scoring_formula", formula)
        object.__setattr__(self, "alpha", check_number(self.alpha, "alpha", minimum=0, maximum=1,
                                                       hint="ROUGE-1.5.5's -p"))
        word_limit = _parse_limit(self.word_limit, "word_limit", "-l")
        byte_limit = _parse_limit(self.byte_limit, "byte_limit", "-b")
        if word_limit and byte_limit:
            raise InputError("give word_limit or byte_limit, not both (ROUGE-1.5.5 refuses -l together with -b)")
        object.__setattr__(self, "word_limit", word_limit)
        object.__setattr__(self, "byte_limit", byte_limit)
        check_number(self.confidence, "confidence", minimum=0, maximum=100, hint="ROUGE-1.5.5's -c")
        object.__setattr__(self, "resamples", check_int(self.resamples, "resamples", minimum=1,
                                                        hint="ROUGE-1.5.5's -r"))

    @property
    def parsed_types(self) -> tuple[RougeType, ...]:
        return tuple(parse_type(t) for t in self.types)
