"""sacreBLEU's tokenizers that run MeCab or SentencePiece, over refscore's :mod:`refscore.tokenizers` (the same
tagger or model sacreBLEU loads, found in the same place; refscore never downloads a model).

>>> from refscore.compat.sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
>>> TokenizerKoMecab()("안녕하세요")  # doctest: +SKIP
'안녕 하 세요'
"""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from refscore.errors import InputTypeError
from refscore.tokenizers import get_tokenizer


class ExternalTokenizer(BaseTokenizer):
    """A sacreBLEU tokenizer class run by :func:`refscore.tokenizers.get_tokenizer` ``(key)``: its ``__call__``
    and ``signature()`` are sacreBLEU's. A missing package raises :class:`refscore.errors.MissingExtraError`
    naming the extra, a missing SentencePiece model :class:`refscore.errors.MissingModelError` naming the file."""

    def __init__(self, key: str) -> None:
        self._tokenizer = get_tokenizer(key)

    def signature(self) -> str:
        return self._tokenizer.signature()

    def __call__(self, line: str) -> str:
        if not isinstance(line, str):
            raise InputTypeError(f"{type(self).__name__}: the line to tokenize must be a str, got "
                                 f"{type(line).__name__}")
        return self._tokenizer(line)
