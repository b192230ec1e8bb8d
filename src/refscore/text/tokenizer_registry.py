"""Every word tokenizer a user can name, in one registry: sacreBLEU 2.6's compiled ones (``13a``, ``intl``, ``zh``,
``char``, ``none``: they run inside the kernels of ``refscore._core``) and the ones that run MeCab or SentencePiece
(:mod:`refscore.text.external`: ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200``, ``spBLEU-1K``).

:func:`get_tokenizer` gives a tokenizer as a function ``str -> list[str]``: the tokens sacreBLEU's tokenizer of
that name yields for the line (its output string split on spaces), i.e. the words BLEU counts.

>>> tokenizers()[:5]
('13a', 'intl', 'zh', 'char', 'none')
>>> get_tokenizer("13a")("Hello, world!")
['Hello', ',', 'world', '!']
"""
from __future__ import annotations

import os
from collections.abc import Callable

from refscore._core._tokenize import TOKENIZERS, encode_words_with_vocab
from refscore.checks import check_choice
from refscore.errors import InputTypeError
from refscore.text.external import EXTERNAL_TOKENIZERS
from refscore.text.external import get_tokenizer as get_external_tokenizer

#: The tokenizers of the compiled core (every word n-gram metric accepts them).
COMPILED_TOKENIZERS: tuple[str, ...] = TOKENIZERS

__all__ = ["COMPILED_TOKENIZERS", "EXTERNAL_TOKENIZERS", "get_tokenizer", "tokenizers"]


def tokenizers() -> tuple[str, ...]:
    """Every tokenizer name :func:`get_tokenizer` accepts: the compiled ones, then MeCab's and SentencePiece's."""
    return COMPILED_TOKENIZERS + EXTERNAL_TOKENIZERS


def get_tokenizer(name: str, *, spm_model: str | os.PathLike[str] | None = None) -> Callable[[str], list[str]]:
    """The tokenizer ``name`` (one of :func:`tokenizers`) as ``line -> tokens``; ``spm_model`` is a SentencePiece
    model file to use instead of sacreBLEU's (SentencePiece tokenizers only). An unknown name is an error listing
    the names; MeCab and SentencePiece need their extras (the error names the install command).

    >>> get_tokenizer("char")("ab c")
    ['a', 'b', 'c']
    """
    check_choice(name, "tokenize", tokenizers(), owner="get_tokenizer")
    if name in COMPILED_TOKENIZERS:
        return lambda line: _compiled_tokens(name, line)
    external = get_external_tokenizer(name, spm_model=spm_model)
    return lambda line: external(_checked_line(name, line)).split()


def _checked_line(name: str, line: object) -> str:
    if not isinstance(line, str):
        raise InputTypeError(f"tokenizer {name!r}: the line to tokenize must be a str, got {type(line).__name__}")
    return line


def _compiled_tokens(name: str, line: str) -> list[str]:
    ids, _, vocabulary = encode_words_with_vocab([_checked_line(name, line)], tokenizer=name, lowercase=False,
                                                 num_threads=1)
    return [vocabulary[i] for i in ids.tolist()]
