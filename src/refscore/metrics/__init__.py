"""Registry of metrics by name: refscore's own, then plug-ins. Modules are imported only when a metric is used.

A package adds a metric (a :class:`~refscore.protocol.Metric` subclass) with an entry point in the
``refscore.metrics`` group, e.g. in its pyproject.toml::

    [project.entry-points."refscore.metrics"]
    wordrecall = "refscore_wordrecall:WordRecall"

Installed plug-ins are read once, the first time the registry is asked (``-m wordrecall`` on the command line,
``Check("wordrecall")``, ``refscore.report(..., metrics=["wordrecall"])``); a plug-in named like one of
refscore's own metrics (or an earlier plug-in) is left out, with a warning. The metric's facts (its class
attributes) give it everything else.
"""
from __future__ import annotations

import difflib
import warnings
from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from refscore.lazy import import_entry
from refscore.errors import InputError, RefscoreWarning

if TYPE_CHECKING:
    from refscore.protocol import Metric

#: The entry-point group of plug-in metrics.
ENTRY_POINT_GROUP = "refscore.metrics"


class _Registry(dict):  # type: ignore[type-arg]
    """name -> ``"module:Class"``: a dict that adds the installed plug-ins' entry points on first use."""

    _plugins_loaded = False

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            name, taken = entry.name.strip().lower(), dict.get(self, entry.name.strip().lower())
            if taken is not None and taken != entry.value:   # the same entry found twice on the path is no clash
                warnings.warn(f"refscore: the plug-in metric {name!r} ({entry.value}) is left out: the name is "
                              f"taken by {taken}", RefscoreWarning, stacklevel=3)
            dict.setdefault(self, name, entry.value)

    def __iter__(self) -> Iterator[str]:
        self._load_plugins()
        return dict.__iter__(self)

    def __contains__(self, key: object) -> bool:
        self._load_plugins()
        return dict.__contains__(self, key)

    def __getitem__(self, key: str) -> str:
        self._load_plugins()
        return dict.__getitem__(self, key)

    def __len__(self) -> int:
        self._load_plugins()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._load_plugins()
        return dict.keys(self)

    def items(self) -> Any:
        self._load_plugins()
        return dict.items(self)

    def values(self) -> Any:
        self._load_plugins()
        return dict.values(self)

    def get(self, key: str, default: Any = None) -> Any:
        self._load_plugins()
        return dict.get(self, key, default)


#: name -> "module:Class": refscore's metrics, then the plug-ins. Keep the order: it is the column order of tables.
REGISTRY: dict[str, str] = _Registry({
    "bleu": "refscore.metrics.bleu:BLEU",
    "gleu": "refscore.metrics.gleu:GLEU",
    "chrf": "refscore.metrics.chrf:CHRF",
    "ter": "refscore.metrics.ter:TER",
    "rouge": "refscore.metrics.rouge.metric:ROUGE",
    "rouge155": "refscore.metrics.rouge.rouge155_metric:ROUGE155",
    "bertscore": "refscore.metrics.bertscore:BERTScoreMetric",
    "meteor": "refscore.metrics.meteor.metric:METEOR",
})


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
    from refscore.protocol import Metric

    entry = REGISTRY[key]
    try:
        metric_class = import_entry(entry)
    except (ImportError, AttributeError, ValueError) as exc:
        raise InputError(f"metric {key!r}: cannot load {entry!r} (its {ENTRY_POINT_GROUP} entry point or registry "
                         f"entry): {exc}") from None
    if not (isinstance(metric_class, type) and issubclass(metric_class, Metric)):
        raise InputError(f"metric {key!r}: {entry!r} is not a refscore.protocol.Metric subclass; a plug-in's "
                         f"{ENTRY_POINT_GROUP} entry point names its Metric class")
    return metric_class
