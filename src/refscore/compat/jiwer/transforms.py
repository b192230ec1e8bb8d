"""jiwer 4.0's ``jiwer.transforms``: the building blocks that turn sentences into lists of words or characters.

Same classes, arguments and results as jiwer's (a composition for WER ends with :class:`ReduceToListOfListOfWords`,
one for CER with :class:`ReduceToListOfListOfChars`).

>>> Compose([RemoveMultipleSpaces(), Strip(), ReduceToListOfListOfWords()])(["  hi  there ", ""])
[['hi', 'there'], []]
"""
from __future__ import annotations

import functools
import re
import string
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "AbstractTransform", "Compose", "ExpandCommonEnglishContractions", "RemoveEmptyStrings",
    "ReduceToListOfListOfWords", "ReduceToListOfListOfChars", "ReduceToSingleSentence", "RemoveKaldiNonWords",
    "RemoveMultipleSpaces", "RemovePunctuation", "RemoveSpecificWords", "RemoveWhiteSpace", "Strip",
    "SubstituteRegexes", "SubstituteWords", "ToLowerCase", "ToUpperCase",
]


class AbstractTransform:
    """The base class of a transform: a string goes to :meth:`process_string`, a list to :meth:`process_list`."""

    def __call__(self, sentences: str | list[str]) -> Any:
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str) -> Any:
        raise NotImplementedError()

    def process_list(self, inp: list[str]) -> Any:
        return [self.process_string(s) for s in inp]


class Compose:
    """Transforms applied one after the other."""

    def __init__(self, transforms: list[AbstractTransform]) -> None:
        self.transforms = transforms

    def __call__(self, text: Any) -> Any:
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Replaces each of ``tokens_to_remove`` (substrings, in order) by ``replace_token``."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = "") -> None:
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str) -> str:
        for token in self.tokens_to_remove:
            s = s.replace(token, self.replace_token)
        return s

    def process_list(self, inp: list[str]) -> list[str]:
        return [self.process_string(s) for s in inp]


class ReduceToListOfListOfWords(AbstractTransform):
    """Each sentence to its list of words (split at ``word_delimiter``, empty pieces dropped); no sentence at all
    gives one empty sentence."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> list[list[str]]:
        return [[w for w in s.split(self.word_delimiter) if len(w) >= 1]]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        sentences = [self.process_string(sentence)[0] for sentence in inp]
        return sentences if sentences else [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    """Each sentence to its list of characters; no sentence at all gives one empty sentence."""

    def process_string(self, s: str) -> list[list[str]]:
        return [list(s)]

    def process_list(self, inp: list[str]) -> list[list[str]]:
        sentences = [self.process_string(sentence)[0] for sentence in inp]
        return sentences if sentences else [[]]


class ReduceToSingleSentence(AbstractTransform):
    """The non-empty sentences joined by ``word_delimiter`` into one (none: no sentence)."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> str:
        return s

    def process_list(self, inp: list[str]) -> list[str]:
        kept = [s for s in inp if len(s) >= 1]
        return [f"{self.word_delimiter}".join(kept)] if kept else []


class SubstituteRegexes(AbstractTransform):
    """``re.sub(pattern, replacement, s)`` for each item of ``substitutions``, in order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for pattern, replacement in self.substitutions.items():
            s = re.sub(pattern, replacement, s)
        return s


class SubstituteWords(AbstractTransform):
    """Whole words (``\\bword\\b``) replaced, for each item of ``substitutions`` in order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for word, replacement in self.substitutions.items():
            s = re.sub(r"\b{}\b".format(re.escape(word)), replacement, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Whole words replaced by a space."""

    def __init__(self, words_to_remove: list[str]) -> None:
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """``string.whitespace`` characters removed (or replaced by a space)."""

    def __init__(self, replace_by_space: bool = False) -> None:
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


@functools.lru_cache(1)
def _get_punctuation_characters() -> set[str]:
    """Every code point of a Unicode punctuation category (P*)."""
    return {chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")}


class RemovePunctuation(BaseRemoveTransform):
    """Unicode punctuation (categories P*) removed."""

    def __init__(self) -> None:
        super().__init__(_get_punctuation_characters())


class RemoveMultipleSpaces(AbstractTransform):
    """Runs of two or more whitespace characters (``\\s\\s+``) become one space."""

    def process_string(self, s: str) -> str:
        return re.sub(r"\s\s+", " ", s)

    def process_list(self, inp: list[str]) -> list[str]:
        return [self.process_string(s) for s in inp]


class Strip(AbstractTransform):
    """Leading and trailing whitespace removed (``str.strip``)."""

    def process_string(self, s: str) -> str:
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """Sentences that are empty after stripping are dropped from a list."""

    def process_string(self, s: str) -> str:
        return s.strip()

    def process_list(self, inp: list[str]) -> list[str]:
        return [s for s in inp if self.process_string(s) != ""]


_CONTRACTIONS = ((r"won't", "will not"), (r"can\'t", "can not"), (r"let\'s", "let us"), (r"n\'t", " not"),
                 (r"\'re", " are"), (r"\'s", " is"), (r"\'d", " would"), (r"\'ll", " will"), (r"\'t", " not"),
                 (r"\'ve", " have"), (r"\'m", " am"))


class ExpandCommonEnglishContractions(AbstractTransform):
    """English contractions expanded (``won't`` to ``will not``, ``'re`` to `` are``, ...), in jiwer's order."""

    def process_string(self, s: str) -> str:
        for pattern, replacement in _CONTRACTIONS:
            s = re.sub(pattern, replacement, s)
        return s


class ToLowerCase(AbstractTransform):
    """``str.lower``."""

    def process_string(self, s: str) -> str:
        return s.lower()


class ToUpperCase(AbstractTransform):
    """``str.upper``."""

    def process_string(self, s: str) -> str:
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    """Kaldi non-words (``<unk>``, ``[laughter]``) removed."""

    def process_string(self, s: str) -> str:
        return re.sub(r"[<\[][^>\]]*[>\]]", "", s)
