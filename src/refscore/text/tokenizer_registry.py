"""Every word tokenizer refscore has, in one registry, by family (the peer whose tokens it reproduces):

- ``"sacrebleu"``: sacreBLEU 2.6's tokenizers, the words BLEU, GLEU and TER count: the compiled ones (``13a``,
  ``intl``, ``zh``, ``char``, ``none``: they run inside the kernels of ``refscore._core``) and the ones that run
  MeCab or SentencePiece (:mod:`refscore.text.external`: ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``,
  ``flores200``, ``spBLEU-1K``);
- ``"huggingface"``: ``13a-unstripped``, the copy of 13a in Hugging Face ``evaluate``'s ``bleu`` and
  ``google_bleu`` scripts (the line as given: sacreBLEU's BLEU strips trailing whitespace first);
- ``"rouge"``: ROUGE's own (:mod:`refscore.text.rouge_words`): ``rouge-score`` (rouge-score's default) and
  ``unicode`` (letters, marks and digits of every script); both take ``stemmer=True``;
- ``"nltk"``: METEOR's: ``whitespace`` (``str.split``, the token lists NLTK users pass) and ``word_tokenize``
  (NLTK's ``word_tokenize(text, preserve_line=True)``, Hugging Face ``evaluate``'s ``meteor``,
  :mod:`refscore.text.word_tokenize`).

:func:`get_tokenizer` gives a tokenizer as a function ``str -> list[str]``: exactly the tokens its metric counts
(a sacreBLEU tokenizer's output string split on spaces). A metric takes its tokenizer from here by the name in its
config, and lists the names it accepts with :func:`tokenizers` of its family.

>>> tokenizers()[:5]
('13a', 'intl', 'zh', 'char', 'none')
>>> tokenizers("nltk")
('whitespace', 'word_tokenize')
>>> get_tokenizer("13a")("Hello, world!")
['Hello', ',', 'world', '!']
>>> get_tokenizer("rouge-score", stemmer=True)("Hello, running world!")
['hello', 'run', 'world']
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from refscore._core._tokenize import TOKENIZERS, encode_words_with_vocab
from refscore.checks import check_bool, check_choice
from refscore.errors import InputError, InputTypeError
from refscore.text.external import EXTERNAL_TOKENIZERS, tokenize_texts
from refscore.text.external import get_tokenizer as get_external_tokenizer
from refscore.text.unicode_tables import check_intl_tables

#: The tokenizers of the compiled core (every word n-gram metric accepts them).
COMPILED_TOKENIZERS: tuple[str, ...] = TOKENIZERS
#: Hugging Face ``evaluate``'s 13a (compiled too; no metric offers it by name: the ``evaluate`` flavors use it).
HF_13A = "13a-unstripped"

Tokenizer = Callable[[str], list[str]]


class TokenizerEntry(NamedTuple):
    """One registered tokenizer: its ``family`` (see the module), whether it takes ``stemmer=True``, and
    ``make(stemmer, spm_model)`` -> the tokenizer."""

    family: str
    stems: bool
    make: Callable[[bool, str | os.PathLike[str] | None], Tokenizer]


def _compiled(name: str) -> Callable[[bool, object], Tokenizer]:
    def make(stemmer: bool, spm_model: object) -> Tokenizer:
        check_intl_tables(name)
        return lambda line: _compiled_tokens(name, line)
    return make


def _external(name: str) -> Callable[[bool, str | os.PathLike[str] | None], Tokenizer]:
    def make(stemmer: bool, spm_model: str | os.PathLike[str] | None) -> Tokenizer:
        external = get_external_tokenizer(name, spm_model=spm_model)
        return lambda line: external(_checked_line(name, line)).split()
    return make


def _rouge_score(stemmer: bool, spm_model: object) -> Tokenizer:
    from refscore.text.rouge_words import rouge_score_tokens   # ROUGE's tokenizers load when asked for

    return lambda text: rouge_score_tokens(_checked_line("rouge-score", text), stemmer=stemmer)


def _unicode(stemmer: bool, spm_model: object) -> Tokenizer:
    from refscore.text.rouge_words import UnicodeWordTokenizer

    return UnicodeWordTokenizer(stemmer)


def _word_tokenize(stemmer: bool, spm_model: object) -> Tokenizer:
    from refscore.text.word_tokenize import word_tokenize   # compiles NLTK's rules: only when asked for

    return lambda text: word_tokenize(_checked_line("word_tokenize", text))


def _whitespace(stemmer: bool, spm_model: object) -> Tokenizer:
    return lambda text: _checked_line("whitespace", text).split()


_REGISTRY: dict[str, TokenizerEntry] = {
    **{name: TokenizerEntry("sacrebleu", False, _compiled(name)) for name in COMPILED_TOKENIZERS},
    **{name: TokenizerEntry("sacrebleu", False, _external(name)) for name in EXTERNAL_TOKENIZERS},
    HF_13A: TokenizerEntry("huggingface", False, _compiled(HF_13A)),
    "rouge-score": TokenizerEntry("rouge", True, _rouge_score),
    "unicode": TokenizerEntry("rouge", True, _unicode),
    "whitespace": TokenizerEntry("nltk", False, _whitespace),
    "word_tokenize": TokenizerEntry("nltk", False, _word_tokenize),
}
#: The families, in the registry's order.
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(entry.family for entry in _REGISTRY.values()))

__all__ = ["COMPILED_TOKENIZERS", "EXTERNAL_TOKENIZERS", "FAMILIES", "HF_13A", "Tokenizer", "get_tokenizer",
           "interned_words", "stems", "tokenizers"]


def tokenizers(family: str | None = None) -> tuple[str, ...]:
    """Every tokenizer name :func:`get_tokenizer` accepts (sacreBLEU's first), or those of one family of
    :data:`FAMILIES`.

    >>> tokenizers("rouge")
    ('rouge-score', 'unicode')
    """
    if family is not None:
        check_choice(family, "family", FAMILIES, owner="tokenizers")
    return tuple(name for name, entry in _REGISTRY.items() if family in (None, entry.family))


def stems(name: str) -> bool:
    """Whether tokenizer ``name`` takes ``stemmer=True`` (ROUGE's: Porter stemming is English-only).

    >>> stems("unicode"), stems("ja-mecab")
    (True, False)
    """
    return _entry(name, "stems").stems


def get_tokenizer(name: str, *, stemmer: bool = False,
                  spm_model: str | os.PathLike[str] | None = None) -> Tokenizer:
    """The tokenizer ``name`` (one of :func:`tokenizers`) as ``text -> tokens``. ``stemmer``: Porter-stem as
    rouge-score does (the ``"rouge"`` family only); ``spm_model``: a SentencePiece model file to use instead of
    sacreBLEU's (SentencePiece tokenizers only). An unknown name is an error listing the names; MeCab and
    SentencePiece need their extras (the error names the install command).

    >>> get_tokenizer("char")("ab c")
    ['a', 'b', 'c']
    >>> get_tokenizer("word_tokenize")("Can't stop.")
    ['Ca', "n't", 'stop', '.']
    """
    entry = _entry(name, "get_tokenizer")
    if stemmer is not False and check_bool(stemmer, "stemmer", owner="get_tokenizer") and not entry.stems:
        stemming = ", ".join(repr(other) for other in _REGISTRY if _REGISTRY[other].stems)
        raise InputError(f"get_tokenizer: stemmer=True cannot be used with {name!r}: stemming is English-only "
                         f"(NLTK's Porter stemmer), for {stemming}; use stemmer=False")
    return entry.make(stemmer, spm_model)


def interned_words(texts: Sequence[str], tokenizer: str = "13a", *, lowercase: bool = False,
                   spm_model: str | os.PathLike[str] | None = None, num_threads: int | None = None
                   ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The words sacreBLEU's BLEU counts in every text (``tokenizer``: a ``"sacrebleu"`` name of
    :func:`tokenizers`; ``lowercase``: ``str.lower`` before tokenizing, as sacreBLEU), interned: ``(ids uint32,
    offsets int64, vocabulary)``, the words of text ``i`` being ``vocabulary[k] for k in ids[offsets[i]:offsets[i +
    1]]``.

    >>> ids, offsets, vocabulary = interned_words(["Hi, you.", "you"], lowercase=True)
    >>> [vocabulary[k] for k in ids.tolist()], offsets.tolist()
    (['hi', ',', 'you', '.', 'you'], [0, 4, 5])
    """
    check_choice(tokenizer, "tokenizer", tokenizers("sacrebleu"), owner="interned_words")
    check_intl_tables(tokenizer)
    texts = list(texts)
    if tokenizer in EXTERNAL_TOKENIZERS:   # MeCab / SentencePiece: their tokens joined by spaces, then split
        texts = tokenize_texts(tokenizer, texts, lowercase=lowercase, spm_model=spm_model)
        tokenizer, lowercase = "none", False
    return encode_words_with_vocab(texts, tokenizer=tokenizer, lowercase=lowercase, num_threads=num_threads)


def _entry(name: str, owner: str) -> TokenizerEntry:
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        check_choice(name, "tokenize", tuple(_REGISTRY), owner=owner)  # raises: not a registered name
    return entry  # type: ignore[return-value]  # check_choice raised above


def _checked_line(name: str, line: object) -> str:
    if not isinstance(line, str):
        raise InputTypeError(f"tokenizer {name!r}: the line to tokenize must be a str, got {type(line).__name__}")
    return line


def _compiled_tokens(name: str, line: str) -> list[str]:
    ids, _, vocabulary = encode_words_with_vocab([_checked_line(name, line)], tokenizer=name, lowercase=False,
                                                 num_threads=1)
    return [vocabulary[i] for i in ids.tolist()]
