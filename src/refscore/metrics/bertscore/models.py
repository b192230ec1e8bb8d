"""Choosing and loading the encoder: bert-score's model/layer defaults, offline-first loading, layer truncation.

A model is a local directory or a Hugging Face hub name. Hub names are looked up in the local cache first; the
network is tried only when the cache misses and ``HF_HUB_OFFLINE`` is not set, and a failure explains how to point
at a local copy.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.tables import LANG_MODELS, MODEL_LAYERS, MULTILINGUAL_MODEL
from refscore.checks import check_choice, check_int
from refscore.errors import InputError, InputTypeError

__all__ = [
    "attention_backends", "check_model_choice", "count_layers", "DTYPES", "from_pretrained", "hub_offline", "load_config", "load_model",
    "load_tokenizer", "LoadedModel", "local_layer_count", "model_label", "resolve_device", "resolve_dtype",
    "resolve_model_type", "resolve_num_layers", "truncate_layers",
]

DTYPES = ("float32", "bfloat16", "float16")


def resolve_model_type(model_type: str | None, lang: str | None) -> str:
    """The model to use: ``model_type`` if given, else bert-score's model for ``lang``.

    >>> resolve_model_type(None, "EN"), resolve_model_type(None, "de")
    ('roberta-large', 'bert-base-multilingual-cased')
    """
    if model_type is not None:
        if not isinstance(model_type, str) or not model_type.strip():
            raise InputError(f"model_type must be a model name or a local directory, got {model_type!r}")
        return model_type
    if lang is None:
        raise InputError("BERTScore needs a model: give model_type (a hub name or a local directory) or lang "
                         "(e.g. lang='en' uses roberta-large, as bert-score does)")
    return LANG_MODELS.get(lang.lower(), MULTILINGUAL_MODEL)


def hub_offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` (or ``TRANSFORMERS_OFFLINE``) asks for no network access."""
    return any(os.environ.get(name, "").strip().upper() in {"1", "ON", "YES", "TRUE"}
               for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def from_pretrained(loader: Any, model_type: str, what: str, **kwargs: Any) -> Any:
    """``loader.from_pretrained`` from a local directory or the local cache first, the network only if allowed."""
    local = os.path.expanduser(model_type)
    if os.path.isdir(local):
        try:
            return loader.from_pretrained(local, **kwargs)
        except OSError as exc:  # e.g. a directory without weights or tokenizer files
            raise InputError(f"cannot load the {what} of model {model_type!r} from its directory: "
                             f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; give the directory "
                             f"that holds the model's config.json, weights and tokenizer files") from None
    if os.path.isabs(local) or model_type.startswith(("./", "../", "~", ".\\", "..\\")) or os.path.exists(local):
        state = "is not a directory" if os.path.exists(local) else "does not exist"
        raise InputError(f"model_type {model_type!r} looks like a local path but {state}; give the directory that "
                         f"holds the model's config.json, weights and tokenizer files")
    try:
        return loader.from_pretrained(model_type, local_files_only=True, **kwargs)
    except OSError as cache_miss:
        reason = cache_miss
    if not hub_offline():
        try:
            return loader.from_pretrained(model_type, **kwargs)
        except OSError as download_error:
            reason = download_error
    offline = " (HF_HUB_OFFLINE is set, so nothing is downloaded)" if hub_offline() else ""
    raise InputError(
        f"cannot load the {what} of model {model_type!r}: it is not a local directory, not in the Hugging Face "
        f"cache and could not be downloaded{offline}. Download it once where there is network access "
        f"(`huggingface-cli download {model_type}`), or pass the path of a local copy as model_type="
        f"'/path/to/model' (a directory with config.json, the weights and the tokenizer files). "
        f"Cause: {str(reason).splitlines()[0] if str(reason) else type(reason).__name__}") from None


def load_config(model_type: str, trust_remote_code: bool = False) -> Any:
    _, transformers = torch_and_transformers()
    return from_pretrained(transformers.AutoConfig, model_type, "configuration",
                            trust_remote_code=trust_remote_code)


def load_tokenizer(model_type: str, use_fast: bool = False, trust_remote_code: bool = False) -> Any:
    """The model's tokenizer; ``use_fast=False`` by default, as in bert-score (transformers 5 has fast ones only)."""
    _, transformers = torch_and_transformers()
    return from_pretrained(transformers.AutoTokenizer, model_type, "tokenizer", use_fast=use_fast,
                            trust_remote_code=trust_remote_code)


def count_layers(config: Any) -> int | None:
    """Number of transformer layers of an encoder config (``None`` when the config does not say)."""
    for name in ("num_hidden_layers", "n_layers", "num_layers", "encoder_layers", "n_layer"):
        value = getattr(config, name, None)
        if isinstance(value, int):
            return value
    return None


def local_layer_count(model_type: str) -> int | None:
    """The layer count in a local model directory's ``config.json``, read without transformers or weights
    (``None`` for a hub name or a config that does not say)."""
    path = Path(os.path.expanduser(model_type)) / "config.json"
    if not path.is_file():
        return None
    try:
        fields = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"model_type {model_type!r}: cannot read {path}: {exc}") from None
    return count_layers(SimpleNamespace(**fields)) if isinstance(fields, dict) else None


