"""ROUGE-1.5.5.pl's text handling, reproduced exactly: its input formats, its ``-l``/``-b`` length limits
(``readText`` and ``readText_LCS``, on UTF-8 bytes), and the bundled ``-s``/``-m`` data (SMART stopwords, WordNet-2.0
exceptions), compiled once into the reader of :mod:`refscore._core._rouge155_text`, which turns the texts into the
CSR token-id arrays of :mod:`refscore._core._rouge155` in one call (tokens, stopword removal, stemming).

>>> wordnet_exceptions()["geese"]
'goose'
>>> perl_split(b" a  b ")
[b'', b'a', b'b']
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable
from importlib import resources

import numpy as np

from refscore._core._rouge155_text import LoneSurrogate, ScriptText
from refscore._offsets import offsets_from_lengths
from refscore.errors import InputError
from refscore.io.limits import check_line_lengths, read_file_within_budget

# --- bundled data -------------------------------------------------------------------------------------------

_DATA_PACKAGE = "refscore"
#: WordNet 2.0 exception lists in the order the script's WordNet-2.0.exc.db was built (later files win; the
#: first base form of a line is used).
_EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")


def _data_text(name: str) -> str:
    return (resources.files(_DATA_PACKAGE) / "data" / "rouge155" / name).read_text(encoding="ascii")


@lru_cache(maxsize=1)
def wordnet_exceptions() -> dict[str, str]:
    """Inflected form -> base form, as the WordNet-2.0.exc.db that ``-m`` looks up before Porter stemming."""
    table: dict[str, str] = {}
    for name in _EXCEPTION_FILES:
        for line in _data_text(name).splitlines():
            parts = line.split()
            if len(parts) >= 2:
                table[parts[0]] = parts[1]
    return table


@lru_cache(maxsize=1)
def smart_stopwords() -> frozenset[bytes]:
    """The SMART stopword list (``smart_common_words.txt``) removed by ``-s``."""
    return frozenset(line.encode("ascii") for line in _data_text("smart_common_words.txt").split("\n") if line)


# --- reading and tokenizing ---------------------------------------------------------------------------------
_SEE_LINE = (re.compile(rb'^<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
             re.compile(rb'^<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'))
_ISI_LINE = re.compile(rb'^<S SNTNO="[0-9a-z,]+">([^<]+)</S>')


def read_summary(path: str | os.PathLike[str], input_format: str = "SPL") -> str:
    """A summary file in one of ROUGE-1.5.5's input formats (``-z`` / ``INPUT-FORMAT``), as refscore text:
    its sentences joined by newlines. ``SPL``: one sentence per line; ``SEE``: the sentences of the
    ``<a name=..>[k]</a> <a href=.. id=..>sentence`` lines; ``ISI``: ``<S SNTNO="..">sentence</S>`` lines.
    Bytes that are not UTF-8 are kept (``surrogateescape``), so ``-b`` byte counts stay those of the file. The file
    is read within the read budget (:mod:`refscore.io.limits`: its bytes and each line's).
    """
    data = read_file_within_budget(path)
    check_line_lengths(data, os.fspath(path))
    kind = input_format.strip().upper()
    if kind == "SPL":
        sentences = data.split(b"\n")
    elif kind == "SEE":
        sentences = []
        for line in data.split(b"\n"):
            match = _SEE_LINE[0].match(line) or _SEE_LINE[1].match(line)
            if match:
                sentences.append(match.group(2))
    elif kind == "ISI":
        sentences = [m.group(1) for line in data.split(b"\n") if (m := _ISI_LINE.match(line))]
    else:
        raise InputError(f"input_format must be 'SPL', 'SEE' or 'ISI' (ROUGE-1.5.5's text formats), "
                         f"got {input_format!r}")
    return b"\n".join(sentences).decode("utf-8", errors="surrogateescape")

_WHITESPACE = re.compile(rb"\s+")  # Perl's \s on bytes: [ \t\n\x0b\f\r]


def perl_split(sentence: bytes) -> list[bytes]:
    """Perl's ``split(/\\s+/, $s)``: a leading empty field is kept, trailing empty fields are dropped."""
    fields = _WHITESPACE.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def encode_utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; bytes kept by ``surrogateescape`` decoding come back unchanged."""
    return text.encode("utf-8", errors="surrogateescape")


def read_text(lines: list[bytes], word_limit: int, byte_limit: int) -> bytes:
    """``readText``: the text used for n-grams, skip-bigrams and unigram clipping counts (``-l``/``-b`` cut)."""
    if not word_limit and not byte_limit:
        return b" ".join(lines)
    pieces: list[bytes] = []
    used = 0
    for line in lines:
        if word_limit:
            fields = perl_split(line)
            size = len(fields)
            if used + size < word_limit:
                pieces.append(b" " + line if used != 0 else line)
                used += size
                continue
            pieces.append((b" " if used > 0 else b"") + b" ".join(fields[:word_limit - used]))
        else:
            size = len(line)
            if used + size < byte_limit:
                pieces.append(b" " + line if used != 0 else line)
                used += size
                continue
            pieces.append((b" " if used > 0 else b"") + line[:byte_limit - used])
        break
    return b"".join(pieces)


def read_text_units(lines: list[bytes], word_limit: int, byte_limit: int) -> list[bytes]:
    """``readText_LCS``: the sentence units used by ROUGE-L and ROUGE-W.

    Quirk kept from the script: with ``-b`` the running byte count is never updated, so every sentence shorter
    than the limit is kept whole until the first one that is not, which is cut to the limit.
    """
    if not word_limit and not byte_limit:
        return lines
    units: list[bytes] = []
    used = 0
    for line in lines:
        if word_limit:
            fields = perl_split(line)
            if used + len(fields) < word_limit:
                used += len(fields)
                units.append(line)
                continue
            units.append(b" ".join(fields[:word_limit - used]))
        else:
            if len(line) < byte_limit:
                units.append(line)
                continue
            units.append(line[:byte_limit])
        break
    return units


@lru_cache(maxsize=1)
def script_text() -> ScriptText:
    """The script's ``-s`` and ``-m`` data compiled once per process (the stopwords and the exception table)."""
    exceptions = {k.encode("ascii"): v.encode("ascii") for k, v in wordnet_exceptions().items()}
    return ScriptText(sorted(smart_stopwords()), exceptions)


@dataclass
class EncodedTexts:
    """CSR token ids of many texts: flat tokens (``readText``) and sentence units (``readText_LCS``)."""

    flat_tokens: np.ndarray
    flat_offsets: np.ndarray
    unit_tokens: np.ndarray
    unit_offsets: np.ndarray
    text_units: np.ndarray


def _lone_surrogate(describe: Callable[[int], str], index: int, text: str, position: int) -> InputError:
    return InputError(f"{describe(index)} contains the lone surrogate {text[position]!r} at character {position}, "
                      f"which has no UTF-8 form; remove it or decode the source text with errors='surrogateescape'")


def _checked_utf8(texts: list[str], describe: Callable[[int], str]) -> list[bytes]:
    try:
        return [encode_utf8(text) for text in texts]
    except UnicodeEncodeError:
        for index, text in enumerate(texts):
            try:
                encode_utf8(text)
            except UnicodeEncodeError as exc:
                raise _lone_surrogate(describe, index, text, exc.start) from None
        raise


def _limited_chunks(texts: list[str], word_limit: int, byte_limit: int,
                    describe: Callable[[int], str]) -> tuple[list[bytes], list[bytes], list[int]]:
    """The sentence units (``readText_LCS``) and flat texts (``readText``) that ``-l``/``-b`` keep, cut on the
    texts' UTF-8 bytes as the script cuts them."""
    unit_chunks: list[bytes] = []
    flat_chunks: list[bytes] = []
    units_per_text: list[int] = []
    for text in _checked_utf8(texts, describe):
        lines = [line for line in text.split(b"\n") if line]
        units = read_text_units(lines, word_limit, byte_limit)
        unit_chunks.extend(units)
        units_per_text.append(len(units))
        flat_chunks.append(read_text(lines, word_limit, byte_limit))
    return unit_chunks, flat_chunks, units_per_text


def encode_texts(texts: list[str], *, stemming: bool, remove_stopwords: bool, word_limit: int = 0,
                 byte_limit: int = 0, describe: Callable[[int], str] = lambda i: f"text {i}") -> EncodedTexts:
    """Tokenize texts (sentences separated by newlines) the way ROUGE-1.5.5 reads SPL files, with ``-s``
    (``remove_stopwords``) and ``-m`` (``stemming``).

    The texts go to the compiled reader in one call (lines, tokens, stopwords, stems); only with ``-l``/``-b``
    are the script's length-limit rules applied here first, to the texts' UTF-8 bytes, and the cut bytes go to
    the same reader.

    >>> encoded = encode_texts(["The cats\\n\\nran", "cat"], stemming=True, remove_stopwords=True)
    >>> encoded.flat_tokens.tolist(), encoded.flat_offsets.tolist(), encoded.unit_offsets.tolist()
    ([0, 1, 0], [0, 2, 3], [0, 1, 2, 3])
    """
    units_per_text: Iterable[int] | np.ndarray   # a list under the limits, else the reader's array
    if word_limit or byte_limit:
        units, flats, units_per_text = _limited_chunks(texts, word_limit, byte_limit, describe)
        tokens, unit_lengths, _ = script_text().tokenize_bytes(units + flats, False, stemming, remove_stopwords)
        offsets = offsets_from_lengths(unit_lengths)
        n_units = len(units)
        return EncodedTexts(np.ascontiguousarray(tokens[offsets[n_units]:]),
                            np.ascontiguousarray(offsets[n_units:] - offsets[n_units]),
                            tokens[:offsets[n_units]], np.ascontiguousarray(offsets[:n_units + 1]),
                            offsets_from_lengths(units_per_text))
    try:
        tokens, unit_lengths, units_per_text = script_text().tokenize(texts, True, stemming, remove_stopwords)
    except LoneSurrogate as exc:
        raise _lone_surrogate(describe, exc.text_index, texts[exc.text_index], exc.position) from None
    offsets = offsets_from_lengths(unit_lengths)
    text_units = offsets_from_lengths(units_per_text)  # readText's text is the concatenation of the units
    return EncodedTexts(tokens, np.ascontiguousarray(offsets[text_units]), tokens, offsets, text_units)
