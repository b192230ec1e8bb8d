"""From user input to word n-gram statistics, shared by the word n-gram metrics (BLEU, GLEU).

Text goes straight to the compiled kernels that tokenize and count in one pass (:func:`ngram_statistics`).
Token ids, and callers that need the ids themselves, use the word-id layout (:func:`prepare_word_ids`): the
hypotheses and the flattened references encoded in **one** call, so equal tokens get equal ids across hypotheses
and references. Text ``t`` of that layout is ``ids[offsets[t]:offsets[t + 1]]``; texts ``0 .. n-1`` are the
hypotheses and text ``n + j`` is ``batch.references[j]``.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from refscore._core._ngrams import bleu_statistics, bleu_text_statistics, gleu_statistics, gleu_text_statistics
from refscore._core._tokenize import encode_words
from refscore.inputs import Batch, prepare_batch
from refscore.checks import check_choice
from refscore._memory import check_table_within_budget
from refscore._offsets import concatenate
from refscore.errors import InputError
from refscore.text.tokenizer_registry import COMPILED_TOKENIZERS, EXTERNAL_TOKENIZERS
from refscore.text.unicode_tables import check_intl_tables

#: sacreBLEU 2.6's word tokenizers that refscore implements token for token (the compiled ones of the registry
#: :mod:`refscore.text.tokenizer_registry`; BLEU accepts its MeCab / SentencePiece names too).
WORD_TOKENIZERS: tuple[str, ...] = COMPILED_TOKENIZERS

_UINT32_LIMIT = 1 << 32

__all__ = ["WORD_TOKENIZERS", "check_tokenizer", "count_ngrams", "encode_batch", "ngram_statistics",
           "prepare_word_ids"]


def check_tokenizer(owner: str, tokenize: Any, *, external: tuple[str, ...] = ()) -> None:
    """Raise a clear error unless ``tokenize`` names one of :data:`WORD_TOKENIZERS` or of ``external`` (the
    :mod:`refscore.text.tokenizer_registry` names ``owner`` accepts)."""
    extra = (f"{tokenize!r} (MeCab / SentencePiece) is available to BLEU only"
             if isinstance(tokenize, str) and tokenize in EXTERNAL_TOKENIZERS and tokenize not in external else "")
    check_choice(tokenize, "tokenize", WORD_TOKENIZERS + external, owner=owner, hint=extra)
    check_intl_tables(tokenize)


def _token_id_layout(texts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Token-id segments as one uint32 array; ids outside uint32 are interned first (equal ids stay equal)."""
    flat, offsets = concatenate(texts, np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= _UINT32_LIMIT):
        # The kernels count uint32 ids; the ids' ranks keep equal ids equal and distinct ids distinct.
        flat = np.unique(flat, return_inverse=True)[1].reshape(-1)
    return flat.astype(np.uint32), offsets


def encode_batch(batch: Batch, *, tokenize: str, lowercase: bool,
                 num_threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Word ids of a batch's hypotheses followed by its references: ``(ids uint32, offsets int64)``."""
    texts = batch.hypotheses + batch.references
    if batch.is_token_ids:
        if lowercase:
            raise InputError("lowercase=True applies to text; token-id input is used as given (set "
                             "lowercase=False, or pass strings)")
        return _token_id_layout(texts)
    return encode_words(texts, tokenizer=tokenize, lowercase=lowercase, num_threads=num_threads)


def prepare_word_ids(hypotheses: Any, references: Any, *, tokenize: str, lowercase: bool,
                     num_threads: int | None = None) -> tuple[Batch, np.ndarray, np.ndarray]:
    """Validate a batch and encode it: ``(batch, ids, offsets)``."""
    batch = prepare_batch(hypotheses, references, allow_token_ids=True)
    ids, offsets = encode_batch(batch, tokenize=tokenize, lowercase=lowercase, num_threads=num_threads)
    return batch, ids, offsets


_ID_KERNELS: dict[str, Callable[..., np.ndarray]] = {"bleu": bleu_statistics, "gleu": gleu_statistics}
_TEXT_KERNELS: dict[str, Callable[..., np.ndarray]] = {"bleu": bleu_text_statistics, "gleu": gleu_text_statistics}


def check_bleu_table(segments: int, max_order: int) -> None:
    """Refuse BLEU statistics (``2 + 2 x max_order`` int64 columns a segment) over the memory budget, before the
    kernel allocates them."""
    columns = 2 + 2 * max_order
    check_table_within_budget(segments, columns, f"BLEU statistics of {segments:,} segments with max_order="
                              f"{max_order} ({columns:,} columns)", hint="or lower max_order")


def ngram_statistics(kernel: str, hypotheses: Any, references: Any, *, tokenize: str, lowercase: bool,
                     orders: tuple[int, ...], num_threads: int | None = None) -> tuple[Batch, np.ndarray]:
    """Validate a batch and count its per-segment n-gram statistics with the ``"bleu"`` or ``"gleu"`` kernel
    (``orders``: its order arguments): ``(batch, int64 rows)``. Text is tokenized and counted in one compiled
    pass; token ids are remapped and counted."""
    batch = prepare_batch(hypotheses, references, allow_token_ids=True)
    if kernel == "bleu":
        check_bleu_table(len(batch.hypotheses), orders[0])
    if batch.is_token_ids:
        ids, offsets = encode_batch(batch, tokenize=tokenize, lowercase=lowercase, num_threads=num_threads)
        return batch, _ID_KERNELS[kernel](ids, offsets, batch.ref_offsets, *orders, num_threads=num_threads)
    return batch, _TEXT_KERNELS[kernel](batch.hypotheses, batch.references, batch.ref_offsets, tokenize,
                                        lowercase, *orders, num_threads=num_threads)


def count_ngrams(kernel: str, ids: np.ndarray, offsets: np.ndarray, ref_offsets: np.ndarray, *,
                 orders: tuple[int, ...], num_threads: int | None = None) -> np.ndarray:
    """Per-segment int64 rows of the ``"bleu"`` kernel (``hyp_len, ref_len, matches.., totals..``; ``orders``:
    ``(max_order,)``) or the ``"gleu"`` kernel (``matches, n_all`` of the best reference; ``orders``:
    ``(min_len, max_len)``) on words already interned, in the word-id layout of the module docstring
    (``ref_offsets[i]..ref_offsets[i + 1]`` are segment i's references among the texts after the hypotheses).

    >>> ids, offsets, ref_offsets = np.array([0, 1, 0, 2], np.uint32), np.array([0, 2, 4]), np.array([0, 1])
    >>> count_ngrams("gleu", ids, offsets, ref_offsets, orders=(1, 2)).tolist()   # 1 of 3 n-grams match
    [[1, 3]]
    """
    check_choice(kernel, "kernel", tuple(_ID_KERNELS), owner="count_ngrams")
    return _ID_KERNELS[kernel](ids, offsets, ref_offsets, *orders, num_threads=num_threads)
