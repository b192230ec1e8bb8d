"""``BERTScorer``: a loaded model plus a :class:`BERTScoreConfig`; scores batches with bert-score 0.3.13's numbers.

This is the engine below the public API: :meth:`BERTScorer.score_pairs` returns the raw per-pair arrays
(:class:`PairScores`); ``refscore.BERTScorer`` (:mod:`refscore.metrics.bertscore`) wraps them in a result with
its signature and statistics.

>>> scorer = BERTScorer("path/to/model", num_layers=4)  # doctest: +SKIP
>>> pairs = scorer.score_pairs(["the cat sat"], [["a cat sat", "the cat sits"]])  # doctest: +SKIP
>>> pairs.f1, pairs.best_reference  # doctest: +SKIP
"""
from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import refscore.metrics.bertscore.baseline as baselines
from refscore.metrics.bertscore.allpairs import match_all_pairs
from refscore.metrics.bertscore.cache import CacheInfo
from refscore.metrics.bertscore.config import BERTScoreConfig, bert_score_hash, sentences_fingerprint
from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.encoding import SentenceEncoder, indexed_labels
from refscore.metrics.bertscore.match_memory import check_similarity_memory
from refscore.metrics.bertscore.engine import (SERIAL, Embedder, ThreadPlan, chunk_mapper, greedy_match,
                                              thread_plan, torch_threads)
from refscore.metrics.bertscore.idf import TokenWeights
from refscore.metrics.bertscore.models import load_model, resolve_model_type
from refscore.checks import check_num_threads
from refscore._memory import check_within_budget, memory_budget as resolve_budget
from refscore.inputs import Batch, prepare_batch
from refscore.errors import InputError, InputTypeError, RefscoreWarning, caller_stacklevel

__all__ = ["BERTScorer", "PairScores", "settings"]


@dataclasses.dataclass(frozen=True, eq=False)
class PairScores:
    """Per-segment P/R/F in input order (float32, as bert-score's tensors): shape ``(n,)``, or
    ``(layers + 1, n)`` with ``all_layers``; ``best_reference[i]`` indexes segment i's reference with the highest
    F1."""

    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    best_reference: np.ndarray
    nrefs: int = 1


def _position_labels(batch: Batch, hyp_name: str, ref_name: str) -> tuple[Callable[[int], str],
                                                                         Callable[[int], str]]:
    """Functions naming hypothesis ``i`` and flattened reference ``j`` as the user passed them
    (``references[i]``, or ``references[i][k]`` when segments have several references)."""
    offsets = batch.ref_offsets
    if len(batch.references) == len(batch.hypotheses):
        return indexed_labels(hyp_name), indexed_labels(ref_name)

    def reference(j: int) -> str:
        segment = int(np.searchsorted(offsets, j, side="right")) - 1
        return f"{ref_name}[{segment}][{j - int(offsets[segment])}]"

    return indexed_labels(hyp_name), reference


