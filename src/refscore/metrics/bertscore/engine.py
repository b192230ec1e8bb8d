"""The numeric core: embed unique sentences in token-budget batches, then greedy-match every (candidate, reference)
pair (``bert_score.utils.greedy_cos_idf`` semantics) in padded batches on the model's device.

On CPU with several threads the batches are embedded (then matched) by that many Python worker threads at once,
each running torch with one intra-op thread (torch releases the GIL inside its ops; above :data:`MAX_WORKERS` threads
the workers share them): the encoder's matrices are small, so independent streams scale better than splitting each
product over threads. Every batch is computed the same way whatever the thread count, so the results do not depend
on it. BERT-family encoders run without padding (:mod:`refscore.metrics.bertscore.packed`).

Results do not depend on how sentences or pairs are batched: padding never takes part in a maximum (bert-score lets
a padded position contribute a similarity of 0, which changes a pair's score only when all its true similarities
are negative; see docs/bertscore.md). A scorer gives the same bits for the same input on every call, whatever it
computed before: embeddings are kept per text only where a batch's rows cannot round differently in another batch
(:meth:`Embedder.embed`).
"""
from __future__ import annotations

import contextlib
import functools
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.metrics.bertscore.cache import EmbeddingCache, embedding_bytes
from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.encoding import ChunkMap
from refscore.metrics.bertscore.models import LoadedModel, attention_backends
from refscore.metrics.bertscore.packed import PackedEncoder, WorkspacePool
from refscore._core._parallel import thread_limit
from refscore.checks import check_optional_int
from refscore.progress import progress_bar
from refscore.errors import RefscoreWarning, caller_stacklevel

__all__ = [
    "chunk_mapper", "DEFAULT_BATCH_TOKENS", "Embedder", "expected_seconds", "flops_per_token", "greedy_match",
    "MATCH_BUDGET", "MAX_WORKERS", "parallel_map", "ROUGH_FLOPS", "SERIAL", "TAIL_BATCHES", "TAIL_SPLIT",
    "thread_plan", "ThreadPlan", "torch_threads",
]

#: Default token budget per forward pass (sentences x padded length), by device type.
DEFAULT_BATCH_TOKENS = {"cpu": 2048, "cuda": 65536}
#: Upper bound on values held by one greedy-matching batch (similarities plus padded embeddings, float64): 8 MB,
#: so a batch stays in cache and its memory is reused by the next one.
MATCH_BUDGET = 1 << 20
#: Most batches embedded (or matched) at once on CPU; more threads are shared out among this many workers.
MAX_WORKERS = 8
#: On CPU the last TAIL_BATCHES budgets' worth of tokens are embedded in batches of a TAIL_SPLIT-th of the budget,
#: so that worker threads finish at about the same time (the cut does not depend on the thread count).
TAIL_BATCHES = 4
TAIL_SPLIT = 4
#: Rough sustained speed of an encoder's forward pass, in floating-point operations per second, by device type:
#: only for deciding whether a run is long enough for a progress bar (refscore.progress), not a measurement.
ROUGH_FLOPS = {"cpu": 3e10, "cuda": 3e12}


@contextlib.contextmanager
def torch_threads(num_threads: int | None) -> Iterator[None]:
    """Run torch's CPU ops with ``num_threads`` threads (None: leave torch's setting)."""
    torch, _ = torch_and_transformers()
    if num_threads is None:
        yield
        return
    previous = torch.get_num_threads()
    torch.set_num_threads(min(max(1, int(num_threads)), thread_limit()))   # torch's OpenMP team: the core's cap
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@dataclass(frozen=True)
class ThreadPlan:
    """How a call uses the CPU: ``workers`` batches at once, each with ``threads_per_worker`` torch threads."""

    workers: int
    threads_per_worker: int


#: Everything in the calling thread, with torch's thread setting as it is.
SERIAL = ThreadPlan(1, 1)


