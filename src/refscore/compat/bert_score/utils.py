"""bert-score 0.3.13's ``utils`` helpers that code imports: the model tables (``model2layers``, ``lang2model``),
``get_hash``, ``get_tokenizer``, ``get_model``, ``sent_encode`` and ``get_idf_dict`` (same ids, weights and
strings as bert-score), and bert-score's ``get_bert_embedding`` / ``bert_cos_score_idf`` over a model object
(:mod:`refscore.compat.bert_score._embedding`).

>>> model2layers["roberta-large"], lang2model["en"], lang2model["xx"]
(17, 'roberta-large', 'bert-base-multilingual-cased')
>>> get_hash("roberta-large", 17, False, False, False, False).startswith("roberta-large_L17_no-idf_version=0.3.12(")
True
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.models import from_pretrained as _from_pretrained
from refscore.metrics.bertscore.models import load_tokenizer, truncate_layers
from refscore.metrics.bertscore.tables import BERT_SCORE_HASH_VERSION, LANG_MODELS, MODEL_LAYERS, MULTILINGUAL_MODEL
from refscore.compat.bert_score._embedding import bert_cos_score_idf, get_bert_embedding, sent_encode  # noqa: F401
from refscore.errors import InputError

__all__: list[str] = []   # as bert-score: the names are imported explicitly (and re-exported by the package)

lang2model: defaultdict[str, str] = defaultdict(lambda: MULTILINGUAL_MODEL, LANG_MODELS)
model2layers: dict[str, int] = dict(MODEL_LAYERS)


def get_hash(model: str, num_layers: int, idf: bool, rescale_with_baseline: bool, use_custom_baseline: bool,
             use_fast_tokenizer: bool) -> str:
    """bert-score's hash string of the settings (it names the bert-score version as ``0.3.12``, as 0.3.13 does)."""
    _, transformers = torch_and_transformers()
    msg = "{}_L{}{}_version={}(hug_trans={})".format(model, num_layers, "_idf" if idf else "_no-idf",
                                                     BERT_SCORE_HASH_VERSION, transformers.__version__)
    if rescale_with_baseline:
        msg += "-custom-rescaled" if use_custom_baseline else "-rescaled"
    if use_fast_tokenizer:
        msg += "_fast-tokenizer"
    return msg


def get_tokenizer(model_type: str, use_fast: bool = False) -> Any:
    """The Hugging Face tokenizer of ``model_type`` (``AutoTokenizer``, slow unless ``use_fast``)."""
    return load_tokenizer(model_type, use_fast)


def get_model(model_type: str, num_layers: int, all_layers: Any = None) -> Any:
    """The model of ``model_type`` in eval mode, its encoder for encoder-decoder models, cut after ``num_layers``
    layers (unless ``all_layers``, which asks for every hidden state), as bert-score builds it."""
    _, transformers = torch_and_transformers()
    if "t5" in model_type:
        model = _from_pretrained(transformers.T5EncoderModel, model_type, "model")
    else:
        model = _from_pretrained(transformers.AutoModel, model_type, "model")
    model.eval()
    if hasattr(model, "decoder") and hasattr(model, "encoder"):
        model = model.encoder
    if not all_layers:
        truncate_layers(model, num_layers, model_type)
    else:
        for owner in (model, getattr(model, "encoder", None), getattr(model, "transformer", None)):
            if owner is not None and hasattr(owner, "output_hidden_states"):
                owner.output_hidden_states = True
                break
    return model


def get_idf_dict(arr: Sequence[str], tokenizer: Any, nthreads: int = 4) -> defaultdict[int, float]:
    """bert-score's IDF weights of ``arr``: ``log((M + 1) / (df + 1))`` per token id, ``log(M + 1)`` for ids not
    in ``arr`` (a ``defaultdict``). ``nthreads`` is accepted; the sentences are encoded in this process."""
    if isinstance(arr, str):
        raise InputError("get_idf_dict: arr must be a list of sentences, got one str; wrap it in a list")
    document_frequency: Counter[int] = Counter()
    for sentence in arr:
        document_frequency.update(set(sent_encode(tokenizer, sentence)))
    num_docs = len(arr)
    idf_dict: defaultdict[int, float] = defaultdict(lambda: math.log((num_docs + 1) / 1))
    idf_dict.update({idx: math.log((num_docs + 1) / (count + 1)) for idx, count in document_frequency.items()})
    return idf_dict
