"""Registry of metrics by name: refscore's own, then plug-ins. Modules are imported only when a metric is used.

A package adds a metric (a :class:`~refscore.protocol.Metric` subclass) with an entry point in the
``refscore.metrics`` group, e.g. in its pyproject.toml::

    [project.entry-points."refscore.metrics"]
    wordrecall = "refscore_wordrecall:WordRecall"

Installed plug-ins are read once, the first time the registry is asked (``-m wordrecall`` on the command line,
``Check("wordrecall")``, ``refscore.report(..., metrics=["wordrecall"])``); a plug-in named like one of
refscore's own metrics (or an earlier plug-in) is left out, with a warning. The metric's facts (its class
attributes) give it everything else.

A plug-in that cannot be imported (its module raises, its class is missing) does not take refscore down: what
goes through every metric (the command line's flags, the check names) leaves it out with one warning naming its
package and the error (:func:`metric_classes`), and only using it by name is an error.
"""
from __future__ import annotations

import difflib
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from refscore.lazy import import_entry
from refscore.errors import InputError, RefscoreWarning

if TYPE_CHECKING:
    from refscore.protocol import Metric

#: The entry-point group of plug-in metrics.
ENTRY_POINT_GROUP = "refscore.metrics"


class _Registry(dict):
    """name -> ``"module:Class"``: a dict that adds the installed plug-ins' entry points on first use."""

    _plugins_loaded = False
    #: plug-in name -> "package version" of the distribution that registered it (for messages)
    packages: dict[str, str] = {}

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        # here: `import refscore` reads the registry, not the plug-ins; read without importlib.metadata's imports
        from refscore.metrics._entry_points import group_entry_points

        for entry_name, value, package in group_entry_points(ENTRY_POINT_GROUP):
            name, taken = entry_name.strip().lower(), dict.get(self, entry_name.strip().lower())
            if taken is not None and taken != value:   # the same entry found twice on the path is no clash
                warnings.warn(f"refscore: the plug-in metric {name!r} ({value}) is left out: the name is "
                              f"taken by {taken}", RefscoreWarning, stacklevel=3)
            if dict.setdefault(self, name, value) == value and name not in _BUILT_IN:
                self.packages[name] = package

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


#: refscore's own metrics: name -> ("module:Class", the public module, the names the package ``refscore`` re-exports
#: from it). One entry per metric: the registry and the facade's lazy names are both built from it.
_BUILT_IN: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "bleu": ("refscore.metrics.bleu:BLEU", "refscore.metrics.bleu",
             ("BLEU", "BLEUConfig", "BLEUScore", "bleu", "sentence_bleu")),
    "gleu": ("refscore.metrics.gleu:GLEU", "refscore.metrics.gleu",
             ("GLEU", "GLEUConfig", "GLEUScore", "gleu", "sentence_gleu")),
    "chrf": ("refscore.metrics.chrf:CHRF", "refscore.metrics.chrf",
             ("CHRF", "CHRFConfig", "CHRFScore", "chrf", "sentence_chrf")),
    "ter": ("refscore.metrics.ter:TER", "refscore.metrics.ter",
            ("TER", "TERConfig", "TERScore", "ter", "sentence_ter")),
    "rouge": ("refscore.metrics.rouge.metric:ROUGE", "refscore.metrics.rouge",
              ("ROUGE", "ROUGEConfig", "ROUGEScore", "rouge")),
    "rouge155": ("refscore.metrics.rouge.rouge155_metric:ROUGE155", "refscore.metrics.rouge",
                 ("ROUGE155", "ROUGE155Config", "ROUGE155Score", "rouge155")),
    "bertscore": ("refscore.metrics.bertscore:BERTScoreMetric", "refscore.metrics.bertscore",
                  ("BERTScoreConfig", "BERTScorer", "bertscore")),
    # not "comet": that name stays free for COMET scores read from a file (-m file:comet.tsv, external_scores)
    "unbabel_comet": ("refscore.metrics.comet:COMET", "refscore.metrics.comet",
                      ("COMET", "COMETConfig", "comet", "unbabel_comet")),
    "meteor": ("refscore.metrics.meteor.metric:METEOR", "refscore.metrics.meteor",
               ("METEOR", "METEORConfig", "METEORScore", "meteor", "sentence_meteor")),
    "exact_match": ("refscore.metrics.exact_match:ExactMatch", "refscore.metrics.exact_match",
                    ("ExactMatch", "ExactMatchConfig", "exact_match", "sentence_exact_match")),
    "squad": ("refscore.metrics.squad:SQuAD", "refscore.metrics.squad",
              ("SQuAD", "SQuADConfig", "SQuADScore", "squad", "sentence_squad")),
    "wer": ("refscore.metrics.error_rates:WER", "refscore.metrics.error_rates",
            ("WER", "ErrorRateConfig", "wer", "sentence_wer")),
    "cer": ("refscore.metrics.error_rates:CER", "refscore.metrics.error_rates", ("CER", "cer", "sentence_cer")),
    "mer": ("refscore.metrics.error_rates:MER", "refscore.metrics.error_rates", ("MER", "mer", "sentence_mer")),
    "wil": ("refscore.metrics.error_rates:WIL", "refscore.metrics.error_rates", ("WIL", "wil", "sentence_wil")),
    "wip": ("refscore.metrics.error_rates:WIP", "refscore.metrics.error_rates", ("WIP", "wip", "sentence_wip")),
    "edit_distance": ("refscore.metrics.edit_distance:EditDistance", "refscore.metrics.edit_distance",
                      ("EditDistance", "EditDistanceConfig", "edit_distance", "sentence_edit_distance")),
    "eed": ("refscore.metrics.eed:EED", "refscore.metrics.eed", ("EED", "EEDConfig", "eed", "sentence_eed")),
}

