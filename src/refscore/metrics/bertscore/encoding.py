"""Sentence -> token ids exactly as ``bert_score.utils.sent_encode``, batched, with a warning when truncating.

bert-score strips each sentence, encodes an empty one as the special tokens alone
(``build_inputs_with_special_tokens([])``), adds special tokens, truncates to ``tokenizer.model_max_length`` and
gives GPT-2/RoBERTa tokenizers a prefix space. Under transformers 5 bert-score's encode-time ``add_prefix_space``
is silently ignored; refscore always applies it (the semantics bert-score has under transformers 4), see
docs/bertscore.md.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, RefscoreWarning, caller_stacklevel

__all__ = [
    "indexed_labels", "max_input_length", "PREFIX_SPACE_TOKENIZERS", "SentenceEncoder", "special_token_wrapper",
    "TOKENIZE_CHUNK", "wants_prefix_space",
]

#: Tokenizer classes that bert-score encodes with ``add_prefix_space=True`` (byte-level BPE).
PREFIX_SPACE_TOKENIZERS = ("GPT2Tokenizer", "RobertaTokenizer")
#: model_max_length values above this mean "no limit configured" in transformers.
_UNLIMITED = 1_000_000
#: Sentences per tokenizer call when the calls are spread over worker threads.
TOKENIZE_CHUNK = 256
#: ``map_chunks(function, chunks)``: ``function`` applied to each chunk, results in order (``map``, or a parallel
#: map with the same signature).
ChunkMap = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]


def wants_prefix_space(tokenizer: Any, use_fast_tokenizer: bool) -> bool:
    """bert-score's rule: slow (default) GPT-2/RoBERTa tokenizers and their subclasses get a prefix space."""
    if use_fast_tokenizer:
        return False
    return any(cls.__name__ in PREFIX_SPACE_TOKENIZERS for cls in type(tokenizer).__mro__)


def max_input_length(tokenizer: Any, config: Any) -> int:
    """``tokenizer.model_max_length`` (bert-score's limit), capped by the model's position table when the
    tokenizer sets no limit (bert-score then crashes on long inputs; refscore truncates)."""
    limit = int(min(tokenizer.model_max_length, 10**12))
    positions = getattr(config, "max_position_embeddings", None)
    if limit >= _UNLIMITED and isinstance(positions, int) and positions > 0:
        offset = (config.pad_token_id + 1) if "roberta" in str(getattr(config, "model_type", "")) else 0
        limit = positions - offset
    return limit


def indexed_labels(where: str) -> Callable[[int], str]:
    """Names ``"{where}[i]"`` for item ``i`` (the default naming in warnings and errors).

    >>> indexed_labels("hypotheses")(3)
    'hypotheses[3]'
    """
    return lambda index: f"{where}[{index}]"


def special_token_wrapper(tokenizer: Any) -> Any:
    """A function adding the model's special tokens around a list of ids (``build_inputs_with_special_tokens``;
    transformers 5 tokenizers lack it, so the template is read off the encoding of a probe word there)."""
    build = getattr(type(tokenizer), "build_inputs_with_special_tokens", None)
    if build is not None:
        return tokenizer.build_inputs_with_special_tokens
    probe = "a"
    with_special = list(tokenizer(probe, add_special_tokens=True)["input_ids"])
    body = list(tokenizer(probe, add_special_tokens=False)["input_ids"])
    for start in range(len(with_special) - len(body) + 1):
        if with_special[start:start + len(body)] == body:
            prefix, suffix = with_special[:start], with_special[start + len(body):]
            return lambda ids: prefix + list(ids) + suffix
    raise RuntimeError(f"cannot determine the special tokens of tokenizer {type(tokenizer).__name__}")


