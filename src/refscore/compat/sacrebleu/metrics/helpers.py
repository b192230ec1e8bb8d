"""sacreBLEU's ``metrics.helpers``: word and character n-gram counters (the same ``Counter`` keys and counts).

>>> extract_word_ngrams(["a", "b", "a", "b"], 2)
Counter({'a b': 2, 'b a': 1})
>>> extract_char_ngrams("ab a", 2)
Counter({'ab': 1, 'ba': 1})
"""
from __future__ import annotations

from collections import Counter

__all__ = ["extract_all_char_ngrams", "extract_all_word_ngrams", "extract_char_ngrams", "extract_word_ngrams"]


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> tuple[Counter, int]:
    """All word n-grams (tuples) of orders ``min_order..max_order`` of the whitespace-split ``line``, and its
    number of tokens."""
    tokens = line.split()
    ngrams = [tuple(tokens[i:i + n]) for n in range(min_order, max_order + 1) for i in range(len(tokens) - n + 1)]
    return Counter(ngrams), len(tokens)


def extract_word_ngrams(tokens: list[str], n: int) -> Counter:
    """The order-``n`` n-grams of ``tokens``, each joined by one space."""
    return Counter([" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter:
    """The order-``n`` character n-grams of ``line`` (whitespace removed unless ``include_whitespace``)."""
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i:i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> list[Counter]:
    """Character n-gram counters of orders ``1..max_order``."""
    if not include_whitespace:
        line = "".join(line.split())
    return [Counter([line[i:i + n] for i in range(len(line) - n + 1)]) for n in range(1, max_order + 1)]
