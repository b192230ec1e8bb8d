"""Word and character alignments of many (reference, hypothesis) pairs: hits, substitutions, deletions, insertions
and, when asked, the opcodes, from the compiled core's bit-parallel Levenshtein kernel (``_levenshtein``), which
picks the same optimal alignment as RapidFuzz 3's ``Levenshtein.opcodes`` (and so jiwer 4).

The tokenizations are jiwer 4's default transforms (:func:`jiwer_words`: ``RemoveMultipleSpaces``, ``Strip``,
``ReduceToListOfListOfWords``; :func:`jiwer_characters`: ``Strip``) and torchmetrics' (``str.split()`` words,
every character unstripped).

>>> counts = align_words([["the", "cat", "sat"]], [["the", "cat", "sit", "down"]])
>>> counts.tolist()   # hits, substitutions, deletions, insertions
[[2, 1, 0, 1]]
>>> align_characters(["kitten"], ["sitting"]).tolist()
[[4, 2, 0, 1]]
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["OPCODE_NAMES", "SPLITS", "align_characters", "align_text_words", "align_token_ids", "align_words",
           "jiwer_characters", "jiwer_words", "word_ids"]

#: The names of the opcode types (the first column of the chunks), RapidFuzz's.
OPCODE_NAMES = ("equal", "replace", "insert", "delete")

#: The word splits :func:`align_text_words` does in the kernel: jiwer 4's default transform, ``str.split()``.
SPLITS = ("jiwer", "whitespace")

_MULTIPLE_SPACES = re.compile(r"\s\s+")


def jiwer_words(text: str) -> list[str]:
    """jiwer 4's ``wer_default`` words of one text: runs of whitespace become one space (``\\s\\s+``), the ends
    are stripped, the text is split at spaces (a lone tab or newline stays inside its word, as in jiwer).

    >>> jiwer_words("  a  b\\tc \\n d ")
    ['a', 'b\\tc', 'd']
    """
    return [word for word in _MULTIPLE_SPACES.sub(" ", text).strip().split(" ") if word]


def jiwer_characters(text: str) -> str:
    """jiwer 4's ``cer_default`` characters of one text: the text stripped (spaces inside count).

    >>> jiwer_characters(" a b ")
    'a b'
    """
    return text.strip()


def word_ids(references: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[str]]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each distinct word one integer (references first, as jiwer's ``_word2int``): ``(ref_ids, ref_offsets,
    hyp_ids, hyp_offsets)``, int64, the words of sequence ``p`` at ``ids[offsets[p]:offsets[p + 1]]``."""
    vocabulary: defaultdict[str, int] = defaultdict()
    vocabulary.default_factory = vocabulary.__len__   # the next id for a word not seen yet
    out = []
    for sequences in (references, hypotheses):
        lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
        offsets = np.zeros(len(sequences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        ids = np.fromiter((vocabulary[word] for sequence in sequences for word in sequence), dtype=np.int64,
                          count=int(offsets[-1]))
        out += [ids, offsets]
    return out[0], out[1], out[2], out[3]


def align_token_ids(ref_ids: np.ndarray, ref_offsets: np.ndarray, hyp_ids: np.ndarray, hyp_offsets: np.ndarray,
                    *, chunks: bool = False, num_threads: int | None = None) -> Any:
    """The kernel over token-id sequences: an ``(n, 4)`` int64 array of hits, substitutions, deletions, insertions;
    with ``chunks``, ``(counts, opcodes, opcode_offsets)``: ``opcodes`` rows ``(type, ref_start, ref_end,
    hyp_start, hyp_end)`` (type indexes :data:`OPCODE_NAMES`), pair ``p``'s at ``opcode_offsets[p]:[p + 1]``."""
    from refscore._core import _levenshtein

    return _levenshtein.align_ids(np.ascontiguousarray(ref_ids, dtype=np.int64),
                                  np.ascontiguousarray(ref_offsets, dtype=np.int64),
                                  np.ascontiguousarray(hyp_ids, dtype=np.int64),
                                  np.ascontiguousarray(hyp_offsets, dtype=np.int64), chunks, num_threads)


def align_words(references: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[str]], *, chunks: bool = False,
                num_threads: int | None = None) -> Any:
    """:func:`align_token_ids` of word lists (each pair a reference's words and a hypothesis's)."""
    if len(references) != len(hypotheses):
        raise ValueError(f"align_words: {len(references)} references for {len(hypotheses)} hypotheses")
    return align_token_ids(*word_ids(references, hypotheses), chunks=chunks, num_threads=num_threads)


def align_characters(references: Sequence[str], hypotheses: Sequence[str], *, chunks: bool = False,
                     num_threads: int | None = None) -> Any:
    """:func:`align_token_ids` over the code points of strings (given as they are: no transform)."""
    from refscore._core import _levenshtein

    return _levenshtein.align_text(list(references), list(hypotheses), chunks, num_threads)


def align_text_words(references: Sequence[str], hypotheses: Sequence[str], *, split: str = "jiwer",
                     chunks: bool = False, num_threads: int | None = None) -> Any:
    """:func:`align_words` of texts split into words by the kernel (``split``: ``"jiwer"``, the words of
    :func:`jiwer_words`; ``"whitespace"``, ``str.split()``): an ``(n, 6)`` array, the four counts then the
    reference's and the hypothesis's word counts (and the opcodes with ``chunks``).

    >>> align_text_words(["a  b\\tc"], ["a b c"]).tolist()
    [[1, 1, 0, 1, 2, 3]]
    """
    from refscore._core import _levenshtein

    mode = {"jiwer": _levenshtein.SPLIT_JIWER, "whitespace": _levenshtein.SPLIT_WHITESPACE}[split]
    return _levenshtein.align_words_text(list(references), list(hypotheses), mode, chunks, num_threads)
