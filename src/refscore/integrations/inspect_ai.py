"""refscore metrics as inspect_ai scorers: ``Task(..., scorer=refscore.integrations.inspect_ai.scorer("chrf"))``,
or by name from the command line (``inspect score LOG --scorer refscore/chrf``) through inspect_ai's entry-point
group (``[project.entry-points.inspect_ai] refscore = ...``: a name ``refscore/...`` makes inspect_ai import this
package's scorers).

Two scorers per registered metric (refscore's own and plug-ins):

- ``refscore/NAME`` (:func:`scorer`): each sample's value is the metric's **sentence** score of the model's
  completion against the sample's targets (every target is a reference), with the metric's sentence-level
  defaults (BLEU: effective order, as ``sacrebleu.sentence_bleu``) — exactly :func:`refscore.reward`'s number;
  metrics ``mean()``, ``stderr()`` and :func:`bootstrap_ci` (refscore's bootstrap interval of the mean);
- ``refscore/NAME_corpus`` (``scorer(NAME, corpus=True)``): each sample keeps its statistics row (in the score's
  metadata) and the metric :func:`corpus_score` is the **corpus** score of the summed statistics (BLEU, chrF,
  TER: ``sacrebleu.corpus_*`` / 100, not the mean of sentence scores), with :func:`bootstrap_ci` resampling those
  statistics (sacreBLEU's ``--confidence`` interval / 100).

Options (``-S word_order=2`` on the command line) are the metric's settings; ``score=`` picks one of its
``score_names`` (ROUGE's ``rougeL``). Scores are on refscore's 0-1 scale. Needs the ``inspect`` extra
(``pip install 'refscore[inspect]'``); importing this module does not import inspect_ai.

>>> from refscore.integrations import inspect_ai as ri
>>> ri.scorer_names()[:4]
['refscore/bleu', 'refscore/bleu_corpus', 'refscore/gleu', 'refscore/gleu_corpus']
>>> import refscore
>>> ri.corpus_value("chrf", {}, [("a cat", ["the cat"]), ("a dog", ["a dog"])]) == refscore.CHRF().corpus_score(
...     ["a cat", "a dog"], [["the cat"], ["a dog"]]).score
True
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError
from refscore.lazy import require
from refscore.metrics import REGISTRY, get_metric_class
from refscore.protocol import Metric, Statistics
from refscore import bootstrap_ci_from_statistics, external_scores, reward

__all__ = ["bootstrap_ci", "corpus_score", "corpus_value", "scorer", "scorer_names", "scorers"]

_FEATURE = "refscore.integrations.inspect_ai"
_PACKAGE = "refscore"
#: the key of a sample score's metadata that holds what refscore's metrics read
METADATA_KEY = "refscore"


def scorer_names() -> list[str]:
    """The scorer names registered with inspect_ai: ``refscore/NAME`` and ``refscore/NAME_corpus`` per metric."""
    return [f"{_PACKAGE}/{name}{suffix}" for name in REGISTRY for suffix in ("", "_corpus")]


def _inspect() -> Any:
    return require("inspect_ai", _FEATURE, "inspect")


def _corpus_metric(name: str, options: dict[str, Any]) -> Metric:
    """The metric with its corpus defaults and ``options`` (as ``refscore.get_metric_class(name)(**options)``)."""
    return get_metric_class(name)(**options)


def _statistics(metric: Metric, rows: Sequence[Sequence[float]], columns: Sequence[str], nrefs: int) -> Statistics:
    dtype = np.int64 if all(float(x).is_integer() for row in rows for x in row) else np.float64
    data = np.asarray(rows, dtype=dtype).reshape(len(rows), len(columns))
    return metric.new_statistics(tuple(columns), data, nrefs)


def corpus_value(name: str, options: dict[str, Any], pairs: Sequence[tuple[str, Sequence[str]]],
                 score: str | None = None) -> float:
    """The corpus score of ``(completion, references)`` pairs as the corpus scorer computes it: each pair's
    statistics row (what a sample's metadata keeps), summed, through the metric's corpus formula."""
    metric = _corpus_metric(name, options)
    rows = [metric.statistics([text], [list(refs)], num_threads=1) for text, refs in pairs]
    stats = _statistics(metric, [row.data[0].tolist() for row in rows], rows[0].columns, rows[0].nrefs)
    return _headline(metric, stats, score)


def _headline(metric: Metric, stats: Statistics, score: str | None) -> float:
    if score is None:
        return float(metric.score_from_statistics(stats).score)
    return float(metric.scores_from_totals(stats.totals()[None, :])[0, metric.score_names.index(score)])


def _entries(scores: list[Any], owner: str) -> list[dict[str, Any]]:
    """The refscore metadata of each sample score (an error naming the fix when a score lacks it)."""
    entries = []
    for position, sample_score in enumerate(scores):
        metadata = sample_score.score.metadata or {}
        entry = metadata.get(METADATA_KEY)
        if not isinstance(entry, dict):
            raise InputError(f"{_FEATURE}: {owner}() reads the statistics refscore's scorers keep in each score's "
                             f"metadata, but score {position} (sample {sample_score.sample_id!r}) has none; use it "
                             f"with refscore/NAME_corpus or refscore/NAME scorers only")
        entries.append(entry)
    first = entries[0]
    for position, entry in enumerate(entries):
        if (entry["metric"], entry["options"], entry.get("score")) != (first["metric"], first["options"],
                                                                        first.get("score")):
            raise InputError(f"{_FEATURE}: {owner}() got scores of two metrics ({first['metric']} and "
                             f"{entry['metric']} at score {position}); give each scorer its own metrics")
    return entries


def _corpus_stats(entries: list[dict[str, Any]], owner: str) -> tuple[Metric, Statistics]:
    if any("row" not in entry for entry in entries):
        raise InputError(f"{_FEATURE}: {owner}() needs statistics rows: use the corpus scorer "
                         f"(refscore/{entries[0]['metric']}_corpus or scorer(..., corpus=True))")
    metric = _corpus_metric(entries[0]["metric"], entries[0]["options"])
    nrefs = {int(entry["nrefs"]) for entry in entries}
    stats = _statistics(metric, [entry["row"] for entry in entries], entries[0]["columns"],
                        nrefs.pop() if len(nrefs) == 1 else -1)
    return metric, stats


def corpus_score() -> Any:
    """An inspect_ai metric (``refscore/corpus_score``): the corpus score of the summed statistics rows of a
    corpus scorer's samples (every epoch of every sample: each is a segment)."""
    return _registered()["corpus_score"]()


def bootstrap_ci(n: int = 1000, confidence: float = 0.95, seed: int | None = 12345) -> Any:
    """An inspect_ai metric (``refscore/bootstrap_ci``) giving ``ci_lower`` and ``ci_upper``: refscore's
    bootstrap interval (``n`` resamples, seed 12345 as sacreBLEU's) of the corpus score (corpus scorers:
    statistics resampled, :func:`refscore.bootstrap_ci_from_statistics`) or of the mean of the sentence scores."""
    return _registered()["bootstrap_ci"](n=n, confidence=confidence, seed=seed)


def scorer(metric: str, *, corpus: bool = False, score: str | None = None, **options: Any) -> Any:
    """The inspect_ai scorer ``refscore/METRIC`` (``corpus=True``: ``refscore/METRIC_corpus``) with the metric's
    ``options``; see the module docstring."""
    if not isinstance(metric, str) or metric.lower() not in REGISTRY:
        get_metric_class(metric)   # the registry's error: the known names, the closest one
    name = metric.lower() + ("_corpus" if corpus else "")
    return _registered()["scorers"][name](score=score, **options)


def _sample_score(inspect_ai: Any, name: str, corpus: bool, score: str | None, options: dict[str, Any]) -> Any:
    """The async scoring function of one scorer instance."""
    Score = inspect_ai.scorer.Score
    if corpus:
        metric = _corpus_metric(name, options)
        if score is not None and score not in metric.score_names:
            raise InputError(f"{_FEATURE}: score {score!r} is not one of {metric.name}'s scores: "
                             f"{', '.join(metric.score_names)}")
        index = metric.score_names.index(score) if score is not None else 0
    else:
        sentence = reward(name, score=score, **options)  # type: ignore[operator]  # the facade's function

    async def score_sample(state: Any, target: Any) -> Any:
        completion = state.output.completion
        references = list(target.target)
        if not references:
            raise InputError(f"{_FEATURE}: sample {state.sample_id!r} has no target; refscore/{name} scores the "
                             f"completion against the sample's target(s): give the Sample a target")
        entry: dict[str, Any] = {"metric": name, "options": options, "score": score, "nrefs": len(references)}
        if corpus:
            stats = metric.statistics([completion], [references], num_threads=1)
            value = float(metric.scores_from_totals(stats.data)[0, index])
            entry.update(columns=list(stats.columns), row=stats.data[0].tolist())
        else:
            value = float(sentence([completion], [references])[0])
        return Score(value=value, answer=completion, metadata={METADATA_KEY: entry})

    return score_sample


@functools.lru_cache(maxsize=1)
def _registered() -> dict[str, Any]:
    """Define and register (inspect_ai's ``@metric`` / ``@scorer``) refscore's metrics and a scorer pair per
    registered metric; on first use, as importing inspect_ai is the expensive step."""
    inspect_ai = require("inspect_ai.scorer", _FEATURE, "inspect")
    inspect_root = _inspect()
    Metric_, Scorer_ = inspect_ai.Metric, inspect_ai.Scorer

    def corpus_score_factory() -> Any:
        def compute(scores: list[Any]) -> float:
            entries = _entries(scores, "corpus_score")
            metric, stats = _corpus_stats(entries, "corpus_score")
            return _headline(metric, stats, entries[0].get("score"))
        return compute

    def bootstrap_factory(n: int = 1000, confidence: float = 0.95, seed: int | None = 12345) -> Any:
        def compute(scores: list[Any]) -> dict[str, float]:
            entries = _entries(scores, "bootstrap_ci")
            if "row" in entries[0]:
                metric, stats = _corpus_stats(entries, "bootstrap_ci")
                result = bootstrap_ci_from_statistics(metric, stats, n=n, confidence=confidence, seed=seed,
                                                      num_threads=1, progress=False)
                chosen = entries[0].get("score")
                interval = result.intervals[chosen] if chosen is not None else result.headline
            else:   # sentence scores: the interval of their mean
                values = np.array([sample_score.score.as_float() for sample_score in scores], dtype=np.float64)
                means = external_scores(values, name="inspect_sentence_scores")
                texts = [""] * len(values)
                result = bootstrap_ci_from_statistics(means, means.statistics(texts, texts), n=n,
                                                      confidence=confidence, seed=seed, num_threads=1,
                                                      progress=False)
                interval = result.headline
            return {"ci_lower": float(interval.lower), "ci_upper": float(interval.upper)}
        return compute

    for factory, label in ((corpus_score_factory, "corpus_score"), (bootstrap_factory, "bootstrap_ci")):
        factory.__name__ = factory.__qualname__ = label
        factory.__annotations__ = {**{k: v for k, v in factory.__annotations__.items() if k != "return"},
                                   "return": Metric_}
    corpus_metric = inspect_ai.metric(name="corpus_score", scores="unreduced")(corpus_score_factory)
    bootstrap_metric = inspect_ai.metric(name="bootstrap_ci", scores="unreduced")(bootstrap_factory)

    scorers: dict[str, Any] = {}
    for name in REGISTRY:
        for corpus in (False, True):
            label = name + ("_corpus" if corpus else "")

            def factory(score: str | None = None, *, _name: str = name, _corpus: bool = corpus,
                        **options: Any) -> Any:
                return _sample_score(inspect_root, _name, _corpus, score, options)

            factory.__name__ = factory.__qualname__ = label
            kind = "corpus score of the summed statistics" if corpus else "sentence score"
            factory.__doc__ = f"refscore's {name} {kind} (refscore.integrations.inspect_ai)."
            factory.__annotations__ = {"score": "str | None", "options": "Any", "return": Scorer_}
            metrics = ([corpus_metric(), bootstrap_metric()] if corpus
                       else [inspect_ai.mean(), inspect_ai.stderr(), bootstrap_metric()])
            scorers[label] = inspect_ai.scorer(metrics=metrics, name=label)(factory)
    return {"corpus_score": corpus_metric, "bootstrap_ci": bootstrap_metric, "scorers": scorers}


def scorers() -> dict[str, Any]:
    """Every scorer factory registered with inspect_ai, by metric name (``chrf``, ``chrf_corpus``, ...)."""
    return dict(_registered()["scorers"])


def __getattr__(name: str) -> Any:
    """``registered``: what inspect_ai's entry point loads (reading it registers every scorer and metric)."""
    if name == "registered":
        return _registered()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

