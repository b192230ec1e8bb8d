"""Padding-free ("packed") forward pass for BERT-family encoders on CPU.

The real tokens of a batch are packed into one ``(n_tokens, hidden)`` matrix, so every position-wise part of a
layer (Q/K/V projections, attention output, feed-forward, layer norms) runs on real tokens only, with the model's
own weights, activation and layer-norm modules. Self-attention runs within each sequence without a mask, with
torch's attention per group of equal-length sequences (consecutive in refscore's length-sorted batches). This is
the model's math, all of it in torch: the differences with the Hugging Face forward are that no padded position is
computed and that each residual is added to the bias before the product is accumulated onto it (the outputs agree
to float rounding, ~1e-7).

The largest activations live in a :class:`Workspace` that a worker thread reuses from batch to batch, so they are
not allocated (and page-faulted by the operating system) again for every batch.

It is used only for architectures whose layers have the standard BERT structure (:data:`PACKED_MODELS`), and only
after a check against the model's own forward on a small input; anything else runs the Hugging Face forward.
"""
from __future__ import annotations

import contextlib
import queue
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from refscore.metrics.bertscore.deps import torch_and_transformers

__all__ = [
    "CHECK_TOLERANCE", "EXACT_ATTENTION", "length_runs", "MIN_ROWS", "PACKED_MODELS", "PackedEncoder", "real_tokens",
    "unsupported_reason", "Workspace", "WorkspacePool",
]

#: Encoder classes whose embeddings and layers have the standard BERT structure (``BertLayer`` and its copies).
PACKED_MODELS = {"BertModel": "BertLayer", "RobertaModel": "RobertaLayer", "XLMRobertaModel": "XLMRobertaLayer",
                 "CamembertModel": "CamembertLayer"}
#: Attention implementations that compute plain softmax attention.
EXACT_ATTENTION = {None, "eager", "sdpa"}
#: Largest difference with the Hugging Face forward accepted by the start-up check (normalised hidden states).
CHECK_TOLERANCE = 1e-5
#: Lengths of the random sequences of the start-up check (two of equal length, to exercise the runs).
_CHECK_LENGTHS = (9, 5, 5)
#: Lengths of the random sequences of the row-independence check (longest first, as refscore's batches): 76 rows
#: together, from 2 (an empty sentence) to 40 alone.
_INDEPENDENCE_LENGTHS = (40, 12, 7, 7, 5, 3, 2)
#: Fewest token rows of a packed batch's products (:meth:`PackedEncoder.hidden_states` adds a filler below it).
MIN_ROWS = 16


def unsupported_reason(model: Any, device: str) -> str | None:
    """Why the packed forward cannot run ``model`` (None when it can)."""
    layer_class = PACKED_MODELS.get(type(model).__name__)
    if layer_class is None:
        return f"{type(model).__name__} is not one of {', '.join(sorted(PACKED_MODELS))}"
    if device.split(":")[0] != "cpu":
        return f"device {device} is not the CPU"
    if model.training:
        return "the model is in training mode"
    config = model.config
    if getattr(config, "is_decoder", False) or getattr(config, "add_cross_attention", False):
        return "the model is configured as a decoder"
    if getattr(config, "position_embedding_type", "absolute") != "absolute":
        return f"position_embedding_type={config.position_embedding_type!r} (relative attention)"
    if getattr(config, "_attn_implementation", None) not in EXACT_ATTENTION:
        return f"attention implementation {config._attn_implementation!r}"
    for index, layer in enumerate(model.encoder.layer):
        if type(layer).__name__ != layer_class:
            return f"layer {index} is a {type(layer).__name__}, not a {layer_class}"
    return None


def _is_exact_gelu(activation: Any) -> bool:
    """Whether ``activation`` is transformers' ``GELUActivation`` computing ``torch.nn.functional.gelu`` (erf)."""
    torch, _ = torch_and_transformers()
    return (type(activation).__name__ == "GELUActivation"
            and getattr(activation, "act", None) is torch.nn.functional.gelu)


