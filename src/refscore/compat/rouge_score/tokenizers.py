"""rouge-score's ``tokenizers`` module: ``Tokenizer`` (ABC) and ``DefaultTokenizer`` (compiled)."""
from __future__ import annotations

import abc

import numpy as np

from refscore._core import _rouge


class Tokenizer(abc.ABC):
    """Abstract base class for a tokenizer: subclasses implement ``tokenize(text) -> list[str]``."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer: lowercase, ASCII ``[a-z0-9]`` runs, optional NLTK Porter stemming of
    tokens longer than 3 characters.

    >>> DefaultTokenizer(use_stemmer=True).tokenize("U.S. state-of-the-art running")
    ['u', 's', 'state', 'of', 'the', 'art', 'run']
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        return _rouge.tokenize_texts([text], _rouge.TOKENIZERS["rouge-score"], self.use_stemmer,
                                     np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.uint8))[0]
