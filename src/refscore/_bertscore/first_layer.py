"""The first encoder layer's query/key/value products, computed once per distinct token id and once per position
instead of once per token.

The first layer's input is ``LN(x)`` with ``x = word[id] + type[0] + position[p]``, and a layer norm is affine
once the mean ``μ`` and reciprocal standard deviation ``r`` of ``x`` are known: ``LN(x) = γ∘(x − μ)·r + β``. As
``x − μ`` is the sum of the centred word and centred position terms, the stacked query/key/value weights ``W``
(biases ``b``) give

    W·LN(x) + b = r · (W_γ·(word[id] − mean(word[id])) + W_γ·(e[p] − mean(e[p]))) + (W·β + b)

with ``W_γ = W·diag(γ)`` and ``e[p] = type[0] + position[p]``. The first term depends on the token id only, the
second on the position only: :class:`FirstLayerProjection` keeps the second for every position of the model, and a
:class:`TokenTable` holds the first for the distinct ids of one call (the most frequent ones within
:data:`TABLE_BYTES`; the products of tokens with other ids are computed as usual; docs/bertscore.md gives the
count of distinct ids and tokens on the benchmark). It is the same math in another order, so the results agree
with the per-token products to float rounding (checked, with the rest of the packed forward, against the model's
own forward when the scorer is built).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore._bertscore.deps import torch_and_transformers
from refscore._bertscore.encoding import ChunkMap
from refscore._core._bert_first_layer import first_layer_products

#: Embedding modules whose forward is ``LayerNorm(word[id] + type[type_id] + position[p])`` (dropout aside).
STANDARD_EMBEDDINGS = {"BertEmbeddings", "RobertaEmbeddings", "XLMRobertaEmbeddings", "CamembertEmbeddings"}
#: Most memory a call's table of per-id products may take; the most frequent ids are kept when more are present.
TABLE_BYTES = 128 << 20
#: Rows per product when a table is computed (fixed, so the table does not depend on the thread count).
TABLE_CHUNK_ROWS = 1024


@dataclass(frozen=True)
class TokenTable:
    """One call's per-id term of the first layer's products: ``rows[slot_of[id]]`` (``slot_of[id] < 0``: not in
    the table, computed per token)."""

    slot_of: np.ndarray
    rows: Any


class FirstLayerProjection:
    """The per-position term, the stacked weights and the constant of the first layer's query/key/value products
    (see the module docstring); build with :meth:`for_model`."""

    def __init__(self, model: Any, weight: Any, bias: Any) -> None:
        torch, _ = torch_and_transformers()
        embeddings = model.embeddings
        self.embeddings = embeddings
        self.norm = embeddings.LayerNorm
        self.weight, self.bias = weight, bias
        self.roberta_positions = hasattr(embeddings, "create_position_ids_from_input_ids")
        with torch.inference_mode():
            self.constant = torch.addmv(bias, weight, self.norm.bias)
            self.scaled_weight_t = (weight * self.norm.weight).t().contiguous()
            self.type_row = embeddings.token_type_embeddings.weight[0]
            self.position_rows = self._centred_products(embeddings.position_embeddings.weight + self.type_row)

    @classmethod
    def for_model(cls, model: Any, weight: Any, bias: Any) -> FirstLayerProjection | None:
        """The projection of ``model``'s first layer, whose query, key and value weights and biases stacked are
        ``weight`` and ``bias``; None when its embeddings are not the standard sum or its weights not float32."""
        torch, _ = torch_and_transformers()
        embeddings = model.embeddings
        if type(embeddings).__name__ not in STANDARD_EMBEDDINGS:
            return None
        if embeddings.word_embeddings.weight.dtype != torch.float32:
            return None
        if type(getattr(embeddings, "LayerNorm", None)) is not torch.nn.LayerNorm:
            return None
        token_types = getattr(embeddings, "token_type_ids", None)
        if token_types is not None and bool(token_types.any()):
            return None
        return cls(model, weight, bias)

    def _centred_products(self, vectors: Any, map_chunks: ChunkMap = map) -> Any:
        """``W_γ·(v − mean(v))`` of each row ``v`` of ``vectors``, in chunks of :data:`TABLE_CHUNK_ROWS` rows
        (computed by ``map_chunks(function, chunk starts)``, e.g. by worker threads)."""
        torch, _ = torch_and_transformers()
        out = torch.empty((vectors.shape[0], self.weight.shape[0]), dtype=self.weight.dtype)

        def compute(start: int) -> None:
            with torch.inference_mode():
                chunk = vectors[start:start + TABLE_CHUNK_ROWS]
                centred = chunk - chunk.mean(dim=-1, keepdim=True)
                torch.mm(centred, self.scaled_weight_t, out=out[start:start + TABLE_CHUNK_ROWS])

        for _ in map_chunks(compute, range(0, vectors.shape[0], TABLE_CHUNK_ROWS)):
            pass
        return out

    def token_table(self, sequences: Sequence[np.ndarray], map_chunks: ChunkMap = map) -> TokenTable:
        """The per-id term for the ids of ``sequences`` (at least one; the most frequent ids within
        :data:`TABLE_BYTES`); its chunks are computed by ``map_chunks(function, items)`` (default: one after the
        other)."""
        torch, _ = torch_and_transformers()
        vocabulary = self.embeddings.word_embeddings.weight
        ids, counts = np.unique(np.concatenate(list(sequences)), return_counts=True)
        most_rows = TABLE_BYTES // (self.weight.shape[0] * self.weight.element_size())
        if len(ids) > most_rows:
            ids = np.sort(ids[np.argsort(-counts, kind="stable")[:most_rows]])
        slot_of = np.full(vocabulary.shape[0], -1, dtype=np.int64)
        slot_of[ids] = np.arange(len(ids))
        with torch.inference_mode():
            words = vocabulary[torch.from_numpy(ids)]
        return TokenTable(slot_of, self._centred_products(words, map_chunks))

    def position_ids(self, input_ids: Any, real: Any) -> Any:
        """The position id of each real token of the padded ``input_ids``, as the embeddings module computes it."""
        if self.roberta_positions:
            padded = self.embeddings.create_position_ids_from_input_ids(input_ids, self.embeddings.padding_idx)
        else:
            padded = self.embeddings.position_ids[:, :input_ids.shape[1]].expand(input_ids.shape)
        return padded[real]

    def embed(self, token_ids: Any, positions: Any) -> tuple[Any, Any]:
        """The embeddings module's output for the packed tokens (the same sums in the same order) and the
        reciprocal standard deviation of each token's layer-norm input."""
        torch, _ = torch_and_transformers()
        embeddings = self.embeddings
        summed = embeddings.word_embeddings(token_ids) + self.type_row
        summed = summed + embeddings.position_embeddings(positions)
        norm = self.norm
        hidden, _, rstd = torch.native_layer_norm(summed, norm.normalized_shape, norm.weight, norm.bias, norm.eps)
        return hidden, rstd

    def products(self, table: TokenTable, token_ids: Any, positions: Any, rstd: Any, hidden: Any,
                 out: Any) -> Any:
        """The first layer's stacked query/key/value products of the packed tokens, written into ``out``
        ``(tokens, 3·hidden)``: from the tables, or from ``hidden`` (the layer norm's output) for ids outside
        ``table``."""
        torch, _ = torch_and_transformers()
        token_ids = token_ids.numpy()
        slots = table.slot_of[token_ids]
        first_layer_products(table.rows.numpy(), self.position_rows.numpy(), slots, positions.numpy(),
                             rstd.numpy().reshape(-1), self.constant.numpy(), out.numpy())
        missing = torch.from_numpy(np.flatnonzero(slots < 0))
        if len(missing):
            out.index_copy_(0, missing, torch.addmm(self.bias, hidden[missing], self.weight.t()))
        return out
