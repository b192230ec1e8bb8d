"""rouge-score's ``tokenize`` module: ``tokenize(text, stemmer)`` and its patterns, with rouge-score's tokens
(the compiled rouge-score tokenizer, then ``stemmer.stem`` on tokens longer than 3 characters, as rouge-score).

>>> tokenize("The U.S. state-of-the-art!", None)
['the', 'u', 's', 'state', 'of', 'the', 'art']
"""
from __future__ import annotations

import re
from typing import Any

from refscore.compat.rouge_score.tokenizers import DefaultTokenizer

__all__ = ["NON_ALPHANUM_PATTERN", "NON_ALPHANUM_RE", "SPACES_PATTERN", "SPACES_RE", "VALID_TOKEN_PATTERN",
           "VALID_TOKEN_RE", "tokenize"]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

_UNSTEMMED = DefaultTokenizer(use_stemmer=False)


def tokenize(text: str, stemmer: Any) -> list[str]:
    """Lowercase, split on non-``[a-z0-9]`` runs, stem tokens longer than 3 characters with ``stemmer`` (an object
    with ``stem(word)``, or None)."""
    tokens = _UNSTEMMED.tokenize(text)
    if stemmer:
        tokens = [stemmer.stem(token) if len(token) > 3 else token for token in tokens]
        tokens = [token for token in tokens if VALID_TOKEN_RE.match(token)]   # a stem could be empty
    return tokens
