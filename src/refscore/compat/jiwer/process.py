"""jiwer 4.0's ``jiwer.process``: ``process_words`` / ``process_characters`` and their result objects, on
refscore's Levenshtein kernel (the alignment RapidFuzz's ``Levenshtein.opcodes`` gives, which jiwer counts).

>>> out = process_words(["the cat sat"], ["the cat sit down"])
>>> out.wer, out.hits, out.substitutions, out.insertions, out.deletions
(0.6666666666666666, 2, 1, 1, 0)
>>> out.alignments[0][1]
AlignmentChunk(type='insert', ref_start_idx=2, ref_end_idx=2, hyp_start_idx=2, hyp_end_idx=3)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from refscore.compat.jiwer import transforms as tr
from refscore.compat.jiwer.transformations import cer_default, wer_default
from refscore.metrics.edit_alignment import (OPCODE_NAMES, align_characters, align_text_words, align_words,
                                              jiwer_words)

__all__ = ["AlignmentChunk", "WordOutput", "CharacterOutput", "process_words", "process_characters"]

_Transform = Union[tr.Compose, tr.AbstractTransform]
_CHUNK_TYPES = ["replace", "insert", "delete", "equal", "substitute"]


@dataclass
class AlignmentChunk:
    """One run of the alignment: ``type`` (``equal``, ``substitute``, ``insert``, ``delete``) over
    ``reference[ref_start_idx:ref_end_idx]`` and ``hypothesis[hyp_start_idx:hyp_end_idx]``."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self) -> None:
        if self.type not in _CHUNK_TYPES:
            raise ValueError("")
        if self.type == "replace":   # RapidFuzz's name; jiwer's is "substitute"
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


@dataclass
class WordOutput:
    """The word-level alignment of one or more sentence pairs and its measures (jiwer's ``WordOutput``)."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """The character-level alignment of one or more sentence pairs and its CER (jiwer's ``CharacterOutput``)."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


_TYPE_NAMES = tuple("substitute" if name == "replace" else name for name in OPCODE_NAMES)


def _chunk(type_index: int, i1: int, i2: int, j1: int, j2: int) -> AlignmentChunk:
    """An AlignmentChunk of the kernel's (valid) values, without re-checking them."""
    chunk = object.__new__(AlignmentChunk)
    chunk.__dict__.update(type=_TYPE_NAMES[type_index], ref_start_idx=i1, ref_end_idx=i2, hyp_start_idx=j1,
                          hyp_end_idx=j2)
    return chunk


def _is_list_of_list_of_strings(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(e, list) and all(isinstance(s, str) for s in e) for e in x)


def _apply_transform(sentence: Any, transform: _Transform, is_reference: bool) -> list[list[str]]:
    transformed = transform(sentence)
    if not _is_list_of_list_of_strings(transformed):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings.")
    return transformed


def _words(sentences: Any, transform: _Transform, is_reference: bool) -> list[list[str]]:
    """The transform's words; jiwer's default transform without its three passes (same lists)."""
    if transform is wer_default and isinstance(sentences, list) and all(isinstance(s, str) for s in sentences):
        return [jiwer_words(s) for s in sentences] if sentences else [[]]
    return _apply_transform(sentences, transform, is_reference)


def _check_lengths(refs: list[Any], hyps: list[Any]) -> None:
    if len(refs) != len(hyps):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, their lengths must match. "
            f"Instead got {len(refs)} reference and {len(hyps)} hypothesis sentences.")


def _measures(h: int, s: int, d: int, i: int, n_ref: int, n_hyp: int) -> tuple[Any, Any, Any, Any]:
    """jiwer's (wer, mer, wil, wip) of the totals, its empty-reference rules and types included."""
    wer: Any
    mer: Any
    wip: Any
    if n_ref == 0:
        wer = i
        mer, wip = (0, 1) if n_hyp == 0 else (1, 0)
    else:
        wer = float(s + d + i) / float(h + s + d)
        mer = float(s + d + i) / float(h + s + d + i)
        wip = (float(h) / n_ref) * (float(h) / n_hyp) if n_hyp >= 1 else 0
    return wer, mer, 1 - wip, wip


