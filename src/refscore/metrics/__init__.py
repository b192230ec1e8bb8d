"""Registry of metrics by name. Modules are imported only when a metric is used."""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from refscore._registry import import_entry
from refscore.errors import InputError

if TYPE_CHECKING:
    from refscore.protocol import Metric

#: name -> "module:Class". Keep the order: it is the column order of tables.
REGISTRY: dict[str, str] = {
    "bleu": "refscore.metrics.bleu:BLEU",
    "gleu": "refscore.metrics.gleu:GLEU",
    "chrf": "refscore.metrics.chrf:CHRF",
    "ter": "refscore.metrics.ter:TER",
    "rouge": "refscore.metrics.rouge.metric:ROUGE",
    "rouge155": "refscore.metrics.rouge.rouge155_metric:ROUGE155",
    "bertscore": "refscore.metrics.bertscore:BERTScoreMetric",
    "meteor": "refscore.metrics.meteor.metric:METEOR",
}


def get_metric_class(name: str) -> type[Metric]:
    """The metric class registered as ``name`` (case-insensitive); an unknown name is an error that suggests the
    closest registered one.

    >>> try:
    ...     get_metric_class("blue")
    ... except InputError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    unknown metric 'blue'; did you mean 'bleu'? choose from: bleu, gleu, chrf, ...
    """
    key = name.strip().lower()
    if key not in REGISTRY:
        close = difflib.get_close_matches(key, list(REGISTRY), n=1)
        suggestion = f"did you mean {close[0]!r}? " if close else ""
        raise InputError(f"unknown metric {name!r}; {suggestion}choose from: {', '.join(REGISTRY)}")
    return import_entry(REGISTRY[key])
