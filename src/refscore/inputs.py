"""Validation and normalisation of hypotheses and references, done once per call before any kernel runs.

refscore's reference layout is **per segment**: ``references[i]`` is a string (one reference) or a list of
strings (several references, the count may vary between segments). sacreBLEU's *reference streams*
(``refs[k][i]`` = k-th reference of segment i) convert with :func:`from_streams`.

Some input reads both ways: ``n >= 2`` segments, every ``references[i]`` a list of exactly ``n`` references,
and ``references[i][k] != references[k][i]`` somewhere (where they are all equal, both readings are the same
references). Such input is refused (:func:`check_unambiguous`) unless it is marked with its layout:
:func:`from_streams` for streams, :func:`per_segment` for per-segment lists.

Hypotheses and references may also be **token ids** (a sequence of ints or a 1-D integer numpy array per
segment); tokenization is skipped for them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore._core._batch import text_batch_layout
from refscore.errors import InputError, InputTypeError

__all__ = [
    "Batch", "SegmentReferences", "as_token_ids", "check_hypotheses", "check_references", "check_unambiguous",
    "from_streams", "is_token_id_sequence", "per_segment", "prepare_batch",
]


@dataclass(frozen=True)
class Batch:
    """A validated batch: hypotheses, the flattened references and where each segment's references start.

    ``references[ref_offsets[i]:ref_offsets[i + 1]]`` are the references of segment ``i``.
    Items are ``str`` or, when ``is_token_ids``, contiguous ``int64`` numpy arrays.
    """

    hypotheses: list[Any]
    references: list[Any]
    ref_offsets: np.ndarray
    is_token_ids: bool

    def __len__(self) -> int:
        return len(self.hypotheses)

    @property
    def refs_per_segment(self) -> np.ndarray:
        return np.diff(self.ref_offsets)

    @property
    def nrefs(self) -> int:
        """References per segment, or -1 when the count varies (sacreBLEU's ``nrefs:var``)."""
        offsets = self.ref_offsets
        segments = len(offsets) - 1
        if segments <= 0:
            return 1
        first = int(offsets[1] - offsets[0])
        if int(offsets[-1]) != first * segments:
            return -1
        return first if segments == 1 or bool(np.all(np.diff(offsets) == first)) else -1

    def segment_references(self, index: int) -> list[Any]:
        return self.references[self.ref_offsets[index]:self.ref_offsets[index + 1]]


class SegmentReferences(list):
    """References marked as refscore's per-segment layout (made by :func:`per_segment` or :func:`from_streams`),
    so the ambiguity check is skipped. A slice keeps the mark (chunked scoring slices references)."""

    def __getitem__(self, index: Any) -> Any:
        item = list.__getitem__(self, index)
        return SegmentReferences(item) if isinstance(index, slice) else item


def per_segment(references: Sequence[Any]) -> list[Any]:
    """Mark ``references`` as per-segment (``references[i]``: the reference or list of references of segment
    ``i``), for input that could also be read as reference streams (see :func:`check_unambiguous`).

    >>> import refscore
    >>> hyps = ["the cat sat", "a dog ran"]
    >>> refs = [["the cat sat", "a cat sat"], ["a dog ran", "the dog ran"]]
    >>> round(refscore.chrf(hyps, refscore.per_segment(refs)).score, 4)
    1.0
    """
    try:
        _check_sequence(references, "references")
    except InputTypeError:
        # not a sequence: the metric's own check reports it under the caller's argument name
        return references  # type: ignore[return-value]  # passed on as given
    return SegmentReferences(references)


def _is_int_like(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_token_id_sequence(value: Any) -> bool:
    """True for a 1-D integer numpy array or a list/tuple whose items are all ints (an empty list counts)."""
    if isinstance(value, np.ndarray):
        return value.ndim == 1 and (value.dtype.kind in "iu" or value.size == 0)
    if isinstance(value, (list, tuple)):
        return all(_is_int_like(v) for v in value)
    return False


def as_token_ids(value: Any, where: str) -> np.ndarray:
    """Convert one token-id sequence to a contiguous int64 array, with an error naming ``where``."""
    array = np.ascontiguousarray(np.asarray(value, dtype=np.int64) if not isinstance(value, np.ndarray)
                                 else value.astype(np.int64, copy=False))
    if array.ndim != 1:
        raise InputError(f"{where} must be a 1-D sequence of token ids, got an array of shape {array.shape}")
    return array


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _not_str_hint(value: Any) -> str:
    """How to fix an item that is neither a string nor accepted token ids."""
    if value is None:
        return "replace None by an empty string ''"
    if hasattr(value, "tolist"):  # numpy arrays, torch tensors
        return ("text must be str; token ids must be a list of ints or a 1-D integer numpy array (e.g. "
                "tensor.tolist() or array.astype(np.int64))")
    return "convert it to str"


def _check_sequence(value: Any, name: str) -> None:
    if isinstance(value, Mapping):
        raise InputTypeError(f"{name} must be a list with one item per segment, got a {type(value).__name__} "
                             f"(its keys would be read as the segments); pass list({name}.values()) if the "
                             f"values are the segments, in order")
    if isinstance(value, Set):
        raise InputTypeError(f"{name} must be a list with one item per segment, got a {type(value).__name__}, "
                             f"which has no order; pass a list")
    if isinstance(value, (str, bytes)):
        raise InputTypeError(
            f"{name} must be a list with one item per segment, got a single {type(value).__name__}; "
            f"wrap it in a list: [{_describe(value)}]"
        )
    if value is None or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        raise InputTypeError(f"{name} must be a sequence (list, tuple) with one item per segment, "
                             f"got {type(value).__name__}")


def check_hypotheses(hypotheses: Any, *, name: str = "hypotheses", allow_token_ids: bool = True,
                     allow_empty_corpus: bool = False) -> tuple[list[Any], bool]:
    """Validate hypotheses; return them as a list and whether they are token ids."""
    _check_sequence(hypotheses, name)
    items = list(hypotheses)
    if not items and not allow_empty_corpus:
        raise InputError(f"{name} is empty: give at least one segment")
    if not items:
        return items, False
    token_ids = not isinstance(items[0], str) and is_token_id_sequence(items[0])
    if token_ids and not allow_token_ids:
        raise InputTypeError(f"{name}[0] is a sequence of token ids, but this metric is defined on text only; "
                             f"pass strings")
    for index, item in enumerate(items):
        if token_ids:
            if isinstance(item, str) or not is_token_id_sequence(item):
                raise InputTypeError(
                    f"{name}[{index}] is {_describe(item)} ({type(item).__name__}), but {name}[0] is a sequence "
                    f"of token ids; give every segment as token ids, or every segment as a string")
            items[index] = as_token_ids(item, f"{name}[{index}]")
        elif not isinstance(item, str):
            hint = _not_str_hint(item)
            raise InputTypeError(f"{name}[{index}] is {_describe(item)} ({type(item).__name__}), expected str; {hint}")
    return items, token_ids


def _looks_like_streams(references: Sequence[Any], n_segments: int) -> bool:
    if len(references) == 0 or len(references) == n_segments:
        return False
    first = references[0]
    return (isinstance(first, (list, tuple)) and len(first) == n_segments
            and all(isinstance(stream, (list, tuple)) and len(stream) == n_segments for stream in references))


def check_references(references: Any, n_segments: int, *, token_ids: bool, name: str = "references",
                     hyp_name: str = "hypotheses") -> tuple[list[Any], np.ndarray]:
    """Validate per-segment references; return the flat list and the int64 segment offsets."""
    _check_sequence(references, name)
    if len(references) != n_segments:
        if _looks_like_streams(references, n_segments):
            raise InputError(
                f"{name} looks like {len(references)} reference stream(s) of {n_segments} segments each "
                f"(sacreBLEU layout refs[k][i]); refscore expects per-segment references, references[i] = "
                f"[ref_1, ref_2, ...] (or one string). Convert with refscore.from_streams({name})")
        raise InputError(f"{hyp_name} has {n_segments} segments but {name} has {len(references)}; give one "
                         f"entry (a reference or a list of references) per hypothesis")
    flat: list[Any] = []
    offsets = np.zeros(n_segments + 1, dtype=np.int64)
    for index, entry in enumerate(references):
        where = f"{name}[{index}]"
        if token_ids:
            if is_token_id_sequence(entry):
                group = [entry]
            elif isinstance(entry, (list, tuple)) and entry and all(is_token_id_sequence(r) for r in entry):
                group = list(entry)
            else:
                raise InputTypeError(f"{where} is {_describe(entry)}; with token-id hypotheses each reference "
                                     f"entry must be token ids or a non-empty list of token-id sequences")
            flat.extend(as_token_ids(r, f"{where}[{k}]") for k, r in enumerate(group))
        elif isinstance(entry, str):
            flat.append(entry)
        elif isinstance(entry, (list, tuple)):
            if not entry:
                raise InputError(f"{where} is an empty list: every segment needs at least one reference")
            for k, ref in enumerate(entry):
                if not isinstance(ref, str):
                    if isinstance(ref, (list, tuple)) and n_segments == 1:
                        raise InputTypeError(
                            f"{where}[{k}] is a list; nested reference lists look like reference streams; "
                            f"convert them with refscore.from_streams({name})")
                    hint = _not_str_hint(ref)
                    raise InputTypeError(f"{where}[{k}] is {_describe(ref)} ({type(ref).__name__}), expected str; "
                                         f"{hint}")
            flat.extend(entry)
        else:
            hint = "replace None by an empty string ''" if entry is None else "give a string or a list of strings"
            raise InputTypeError(f"{where} is {_describe(entry)} ({type(entry).__name__}); {hint}")
        offsets[index + 1] = len(flat)
    return flat, offsets


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def _preview(rows: list[Any]) -> str:
    return "; ".join(f"segment {i}: {_describe(list(row))}" for i, row in enumerate(rows[:2])) + \
        ("; ..." if len(rows) > 2 else "")


def check_unambiguous(references: Sequence[Any], ref_offsets: np.ndarray, name: str = "references") -> None:
    """Refuse references that read differently as per-segment lists and as reference streams.

    Ambiguous: ``n >= 2`` segments, each with exactly ``n`` references given as a list, and
    ``references[i][k] != references[k][i]`` for some ``i, k``. One segment, a varying count, a count other than
    ``n``, or a symmetric square (both readings give the same references) is never refused. Cost: O(1) unless
    every count equals ``n``.

    >>> import numpy as np
    >>> check_unambiguous([["a", "b"], ["c", "d"]], np.array([0, 2, 4]))
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: references can be read two ways: ...
    """
    n = len(ref_offsets) - 1
    if n < 2 or int(ref_offsets[-1]) != n * n or not bool(np.all(np.diff(ref_offsets) == n)):
        return
    if all(_same(references[i][k], references[k][i]) for i in range(n) for k in range(i + 1, n)):
        return
    streams = [[references[k][i] for k in range(n)] for i in range(n)]
    raise InputError(
        f"{name} can be read two ways: {n} segments with {n} references each. Per segment (refscore's layout, "
        f"{name}[i][k] = reference k of segment i): {_preview(list(references))}. As sacreBLEU reference streams "
        f"({name}[k][i] = reference k of segment i): {_preview(streams)}. Say which: pass "
        f"refscore.from_streams({name}) for streams, or refscore.per_segment({name}) for per-segment lists")


def prepare_batch(hypotheses: Any, references: Any, *, allow_token_ids: bool = True,
                  hyp_name: str = "hypotheses", ref_name: str = "references") -> Batch:
    """Validate a (hypotheses, references) pair once, for any metric (text in the common layout is checked by
    the compiled :func:`~refscore._core._batch.text_batch_layout`; everything else, and every error, here).
    References not marked by :func:`per_segment` / :func:`from_streams` must be unambiguous
    (:func:`check_unambiguous`)."""
    marked = isinstance(references, SegmentReferences)
    if marked:
        references = list(references)  # the compiled fast path takes exact lists
    layout = text_batch_layout(hypotheses, references)
    if layout is not None:
        batch = Batch(*layout, is_token_ids=False)
    else:
        hyps, token_ids = check_hypotheses(hypotheses, name=hyp_name, allow_token_ids=allow_token_ids)
        refs, offsets = check_references(references, len(hyps), token_ids=token_ids, name=ref_name,
                                         hyp_name=hyp_name)
        batch = Batch(hyps, refs, offsets, token_ids)
    if not marked:
        check_unambiguous(references, batch.ref_offsets, ref_name)
    return batch


def from_streams(streams: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Convert sacreBLEU-style reference streams (``streams[k][i]``) to per-segment lists (``refs[i][k]``).

    ``None`` entries (a segment without a k-th reference, sacreBLEU's variable reference count) are dropped.
    The result is marked per-segment (as by :func:`per_segment`), so metrics never ask about its layout.

    >>> from_streams([["a b", "c d"], ["a c", None]])
    [['a b', 'a c'], ['c d']]
    """
    _check_sequence(streams, "streams")
    if len(streams) == 0:
        raise InputError("streams is empty: give at least one reference stream")
    lengths = []
    for k, stream in enumerate(streams):
        if isinstance(stream, str):
            raise InputTypeError(f"streams[{k}] is a string; each stream must be a list with one reference per "
                                 f"segment (wrap a single stream in a list: [stream])")
        _check_sequence(stream, f"streams[{k}]")
        lengths.append(len(stream))
    if len(set(lengths)) != 1:
        raise InputError(f"reference streams have different lengths {lengths}; every stream needs one entry per "
                         f"segment (None where a segment has no such reference)")
    segments = SegmentReferences()
    if not any(None in stream for stream in streams):   # the usual case: C-speed transposition
        segments.extend(map(list, zip(*streams)))
        return segments
    for i in range(lengths[0]):
        refs = [stream[i] for stream in streams if stream[i] is not None]
        if not refs:
            raise InputError(f"segment {i} has no reference in any stream (all None)")
        segments.append(refs)
    return segments