@dataclass(frozen=True)
class _AttentionShape:
    heads: int
    head_size: int
    scaling: float


def _attention_shape(self_attention: Any) -> _AttentionShape:
    head_size = int(self_attention.attention_head_size)
    scaling = float(getattr(self_attention, "scaling", head_size ** -0.5))
    return _AttentionShape(int(self_attention.num_attention_heads), head_size, scaling)


def length_runs(lengths: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(first token, number of sequences, length)`` of each run of consecutive equal lengths.

    >>> length_runs([4, 4, 3, 4])
    [(0, 2, 4), (8, 1, 3), (11, 1, 4)]
    """
    runs: list[tuple[int, int, int]] = []
    token = 0
    for length in lengths:
        if runs and runs[-1][2] == length:
            first, count, _ = runs[-1]
            runs[-1] = (first, count + 1, length)
        else:
            runs.append((token, 1, length))
        token += length
    return runs


def real_tokens(width: int, lengths: Sequence[int]) -> Any:
    """``(len(lengths), width)`` boolean tensor: true at each row's first ``lengths[row]`` positions.

    >>> real_tokens(3, [3, 1]).tolist()
    [[True, True, True], [True, False, False]]
    """
    torch, _ = torch_and_transformers()
    return torch.from_numpy(np.arange(width)[None, :] < np.asarray(lengths)[:, None])


class Workspace:
    """Activation buffers for one batch at a time: each named buffer grows to the largest batch seen and is reused
    by the next batch."""

    def __init__(self) -> None:
        self._buffers: dict[str, Any] = {}

    def matrix(self, name: str, rows: int, columns: int, dtype: Any) -> Any:
        """A ``(rows, columns)`` matrix of ``dtype`` in buffer ``name`` (uninitialised values)."""
        torch, _ = torch_and_transformers()
        size = rows * columns
        buffer = self._buffers.get(name)
        if buffer is None or buffer.numel() < size or buffer.dtype != dtype:
            buffer = self._buffers[name] = torch.empty(size, dtype=dtype)
        return buffer[:size].view(rows, columns)


class WorkspacePool:
    """The workspaces of one call's worker threads: a batch borrows one and gives it back when done, so there are
    as many workspaces as batches in progress at a time."""

    def __init__(self) -> None:
        self._idle: queue.SimpleQueue[Workspace] = queue.SimpleQueue()

    @contextlib.contextmanager
    def borrow(self) -> Iterator[Workspace]:
        try:
            workspace = self._idle.get_nowait()
        except queue.Empty:
            workspace = Workspace()
        try:
            yield workspace
        finally:
            self._idle.put(workspace)


class PackedEncoder:
    """The packed forward of one BERT-family model (see the module docstring); build with :meth:`for_model`."""

    def __init__(self, model: Any, pad_id: int = 0) -> None:
        self.model = model
        self.pad_id = pad_id
        self.layers = list(model.encoder.layer)
        self.shapes = [_attention_shape(layer.attention.self) for layer in self.layers]
        self.exact_gelu = [_is_exact_gelu(layer.intermediate.intermediate_act_fn) for layer in self.layers]
        self.stacked = [_stack_projections(layer.attention.self) for layer in self.layers]

    @classmethod
    def for_model(cls, model: Any, device: str, pad_id: int) -> PackedEncoder | None:
        """The packed forward of ``model``, or None when the architecture is not supported or the check against
        the model's own forward fails."""
        if unsupported_reason(model, device) is not None:
            return None
        packed = cls(model, pad_id)
        return packed if packed.agrees_with_model(pad_id) else None

    def hidden_states(self, input_ids: Any, lengths: Sequence[int], all_layers: bool,
                      workspace: Workspace | None = None) -> Any:
        """``(n_tokens, n_states, hidden)`` hidden states of the real tokens of the padded ``input_ids`` (rows in
        order, each row's first ``lengths[row]`` tokens): the last layer only, or every state from the embeddings
        on with ``all_layers``. The largest intermediate activations are computed in ``workspace`` (a new one by
        default). A batch of fewer than :data:`MIN_ROWS` tokens gets a filler sequence of pad ids (its states are
        dropped): MKL sums a product of 1-3 rows in another order than in a larger one."""
        torch, _ = torch_and_transformers()
        filler = MIN_ROWS - sum(lengths)
        if filler > 0:
            padded = torch.full((input_ids.shape[0] + 1, max(input_ids.shape[1], filler)), self.pad_id,
                                dtype=input_ids.dtype)
            padded[:-1, :input_ids.shape[1]] = input_ids
            return self.hidden_states(padded, [*lengths, filler], all_layers, workspace)[:MIN_ROWS - filler]
        workspace = workspace or Workspace()
        hidden = self.model.embeddings(input_ids=input_ids)[real_tokens(input_ids.shape[1], lengths)]
        states = [hidden] if all_layers else []
        runs = length_runs(lengths)
        for layer, shape, exact_gelu, (weight, bias) in zip(self.layers, self.shapes, self.exact_gelu,
                                                             self.stacked):
            out = workspace.matrix("projections", hidden.shape[0], weight.shape[0], hidden.dtype)
            products = torch.addmm(bias, hidden, weight.t(), out=out)
            hidden = self._layer(layer, shape, exact_gelu, hidden, runs, workspace, products)
            if all_layers:
                states.append(hidden)
        return torch.stack(states, dim=1) if all_layers else hidden.unsqueeze(1)

    def _layer(self, layer: Any, shape: _AttentionShape, exact_gelu: bool, hidden: Any,
               runs: list[tuple[int, int, int]], workspace: Workspace, products: Any) -> Any:
        """One BERT layer on the packed ``hidden``, whose stacked query/key/value ``products`` are computed;
        the result is a new tensor."""
        torch, _ = torch_and_transformers()
        context = self._self_attention(shape, products, runs, workspace)
        attention_output = layer.attention.output
        attended = _dense_residual_norm(attention_output.dense, context, hidden, attention_output.LayerNorm,
                                        workspace)
        intermediate = _dense_into(layer.intermediate.dense, attended, workspace, "intermediate")
        if exact_gelu:  # the same kernel, in place
            torch.ops.aten.gelu_(intermediate)
        else:
            intermediate = layer.intermediate.intermediate_act_fn(intermediate)
        return _dense_residual_norm(layer.output.dense, intermediate, attended, layer.output.LayerNorm, workspace)

    def _self_attention(self, shape: _AttentionShape, products: Any, runs: list[tuple[int, int, int]],
                        workspace: Workspace) -> Any:
        """Multi-head softmax attention within each sequence from the stacked query/key/value ``products``, with
        torch's attention, one run (:func:`length_runs`) of equal-length sequences at a time."""
        torch, _ = torch_and_transformers()
        projections = products.chunk(3, dim=1)
        n_rows, n_columns = projections[0].shape
        context = workspace.matrix("context", n_rows, n_columns, products.dtype)
        attention = torch.nn.functional.scaled_dot_product_attention
        for first, count, length in runs:
            rows = slice(first, first + count * length)
            split = (count, length, shape.heads, shape.head_size)
            heads = [matrix[rows].view(split).transpose(1, 2) for matrix in projections]
            output = attention(*heads, scale=shape.scaling)
            context[rows].view(split).copy_(output.transpose(1, 2))
        return context

    def agrees_with_model(self, pad_id: int) -> bool:
        """Whether this forward gives the model's own (padded, masked) last hidden states on a small batch."""
        torch, _ = torch_and_transformers()
        input_ids, mask = _random_batch(int(self.model.config.vocab_size), _CHECK_LENGTHS, pad_id, seed=0)
        with torch.inference_mode():
            expected = self.model(input_ids, attention_mask=mask)[0][mask.bool()]
            ours = self.hidden_states(input_ids, _CHECK_LENGTHS, all_layers=False)[:, 0]
        if ours.shape != expected.shape:
            return False
        scale = expected.abs().amax(dim=-1, keepdim=True).clamp_min(1e-30)
        return bool(((ours - expected).abs() / scale).max() <= CHECK_TOLERANCE)

    def rows_independent(self, pad_id: int) -> bool:
        """Whether, with torch's current thread setting, every sequence gets the same bits alone and among other
        sequences (every hidden state): each row of the products summed in the same order whatever the row count.
        Checked on random sequences of :data:`_INDEPENDENCE_LENGTHS`, each alone and all in one batch."""
        torch, _ = torch_and_transformers()
        config = self.model.config
        vocabulary, positions = int(config.vocab_size), int(getattr(config, "max_position_embeddings", 512))
        lengths = [min(length, positions - 2) for length in _INDEPENDENCE_LENGTHS]   # RoBERTa's offset of 2
        input_ids, _ = _random_batch(vocabulary, lengths, pad_id, seed=1)
        with torch.inference_mode():
            together = self.hidden_states(input_ids, lengths, all_layers=True).split(lengths)
            return all(torch.equal(self.hidden_states(input_ids[row:row + 1, :length], [length], all_layers=True),
                                   together[row]) for row, length in enumerate(lengths))


def _random_batch(vocabulary: int, lengths: Sequence[int], pad_id: int, seed: int) -> tuple[Any, Any]:
    """Padded random token ids of the given lengths and their attention mask, both ``(len(lengths), longest)``."""
    torch, _ = torch_and_transformers()
    input_ids = torch.full((len(lengths), max(lengths)), pad_id, dtype=torch.long)
    mask = torch.zeros_like(input_ids)
    generator = torch.Generator().manual_seed(seed)
    for row, length in enumerate(lengths):
        input_ids[row, :length] = torch.randint(0, vocabulary, (length,), generator=generator)
        mask[row, :length] = 1
    return input_ids, mask


def _stack_projections(self_attention: Any) -> tuple[Any, Any]:
    """One ``(3·hidden, hidden)`` weight and bias for the query, key and value projections; the projections'
    parameters become views of them (same values, no second copy)."""
    torch, _ = torch_and_transformers()
    projections = [getattr(self_attention, name) for name in ("query", "key", "value")]
    with torch.no_grad():
        weight = torch.cat([p.weight for p in projections])
        bias = torch.cat([p.bias for p in projections])
        rows = projections[0].weight.shape[0]
        for index, projection in enumerate(projections):
            projection.weight.data = weight[index * rows:(index + 1) * rows]
            projection.bias.data = bias[index * rows:(index + 1) * rows]
    return weight, bias


def _dense_into(dense: Any, inputs: Any, workspace: Workspace, name: str) -> Any:
    """``dense(inputs)`` (a ``torch.nn.Linear``), written into the workspace's buffer ``name``."""
    torch, _ = torch_and_transformers()
    out = workspace.matrix(name, inputs.shape[0], dense.out_features, inputs.dtype)
    return torch.addmm(dense.bias, inputs, dense.weight.t(), out=out)


def _dense_residual_norm(dense: Any, inputs: Any, residual: Any, norm: Any, workspace: Workspace) -> Any:
    """``norm(dense(inputs) + residual)``: the residual plus the bias is computed first (into the workspace) and
    the product accumulated onto it, so no other matrix is allocated or passed over; the result is a new tensor."""
    torch, _ = torch_and_transformers()
    n_rows, n_columns = residual.shape
    total = workspace.matrix("pre_norm", n_rows, n_columns, residual.dtype)
    torch.add(residual, dense.bias, out=total).addmm_(inputs, dense.weight.t())
    return norm(total)