def check_model_choice(model_type: str | None, num_layers: int | None, lang: str | None) -> None:
    """The checks of :func:`resolve_num_layers` that need no model: a model is named, its layer is known (given,
    or in bert-score's table) and, for a local directory, within its ``config.json``'s layer count. Run before
    anything loads, so a bad choice fails at once instead of after loading the weights.

    >>> check_model_choice("roberta-large", None, None)
    >>> check_model_choice("my-org/unknown-model", None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: num_layers is required for model 'my-org/unknown-model': ...
    """
    if lang is not None and not isinstance(lang, str):
        return  # the scorer's own check reports the type
    model_type = resolve_model_type(model_type, lang)
    if num_layers is not None and model_type in MODEL_LAYERS:
        return  # a hub model's layer count is checked against its config when it loads
    resolve_num_layers(model_type, num_layers, SimpleNamespace(num_hidden_layers=local_layer_count(model_type)))


def resolve_num_layers(model_type: str, num_layers: int | None, config: Any) -> int:
    """``num_layers`` if given (checked against the model), else bert-score's default for known model names."""
    available = count_layers(config)
    if num_layers is None:
        if model_type not in MODEL_LAYERS:
            size = f"it has {available} layers; " if available is not None else ""
            raise InputError(
                f"num_layers is required for model {model_type!r}: it is not in bert-score's table of tuned default "
                f"layers; {size}pass num_layers=N to use the output of layer N (0 = embeddings)")
        num_layers = MODEL_LAYERS[model_type]
    check_int(num_layers, "num_layers", hint="0 = embedding output")
    if num_layers < 0 or (available is not None and num_layers > available):
        upper = available if available is not None else "the model's layer count"
        raise InputError(f"num_layers={num_layers} is out of range for model {model_type!r}: choose 0..{upper} "
                         f"(0 = embedding output, {upper} = last layer)")
    return num_layers


def _keep_first(layers: Any, num_layers: int) -> Any:
    torch, _ = torch_and_transformers()
    return torch.nn.ModuleList(list(layers[:num_layers]))


def truncate_layers(model: Any, num_layers: int, model_type: str) -> None:
    """Drop the layers above ``num_layers`` in place, exactly as ``bert_score.utils.get_model`` does, so that the
    model's last hidden state is the output of layer ``num_layers`` and no unused layer is run."""
    if hasattr(model, "n_layers"):  # xlm
        model.n_layers = num_layers
    elif hasattr(model, "layer"):  # xlnet
        model.layer = _keep_first(model.layer, num_layers)
    elif hasattr(model, "encoder"):
        if hasattr(model.encoder, "albert_layer_groups"):
            model.encoder.config.num_hidden_layers = num_layers
        elif hasattr(model.encoder, "block"):  # t5
            model.encoder.block = _keep_first(model.encoder.block, num_layers)
        elif hasattr(model.encoder, "layer"):  # bert, roberta, electra, deberta...
            model.encoder.layer = _keep_first(model.encoder.layer, num_layers)
        else:
            raise InputError(f"model {model_type!r}: unsupported encoder architecture {type(model).__name__} "
                             f"(cannot find its layer list)")
    elif hasattr(model, "transformer"):  # distilbert
        model.transformer.layer = _keep_first(model.transformer.layer, num_layers)
    elif hasattr(model, "layers"):  # bart encoder
        model.layers = _keep_first(model.layers, num_layers)
    else:
        raise InputError(f"model {model_type!r}: unsupported architecture {type(model).__name__} "
                         f"(cannot find its layer list)")


