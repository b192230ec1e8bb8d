"""sacreBLEU tokenizers that need MeCab or SentencePiece models: refscore does not have them yet, and the classes
say so when created (instead of failing later or tokenizing differently)."""
from __future__ import annotations

from typing import Any

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from refscore.errors import InputError


class UnsupportedTokenizer(BaseTokenizer):
    """Raises :class:`~refscore.errors.InputError` naming the tokenizer when instantiated.

    >>> class TokenizerJaMecab(UnsupportedTokenizer):
    ...     _signature = "ja-mecab"
    >>> TokenizerJaMecab()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: refscore.compat.sacrebleu: the 'ja-mecab' tokenizer (TokenizerJaMecab) is not ...
    """

    _signature = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise InputError(f"refscore.compat.sacrebleu: the {self._signature!r} tokenizer ({type(self).__name__}) is "
                         f"not supported yet (it needs MeCab or SentencePiece models); use sacreBLEU itself for it, "
                         f"or tokenize the text yourself and use tokenize='none'")
