"""unbabel-comet's models (2.2.7) in plain torch + transformers: encoder, layer mix, pooling, estimator.

Each step follows unbabel-comet's source: the XLM-R encoder (``comet/encoders/xlmr.py``: every hidden state, the
tokenizer's truncation at ``max_position_embeddings - 4`` tokens), the layer-wise attention
(``comet/modules/layerwise_attention.py``: ``gamma * sum(w_k * h_k)`` with ``w = softmax`` or ``sparsemax`` of the
scalar weights, each state normalised per sentence first with ``layer_norm``), the pooling
(``comet/models/pooling_utils.py``: the mean over real tokens, the maximum, or the first token) and the
feed-forward estimator (``comet/modules/feedforward.py``) on ``[mt; ref; mt*ref; |mt-ref|; mt*src; |mt-src|]``
(``RegressionMetric.estimate``) or ``[mt; src; mt*src; |mt-src|]`` (``ReferencelessRegression``); the unified
family's joint inputs are in :mod:`refscore.metrics.comet.unified`. Dropout is inactive at inference, as in ``model.predict``.

What differs is the batching: every distinct text is embedded once per call (and kept for the next calls of the
same metric: the sources and references of all systems), in length-sorted batches within a token budget, through
BERTScore's packed forward (no padding at all) where it applies, else the padded Hugging Face forward; each
sentence's states are mixed and pooled over its own tokens only. The scores agree with ``model.predict`` within
float32 rounding (tests/test_comet.py: 1e-6).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, MissingModelError
from refscore.metrics.bertscore.cache import EmbeddingCache
from refscore.metrics.bertscore.engine import parallel_map, thread_plan
from refscore.metrics.bertscore.packed import PackedEncoder
from refscore.metrics.comet.checkpoint import CometCheckpoint
from refscore.metrics.comet.deps import require

__all__ = ["CometModel", "sparsemax"]

#: Encoders refscore builds (unbabel-comet's ``encoder_model`` names).
ENCODERS = ("XLM-RoBERTa",)
#: Sentence embeddings kept across calls (pooled vectors: a few KB each).
CACHE_ENTRIES = 1 << 20
CACHE_BYTES = 1 << 31


def sparsemax(weights: Any) -> Any:
    """Sparsemax of a 1-d tensor, entmax 1.3's full-sort algorithm (``entmax.sparsemax``, unbabel-comet's choice).

    >>> import torch
    >>> sparsemax(torch.tensor([1.0, 0.0, -2.0])).tolist()
    [1.0, 0.0, 0.0]
    """
    torch = require("torch")
    ordered, _ = torch.sort(weights, dim=0, descending=True)
    cumulative = ordered.cumsum(0) - 1
    ranks = torch.arange(1, weights.shape[0] + 1, device=weights.device, dtype=weights.dtype)
    support = (ranks * ordered > cumulative).sum(dim=0, keepdim=True)
    tau = cumulative.gather(0, support - 1) / support.to(weights.dtype)
    return torch.clamp(weights - tau, min=0)


def _activation(torch: Any, name: str) -> Any:
    module = getattr(torch.nn, name.title(), None)   # FeedForward.build_activation's lookup
    if module is None:
        raise InputError(f"COMET: the checkpoint's activation {name!r} is not a torch.nn module")
    return module()


def _tokenizer(transformers: Any, folder: Any, max_length: int) -> Any:
    """``texts -> token ids`` as unbabel-comet's ``XLMRobertaTokenizerFast(texts, truncation=True,
    max_length=max_positions - 2)`` under transformers 4 (its pin): the ``tokenizers`` pipeline of the folder's
    ``tokenizer.json`` as saved (transformers 5 rebuilds XLM-R's pre-tokenizer and drops the saved normaliser),
    truncated at ``max_length`` tokens with the special tokens. Without ``tokenizer.json``, transformers'
    conversion of ``sentencepiece.bpe.model``."""
    path = folder / "tokenizer.json"
    if path.is_file():
        tokenizers = require("tokenizers")
        tokenizer = tokenizers.Tokenizer.from_file(str(path))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_length)
        return lambda texts: [encoding.ids for encoding in tokenizer.encode_batch(list(texts))]
    slow = transformers.XLMRobertaTokenizerFast.from_pretrained(str(folder), local_files_only=True)
    return lambda texts: slow(list(texts), truncation=True, max_length=max_length)["input_ids"]


class CometModel:
    """A regression-family checkpoint ready to embed texts and estimate scores (float32, CPU or CUDA)."""

    def __init__(self, checkpoint: CometCheckpoint, *, device: str = "cpu", batch_tokens: int = 4096,
                 dtype: str = "float32") -> None:
        torch, transformers = require("torch"), require("transformers")
        hp = checkpoint.hparams
        self.torch, self.device, self.batch_tokens = torch, device, batch_tokens
        self.family, self.hparams = checkpoint.family, hp
        if hp.get("encoder_model", "XLM-RoBERTa") not in ENCODERS:
            raise InputError(f"COMET: {str(checkpoint.path)!r} uses the encoder {hp.get('encoder_model')!r}; "
                             f"refscore builds {', '.join(ENCODERS)} encoders")
        if hp.get("word_level_training"):   # its hypothesis is tokenized another way (subword_tokenize)
            raise InputError(f"COMET: {str(checkpoint.path)!r} is a unified model with word_level_training; "
                             f"refscore computes unified models without word-level tags (wmt22-cometkiwi-da)")
        folder = str(checkpoint.encoder_dir)
        try:
            config = transformers.XLMRobertaConfig.from_pretrained(folder, local_files_only=True)
            self.tokenize = _tokenizer(transformers, checkpoint.encoder_dir, int(config.max_position_embeddings) - 4)
        except (OSError, ValueError) as exc:
            raise MissingModelError(f"COMET: cannot read the encoder's config or tokenizer in {folder!r} ({exc}); "
                                    f"expected config.json and tokenizer.json (or sentencepiece.bpe.model)") from None
        self.encoder = transformers.XLMRobertaModel(config, add_pooling_layer=False)
        self._load(self.encoder, checkpoint.state_dict, "encoder.model.", checkpoint)
        self.pad_id = int(config.pad_token_id)
        layers = int(config.num_hidden_layers) + 1
        state = checkpoint.state_dict
        self.layer = hp.get("sent_layer", "mix") if self.family == "unified_metric" else hp.get("layer", "mix")
        self.max_positions = int(config.max_position_embeddings) - 2
        self.cls_id, self.sep_id = int(config.bos_token_id), int(config.eos_token_id)
        if self.layer == "mix":
            raw = torch.cat([state[f"layerwise_attention.scalar_parameters.{i}"].float() for i in range(layers)])
            transform = hp.get("layer_transformation", "softmax")
            if transform not in ("softmax", "sparsemax"):
                raise InputError(f"COMET: unknown layer_transformation {transform!r} in {str(checkpoint.path)!r}")
            self.layer_weights = (torch.softmax(raw, dim=0) if transform == "softmax" else sparsemax(raw)).to(device)
            self.gamma = state["layerwise_attention.gamma"].float().to(device)
            self.layer_norm = bool(hp.get("layer_norm", False))
        elif not (isinstance(self.layer, int) and 0 <= self.layer < layers):
            raise InputError(f"COMET: invalid layer {self.layer!r} in {str(checkpoint.path)!r}")
        self.pool = hp.get("pool", "avg")
        if self.pool not in ("avg", "max", "cls", "default"):
            raise InputError(f"COMET: invalid pooling {self.pool!r} in {str(checkpoint.path)!r}")
        self.estimator = self._estimator(torch, hp, state, int(config.hidden_size), checkpoint)
        self.encoder.requires_grad_(False)
        if dtype != "float32":   # the encoder only: the mix, pooling and estimator stay float32
            self.encoder.to(dtype=getattr(torch, dtype))
        self.estimator.requires_grad_(False)
        self.encoder.to(device).eval()
        self.estimator.to(device).eval()
        self.packed = PackedEncoder.for_model(self.encoder, device, self.pad_id) if dtype == "float32" else None
        self.cache = EmbeddingCache(CACHE_ENTRIES, CACHE_BYTES)

    @staticmethod
    def _load(module: Any, state: dict[str, Any], prefix: str, checkpoint: CometCheckpoint) -> None:
        own = {key[len(prefix):]: value for key, value in state.items() if key.startswith(prefix)}
        result = module.load_state_dict(own, strict=False)
        missing = [key for key in result.missing_keys if not key.endswith("position_ids")]
        if missing:
            raise InputError(f"COMET: {str(checkpoint.path)!r} lacks weights {prefix}{missing[0]} (and "
                             f"{len(missing) - 1} more) of the encoder its hparams describe")

    def _estimator(self, torch: Any, hp: dict[str, Any], state: dict[str, Any], hidden: int,
                   checkpoint: CometCheckpoint) -> Any:
        sizes = [int(size) for size in hp.get("hidden_sizes", [3072, 1024])]
        width = hidden * {"regression_metric": 6, "referenceless_regression_metric": 4}.get(self.family, 1)
        modules: list[Any] = []
        for size in sizes:   # Linear, activation, Dropout (the indices of the state dict's estimator.ff.N)
            modules += [torch.nn.Linear(width, size), _activation(torch, hp.get("activations", "Tanh")),
                        torch.nn.Dropout(0.0)]
            width = size
        modules.append(torch.nn.Linear(width, 1))
        if hp.get("final_activation") is not None:
            modules.append(_activation(torch, hp["final_activation"]))
        estimator = torch.nn.Sequential(*modules)
        own = {key[len("estimator.ff."):]: value for key, value in state.items() if key.startswith("estimator.ff.")}
        try:
            estimator.load_state_dict(own, strict=True)
        except RuntimeError as exc:
            raise InputError(f"COMET: the estimator weights of {str(checkpoint.path)!r} do not fit its hparams "
                             f"(hidden_sizes {sizes}): {str(exc).splitlines()[0]}") from None
        return estimator

    # -- sentence embeddings ----------------------------------------------------------------------------------
    def embed(self, texts: Sequence[str], num_threads: int | None = None) -> Any:
        """``(len(texts), hidden)`` float32 sentence embeddings; each distinct text is computed once and kept."""
        return self._vectors(list(texts), self.tokenize, self._sentence_vector, num_threads)

    def joint_vectors(self, sequences: Sequence[tuple[int, ...]], num_threads: int | None = None) -> Any:
        """``(len(sequences), hidden)``: the mixed first-token state of each joint token sequence (the unified
        family's sentence embedding), each distinct sequence computed once and kept."""
        return self._vectors(list(sequences), lambda todo: [list(ids) for ids in todo], self._first_vector,
                             num_threads)

    def _vectors(self, keys: list[Any], sequences_of: Any, reduce: Any, num_threads: int | None) -> Any:
        torch = self.torch
        kind = reduce.__name__
        wanted = list(dict.fromkeys(keys))
        todo = [key for key in wanted if self.cache.get((kind, key)) is None]
        if todo:
            ids = sequences_of(todo)
            order = sorted(range(len(todo)), key=lambda i: len(ids[i]))
            batches, start = [], 0
            while start < len(order):   # length-sorted, within the token budget
                stop = start + 1
                while stop < len(order) and (stop - start + 1) * len(ids[order[stop]]) <= self.batch_tokens:
                    stop += 1
                batches.append(order[start:stop])
                start = stop

            def run(rows: list[int]) -> list[Any]:
                with torch.inference_mode():   # thread-local: set in each worker
                    return self._embed_batch([ids[i] for i in rows], reduce)

            # on CPU several batches at once, one torch thread each (BERTScore's plan: independent streams scale
            # better than splitting each small product; a batch is computed the same way whatever the count)
            plan = thread_plan(num_threads, self.device)
            for rows, vectors in zip(batches, parallel_map(run, batches, plan)):
                for index, vector in zip(rows, vectors):
                    self.cache.put((kind, todo[index]), vector, items=1, nbytes=vector.numel() * 4)
        found = {key: self.cache.get((kind, key)) for key in wanted}
        rows = [found[key] if found[key] is not None else self._vectors([key], sequences_of, reduce, num_threads)[0]
                for key in keys]
        return torch.stack(rows) if rows else torch.zeros((0, self.encoder.config.hidden_size))

    def _sentence_vector(self, states: Any, length: int) -> Any:
        return self._pool(self._mix(states), states, length)

    def _first_vector(self, states: Any, length: int) -> Any:
        return self._mix(states)[0]   # UnifiedMetric.forward: embeddings[:, 0, :]

    def _embed_batch(self, batch: list[list[int]], reduce: Any) -> list[Any]:
        torch = self.torch
        lengths = [len(row) for row in batch]
        width = max(lengths)
        input_ids = torch.full((len(batch), width), self.pad_id, dtype=torch.long)
        for row, sequence in enumerate(batch):
            input_ids[row, :len(sequence)] = torch.tensor(sequence, dtype=torch.long)
        input_ids = input_ids.to(self.device)
        if self.packed is not None:   # (tokens, states, hidden) of the real tokens only
            states = self.packed.hidden_states(input_ids, lengths, all_layers=True).split(lengths)
            per_sentence = [sentence.transpose(0, 1) for sentence in states]    # (states, tokens, hidden)
        else:
            mask = (torch.arange(width)[None, :] < torch.tensor(lengths)[:, None]).long().to(self.device)
            hidden = torch.stack(self.encoder(input_ids=input_ids, attention_mask=mask, output_hidden_states=True,
                                              return_dict=True).hidden_states, dim=1)
            per_sentence = [hidden[row, :, :length] for row, length in enumerate(lengths)]
        per_sentence = [states.float() for states in per_sentence]
        return [reduce(states, len(ids)) for states, ids in zip(per_sentence, batch)]

    def _mix(self, states: Any) -> Any:
        """One sentence's ``(states, tokens, hidden)`` -> ``(tokens, hidden)``: LayerwiseAttention.forward."""
        if self.layer != "mix":
            return states[int(self.layer)]
        torch = self.torch
        if self.layer_norm:   # _layer_norm: mean and variance over the sentence's real tokens and units
            mean = states.mean(dim=(1, 2), keepdim=True)
            variance = ((states - mean) ** 2).mean(dim=(1, 2), keepdim=True)
            states = (states - mean) / torch.sqrt(variance + 1e-12)
        pieces = [weight * tensor for weight, tensor in zip(self.layer_weights, states)]
        return self.gamma * sum(pieces)

    def _pool(self, tokens: Any, states: Any, length: int) -> Any:
        """compute_sentence_embedding's pooling of one sentence's mixed ``(tokens, hidden)``."""
        if self.pool == "avg":
            return tokens.sum(dim=0) / float(length)
        if self.pool == "max":
            return tokens.max(dim=0).values
        if self.pool == "default":   # the encoder's sentemb: the last state's first token, whatever the mix
            return states[-1, 0]
        return tokens[0]

    # -- scores -----------------------------------------------------------------------------------------------
    def estimate(self, mt: Any, src: Any, ref: Any | None) -> np.ndarray:
        """The estimator's score of each row (float32 computed, float64 returned)."""
        torch = self.torch
        if ref is None:
            features = torch.cat((mt, src, mt * src, torch.abs(mt - src)), dim=1)
        else:
            features = torch.cat((mt, ref, mt * ref, torch.abs(mt - ref), mt * src, torch.abs(mt - src)), dim=1)
        with torch.inference_mode():
            return self.estimator(features.to(self.device)).view(-1).float().cpu().numpy().astype(np.float64)