def _align(refs: list[list[str]] | list[str], hyps: list[list[str]] | list[str], characters: bool,
           alignments: bool) -> tuple[list[list[AlignmentChunk]], list[int], int, int]:
    """(alignments, [H, S, D, I] totals, reference length, hypothesis length) of the pairs."""
    align = align_characters if characters else align_words
    result = align(refs, hyps, chunks=alignments)   # type: ignore[arg-type]  # strings or word lists
    counts = result[0] if alignments else result
    totals = [int(v) for v in counts.sum(axis=0)] if len(counts) else [0, 0, 0, 0]
    chunks: list[list[AlignmentChunk]] = []
    if alignments:
        rows, offsets = result[1].tolist(), result[2].tolist()
        chunks = [[_chunk(*row) for row in rows[offsets[p]:offsets[p + 1]]] for p in range(len(offsets) - 1)]
    return chunks, totals, sum(map(len, refs)), sum(map(len, hyps))


def _process_words(reference: Any, hypothesis: Any, reference_transform: _Transform,
                   hypothesis_transform: _Transform, alignments: bool) -> WordOutput:
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    if (not alignments and reference_transform is wer_default and hypothesis_transform is wer_default
            and isinstance(reference, list) and isinstance(hypothesis, list) and reference and hypothesis
            and all(isinstance(x, str) for x in reference) and all(isinstance(x, str) for x in hypothesis)):
        # the measures alone: the kernel splits jiwer's default words itself (no word lists in Python)
        _check_lengths(reference, hypothesis)
        counts = align_text_words(reference, hypothesis)
        h, s, d, i, n_ref, n_hyp = (int(v) for v in counts.sum(axis=0))
        wer, mer, wil, wip = _measures(h, s, d, i, n_ref, n_hyp)
        return WordOutput(references=[], hypotheses=[], alignments=[], wer=wer, mer=mer, wil=wil, wip=wip,
                          hits=h, substitutions=s, insertions=i, deletions=d)
    refs = _words(reference, reference_transform, True)
    hyps = _words(hypothesis, hypothesis_transform, False)
    _check_lengths(refs, hyps)
    chunks, (h, s, d, i), n_ref, n_hyp = _align(refs, hyps, False, alignments)
    wer, mer, wil, wip = _measures(h, s, d, i, n_ref, n_hyp)
    return WordOutput(references=refs, hypotheses=hyps, alignments=chunks, wer=wer, mer=mer, wil=wil, wip=wip,
                      hits=h, substitutions=s, insertions=i, deletions=d)


def process_words(reference: str | list[str], hypothesis: str | list[str],
                  reference_transform: _Transform = wer_default,
                  hypothesis_transform: _Transform = wer_default) -> WordOutput:
    """The word-level alignment and measures of one or more reference and hypothesis sentences (totals over
    all pairs; an empty reference: WER is the insertion count, as jiwer defines it).

    >>> process_words("a b", "a c").wer
    0.5
    """
    return _process_words(reference, hypothesis, reference_transform, hypothesis_transform, True)


def _process_characters(reference: Any, hypothesis: Any, reference_transform: _Transform,
                        hypothesis_transform: _Transform, alignments: bool) -> CharacterOutput:
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    default = (reference_transform is cer_default and hypothesis_transform is cer_default
               and isinstance(reference, list) and isinstance(hypothesis, list)
               and all(isinstance(x, str) for x in reference) and all(isinstance(x, str) for x in hypothesis))
    if default and reference and hypothesis:
        # the default transform's characters are the stripped strings' code points: the kernel reads them as is
        ref_texts, hyp_texts = [r.strip() for r in reference], [h.strip() for h in hypothesis]
        _check_lengths(ref_texts, hyp_texts)
        chunks, (h, s, d, i), n_ref, n_hyp = _align(ref_texts, hyp_texts, True, alignments)
        refs = [list(r) for r in ref_texts] if alignments else []
        hyps = [list(x) for x in hyp_texts] if alignments else []
    else:
        refs = _apply_transform(reference, reference_transform, True)
        hyps = _apply_transform(hypothesis, hypothesis_transform, False)
        _check_lengths(refs, hyps)
        chunks, (h, s, d, i), n_ref, n_hyp = _align(refs, hyps, False, alignments)
    cer = _measures(h, s, d, i, n_ref, n_hyp)[0]
    return CharacterOutput(references=refs, hypotheses=hyps, alignments=chunks, cer=cer, hits=h,
                           substitutions=s, insertions=i, deletions=d)


def process_characters(reference: str | list[str], hypothesis: str | list[str],
                       reference_transform: _Transform = cer_default,
                       hypothesis_transform: _Transform = cer_default) -> CharacterOutput:
    """The character-level alignment and CER of one or more reference and hypothesis sentences (spaces count).

    >>> process_characters("abc", "abd").cer
    0.3333333333333333
    """
    return _process_characters(reference, hypothesis, reference_transform, hypothesis_transform, True)
