"""refscore metrics for lm-evaluation-harness task YAMLs: per-document statistics, a corpus aggregation and the
stderr of refscore's bootstrap.

A task names them with the harness's ``!function`` tag (its YAML loader imports an installed module by its dotted
name, so no ``utils.py`` next to the YAML is needed and the CLI finds them without any registration step)::

    metric_list:
      - metric: !function refscore.integrations.lm_eval.chrf
        aggregation: !function refscore.integrations.lm_eval.aggregate
        higher_is_better: true
        word_order: 2            # any option of refscore's metric: the harness passes it to the metric function

The metric function (:func:`bleu`, :func:`chrf`, :func:`chrfpp`, :func:`ter`, or ``metric_function(name)`` /
the module attribute of the same name for any registered refscore metric) returns the document's sufficient
statistics (a :class:`SegmentStatistics`); :func:`aggregate` sums them and returns the corpus score on the
metric's printed scale (×100: sacreBLEU's ``corpus_bleu(...).score``), so the options of each metric entry hold in
the score and in the bootstrap. The stderr the harness reports is the standard deviation (its ``sample_stddev``,
Bessel-corrected) of refscore's bootstrap replicates (:func:`refscore.significance.bootstrap_ci_from_statistics`,
``bootstrap_iters`` resamples, seed :data:`BOOTSTRAP_SEED`), computed from the statistics, not by re-scoring the
corpus per resample: the harness's ``stderr_for_metric`` is wrapped (:func:`register`) to answer for
:func:`aggregate`. Importing this module from the harness (the ``!function`` tag does) also registers the names
``refscore_bleu``, ``refscore_chrf``, ``refscore_chrfpp``, ``refscore_ter`` (metrics) and ``refscore``
(the aggregation) in the harness's registry. Needs the ``lm_eval`` extra for the harness itself; the functions
use refscore only.

>>> from refscore.integrations import lm_eval as rle
>>> items = [rle.bleu(references=[ref], predictions=[hyp]) for hyp, ref in
...          [("the cat sat on the mat", "the cat sat on a mat"), ("a dog barked", "a dog barked loudly")]]
>>> round(rle.aggregate(items), 4)
53.4174
>>> import sacrebleu
>>> round(sacrebleu.corpus_bleu(["the cat sat on the mat", "a dog barked"],
...                             [["the cat sat on a mat", "a dog barked loudly"]]).score, 4)
53.4174
"""
from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.inputs import per_segment
from refscore.lazy import require
from refscore.metrics import get_metric_class
from refscore.protocol import Metric, Statistics
from refscore.significance import bootstrap_ci_from_statistics

__all__ = ["BOOTSTRAP_SEED", "SegmentStatistics", "aggregate", "bleu", "chrf", "chrfpp", "metric_function",
           "register", "stderr", "ter"]

_FEATURE = "refscore.integrations.lm_eval"
#: The seed of the bootstrap behind the reported stderr (refscore's and sacreBLEU's default).
BOOTSTRAP_SEED = 12345

Options = tuple[tuple[str, Any], ...]


class SegmentStatistics(NamedTuple):
    """One document's result of a refscore metric function: the metric's registry name, its options (sorted
    ``(name, value)`` pairs, as the task YAML gave them) and the one-row :class:`~refscore.protocol.Statistics`.
    A tuple, so the harness keeps it as one value (a dict would be read as several metrics) and logs it."""

    metric: str
    options: Options
    statistics: Statistics


