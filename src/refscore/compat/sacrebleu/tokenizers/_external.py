"""sacreBLEU's tokenizers that run MeCab or SentencePiece, over refscore's :mod:`refscore.text.external` (the same
tagger or model sacreBLEU loads, found in the same place; refscore never downloads a model).

>>> from refscore.compat.sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
>>> TokenizerKoMecab()("안녕하세요")  # doctest: +SKIP
'안녕 하 세요'
"""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from refscore.errors import InputTypeError
from refscore.text.external import TOKENIZER_EXTRAS, get_tokenizer


class ExternalTokenizer(BaseTokenizer):
    """A sacreBLEU tokenizer class run by :func:`refscore.text.external.get_tokenizer` ``(key)``: its ``__call__``
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


class MecabTokenizer(ExternalTokenizer):
    """sacreBLEU's MeCab tokenizer classes (``TokenizerJaMecab``, ``TokenizerKoMecab``): created without
    arguments, like sacreBLEU's; each subclass names its refscore tokenizer in ``_key``."""

    _key: str

    def __init__(self) -> None:
        super().__init__(self._key)


def install_hint(language: str, key: str) -> str:
    """sacreBLEU's ``FAIL_MESSAGE`` of the tokenizer ``key`` for ``language``, naming refscore's extra (sacreBLEU's
    names its own).

    >>> print(install_hint("Korean", "ko-mecab").strip())
    Korean tokenization requires extra dependencies, but you do not have them installed.
    Please install them like so.
    <BLANKLINE>
        pip install 'refscore[ko]'
    """
    return (f"\n{language} tokenization requires extra dependencies, but you do not have them installed.\n"
            f"Please install them like so.\n\n    pip install 'refscore[{TOKENIZER_EXTRAS[key]}]'\n")