class SentenceEncoder:
    """Turns sentences (or token-id sequences) into the id arrays bert-score would feed the model."""

    def __init__(self, tokenizer: Any, config: Any, *, use_fast_tokenizer: bool = False) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_input_length(tokenizer, config)
        self.prefix_space = wants_prefix_space(tokenizer, use_fast_tokenizer)
        self.add_special_tokens = special_token_wrapper(tokenizer)
        self.empty_ids = np.asarray(self.add_special_tokens([]), dtype=np.int64)
        self.num_special = len(self.empty_ids)
        self.cls_id = tokenizer.cls_token_id
        self.sep_id = tokenizer.sep_token_id
        vocab_size = getattr(config, "vocab_size", None)
        self.vocab_size = vocab_size if isinstance(vocab_size, int) and vocab_size > 0 else None

    def encode_texts(self, sentences: Sequence[str], labels: Callable[[int], str] | None = None,
                     where: str = "inputs", map_chunks: ChunkMap = map) -> list[np.ndarray]:
        """Token ids of each sentence (special tokens included, truncated to :attr:`max_length`).

        ``labels(i)`` names sentence ``i`` in the truncation warning (default ``"{where}[i]"``). The tokenizer
        runs on chunks of :data:`TOKENIZE_CHUNK` sentences through ``map_chunks`` (e.g. worker threads: Hugging
        Face's fast tokenizers release the GIL); the ids do not depend on the chunking."""
        labels = labels or indexed_labels(where)
        stripped = [sentence.strip() for sentence in sentences]
        nonempty = [i for i, text in enumerate(stripped) if text]
        texts = [(" " + stripped[i]) if self.prefix_space else stripped[i] for i in nonempty]
        encoded: list[np.ndarray] = [self.empty_ids] * len(stripped)
        if texts:
            ids = self._untruncated_ids(texts, map_chunks)
            too_long = []
            for i, token_ids in zip(nonempty, ids):
                if len(token_ids) > self.max_length:
                    too_long.append(i)
                    token_ids = self.tokenizer(
                        (" " + stripped[i]) if self.prefix_space else stripped[i], add_special_tokens=True,
                        truncation=True, max_length=self.max_length, verbose=False)["input_ids"]
                encoded[i] = np.asarray(token_ids, dtype=np.int64)
            self._warn_truncated(too_long, labels, where)
        return encoded

    def _untruncated_ids(self, texts: list[str], map_chunks: ChunkMap) -> list[list[int]]:
        """The tokenizer's ids of ``texts`` with special tokens and without truncation, in chunks through
        ``map_chunks`` when there are several chunks and the tokenizer is a fast one."""
        def tokenize(chunk: list[str]) -> list[list[int]]:
            return self.tokenizer(chunk, add_special_tokens=True, truncation=False, verbose=False)["input_ids"]

        if len(texts) <= TOKENIZE_CHUNK or map_chunks is map or not getattr(self.tokenizer, "is_fast", False):
            return tokenize(texts)
        # A call can switch the fast tokenizer's truncation or padding off, a Rust-side change that fails ("Already
        # borrowed") while another thread is inside the tokenizer: one call here first, so that the threads' calls
        # change nothing. Should a transformers version change the tokenizer on every call anyway, the texts are
        # tokenized again in this thread (the same ids).
        head = tokenize(texts[:TOKENIZE_CHUNK])
        chunks = [texts[start:start + TOKENIZE_CHUNK] for start in range(TOKENIZE_CHUNK, len(texts), TOKENIZE_CHUNK)]
        try:
            return head + [ids for chunk_ids in map_chunks(tokenize, chunks) for ids in chunk_ids]
        except RuntimeError as error:
            if "borrowed" not in str(error):
                raise
            return tokenize(texts)

    def encode_ids(self, sequences: Sequence[np.ndarray], labels: Callable[[int], str] | None = None,
                   where: str = "inputs") -> list[np.ndarray]:
        """Pre-tokenized inputs: special tokens are added unless the sequence already starts with the CLS (BOS)
        id and ends with the SEP (EOS) id; too long sequences are truncated like text. Ids outside the model's
        vocabulary are an error naming ``labels(i)`` (default ``"{where}[i]"``)."""
        labels = labels or indexed_labels(where)
        encoded = []
        too_long = []
        for i, ids in enumerate(sequences):
            ids = np.asarray(ids, dtype=np.int64)
            self._check_vocabulary(ids, labels(i))
            has_special = len(ids) >= 2 and ids[0] == self.cls_id and ids[-1] == self.sep_id
            body = ids[1:-1] if has_special else ids
            if len(body) + self.num_special > self.max_length:
                too_long.append(i)
                body = body[: max(self.max_length - self.num_special, 0)]
            encoded.append(np.asarray(self.add_special_tokens(body.tolist()),
                                      dtype=np.int64))
        self._warn_truncated(too_long, labels, where)
        return encoded

    def _check_vocabulary(self, ids: np.ndarray, label: str) -> None:
        if not len(ids) or self.vocab_size is None:
            return
        low, high = int(ids.min()), int(ids.max())
        if low < 0 or high >= self.vocab_size:
            bad = low if low < 0 else high
            position = int(np.flatnonzero(ids == bad)[0])
            raise InputError(f"{label} holds token id {bad} at position {position}, outside the model's vocabulary "
                             f"(ids 0..{self.vocab_size - 1}); give ids from this model's tokenizer, or pass text")

    def _warn_truncated(self, indices: list[int], labels: Callable[[int], str], where: str) -> None:
        if indices:
            shown = ", ".join(labels(i) for i in indices[:5]) + (", ..." if len(indices) > 5 else "")
            warnings.warn(f"BERTScore: {len(indices)} of the {where} are longer than the model's maximum of "
                          f"{self.max_length} tokens and were truncated (as bert-score does): {shown}",
                          RefscoreWarning, stacklevel=caller_stacklevel())