def _frozen(value: Any) -> Any:
    """YAML lists as tuples (a metric config wants hashable options; ROUGE's ``types: [rouge1, rougeL]``)."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


@functools.lru_cache(maxsize=64)
def _metric(name: str, options: Options) -> Metric:
    """The refscore metric of a YAML entry, built once per (name, options) and not per document."""
    try:
        return get_metric_class(name)(**dict(options))
    except (TypeError, ValueError) as error:   # a TypeError would make the harness retry another call form
        raise InputError(f"{_FEATURE}: metric {name!r} with options {dict(options)} (the extra keys of its "
                         f"metric_list entry): {error}") from error


def metric_function(name: str, *, function_name: str | None = None,
                    **defaults: Any) -> Callable[..., SegmentStatistics]:
    """A harness metric function for the refscore metric registered as ``name``: called per document as
    ``f(references=[gold], predictions=[output], **options)`` (the harness's form; ``f([gold, output])`` too),
    it returns the document's :class:`SegmentStatistics`. ``options`` (the metric entry's extra YAML keys)
    override ``defaults``. The result key in the harness's output is ``function_name`` (default
    ``refscore_NAME``).

    >>> rouge_l = metric_function("rouge", types=["rougeL"])
    >>> rouge_l.__name__, aggregate([rouge_l(references=["a b c"], predictions=["a c b"])])
    ('refscore_rouge', 66.66666666666666)
    """
    get_metric_class(name)   # an unknown name fails here, naming the registered ones

    def document_statistics(references: Any = None, predictions: Any = None, **options: Any) -> SegmentStatistics:
        if predictions is None and isinstance(references, (list, tuple)) and len(references) == 2:
            (gold, output), references, predictions = references, None, None   # the harness's f([gold, output])
            references, predictions = [gold], [output]
        if not isinstance(predictions, (list, tuple)) or not isinstance(references, (list, tuple)) \
                or len(predictions) != len(references):
            raise InputError(f"{_FEATURE}: {function.__name__} takes references=[gold] and predictions=[output] "
                             f"(one entry each), got references={references!r}, predictions={predictions!r}")
        merged: Options = tuple(sorted({k: _frozen(v) for k, v in {**defaults, **options}.items()}.items()))
        metric = _metric(name, merged)
        try:
            stats = metric.statistics(list(predictions), per_segment(list(references)), num_threads=1)
        except InputTypeError as error:   # not a TypeError here: the harness would retry with another form
            raise InputError(f"{_FEATURE}: {function.__name__}: {error}") from error
        if "lm_eval" in sys.modules:
            register()
        return SegmentStatistics(name, merged, stats)

    function = document_statistics
    function.__name__ = function.__qualname__ = function_name or f"refscore_{name}"
    # the metric it scores, for the registry's higher_is_better (the metric class's own fact)
    function.refscore_metric = _metric(name, tuple(sorted((k, _frozen(v)) for k, v in defaults.items())))  # type: ignore[attr-defined]  # set on the function
    function.__doc__ = f"Per-document statistics of refscore's {name} (defaults {defaults or 'none'})."
    return function


#: sacreBLEU's corpus_bleu (13a, exp smoothing): ``metric: !function refscore.integrations.lm_eval.bleu``.
bleu = metric_function("bleu")
#: sacreBLEU's corpus_chrf (chrF2, character order 6, no word n-grams).
chrf = metric_function("chrf")
#: chrF++ (word_order=2), as lm-eval's ``chrf++``.
chrfpp = metric_function("chrf", function_name="refscore_chrfpp", word_order=2)
#: sacreBLEU's corpus_ter.
ter = metric_function("ter")


def _corpus(items: Sequence[Any]) -> tuple[Metric, Statistics]:
    """The metric of the items and their statistics stacked (every item from the same metric and options)."""
    items = list(items)
    if not items:
        raise InputError(f"{_FEATURE}: aggregate() got no documents")
    for index, item in enumerate(items):
        if not isinstance(item, SegmentStatistics):
            raise InputTypeError(
                f"{_FEATURE}: aggregate() item {index} is {item!r}, not a refscore metric function's result; "
                f"use it as the aggregation of a refscore metric (metric: !function "
                f"refscore.integrations.lm_eval.bleu). A task whose doc_to_target is a list has the harness reduce "
                f"each document to 0/1 (its multiple_target mode): give one reference string per document")
    first = items[0]
    for index, item in enumerate(items):
        if (item.metric, item.options) != (first.metric, first.options):
            raise InputError(f"{_FEATURE}: aggregate() item {index} is {item.metric} {dict(item.options)} but item "
                             f"0 is {first.metric} {dict(first.options)}; one aggregation scores one metric entry")
    return _metric(first.metric, first.options), Statistics.concatenate(item.statistics for item in items)


def aggregate(items: Sequence[SegmentStatistics]) -> float:
    """The corpus score of the documents' statistics, ×100 where refscore prints ×100 (BLEU, chrF, TER: the
    number sacreBLEU's ``corpus_score(...).score`` gives)."""
    metric, stats = _corpus(items)
    return float(metric.score_from_statistics(stats).score) * float(metric.display_scale)


