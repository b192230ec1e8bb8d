"""Drop-in for Hugging Face ``evaluate``: ``load(name).compute(predictions=..., references=...)``.

Returns the same dict keys and values as the HF metric scripts, computed by refscore (no hub download).

>>> from refscore.compat import evaluate
>>> sorted(evaluate.list_metrics())[:1]  # doctest: +SKIP
['bertscore']
"""
from __future__ import annotations

from typing import Any

from refscore.lazy import import_entry
from refscore.errors import InputError

#: HF metric name -> "module:Class" of an object with ``compute(**kwargs) -> dict``.
_MODULES: dict[str, str] = {
    "chrf": "refscore.compat._evaluate_chrf:ChrF",
    "ter": "refscore.compat._evaluate_ter:Ter",
    "rouge": "refscore.compat._evaluate_rouge:Rouge",
    "bleu": "refscore.compat._evaluate_bleu:Bleu",
    "google_bleu": "refscore.compat._evaluate_bleu:GoogleBleu",
    "sacrebleu": "refscore.compat._evaluate_bleu:Sacrebleu",
    "bertscore": "refscore.compat._evaluate_bertscore:BERTScore",
    "meteor": "refscore.compat._evaluate_meteor:Meteor",
    "exact_match": "refscore.compat._evaluate_exact_match:ExactMatch",
    "squad": "refscore.compat._evaluate_squad:Squad",
    "squad_v2": "refscore.compat._evaluate_squad:SquadV2",
    "wer": "refscore.compat._evaluate_error_rates:WER",
    "cer": "refscore.compat._evaluate_error_rates:CER",
}


def list_metrics() -> list[str]:
    """The HF evaluate metric names this module reproduces."""
    return list(_MODULES)


def load(path: str, *args: Any, **kwargs: Any) -> Any:
    """Like ``evaluate.load(path)``: returns an object whose ``compute(predictions=..., references=..., ...)``
    gives HF evaluate's output. Extra positional/keyword arguments (``config_name``, ``cache_dir``...) are
    accepted and ignored, except those the metric itself documents."""
    name = path.rstrip("/").split("/")[-1].lower()
    if name not in _MODULES:
        raise InputError(f"refscore.compat.evaluate.load: unknown metric {path!r}; available: {', '.join(_MODULES)}")
    return import_entry(_MODULES[name])(*args, **kwargs)
