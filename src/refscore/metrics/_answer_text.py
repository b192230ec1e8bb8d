"""Answer-text normalisation and token overlap behind exact match and SQuAD (metric internals, pure Python).

Two normalisations, each reproducing its peer to the character:

- SQuAD's (the official v1.1 / v2.0 scripts, as Hugging Face ``evaluate``'s ``squad`` / ``squad_v2`` run them):
  lowercase (``str.lower``), delete every ``string.punctuation`` character, replace the words ``a``, ``an``,
  ``the`` (``re``'s Unicode ``\\b`` boundaries) by a space, split on whitespace (``str.split``).
- ``evaluate``'s ``exact_match``: ``regexes_to_ignore`` removed first (``re.sub``), then lowercase, punctuation and
  digits deleted, each on a numpy ``str_`` array: numpy drops trailing NUL characters and gives every element of
  ``np.char.lower``'s result the input array's width, so a text whose lowercase is longer (``"İ"`` has two code
  points in lowercase) is cut at the width of the longest text of its side of the batch. :func:`exact_match_texts`
  does the same with plain strings (the cut only for the drop-in: refscore's own metric compares whole texts, so a
  segment's score never depends on the other segments).

Why Python and not the compiled core: both normalisations are defined by CPython's ``str.lower``, ``str.split``,
``re``'s Unicode word boundaries (and, for ``regexes_to_ignore``, any user regex); the string methods are the C
implementations the peers run, so each text costs a few C calls, and the token multiset overlap is a ``Counter``
intersection of a handful of words (docs/exact-match.md).

>>> squad_tokens("The Cat, sat on a mat!")
['cat', 'sat', 'on', 'mat']
>>> squad_f1(squad_tokens("the cat sat"), squad_tokens("a cat sat down"), version="1.1")
0.8
"""
from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

#: deletes ``string.punctuation`` (the 32 ASCII punctuation characters), as both peers do; a regex is three
#: times faster than their ``str.translate`` / character loop on non-ASCII text
_PUNCTUATION_RUNS = re.compile("[" + re.escape(string.punctuation) + "]+")
_DIGIT_RUNS = re.compile("[0-9]+")   # string.digits: ASCII only
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def squad_tokens(text: str) -> list[str]:
    """The words of SQuAD's ``normalize_answer(text)`` (its result is ``" ".join`` of them)."""
    return _ARTICLES.sub(" ", _PUNCTUATION_RUNS.sub("", text.lower())).split()


def squad_f1(prediction: Sequence[str], gold: Sequence[str], *, version: str) -> float:
    """SQuAD's token F1 of two token lists; version ``"2.0"`` scores two empty lists 1 and one empty list 0
    (``compute_f1``), version ``"1.1"`` scores any pair without a common token 0 (``f1_score``).

    >>> squad_f1([], [], version="2.0"), squad_f1([], [], version="1.1")
    (1, 0)
    """
    if version == "2.0" and (not gold or not prediction):
        return int(list(gold) == list(prediction))
    same = common_tokens(prediction, gold)
    if same == 0:
        return 0
    precision = 1.0 * same / len(prediction)
    recall = 1.0 * same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def common_tokens(prediction: Sequence[str], gold: Sequence[str]) -> int:
    """The size of the multiset intersection (``sum((Counter(p) & Counter(g)).values())``, without building the
    intersection).

    >>> common_tokens(["a", "a", "b"], ["a", "c", "a", "a"])
    2
    """
    left = Counter(gold)
    same = 0
    for word in prediction:
        count = left.get(word, 0)
        if count:
            left[word] = count - 1
            same += 1
    return same


def exact_match_texts(texts: Sequence[str], regexes_to_ignore: Sequence[str], ignore_case: bool,
                      ignore_punctuation: bool, ignore_numbers: bool, *, numpy_widths: bool = False) -> list[str]:
    """``evaluate``'s ``exact_match`` normalisation of one side (all predictions, or all references) of a batch.
    ``numpy_widths=True`` also cuts each lowercased text at numpy's array width (evaluate's exact output, which
    depends on the other texts of the batch); refscore's metric keeps the whole lowercase.

    >>> exact_match_texts(["İİ", "abc"], (), True, False, False, numpy_widths=True)   # width 3: the longest input
    ['i̇i', 'abc']
    >>> exact_match_texts(["İİ", "abc"], (), True, False, False)
    ['i̇i̇', 'abc']
    """
    width = max(map(len, texts), default=0)   # np.asarray's itemsize: trailing NULs count, then are dropped
    out = [text.rstrip("\x00") for text in texts]
    for pattern in regexes_to_ignore:
        out = [re.sub(pattern, "", text) for text in out]   # np.array(...) again: a new width
        width = max(map(len, out), default=0)
        out = [text.rstrip("\x00") for text in out]
    if ignore_case:
        cut = width if numpy_widths else None
        out = [text.lower()[:cut].rstrip("\x00") for text in out]
    if ignore_punctuation:
        out = [_PUNCTUATION_RUNS.sub("", text).rstrip("\x00") for text in out]
    if ignore_numbers:
        out = [_DIGIT_RUNS.sub("", text).rstrip("\x00") for text in out]
    return out
