"""Validation and normalisation of hypotheses and references, done once per call before any kernel runs.

refscore's reference layout is **per segment**: ``references[i]`` is a string (one reference) or a list of
strings (several references, the count may vary between segments). sacreBLEU's *reference streams*
(``refs[k][i]`` = k-th reference of segment i) convert with :func:`from_streams`.

Hypotheses and references may also be **token ids** (a sequence of ints or a 1-D integer numpy array per
segment); tokenization is skipped for them.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from refscore._core._batch import text_batch_layout
from refscore.errors import InputError, InputTypeError

TokenIds = Union[Sequence[int], np.ndarray]
Text = str
Hypotheses = Union[Sequence[str], Sequence[TokenIds]]
References = Union[Sequence[Union[str, Sequence[str]]], Sequence[Union[TokenIds, Sequence[TokenIds]]]]


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


def prepare_batch(hypotheses: Any, references: Any, *, allow_token_ids: bool = True,
                  hyp_name: str = "hypotheses", ref_name: str = "references") -> Batch:
    """Validate a (hypotheses, references) pair once, for any metric (text in the common layout is checked by
    the compiled :func:`~refscore._core._batch.text_batch_layout`; everything else, and every error, here)."""
    layout = text_batch_layout(hypotheses, references)
    if layout is not None:
        return Batch(*layout, is_token_ids=False)
    hyps, token_ids = check_hypotheses(hypotheses, name=hyp_name, allow_token_ids=allow_token_ids)
    refs, offsets = check_references(references, len(hyps), token_ids=token_ids, name=ref_name,
                                     hyp_name=hyp_name)
    return Batch(hyps, refs, offsets, token_ids)


def from_streams(streams: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Convert sacreBLEU-style reference streams (``streams[k][i]``) to per-segment lists (``refs[i][k]``).

    ``None`` entries (a segment without a k-th reference, sacreBLEU's variable reference count) are dropped.

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
    per_segment: list[list[str]] = []
    for i in range(lengths[0]):
        refs = [stream[i] for stream in streams if stream[i] is not None]
        if not refs:
            raise InputError(f"segment {i} has no reference in any stream (all None)")
        per_segment.append(refs)
    return per_segment
