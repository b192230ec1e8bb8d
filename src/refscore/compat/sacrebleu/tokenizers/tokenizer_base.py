"""sacreBLEU's ``tokenizers.tokenizer_base``: ``BaseTokenizer`` (``signature()`` and ``__call__(line) -> str``)
and, for refscore, :class:`CompiledTokenizer`: a tokenizer class whose strings come from refscore's compiled
tokenizers (:func:`refscore.text.get_tokenizer`), the ones its metrics use.

>>> from refscore.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
>>> Tokenizer13a()("Hello, world!")
'Hello , world !'
"""
from __future__ import annotations

import functools
from collections.abc import Callable

from refscore.errors import InputTypeError
from refscore.text.tokenizer_registry import get_tokenizer


class BaseTokenizer:
    """A base dummy tokenizer to derive from."""

    def signature(self) -> str:
        """The tokenizer's name in metric signatures (``13a``, ``intl``...)."""
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        """The tokenized ``line``: its tokens joined by single spaces."""
        raise NotImplementedError()


class CompiledTokenizer(BaseTokenizer):
    """A sacreBLEU tokenizer run by refscore's compiled tokenizer ``_kernel_name`` (its tokens, joined by spaces,
    are the sacreBLEU tokenizer's string)."""

    _signature = ""
    _kernel_name = ""

    def signature(self) -> str:
        return self._signature

    def __call__(self, line: str) -> str:
        if not isinstance(line, str):
            raise InputTypeError(f"{type(self).__name__}: the line to tokenize must be a str, got "
                                 f"{type(line).__name__}")
        return " ".join(self._tokens(line))

    @functools.cached_property
    def _tokens(self) -> Callable[[str], list[str]]:
        return get_tokenizer(self._kernel_name)