class BERTScorer:
    """BERTScore with a model loaded once (bert-score 0.3.13 semantics, float32 results identical to it).

    Settings: ``BERTScorer(model_type, num_layers, **options)`` with the fields of :class:`BERTScoreConfig` as
    options, or ``BERTScorer(config=BERTScoreConfig(...))``. IDF weights frozen later with :meth:`compute_idf`
    replace those of the settings.
    """

    def __init__(self, model_type: str | None = None, num_layers: int | None = None, *,
                 config: BERTScoreConfig | None = None, **options: Any) -> None:
        if config is None:
            config = settings(type(self).__name__, model_type=model_type, num_layers=num_layers, **options)
        elif options or model_type is not None or num_layers is not None:
            raise InputError(f"{type(self).__name__}: give either a config or settings, not both")
        self.config = config
        self.model_type = resolve_model_type(config.model_type, config.lang)
        self.lang = config.lang
        self.idf = config.uses_idf
        self._frozen_idf = TokenWeights.from_mapping(config.idf) if isinstance(config.idf, Mapping) and config.idf \
            else None
        self.idf_label = config.idf_label()
        self.rescale_with_baseline = config.rescale_with_baseline
        self.baseline_path = config.baseline_path
        self.all_layers = config.all_layers
        self.dtype = config.dtype
        self.use_fast_tokenizer = config.use_fast_tokenizer
        self._loaded = load_model(self.model_type, config.num_layers, all_layers=self.all_layers,
                                  device=config.device, dtype=config.dtype,
                                  use_fast_tokenizer=config.use_fast_tokenizer,
                                  trust_remote_code=config.trust_remote_code)
        self.num_layers = self._loaded.num_layers
        self.device = self._loaded.device
        self._encoder = SentenceEncoder(self._loaded.tokenizer, self._loaded.model.config,
                                        use_fast_tokenizer=config.use_fast_tokenizer)
        self._embedder = Embedder(self._loaded, batch_tokens=config.batch_tokens, progress=config.progress,
                                  cache_size=config.reference_cache_size, cache_bytes=config.reference_cache_bytes)
        self._uniform = TokenWeights.uniform([self._encoder.cls_id, self._encoder.sep_id])
        self._baseline: np.ndarray | None = None
        if self.rescale_with_baseline:
            self._baseline = self._read_baseline()
        sentences = config.idf_sentences if config.idf_sentences is not None else (
            config.idf if isinstance(config.idf, tuple) else None)
        if sentences is not None:
            self.compute_idf(sentences)

    # -- settings ------------------------------------------------------------------------------------------------
    @property
    def tokenizer(self) -> Any:
        return self._loaded.tokenizer

    @property
    def model(self) -> Any:
        return self._loaded.model

    @property
    def idf_weights(self) -> TokenWeights | None:
        """The frozen IDF weights (None when IDF is off or computed per call from the references)."""
        return self._frozen_idf if self.idf else None

    def _read_baseline(self) -> np.ndarray:
        """The rescaling table: ``baseline_path``, or bert-score's file for ``lang`` and the model."""
        path = baselines.resolve_baseline_path(self.baseline_path, self.lang, self.model_type)
        return baselines.read_baseline(path, self._loaded.total_layers)

    def compute_idf(self, sentences: Sequence[str]) -> None:
        """Freeze IDF weights computed from ``sentences`` (bert-score's ``compute_idf``); turns IDF on."""
        if isinstance(sentences, str) or not isinstance(sentences, Sequence) or not sentences:
            raise InputError("compute_idf needs a non-empty list of sentences")
        if self._frozen_idf is not None:
            warnings.warn("Overwriting the previous importance weights.", RefscoreWarning,
                          stacklevel=caller_stacklevel())
        for index, sentence in enumerate(sentences):
            if not isinstance(sentence, str):
                raise InputTypeError(f"idf sentences[{index}] is {type(sentence).__name__}, expected str")
        self._frozen_idf = TokenWeights.from_sequences(self._encode_unique(list(sentences), "idf sentences"))
        self.idf = True
        self.idf_label = f"fixed-{sentences_fingerprint(sentences)}"

    @property
    def hash(self) -> str:
        """bert-score's hash string of these settings (``utils.get_hash`` of bert-score 0.3.13)."""
        _, transformers = torch_and_transformers()
        return bert_score_hash(self.config, self.num_layers, transformers.__version__, self.model_type, self.idf)

    def cache_info(self) -> CacheInfo:
        """The embedding cache's counters (texts found and embedded, texts and bytes held, the limits); see
        docs/bertscore.md, "Embeddings kept across calls"."""
        return self._embedder.cache.info()

    def __repr__(self) -> str:
        return f"BERTScorer(hash={self.hash!r}, device={self.device!r}, dtype={self.dtype!r})"

    # -- scoring -------------------------------------------------------------------------------------------------
    def _encode_unique(self, items: list[Any], where: str, token_ids: bool = False,
                       labels: Callable[[int], str] | None = None, plan: ThreadPlan = SERIAL) -> list[np.ndarray]:
        """Token ids of every item; texts are tokenized once per distinct sentence (by ``plan``'s workers).
        ``labels(i)`` names item ``i`` in warnings and errors (default ``"{where}[i]"``)."""
        labels = labels or indexed_labels(where)
        if token_ids:
            return self._encoder.encode_ids(items, labels, where)
        first_index: dict[str, int] = {}
        for index, item in enumerate(items):
            first_index.setdefault(item, index)
        unique = list(first_index)
        firsts = list(first_index.values())
        encoded = dict(zip(unique, self._encoder.encode_texts(unique, lambda j: labels(firsts[j]), where,
                                                              chunk_mapper(plan))))
        return [encoded[item] for item in items]

    def score_pairs(self, hypotheses: Any, references: Any, *, num_threads: int | None = None,
                    hyp_name: str = "hypotheses", ref_name: str = "references") -> PairScores:
        """Per-pair P/R/F. ``references[i]`` is a string or a list of strings (the per-component maximum over
        them is taken, as bert-score does); token-id sequences are accepted instead of strings."""
        num_threads = check_num_threads(num_threads)
        batch = prepare_batch(hypotheses, references, hyp_name=hyp_name, ref_name=ref_name)
        with torch_threads(num_threads):
            hyp_label, ref_label = _position_labels(batch, hyp_name, ref_name)
            plan = thread_plan(num_threads, self.device)
            hyp_ids = self._encode_unique(batch.hypotheses, hyp_name, batch.is_token_ids, hyp_label, plan)
            ref_ids = self._encode_unique(batch.references, ref_name, batch.is_token_ids, ref_label, plan)
            model_config = self.model.config
            check_similarity_memory([len(i) for i in hyp_ids], [len(i) for i in ref_ids], batch.ref_offsets,
                                    layers=(self._loaded.total_layers or self.num_layers) + 1 if self.all_layers
                                    else 1, hidden=getattr(model_config, "hidden_size", None)  # type: ignore[arg-type]  # or d_model
                                    or getattr(model_config, "d_model", 1024), workers=plan.workers,
                                    hyp_label=hyp_label, ref_label=ref_label)
            if not self.idf:
                weights = self._uniform
            elif self._frozen_idf is not None:
                weights = self._frozen_idf
            else:
                weights = TokenWeights.from_sequences(ref_ids)
            embeddings = self._embedder.embed(hyp_ids + ref_ids, [False] * len(hyp_ids) + [True] * len(ref_ids),
                                              plan)
            counts = batch.refs_per_segment
            pair_hyp = np.repeat(np.arange(len(hyp_ids)), counts)
            hyp_weights = weights.of_sequences(hyp_ids)
            values = greedy_match([embeddings[i] for i in pair_hyp], [hyp_weights[i] for i in pair_hyp],
                                  embeddings[len(hyp_ids):], weights.of_sequences(ref_ids), plan)
        self._zero_empty(values, pair_hyp, np.array([len(ids) == 2 for ids in hyp_ids], dtype=bool),
                         np.array([len(ids) == 2 for ids in ref_ids], dtype=bool), hyp_label, ref_label)
        values, best = self._reduce_references(values, batch.ref_offsets)
        if self._baseline is not None:
            table = self._baseline if self.all_layers else self._baseline[self.num_layers][None, :]
            values = baselines.rescale(values, table[None, :, :])
        if self.all_layers:
            precision, recall, f1 = (np.ascontiguousarray(values[:, :, k].T) for k in range(3))
        else:
            precision, recall, f1 = (np.ascontiguousarray(values[:, 0, k]) for k in range(3))
        return PairScores(precision, recall, f1, best, batch.nrefs)

    def pair_matrices(self, texts: list[str], items: Sequence[tuple[np.ndarray, np.ndarray]], *,
                      num_threads: int | None = None, memory_budget: int | None = None) -> list[np.ndarray] | None:
        """F1 of every candidate against every reference of each item (``items``: indices into ``texts``), each
        value the pair's own score (:mod:`refscore.metrics.bertscore.allpairs`); None when a pair's score is not
        its own (IDF from each call's references) or there are several layers. An item whose similarities (float64,
        candidate tokens x reference tokens, three such arrays at once) exceed ``memory_budget`` (default: the
        :mod:`refscore._memory` setting) is an error naming it."""
        if self.all_layers or (self.idf and self._frozen_idf is None):
            return None
        num_threads = check_num_threads(num_threads)
        used = sorted({int(i) for cand, ref in items for i in (*cand, *ref)})
        with torch_threads(num_threads):
            plan = thread_plan(num_threads, self.device)
            ids = dict(zip(used, self._encode_unique([texts[i] for i in used], "texts", plan=plan)))
            embedded = dict(zip(used, self._embedder.embed([ids[i] for i in used], [True] * len(used), plan)))
            weights = self._frozen_idf if self.idf else self._uniform
            weight = dict(zip(used, weights.of_sequences([ids[i] for i in used])))  # type: ignore[union-attr]  # idf set
            matrices = []
            budget = resolve_budget(memory_budget)
            for k, (cand, ref) in enumerate(items):
                tokens = (sum(len(ids[i]) for i in cand), sum(len(ids[j]) for j in ref))
                check_within_budget(24 * tokens[0] * tokens[1], budget, f"BERTScore's similarities of item {k} "
                                    f"({tokens[0]:,} candidate tokens x {tokens[1]:,} reference tokens)")
                values = match_all_pairs([embedded[i] for i in cand], [weight[i] for i in cand],
                                         [embedded[j] for j in ref], [weight[j] for j in ref]).reshape(-1, 1, 3)
                self._zero_empty(values, np.repeat(np.arange(len(cand)), len(ref)),
                                 np.array([len(ids[i]) == 2 for i in cand]),
                                 np.tile([len(ids[j]) == 2 for j in ref], len(cand)),
                                 lambda k, cand=cand: f"texts[{cand[k]}]",  # type: ignore[misc]  # bound item
                                 lambda k, ref=ref: f"texts[{ref[k % len(ref)]}]")  # type: ignore[misc]  # bound
                if self._baseline is not None:
                    values = baselines.rescale(values, self._baseline[self.num_layers][None, None, :])
                matrices.append(values[:, 0, 2].astype(np.float64).reshape(len(cand), len(ref)))
        return matrices

    @staticmethod
    def _zero_empty(values: np.ndarray, pair_hyp: np.ndarray, empty_hyp: np.ndarray, empty_ref: np.ndarray,
                    hyp_label: Callable[[int], str], ref_label: Callable[[int], str]) -> None:
        """bert-score: a candidate or reference of 2 tokens (special tokens only) gets P = R = 0 (F keeps the value
        computed before, which is 0 unless custom IDF weights give the special tokens weight). ``values`` has a row
        per (hypothesis, reference) pair; ``pair_hyp`` is the hypothesis of each row."""
        for empty, label, side in ((empty_hyp, hyp_label, "candidate"), (empty_ref, ref_label, "reference")):
            if empty.any():
                where = np.flatnonzero(empty)
                shown = ", ".join(label(int(i)) for i in where[:5]) + (", ..." if len(where) > 5 else "")
                warnings.warn(f"BERTScore: {len(where)} empty {side} sentence(s) ({shown}); setting raw P and R to "
                              f"0 as bert-score does", RefscoreWarning, stacklevel=caller_stacklevel())
        rows = empty_hyp[pair_hyp] | empty_ref
        values[rows, :, :2] = 0.0

    @staticmethod
    def _reduce_references(values: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per segment: the element-wise maximum over its references (P, R, F separately, as bert-score) and the
        index of the reference with the highest F (first one on ties)."""
        starts = offsets[:-1]
        counts = np.diff(offsets)
        if bool(np.all(counts == 1)):
            return values, np.zeros(len(counts), dtype=np.int64)
        reduced = np.maximum.reduceat(values, starts, axis=0)
        f1 = values[:, :, 2]
        best = np.array([int(np.argmax(f1[start:start + count, 0])) for start, count in zip(starts, counts)],
                        dtype=np.int64)
        return reduced, best

    def similarity_matrix(self, candidate: str, reference: str) -> tuple[np.ndarray, list[str], list[str]]:
        """Cosine similarities of the candidate's and reference's tokens (special tokens removed) and the token
        strings, as drawn by bert-score's ``plot_example``; rescaled with the F baseline when rescaling is on."""
        for name, value in (("candidate", candidate), ("reference", reference)):
            if not isinstance(value, str):
                raise InputTypeError(f"{name} must be a str, got {type(value).__name__}")
        hyp_ids, ref_ids = self._encoder.encode_texts([candidate, reference], where="sentences")
        hyp, ref = self._embedder.embed([hyp_ids, ref_ids], [False, False])
        layer = self.num_layers if self.all_layers else 0
        sim = (hyp[:, layer] @ ref[:, layer].T).cpu().numpy()[1:-1, 1:-1]
        if self._baseline is not None:
            base = self._baseline[self.num_layers, 2]
            sim = (sim - base) / (np.float32(1) - base)
        decode = self.tokenizer.decode
        return sim, [decode([int(i)]) for i in hyp_ids[1:-1]], [decode([int(i)]) for i in ref_ids[1:-1]]



def settings(owner: str, **options: Any) -> BERTScoreConfig:
    """``BERTScoreConfig(**options)``; an unknown setting is an error naming ``owner`` and the valid ones."""
    try:
        return BERTScoreConfig(**options)
    except InputTypeError:  # the config's own check of a value: already a clear message
        raise
    except TypeError as exc:
        valid = ", ".join(f.name for f in dataclasses.fields(BERTScoreConfig))
        raise InputTypeError(f"{owner}: {exc}; valid settings: {valid}") from None