def resolve_device(device: str | int | None) -> str:
    """``auto``/``None`` -> ``cuda`` when available, else ``cpu``; an int N -> ``cuda:N``; other strings are checked
    by torch (case-insensitive) and must name a device this machine has.

    >>> resolve_device("CPU")
    'cpu'
    """
    torch, _ = torch_and_transformers()
    if device is None or device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"cuda:{device}"  # bert-score silently ignored device=0 (bert_score#77)
    if not isinstance(device, str):
        raise InputTypeError(f"device must be 'auto', 'cpu', 'cuda' or 'cuda:N', got {device!r}")
    device = device.strip().lower()
    try:
        parsed = torch.device(device)
    except (RuntimeError, ValueError):
        raise InputError(f"device={device!r} is not a torch device; use 'auto', 'cpu', 'cuda' or 'cuda:N'") from None
    kind, index = parsed.type, parsed.index
    backend = torch.backends.mps if kind == "mps" else getattr(torch, kind, None)
    is_available = getattr(backend, "is_available", None)
    if kind != "cpu" and (is_available is None or not is_available()):
        raise InputError(f"device={device!r} but torch has no {kind.upper()} device here; use device='cpu' or "
                         f"'auto'")
    if kind == "cuda" and index is not None and index >= torch.cuda.device_count():
        raise InputError(f"device={device!r} but this machine has {torch.cuda.device_count()} CUDA device(s) "
                         f"(cuda:0..cuda:{torch.cuda.device_count() - 1})")
    return device


def resolve_dtype(dtype: str) -> Any:
    torch, _ = torch_and_transformers()
    check_choice(dtype, "dtype", DTYPES)
    return getattr(torch, dtype)


@dataclass
class LoadedModel:
    """An encoder ready to embed: the truncated model, its tokenizer and facts about them."""

    model_type: str
    model: Any
    tokenizer: Any
    num_layers: int
    total_layers: int | None
    all_layers: bool
    device: str
    dtype: str


@contextlib.contextmanager
def _without_loading_bar(transformers: Any) -> Iterator[None]:
    """transformers 5 draws a "Loading weights" bar even when stderr is not a terminal; refscore's bars follow one
    policy (refscore.progress), so that one is off while the weights load (hub downloads keep theirs)."""
    logging = transformers.utils.logging
    enabled = logging.is_progress_bar_enabled()
    logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            logging.enable_progress_bar()


#: Configurations that bert-score's T5 rule (T5EncoderModel) is meant for.
T5_MODEL_TYPES = frozenset({"t5", "mt5", "umt5", "longt5"})


def is_t5(model_type: str, config: Any) -> bool:
    """bert-score loads a model whose name contains ``"t5"`` as ``T5EncoderModel``; refscore does so only when its
    configuration is a T5 one too, so that a directory such as ``.../tiny_bert5`` still loads as the BERT it is
    (bert-score fails there: it builds a T5 model from a BERT configuration).

    >>> class Config: model_type = "bert"
    >>> is_t5("/tmp/tiny_bert5", Config()), is_t5("t5-base", type("T5", (), {"model_type": "t5"})())
    (False, True)
    """
    return "t5" in model_type and getattr(config, "model_type", None) in T5_MODEL_TYPES


