"""refscore metrics in MLflow 3: scorers for ``mlflow.genai.evaluate`` and :func:`log_run`, which logs a refscore
run (corpus scores, bootstrap intervals, signatures, the HTML report) to a tracking store.

:func:`scorer` builds an MLflow ``Scorer`` (its ``@scorer`` decorator) that scores each row's ``outputs`` against
``expectations[expectation]`` (a string or a list of reference strings; default key ``expected_response``,
MLflow's own) with the metric's sentence score (:func:`refscore.reward`: the metric's sentence-level defaults, BLEU
with effective order as ``sacrebleu.sentence_bleu``), on the 0-1 scale, and returns an ``mlflow.entities.Feedback``
whose rationale is refscore's explanation of the score (the metric's ``explain_case``). MLflow aggregates those per
row (``NAME/mean``), which for BLEU, chrF and TER is not the corpus score; :func:`log_run` logs the corpus
scores. Needs the ``mlflow`` extra (``pip install 'refscore[mlflow]'``: MLflow's client and its SQL store).

>>> from refscore.integrations.mlflow import scorer
>>> chrf = scorer("chrf")
>>> chrf.name
'refscore_chrf'
>>> feedback = chrf(outputs="the cat sat", expectations={"expected_response": "the cat sat down"})
>>> round(feedback.value, 4), feedback.rationale
(0.6602, "reference words not in the output: 'down'")
>>> import sacrebleu
>>> round(sacrebleu.sentence_chrf("the cat sat", ["the cat sat down"]).score / 100, 4)
0.6602
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.inputs import per_segment
from refscore.lazy import require
from refscore.metrics import get_metric_class
from refscore.reporting import DEFAULT_METRICS   # the report's default selection (BLEU, chrF, TER)
from refscore.significance import bootstrap_ci_from_statistics

__all__ = ["log_run", "scorer"]

_FEATURE = "refscore.integrations.mlflow"


def _references(expectations: Any, key: str, name: str) -> list[str]:
    if not isinstance(expectations, Mapping) or key not in expectations:
        keys = sorted(expectations) if isinstance(expectations, Mapping) else type(expectations).__name__
        raise InputError(f"{_FEATURE}: scorer {name!r} reads the reference from expectations[{key!r}], which this "
                         f"row lacks (its expectations: {keys}); pass scorer(..., expectation=KEY)")
    value = expectations[key]
    references = [value] if isinstance(value, str) else value
    if not isinstance(references, (list, tuple)) or not references or \
            not all(isinstance(item, str) for item in references):
        raise InputTypeError(f"{_FEATURE}: expectations[{key!r}] must be a string or a non-empty list of strings "
                             f"(the references), got {value!r}")
    return list(references)


def scorer(metric: str, *, expectation: str = "expected_response", name: str | None = None,
           score: str | None = None, **options: Any) -> Any:
    """An MLflow ``Scorer`` named ``name`` (default ``refscore_METRIC``) giving each row the sentence score of
    the refscore metric registered as ``metric`` (``options`` over its sentence-level defaults; ``score`` one of
    its ``score_names``) of ``outputs`` against ``expectations[expectation]``, as a ``Feedback`` with refscore's
    explanation as rationale.

    >>> bleu = scorer("bleu", expectation="reference")
    >>> round(bleu(outputs="the cat sat", expectations={"reference": ["the cat sat", "a cat"]}).value, 4)
    1.0
    """
    scorers = require("mlflow.genai.scorers", _FEATURE, "mlflow")
    entities = require("mlflow.entities", _FEATURE, "mlflow")
    get_metric_class(metric)   # an unknown name fails here, naming the registered ones
    reward = refscore.reward(metric, score=score, num_threads=1, **options)
    label = name or f"refscore_{metric}"

    def score_row(outputs: Any, expectations: Any) -> Any:
        if not isinstance(outputs, str):
            raise InputTypeError(f"{_FEATURE}: scorer {label!r} scores text outputs; this row's outputs is "
                                 f"{type(outputs).__name__} ({outputs!r:.80}): return the response text")
        references = _references(expectations, expectation, label)
        value = float(reward([outputs], [references])[0])
        return entities.Feedback(value=value, rationale=reward.metric.explain_case(outputs, references))

    return scorers.scorer(score_row, name=label)


def _systems(systems: Any) -> dict[str, list[str]]:
    if isinstance(systems, Mapping):
        return {str(system): list(texts) for system, texts in systems.items()}
    if isinstance(systems, Sequence) and not isinstance(systems, str):
        return {"system": list(systems)}
    raise InputTypeError(f"{_FEATURE}: log_run(systems=...) takes a dict of system name -> outputs or one list of "
                         f"outputs, got {type(systems).__name__}")


def _metric_key(text: str) -> str:
    """MLflow metric names allow letters, digits, ``_ - . / space``; others (ROUGE's ``rougeLsum`` is fine, a
    system called ``a+b`` is not) become ``_``."""
    return "".join(ch if ch.isalnum() or ch in "_-./ " else "_" for ch in text)


def log_run(systems: Any, references: Sequence[Any], metrics: Sequence[str] = DEFAULT_METRICS, *,
            n: int = 1000, seed: int | None = 12345, confidence: float = 0.95, report: bool = True,
            run_id: str | None = None, run_name: str | None = None, num_threads: int | None = None) -> str:
    """Log a refscore run to the active MLflow tracking store and return the run's id: per system and score
    name the corpus score ``SYSTEM/SCORE`` and its bootstrap interval ``SYSTEM/SCORE/lower``, ``/upper``, ``/ci``
    (``n`` resamples, ``seed``: sacreBLEU's), on the 0-1 scale; each metric's signature as a parameter
    ``signature/METRIC`` (with the resampling fields); ``refscore/scores.json`` (everything, as numbers and
    signatures) and, with ``report``, the HTML report ``refscore/report.html`` (:func:`refscore.report`, the
    ``report`` extra) as artifacts. Logs into ``run_id`` when given, into the active run when there is one,
    otherwise into a new run named ``run_name``. ``systems``: name -> outputs, or one list of outputs."""
    mlflow = require("mlflow", _FEATURE, "mlflow")
    outputs = _systems(systems)
    if not outputs:
        raise InputError(f"{_FEATURE}: log_run got no systems")
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    refs = per_segment(list(references))
    scores: dict[str, Any] = {"n": n, "seed": seed, "confidence": confidence, "systems": {}, "signatures": {}}
    values: dict[str, float] = {}
    for metric_name in names:
        metric = get_metric_class(metric_name)()
        for system, hypotheses in outputs.items():
            stats = metric.statistics(hypotheses, refs, num_threads=num_threads)
            result = metric.score_from_statistics(stats)
            ci = bootstrap_ci_from_statistics(metric, stats, n=n, confidence=confidence, seed=seed,
                                              num_threads=num_threads, progress=False)
            scores["signatures"][metric_name] = str(ci.signature)
            entry = scores["systems"].setdefault(system, {})
            for score_name, interval in ci.intervals.items():
                entry[score_name] = {**interval.to_dict(), "metric": metric_name, "signature": str(result.signature)}
                key = _metric_key(f"{system}/{score_name}")
                values[key] = interval.score
                values.update({f"{key}/lower": interval.lower, f"{key}/upper": interval.upper,
                               f"{key}/ci": interval.ci})
    active = mlflow.active_run()
    context = mlflow.start_run(run_id=run_id, run_name=run_name) if run_id or active is None else None
    run = context if context is not None else active
    try:
        mlflow.log_metrics(values, run_id=run.info.run_id)
        mlflow.log_params({f"signature/{metric}": text[:6000] for metric, text in scores["signatures"].items()},
                          run_id=run.info.run_id)
        mlflow.set_tags({"refscore.version": refscore.__version__, "refscore.metrics": ",".join(names)})
        mlflow.log_text(json.dumps(scores, indent=1, ensure_ascii=False), "refscore/scores.json",
                        run_id=run.info.run_id)
        if report:
            page = refscore.report(outputs, list(references), names, n=n, seed=seed, num_threads=num_threads,
                                   progress=False)
            mlflow.log_text(page, "refscore/report.html", run_id=run.info.run_id)
    finally:
        if context is not None:
            mlflow.end_run()
    return str(run.info.run_id)