#: name -> "module:Class": refscore's metrics, then the plug-ins. Keep the order: it is the column order of tables.
REGISTRY: dict[str, str] = _Registry({name: entry for name, (entry, _, _) in _BUILT_IN.items()})


def public_names() -> dict[str, tuple[str, ...]]:
    """module -> the names of refscore's own metrics that the package ``refscore`` re-exports (lazily), in registry
    order; plug-ins are reached through :func:`get_metric_class`.

    >>> public_names()["refscore.metrics.bleu"]
    ('BLEU', 'BLEUConfig', 'BLEUScore', 'bleu', 'sentence_bleu')
    """
    modules: dict[str, tuple[str, ...]] = {}
    for _, module, names in _BUILT_IN.values():
        modules[module] = modules.get(module, ()) + names
    return modules


def built_in_names() -> tuple[str, ...]:
    """The names of refscore's own metrics, in registry order (plug-ins follow them in :data:`REGISTRY`).

    >>> built_in_names()[:3]
    ('bleu', 'gleu', 'chrf')
    """
    return tuple(_BUILT_IN)


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
    if key in _FAILED:
        raise InputError(_FAILED[key])
    try:
        metric_class = import_entry(entry)
    except (ImportError, AttributeError, ValueError) as exc:
        if key in _BUILT_IN:
            raise InputError(f"metric {key!r}: cannot load {entry!r} (its registry entry): {exc}") from None
        _FAILED[key] = _plugin_failure(key, entry, exc)
        raise InputError(_FAILED[key]) from None
    except Exception as exc:   # a plug-in's module may raise anything while it is imported
        if key in _BUILT_IN:
            raise
        _FAILED[key] = _plugin_failure(key, entry, exc)
        raise InputError(_FAILED[key]) from None
    if not (isinstance(metric_class, type) and issubclass(metric_class, Metric)):
        raise InputError(f"metric {key!r}: {entry!r} is not a refscore.protocol.Metric subclass; a plug-in's "
                         f"{ENTRY_POINT_GROUP} entry point names its Metric class")
    return metric_class


#: plug-in name -> why it cannot be loaded: a failing import is tried once per process.
_FAILED: dict[str, str] = {}
#: the plug-ins already warned about by :func:`metric_classes`
_WARNED: set[str] = set()


def _plugin_failure(name: str, entry: str, exc: BaseException) -> str:
    package = _Registry.packages.get(name, "unknown package")
    return (f"plug-in metric {name!r} (package {package}, {ENTRY_POINT_GROUP} entry point {name} = {entry}) "
            f"cannot be loaded: {type(exc).__name__}: {exc}")


def metric_classes(names: Iterable[str] | None = None) -> Iterator[tuple[str, type[Metric]]]:
    """Every registered metric's name and class (or those of ``names``), in registry order, for what goes through all metrics (the
    command line's flags, the check names). A plug-in that cannot be loaded is left out with one
    :class:`~refscore.errors.RefscoreWarning` naming its package and the error, so that whatever does not use it
    still works; using it by name (:func:`get_metric_class`) is the error.

    >>> dict(metric_classes())["bleu"].__name__
    'BLEU'
    """
    for name in REGISTRY if names is None else names:
        try:
            yield name, get_metric_class(name)
        except InputError as exc:
            if name in _BUILT_IN:
                raise
            if name not in _WARNED:
                _WARNED.add(name)
                warnings.warn(f"{exc}; it is left out (commands that do not use it work)",
                              RefscoreWarning, stacklevel=2)