def load_model(model_type: str, num_layers: int | None, *, all_layers: bool = False, device: str | None = "auto",
               dtype: str = "float32", use_fast_tokenizer: bool = False,
               trust_remote_code: bool = False) -> LoadedModel:
    """Load tokenizer and encoder as bert-score does (T5 -> encoder only, encoder-decoder -> ``.encoder``), keep only
    the layers needed, move to ``device`` and ``dtype`` and switch to eval mode."""
    _, transformers = torch_and_transformers()
    config = load_config(model_type, trust_remote_code)
    if all_layers and num_layers is None and model_type not in MODEL_LAYERS:
        num_layers = count_layers(config)  # every layer is used; the number only appears in the hash
    num_layers = resolve_num_layers(model_type, num_layers, config)
    torch_dtype = resolve_dtype(dtype)
    device = resolve_device(device)
    tokenizer = load_tokenizer(model_type, use_fast_tokenizer, trust_remote_code)
    loader = transformers.T5EncoderModel if is_t5(model_type, config) else transformers.AutoModel
    with _without_loading_bar(transformers):
        model = from_pretrained(loader, model_type, "weights", trust_remote_code=trust_remote_code)
    if hasattr(model, "decoder") and hasattr(model, "encoder"):
        model = model.encoder
    total_layers = count_layers(config)
    if not all_layers:
        truncate_layers(model, num_layers, model_type)
    model.eval()
    if dtype == "bfloat16" and device == "cpu":   # bfloat16 weights, float32 arithmetic (docs/bertscore.md)
        round_linear_weights(model)
        torch_dtype = resolve_dtype("float32")
    model.to(device=device, dtype=torch_dtype)
    return LoadedModel(model_type, model, tokenizer, num_layers, total_layers, all_layers, device, dtype)


def round_linear_weights(model: Any) -> None:
    """Round the weight matrices of the model's linear layers to bfloat16 values (kept as float32): a CPU has no
    fast bfloat16 arithmetic here, and computing in float32 from bfloat16 weights keeps the scores within 1e-3
    of float32's, where running the model in bfloat16 does not (measured in docs/bertscore.md)."""
    torch, _ = torch_and_transformers()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear):
                module.weight.copy_(module.weight.to(torch.bfloat16).to(module.weight.dtype))


#: Files of a local model directory whose contents identify the model's configuration and vocabulary.
_FINGERPRINT_CONTENTS = ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "vocab.json",
                         "merges.txt", "special_tokens_map.json", "sentencepiece.bpe.model", "spiece.model")
#: Weight files, identified by name and size (hashing gigabytes of weights would cost more than scoring).
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".h5", ".msgpack")


def model_label(model_type: str) -> str:
    """How a signature names a model: a hub name as given; a local directory by its name and a fingerprint of
    its configuration, vocabulary and weight files, so that the same model copied to another path signs the same
    and a different model in the same path does not.

    >>> model_label("roberta-large")
    'roberta-large'
    """
    directory = Path(model_type)
    if not directory.is_dir():
        return model_type
    digest = hashlib.sha256()
    for file in sorted(directory.iterdir()):
        if file.name in _FINGERPRINT_CONTENTS:
            digest.update(f"{file.name}\0".encode() + file.read_bytes())
        elif file.suffix in _WEIGHT_SUFFIXES:
            digest.update(f"{file.name}\0{file.stat().st_size}\0".encode())
    return f"{directory.resolve().name}@{digest.hexdigest()[:12]}"


def attention_backends(torch: Any, device: str) -> contextlib.AbstractContextManager[Any]:
    """On CUDA, scaled-dot-product attention without cuDNN's backend, which torch prefers for bfloat16/float16: it
    builds an execution plan for every new (batch, length) shape, and length-sorted batches bring a new shape almost
    every time, so on an H200 building plans took longer than the model itself (docs/bertscore.md, "On a GPU").
    The flash and memory-efficient kernels need no plan. float32 never ran on cuDNN's backend, so it is unchanged.

    >>> import contextlib, torch
    >>> isinstance(attention_backends(torch, "cpu"), contextlib.nullcontext)
    True
    """
    if not str(device).startswith("cuda"):
        return contextlib.nullcontext()
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:  # torch < 2.3: no backend selection (and no cuDNN attention either)
        return contextlib.nullcontext()
    return sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])