def stderr(items: Sequence[SegmentStatistics], iters: int = 1000, *, seed: int | None = BOOTSTRAP_SEED) -> float:
    """The bootstrap standard error of :func:`aggregate`: the Bessel-corrected standard deviation (the harness's
    ``sample_stddev``) of refscore's ``iters`` bootstrap replicates of the corpus score, on the same scale.

    >>> items = [chrf(references=[r], predictions=[h]) for h, r in [("a cat", "the cat"), ("dog", "a dog"),
    ...                                                                ("the end", "the end")]]
    >>> round(stderr(items, 200), 4) > 0
    True
    """
    metric, stats = _corpus(items)
    samples = bootstrap_ci_from_statistics(metric, stats, n=iters, seed=seed, num_threads=1, progress=False).samples
    return float(np.std(samples[:, 0] * float(metric.display_scale), ddof=1))


_REGISTERED: list[bool] = []


def register() -> None:
    """Register the metrics and the aggregation in lm-eval's registry (once) and wrap its ``stderr_for_metric``
    so :func:`aggregate`'s stderr is :func:`stderr` with the run's ``bootstrap_iters``. Called on import from the
    harness and by every metric function call; safe to call again."""
    if _REGISTERED:
        return
    registry = require("lm_eval.api.registry", _FEATURE, "lm_eval")
    metrics = require("lm_eval.api.metrics", _FEATURE, "lm_eval")
    evaluator_utils = require("lm_eval.evaluator_utils", _FEATURE, "lm_eval")
    _REGISTERED.append(True)
    if "refscore" not in registry.AGGREGATION_REGISTRY:
        registry.register_aggregation("refscore")(aggregate)
    for function in (bleu, chrf, chrfpp, ter):
        if function.__name__ not in registry.METRIC_REGISTRY:
            higher = bool(function.refscore_metric.higher_is_better)   # type: ignore[attr-defined]  # set on the function
            registry.register_metric(metric=function.__name__, higher_is_better=higher, aggregation="refscore",
                                     output_type="generate_until")(function)
    original: Any = metrics.stderr_for_metric
    if getattr(original, "__refscore__", False):
        return

    def stderr_for_metric(metric: Callable[..., float], bootstrap_iters: int) -> Callable[..., float] | None:
        if metric is aggregate and bootstrap_iters > 0:
            return functools.partial(stderr, iters=bootstrap_iters)
        return original(metric, bootstrap_iters)  # type: ignore[no-any-return,unused-ignore]  # the harness's untyped function

    stderr_for_metric.__refscore__ = True   # type: ignore[attr-defined]  # marks the wrapper
    stderr_for_metric.__wrapped__ = original   # type: ignore[attr-defined]  # the harness's original, for unwrapping
    stderr_for_metric.__doc__ = original.__doc__
    for module in (metrics, evaluator_utils):   # evaluator_utils imported the function by name
        if hasattr(module, "stderr_for_metric"):
            setattr(module, "stderr_for_metric", stderr_for_metric)


def __getattr__(name: str) -> Any:
    """``refscore.integrations.lm_eval.NAME``: the metric function of any registered refscore metric
    (``!function refscore.integrations.lm_eval.rouge``)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return _named(name)
    except InputError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (no refscore metric of that "
                             f"name)") from None


@functools.lru_cache(maxsize=None)
def _named(name: str) -> Callable[..., SegmentStatistics]:
    return metric_function(name)


if "lm_eval" in sys.modules:   # imported by the harness (its YAML loader): the registry names work in the same YAML
    register()
