"""sacreBLEU 2.6's tokenizers that need extra packages or models: ``ja-mecab``, ``ko-mecab`` (MeCab) and
``flores101`` / ``spm``, ``flores200``, ``spBLEU-1K`` (SentencePiece).

refscore's compiled tokenizers (``13a``, ``intl``, ``zh``, ``char``, ``none``) live in ``refscore._core``. These
run the same third-party tokenizer sacreBLEU runs, on each distinct text once; the metric then splits the
space-joined tokens on whitespace, as sacreBLEU's BLEU does (``tokenize="none"`` in refscore's kernels).

>>> "flores200" in EXTERNAL_TOKENIZERS and "13a" not in EXTERNAL_TOKENIZERS
True
>>> tokenize_texts("ko-mecab", ["안녕하세요", "안녕하세요"])  # doctest: +SKIP
['안녕 하 세요', '안녕 하 세요']
"""
from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from refscore.errors import InputError
from refscore.text._mecab import JaMecabTokenizer, KoMecabTokenizer
from refscore.text._spm import (SPM_MODELS, SentencePieceTokenizer, find_sentencepiece_model,
                                sacrebleu_models_dir, sentencepiece_model_file)

_MECAB_TOKENIZERS = {"ja-mecab": JaMecabTokenizer, "ko-mecab": KoMecabTokenizer}
#: sacreBLEU 2.6's tokenizers that run MeCab or SentencePiece (in sacreBLEU's order).
EXTERNAL_TOKENIZERS: tuple[str, ...] = ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K")
#: The extra (``pip install 'refscore[EXTRA]'``) each tokenizer needs.
TOKENIZER_EXTRAS: dict[str, str] = {"ja-mecab": "ja", "ko-mecab": "ko", **{name: "spm" for name in SPM_MODELS}}


class ExternalTokenizer(Protocol):
    """What every tokenizer here offers: sacreBLEU's call and signature, and the call on many lines at once."""

    def __call__(self, line: str) -> str: ...

    def signature(self) -> str: ...

    def tokenize_many(self, lines: Sequence[str], num_threads: int) -> list[str]: ...


@functools.lru_cache(maxsize=8)
def _mecab_tokenizer(name: str) -> ExternalTokenizer:
    return _MECAB_TOKENIZERS[name]()


@functools.lru_cache(maxsize=8)
def _spm_tokenizer(name: str, path: Path, modified_ns: int) -> SentencePieceTokenizer:
    return SentencePieceTokenizer(name, path)


def get_tokenizer(name: str, *, spm_model: str | os.PathLike[str] | None = None) -> ExternalTokenizer:
    """The (cached) tokenizer ``name`` of :data:`EXTERNAL_TOKENIZERS`; ``spm_model`` is the SentencePiece model
    file to use instead of sacreBLEU's cached one (SentencePiece tokenizers only).

    Raises :class:`refscore.errors.MissingExtraError` when the tokenizer's packages are not installed and
    :class:`refscore.errors.MissingModelError` when the SentencePiece model file is missing.
    """
    if name in _MECAB_TOKENIZERS:
        return _mecab_tokenizer(name)
    if name not in SPM_MODELS:
        raise KeyError(f"{name!r} is not one of {EXTERNAL_TOKENIZERS}")
    path = find_sentencepiece_model(name, spm_model).resolve()
    return _spm_tokenizer(name, path, path.stat().st_mtime_ns)


def tokenizer_signature(name: str, *, spm_model: str | os.PathLike[str] | None = None) -> str:
    """sacreBLEU's ``tok`` signature field of tokenizer ``name``, e.g. ``ja-mecab-0.996-IPA`` or ``flores101``."""
    return get_tokenizer(name, spm_model=spm_model).signature()


def tokenize_texts(name: str, texts: Sequence[str], *, lowercase: bool = False, num_threads: int = 1,
                   spm_model: str | os.PathLike[str] | None = None, what: str = "texts") -> list[str]:
    """sacreBLEU's BLEU preprocessing of every text: ``tokenizer((text.lower() if lowercase else text).rstrip())``.

    Each distinct text is tokenized once, on ``num_threads`` threads (one MeCab tagger per thread; SentencePiece
    uses its own C++ threads). A text that is not valid Unicode (a lone surrogate, which MeCab and SentencePiece
    cannot read) raises :class:`refscore.errors.InputError` naming ``what[index]``.
    """
    tokenizer = get_tokenizer(name, spm_model=spm_model)
    slot_of: dict[str, int] = {}
    slots = [slot_of.setdefault(text, len(slot_of)) for text in texts]
    for text in slot_of:
        _check_encodable(name, text, texts, what)
    distinct = [(text.lower() if lowercase else text).rstrip() for text in slot_of]
    if isinstance(tokenizer, SentencePieceTokenizer):   # a refused line is named where the caller gave it
        originals = list(slot_of)

        def label(line: str) -> str:
            return f"{what}[{list(texts).index(originals[distinct.index(line)])}]"
        tokenized = tokenizer.tokenize_many(distinct, num_threads, label)
    else:
        tokenized = tokenizer.tokenize_many(distinct, num_threads)
    return [tokenized[slot] for slot in slots]


def _check_encodable(name: str, text: str, texts: Sequence[str], what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError(f"{what}[{list(texts).index(text)}] has the lone surrogate U+{ord(text[error.start]):04X} "
                         f"at character {error.start}, which tokenize={name!r} cannot read (MeCab and SentencePiece "
                         f"take UTF-8; sacreBLEU fails on it too): remove or replace it") from None


__all__ = ["EXTERNAL_TOKENIZERS", "TOKENIZER_EXTRAS", "ExternalTokenizer", "JaMecabTokenizer", "KoMecabTokenizer",
           "SPM_MODELS", "SentencePieceTokenizer", "find_sentencepiece_model", "get_tokenizer",
           "sacrebleu_models_dir", "sentencepiece_model_file", "tokenize_texts", "tokenizer_signature"]