def thread_plan(num_threads: int | None, device: str) -> ThreadPlan:
    """``num_threads`` (default: torch's thread count) as parallel workers on CPU: one thread each, or up to
    :data:`MAX_WORKERS` workers sharing the threads when there are more (bounding the activation memory).
    On GPUs one worker. A worker's threads are capped as the compiled core's are (``thread_limit``).

    >>> [(plan.workers, plan.threads_per_worker) for plan in map(thread_plan, (1, 2, 12, 64), ["cpu"] * 4)]
    [(1, 1), (2, 1), (6, 2), (8, 8)]
    >>> thread_plan(3, "cuda:0") == SERIAL
    True
    """
    if device.split(":")[0] != "cpu":
        return SERIAL
    if num_threads is None:
        torch, _ = torch_and_transformers()
        num_threads = torch.get_num_threads()
    threads = max(1, int(num_threads))
    threads_per_worker = min(-(-threads // MAX_WORKERS), thread_limit())   # each worker's torch (OpenMP) team
    return ThreadPlan(min(threads // threads_per_worker, MAX_WORKERS), threads_per_worker)


def parallel_map(function: Callable[[Any], Any], items: Sequence[Any], plan: ThreadPlan) -> Iterator[Any]:
    """``function(item)`` for each item, in order. With several workers in ``plan`` the items are processed by
    that many threads, in order of submission, each running torch ops with ``plan.threads_per_worker`` intra-op
    threads (a single item too, in the calling thread); torch's thread setting is restored afterwards. At most
    ``plan.workers`` items are in progress at a time. With one worker the items are processed in the calling
    thread, with torch's setting as it is."""
    workers = min(plan.workers, len(items))
    if plan.workers <= 1 or not items:
        yield from map(function, items)
        return
    torch, _ = torch_and_transformers()
    if workers == 1:   # a lone item runs with a worker's thread count, so it is computed as it would be among others
        with torch_threads(plan.threads_per_worker):
            yield from map(function, items)
        return
    with torch_threads(plan.threads_per_worker), ThreadPoolExecutor(
            workers, thread_name_prefix="refscore-bertscore", initializer=torch.set_num_threads,
            initargs=(plan.threads_per_worker,)) as pool:
        yield from pool.map(function, items)


def chunk_mapper(plan: ThreadPlan) -> ChunkMap:
    """``map_chunks(function, items)`` for the helpers that take one: :func:`parallel_map` with ``plan``, or
    ``map`` when ``plan`` has one worker."""
    if plan.workers <= 1:
        return map
    return lambda function, items: parallel_map(function, list(items), plan)


def flops_per_token(model: Any) -> int:
    """Rough cost of embedding one token: two operations per weight outside the token-embedding table (which is
    looked up, not multiplied); attention's length-dependent part is left out."""
    weights = sum(parameter.numel() for parameter in model.parameters())
    embeddings = model.get_input_embeddings() if hasattr(model, "get_input_embeddings") else None
    looked_up = embeddings.weight.numel() if embeddings is not None else 0
    return 2 * max(weights - looked_up, 1)


def expected_seconds(tokens: int, cost_per_token: int, device: str) -> float:
    """A rough estimate of how long embedding ``tokens`` tokens takes (for the progress-bar policy only).

    >>> round(expected_seconds(50_000, 2 * 7_000_000, "cpu"), 1)
    23.3
    """
    return tokens * cost_per_token / ROUGH_FLOPS.get(device.split(":")[0], ROUGH_FLOPS["cpu"])


class Embedder:
    """Embeds token-id sequences with a loaded model and keeps embeddings across calls in an
    :class:`~refscore.metrics.bertscore.cache.EmbeddingCache` (per text where that cannot change a result, else
    per whole batch of references: see :meth:`embed`).

    BERT-family encoders on CPU run without padding (:mod:`refscore.metrics.bertscore.packed`) when the architecture
    allows it; ``self.packed`` is None when the model's own forward is used.
    """

    def __init__(self, loaded: LoadedModel, *, batch_tokens: int | None = None, progress: bool | None = None,
                 cache_size: int = 20_000, cache_bytes: int = 1 << 30) -> None:
        device_type = loaded.device.split(":")[0]
        self.loaded = loaded
        batch_tokens = check_optional_int(batch_tokens, "batch_tokens", minimum=1, none_means="the device's default")
        self.batch_tokens = batch_tokens if batch_tokens is not None else DEFAULT_BATCH_TOKENS.get(device_type, 2048)
        self.split_tail = device_type == "cpu"
        self.progress = progress
        self.cache = EmbeddingCache(cache_size, cache_bytes)
        pad = loaded.tokenizer.pad_token_id
        self.pad_id = 0 if pad is None else int(pad)
        self.packed = PackedEncoder.for_model(loaded.model, loaded.device, self.pad_id)
        self.flops_per_token = flops_per_token(loaded.model)
        self._rows_checked: bool | None = None

    def rows_independent(self, threads: int) -> bool:
        """Whether a sequence's embedding is the same bits in any batch: the packed encoder on CPU with one thread
        per batch (checked once on the loaded model, :meth:`PackedEncoder.rows_independent`). Several threads per
        product may split a row's sums differently with another row count; a GPU picks its kernels by shape."""
        if self.packed is None or threads != 1:
            return False
        if self._rows_checked is None:
            with torch_threads(1):
                self._rows_checked = self.packed.rows_independent(self.pad_id)
        return self._rows_checked

    def embed(self, sequences: Sequence[np.ndarray], keep: Sequence[bool],
              plan: ThreadPlan = SERIAL) -> list[Any]:
        """L2-normalised float32 embeddings ``(length, n_layers, dim)`` of each sequence, on the model's device.
        A ``plan`` with several workers embeds that many batches at once (see :func:`parallel_map`).

        The result depends on the sequences only, never on earlier calls. Each distinct sequence is embedded once
        per call; batches are cut by :meth:`_batches` from sequences sorted by length (longest first) and content.
        Where rows are independent (:meth:`rows_independent`) every distinct sequence is kept in the cache and a
        later call embeds only those it does not hold. Elsewhere a float32 product can round a sequence's values
        differently in another batch, so batches are formed from this call's input alone: the sequences with
        ``keep`` true (references) among themselves, the others among themselves, and a batch of kept sequences
        is cached whole and reused only for the very same batch with the same thread count per batch."""
        torch, _ = torch_and_transformers()
        out: list[Any] = [None] * len(sequences)
        positions: dict[bytes, list[int]] = {}
        for i, ids in enumerate(sequences):
            positions.setdefault(ids.tobytes(), []).append(i)

        def place(key: bytes, embedding: Any) -> None:
            for i in positions[key]:
                out[i] = embedding

        threads = plan.threads_per_worker if plan.workers > 1 else torch.get_num_threads()
        per_text = self.rows_independent(threads)
        if per_text:
            hits = {key: self.cache.get((threads, key)) for key in positions}
            for key in (key for key, hit in hits.items() if hit is not None):
                place(key, hits[key])
            groups = [([key for key, hit in hits.items() if hit is None], False)]
        else:
            kept = {key for key, idx in positions.items() if any(keep[i] for i in idx)}
            groups = [([key for key in positions if key in kept], True),
                      ([key for key in positions if key not in kept], False)]
        todo: list[tuple[Any, list[bytes]]] = []   # (whole-batch cache key or None, the batch's sequence keys)
        for group, whole in groups:
            group.sort(key=lambda key: (-len(sequences[positions[key][0]]), key))
            for start, stop in self._batches([len(sequences[positions[key][0]]) for key in group]):
                members = group[start:stop]
                cache_key = (threads, tuple(members)) if whole else None
                hit = self.cache.get(cache_key, len(members)) if whole else None
                if hit is None:
                    todo.append((cache_key, members))
                    continue
                for key, embedding in zip(members, hit):
                    place(key, embedding)
        inputs = [[sequences[positions[key][0]] for key in members] for _, members in todo]
        forward = functools.partial(self._forward, workspaces=WorkspacePool())
        seconds = expected_seconds(sum(sum(map(len, batch)) for batch in inputs), self.flops_per_token,
                                   self.loaded.device)
        with progress_bar(len(todo), "BERTScore embedding", self.progress, seconds, unit="batch") as bar:
            for embeddings, (cache_key, members) in zip(parallel_map(forward, inputs, plan), todo):
                for key, embedding in zip(members, embeddings):
                    if per_text and self.cache.max_bytes:   # a copy, so that evicting it frees its memory
                        embedding = embedding.clone()
                        self.cache.put((threads, key), embedding, items=1, nbytes=embedding_bytes([embedding]))
                    place(key, embedding)
                if cache_key is not None:
                    self.cache.put(cache_key, embeddings, items=len(embeddings), nbytes=embedding_bytes(embeddings))
                bar.update(1)
        return out

    def _batches(self, lengths: list[int]) -> Iterator[tuple[int, int]]:
        """Consecutive (start, stop) ranges of the length-sorted (longest first) sequences within the budget; on
        CPU the last :data:`TAIL_BATCHES` budgets' worth of tokens within a :data:`TAIL_SPLIT`-th of it."""
        remaining = sum(lengths)
        start = 0
        while start < len(lengths):
            budget = self.batch_tokens
            if self.split_tail and remaining <= TAIL_BATCHES * budget:
                budget = max(1, budget // TAIL_SPLIT)
            stop = min(start + max(1, budget // max(lengths[start], 1)), len(lengths))
            remaining -= sum(lengths[start:stop])
            yield start, stop
            start = stop

    def _forward(self, batch: list[np.ndarray], workspaces: WorkspacePool) -> list[Any]:
        torch, _ = torch_and_transformers()
        out_of_memory = getattr(torch.cuda, "OutOfMemoryError", ())
        try:
            return self._run_model(batch, workspaces)
        except out_of_memory:
            if len(batch) == 1:
                raise
            torch.cuda.empty_cache()
            self.batch_tokens = max(1, self.batch_tokens // 2)
            warnings.warn(f"BERTScore: CUDA out of memory on a batch of {len(batch)} sentences of up to "
                          f"{len(batch[0])} tokens; retrying with smaller batches (batch_tokens is now "
                          f"{self.batch_tokens}; pass a smaller batch_tokens to avoid the retry)",
                          RefscoreWarning, stacklevel=caller_stacklevel())
            half = len(batch) // 2
            return self._forward(batch[:half], workspaces) + self._forward(batch[half:], workspaces)

    def _run_model(self, batch: list[np.ndarray], workspaces: WorkspacePool) -> list[Any]:
        """Normalised embeddings of the sequences of one batch: packed (with a workspace borrowed from
        ``workspaces``) when possible, else the model's forward."""
        torch, _ = torch_and_transformers()
        lengths = [len(ids) for ids in batch]
        input_ids, mask = self._padded(batch)
        with torch.inference_mode():
            if self.packed is not None:
                with workspaces.borrow() as workspace:
                    hidden = self.packed.hidden_states(torch.from_numpy(input_ids), lengths, self.loaded.all_layers,
                                                       workspace)
                return list(torch.split(_normalise(hidden.float()), lengths))
            hidden = _normalise(self._model_forward(input_ids, mask).float())
            return [hidden[row, :length] for row, length in enumerate(lengths)]

    def _padded(self, batch: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(input ids padded with the pad id, attention mask), both ``(len(batch), longest)`` int64."""
        width = max(len(ids) for ids in batch)
        input_ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, ids in enumerate(batch):
            input_ids[row, :len(ids)] = ids
            mask[row, :len(ids)] = 1
        return input_ids, mask

    def _model_forward(self, input_ids: np.ndarray, mask: np.ndarray) -> Any:
        """The Hugging Face forward: ``(batch, width, n_states, hidden)`` hidden states of the layer(s) used."""
        torch, _ = torch_and_transformers()
        loaded = self.loaded
        with attention_backends(torch, loaded.device):
            output = loaded.model(torch.from_numpy(input_ids).to(loaded.device),
                                  attention_mask=torch.from_numpy(mask).to(loaded.device),
                                  output_hidden_states=loaded.all_layers)
        if loaded.all_layers:
            return torch.stack(tuple(output.hidden_states), dim=2)
        return output[0].unsqueeze(2)


def _normalise(hidden: Any) -> Any:
    """Each vector of the last axis divided by its L2 norm (bert-score's normalisation)."""
    torch, _ = torch_and_transformers()
    return hidden / torch.norm(hidden, dim=-1).unsqueeze(-1)


def greedy_match(hyp_embeddings: Sequence[Any], hyp_weights: Sequence[np.ndarray], ref_embeddings: Sequence[Any],
                 ref_weights: Sequence[np.ndarray], plan: ThreadPlan = SERIAL) -> np.ndarray:
    """P, R, F of each pair ``(hyp_embeddings[i], ref_embeddings[i])``: ``(n_pairs, n_layers, 3)`` float32.

    Every token (special tokens included) is a match candidate; each side's weights are normalised to sum 1;
    ``F = 2PR/(P+R)`` with NaN -> 0. The similarities and weighted sums are computed in float64 from the float32
    embeddings and P and R rounded to float32 once, so the matching adds almost no rounding to that of the
    embeddings (bert-score's float32 matching adds its own); F is bert-score's float32 ``2PR/(P+R)`` of them.
    Pairs are batched by length; padding never wins a maximum. A ``plan`` with several workers matches that many
    batches at once (see :func:`parallel_map`).
    """
    torch, _ = torch_and_transformers()
    n_pairs = len(hyp_embeddings)
    if n_pairs == 0:
        return np.zeros((0, 1, 3), dtype=np.float32)
    n_layers, dim = hyp_embeddings[0].shape[1], hyp_embeddings[0].shape[2]
    hyp_len = np.array([e.shape[0] for e in hyp_embeddings])
    ref_len = np.array([e.shape[0] for e in ref_embeddings])
    chunks = list(_match_chunks(hyp_len, ref_len, n_layers, dim))

    def match(chunk: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            return _match_batch([hyp_embeddings[i] for i in chunk], [hyp_weights[i] for i in chunk],
                                [ref_embeddings[i] for i in chunk], [ref_weights[i] for i in chunk], torch)

    result = np.empty((n_pairs, n_layers, 3), dtype=np.float32)
    for chunk, values in zip(chunks, parallel_map(match, chunks, plan)):
        result[chunk] = values
    return result


def _match_chunks(hyp_len: np.ndarray, ref_len: np.ndarray, n_layers: int, dim: int) -> Iterator[np.ndarray]:
    """Pair indices sorted by (hypothesis, reference) length, cut into batches within :data:`MATCH_BUDGET`."""
    order = np.lexsort((ref_len, hyp_len))
    n_pairs = len(order)
    start = 0
    while start < n_pairs:
        stop, longest_ref = start + 1, ref_len[order[start]]
        while stop < n_pairs:
            longest_ref = max(longest_ref, ref_len[order[stop]])
            if (stop + 1 - start) * n_layers * hyp_len[order[stop]] * (longest_ref + 2 * dim) > MATCH_BUDGET:
                break
            stop += 1
        yield order[start:stop]
        start = stop


def _pad(embeddings: list[Any], weights: list[np.ndarray], torch: Any) -> tuple[Any, Any, Any]:
    """(B, layers, L, d) zero-padded embeddings, (B, L) normalised weights (both float64), (B, L) validity mask."""
    padded = torch.nn.utils.rnn.pad_sequence(list(embeddings), batch_first=True).double()  # (B, L, layers, d)
    width = padded.shape[1]
    lengths = torch.tensor([e.shape[0] for e in embeddings], device=padded.device)
    valid = torch.arange(width, device=padded.device)[None, :] < lengths[:, None]
    weight = torch.zeros((len(weights), width), dtype=torch.float64)
    for row, w in enumerate(weights):
        weight[row, :len(w)] = torch.from_numpy(w)
    weight = weight.to(padded.device)
    weight = weight / weight.sum(dim=1, keepdim=True)
    return padded.transpose(1, 2), weight, valid


def _match_batch(hyp_emb: list[Any], hyp_w: list[np.ndarray], ref_emb: list[Any], ref_w: list[np.ndarray],
                 torch: Any) -> np.ndarray:
    hyp, hyp_weight, hyp_valid = _pad(hyp_emb, hyp_w, torch)
    ref, ref_weight, ref_valid = _pad(ref_emb, ref_w, torch)
    sim = torch.matmul(hyp, ref.transpose(-1, -2))  # (B, layers, Lh, Lr)
    pair_valid = hyp_valid[:, None, :, None] & ref_valid[:, None, None, :]
    sim = sim.masked_fill(~pair_valid, -math.inf)
    word_precision = sim.amax(dim=3).masked_fill(~hyp_valid[:, None, :], 0.0)
    word_recall = sim.amax(dim=2).masked_fill(~ref_valid[:, None, :], 0.0)
    precision = (word_precision * hyp_weight[:, None, :]).sum(dim=2).float()
    recall = (word_recall * ref_weight[:, None, :]).sum(dim=2).float()
    f1 = 2 * precision * recall / (precision + recall)
    f1 = f1.masked_fill(torch.isnan(f1), 0.0)
    return torch.stack((precision, recall, f1), dim=-1).cpu().numpy()
