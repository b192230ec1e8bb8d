"""ROUGE's tokenizers for every language, from the tokenizer registry (:mod:`refscore.text.tokenizer_registry`):
``"unicode"`` (letters, marks and digits of every script, :class:`refscore.text.rouge_words.UnicodeWordTokenizer`)
and sacreBLEU's ``ja-mecab``, ``ko-mecab``, ``flores101``/``spm``, ``flores200`` and ``spBLEU-1K``
(:mod:`refscore.text.external`), whose tokens ROUGE lowercases.

Each is an object with rouge-score's tokenizer interface (``tokenize(text) -> list[str]``), so
``rouge_scorer.RougeScorer(types, tokenizer=rouge_tokenizer("unicode"))`` gives rouge-score's numbers for the same
tokens; :func:`tokenize_documents` tokenizes a batch as rouge-score does (whole texts; for ROUGE-Lsum each
newline-separated sentence on its own), each distinct text once.

>>> rouge_tokenizer("unicode").tokenize("Ünïcode, हिन्दी और ไทย: 日本語 2024!")
['ünïcode', 'हिन्दी', 'और', 'ไทย', '日', '本', '語', '2024']
>>> rouge_tokenizer("unicode", stemmer=True).tokenize("running तेज़")
['run', 'तेज़']
"""
from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence
from typing import cast

from refscore.errors import InputError
from refscore.metrics.rouge.config import TOKENIZERS, check_stemmer
from refscore.text.external import EXTERNAL_TOKENIZERS, tokenize_texts, tokenizer_signature
from refscore.text.rouge_words import UnicodeWordTokenizer, word_characters
from refscore.text.tokenizer_registry import get_tokenizer


class SacrebleuWordTokenizer:
    """sacreBLEU's tokenizer ``name`` for ROUGE: the registry's tokens of ``text.rstrip()``, each lowercased
    (tokens are found on the original text, then compared case-insensitively as rouge-score does); on many texts
    every distinct one is tokenized once, on all threads."""

    splits_at_newlines = False

    def __init__(self, name: str, spm_model: str | os.PathLike[str] | None = None) -> None:
        self.name = name
        self.spm_model = spm_model
        self._tokenizer = get_tokenizer(name, spm_model=spm_model)

    def tokenize(self, text: str) -> list[str]:
        return [token.lower() for token in self._tokenizer(text.rstrip())]

    def tokenize_many(self, texts: Sequence[str], num_threads: int = 1) -> list[list[str]]:
        lines = tokenize_texts(self.name, texts, num_threads=num_threads, spm_model=self.spm_model)
        return [line.lower().split() for line in lines]

    def signature(self) -> str:
        return tokenizer_signature(self.name, spm_model=self.spm_model)


def rouge_tokenizer(name: str, *, stemmer: bool = False, spm_model: str | os.PathLike[str] | None = None
                    ) -> UnicodeWordTokenizer | SacrebleuWordTokenizer:
    """The tokenizer object of ROUGE tokenizer ``name`` (not ``"rouge-score"``, which runs in the kernel)."""
    if name == "unicode":
        return cast(UnicodeWordTokenizer, get_tokenizer(name, stemmer=stemmer))
    if name not in EXTERNAL_TOKENIZERS:
        raise InputError(f"tokenizer must be one of {', '.join(TOKENIZERS)}, got {name!r}")
    check_stemmer(stemmer, name)
    return SacrebleuWordTokenizer(name, spm_model)


def tokenize_documents(tokenizer: UnicodeWordTokenizer | SacrebleuWordTokenizer, texts: Sequence[str],
                       sentence_texts: Sequence[str] | None, num_threads: int
                       ) -> tuple[list[list[str]], list[list[list[str]]] | None]:
    """The tokens of every text and, when ``sentence_texts`` is given (ROUGE-Lsum), of each non-empty line of
    ``sentence_texts[k]``, as rouge-score tokenizes them; each distinct string is tokenized once."""
    slot_of: dict[str, int] = {}
    lines = None
    if sentence_texts is not None:
        lines = [[slot_of.setdefault(line, len(slot_of)) for line in text.split("\n") if line]
                 for text in sentence_texts]
    from_lines = lines is not None and tokenizer.splits_at_newlines and sentence_texts == texts
    whole = [] if from_lines else [slot_of.setdefault(text, len(slot_of)) for text in texts]
    tokens = tokenizer.tokenize_many(list(slot_of), num_threads)
    sentences = None if lines is None else [[tokens[slot] for slot in text] for text in lines]
    if from_lines:     # the tokenizer never joins across a newline: the whole text's tokens are its lines'
        return [[token for sentence in text for token in sentence]
                for text in sentences], sentences  # type: ignore[union-attr]  # from_lines: lines given
    return [tokens[slot] for slot in whole], sentences


#: The ASCII characters for which ``str.isspace()`` is true.
_ASCII_SPACES = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def dropped_share(texts: Sequence[str]) -> float:
    """The share of the non-space characters of ``texts`` that are letters, digits or marks outside ASCII (which
    rouge-score's tokenizer drops): 0 for ASCII text.

    >>> dropped_share(["abc", "домик"])
    0.625
    """
    others = [text for text in texts if not text.isascii()]
    if not others:
        return 0.0
    # every pass below runs in C over one joined string; only the distinct characters are classified in Python
    other_text = "\n".join(others)
    distinct = set(other_text)
    kept = word_characters({ch for ch in distinct if not ch.isascii()})
    # subn counts without a str object per match (findall made one per non-Latin-1 character: ~80 bytes each)
    dropped = re.compile(f"[{kept}]").subn("", other_text)[1] if kept else 0
    if not dropped:
        return 0.0
    spaces = sum(other_text.count(ch) for ch in distinct if ch.isspace())
    ascii_bytes = "".join([text for text in texts if text.isascii()]).encode("ascii")
    non_space = len(other_text) - spaces + len(ascii_bytes.translate(None, _ASCII_SPACES))
    return dropped / non_space


#: A batch larger than 4 x this many texts is first estimated on this many of them.
DROPPED_SAMPLE = 2000


def share_if_mostly_dropped(texts: Sequence[str]) -> float | None:
    """:func:`dropped_share` of ``texts`` when it is over one half, else None.

    A large batch is first estimated on :data:`DROPPED_SAMPLE` texts drawn with a fixed seed (drawn, not evenly
    spaced, so that no periodic order of the texts can hide a script); only an estimate over 0.35 costs the
    exact share of every text. A batch whose share is over one half gives an estimate under 0.35 with a
    negligible probability, and the exact pass over every text is what made the check cost a fifth of a ROUGE call.

    >>> share_if_mostly_dropped(["abc", "домик"]), share_if_mostly_dropped(["abcde", "дом"])
    (0.625, None)
    """
    if len(texts) > 4 * DROPPED_SAMPLE:
        sample = random.Random(0).sample(range(len(texts)), DROPPED_SAMPLE)
        if dropped_share([texts[index] for index in sample]) <= 0.35:
            return None
    share = dropped_share(texts)
    return share if share > 0.5 else None
