"""refscore metrics as stateful ``torchmetrics.Metric`` objects: ``update(preds, target)`` adds a batch's
statistics, ``compute()`` is refscore's corpus score of everything added, ``reset()`` starts over, and in a
distributed run (``torch.distributed`` initialised) ``compute()`` syncs the states of every process first.

Each summed statistics column of the metric is one state, ``add_state(..., dist_reduce_fx="sum")``: every
refscore corpus score is a formula of column totals, so the totals of shards summed across processes are the
totals of the whole corpus and the synced score equals one process's (exactly: counts are int64). How the other
kinds of column are handled:

- document-averaged metrics (ROUGE, METEOR, BERTScore) keep a ``documents`` column, so their mean is a sum too;
- carried columns (ROUGE's best reference per type) are never read by a formula and are not kept;
- statistics that depend on the whole batch (BERTScore with ``idf=True``, IDF from each call's references) are
  refused: a shard's IDF is not the corpus's. Pass the IDF sentences (``idf=[...]``) or a weight dict instead.

Scores are on refscore's 0-1 scale (sacreBLEU prints ×100). Needs the ``torchmetrics`` extra
(``pip install 'refscore[torchmetrics]'``).

>>> from refscore.integrations import torchmetrics as rtm
>>> bleu = rtm.metric("bleu")
>>> bleu.update(["the cat sat on the mat"], [["the cat sat on a mat"]])
>>> bleu.update(["a dog barked"], [["a dog barked loudly", "the dog barked"]])
>>> round(float(bleu.compute()), 4)
0.5969
>>> import refscore
>>> refscore.BLEU().corpus_score(["the cat sat on the mat", "a dog barked"],
...     [["the cat sat on a mat"], ["a dog barked loudly", "the dog barked"]]).score == float(bleu.compute())
True
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore.errors import InputError, InputTypeError
from refscore.inputs import per_segment
from refscore.lazy import require
from refscore.metrics import get_metric_class
from refscore.protocol import Metric, Score, Statistics

__all__ = ["RefscoreMetric", "metric", "state_names"]

_FEATURE = "refscore.integrations.torchmetrics"


def state_names(columns: Sequence[str]) -> tuple[str, ...]:
    """The torchmetrics state name of each statistics column: ``stat_`` and the column's name with every
    character that is not a letter, digit or ``_`` written as ``_`` (ROUGE-1.5.5's ``ROUGE-1-R``).

    >>> state_names(("hyp_len", "ROUGE-1-R"))
    ('stat_hyp_len', 'stat_ROUGE_1_R')
    """
    names = tuple("stat_" + re.sub(r"\W", "_", column) for column in columns)
    if len(set(names)) != len(names):
        raise InputError(f"{_FEATURE}: statistics columns {list(columns)} give the same state name twice")
    return names


def metric(name: str, *, score: str | None = None, num_threads: int | None = None, **options: Any) -> Any:
    """A :class:`RefscoreMetric` of the refscore metric registered as ``name`` with ``options`` as its config
    (the corpus defaults: ``metric("bleu")`` is sacreBLEU's ``corpus_bleu``); ``score`` names one of its
    ``score_names`` (default the first, e.g. ROUGE's ``rouge1``).

    >>> from refscore.integrations.torchmetrics import metric
    >>> chrf = metric("chrf", word_order=2)
    >>> chrf.update(["a cat"], [["the cat"]])
    >>> round(float(chrf.compute()), 4)
    0.2936
    """
    return _classes()["RefscoreMetric"](get_metric_class(name)(**options), score=score, num_threads=num_threads)


def _probe(refscore_metric: Metric) -> Statistics:
    """The statistics of one pair: the columns and their dtype (int64 counts or float64 per-document values)."""
    try:
        return refscore_metric.statistics(["a"], [["a"]], num_threads=1)
    except InputTypeError:   # a metric defined on token ids only
        return refscore_metric.statistics([[1]], [[[1]]], num_threads=1)


def _check_shardable(refscore_metric: Metric) -> None:
    if getattr(refscore_metric.config, "idf", False) is True:
        raise InputError(f"{_FEATURE}: {refscore_metric.name} with idf=True takes its IDF weights from each "
                         f"call's references, so the sum over update() batches (or processes) is not the corpus "
                         f"score; pass idf=[reference sentences] (IDF computed once) or a {{token_id: weight}} dict")


def _as_batch(preds: Any, target: Any) -> tuple[list[Any], list[Any]]:
    """torchmetrics' text conventions: ``preds`` a string or a sequence of them, ``target`` one entry per
    prediction (a string or a list of strings); a single string prediction takes a string or list target."""
    if isinstance(preds, str):
        preds = [preds]
        target = [target]
    if not isinstance(preds, (list, tuple)):
        raise InputTypeError(f"{_FEATURE}: update(preds=...) must be a string or a list of strings, got "
                             f"{type(preds).__name__}")
    if not isinstance(target, (list, tuple)):
        raise InputTypeError(f"{_FEATURE}: update(target=...) must be a list with one entry (a string or a list of "
                             f"strings) per prediction, got {type(target).__name__}")
    if len(preds) != len(target):
        raise InputError(f"{_FEATURE}: update() got {len(preds)} predictions but {len(target)} target entries; "
                         f"give one target entry (a string or a list of references) per prediction")
    return list(preds), [list(entry) if isinstance(entry, tuple) else entry for entry in target]


@functools.lru_cache(maxsize=1)
def _classes() -> dict[str, type]:
    """The torchmetrics classes, defined on first use (importing torchmetrics and torch is the expensive step)."""
    torchmetrics = require("torchmetrics", _FEATURE, "torchmetrics")
    torch = require("torch", _FEATURE, "torchmetrics")

    class RefscoreMetric(torchmetrics.Metric):  # type: ignore[name-defined]  # a module object at run time
        """A refscore metric as a ``torchmetrics.Metric`` (see the module docstring)."""

        is_differentiable = False
        full_state_update = False
        segments: Any   # a state (add_state): the segments added

        def __init__(self, refscore_metric: Metric, *, score: str | None = None, num_threads: int | None = None,
                     **kwargs: Any) -> None:
            super().__init__(**kwargs)
            if not isinstance(refscore_metric, Metric):
                raise InputTypeError(f"{_FEATURE}: RefscoreMetric takes a refscore metric instance (e.g. "
                                     f"refscore.BLEU()) or use metric('bleu', ...), got "
                                     f"{type(refscore_metric).__name__}")
            _check_shardable(refscore_metric)
            names = refscore_metric.score_names
            if score is not None and score not in names:
                raise InputError(f"{_FEATURE}: score {score!r} is not one of {refscore_metric.name}'s scores: "
                                 f"{', '.join(names)}")
            self.refscore_metric = refscore_metric
            self.score_name = score
            self.num_threads = num_threads
            probe = _probe(refscore_metric)
            self.columns, self.nrefs = probe.columns, 0
            self.state_names = state_names(probe.columns)
            dtype = torch.int64 if probe.data.dtype.kind == "i" else torch.float64
            for state in self.state_names:
                self.add_state(state, default=torch.zeros((), dtype=dtype), dist_reduce_fx="sum")
            self.add_state("segments", default=torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")

        @property
        def higher_is_better(self) -> bool:
            """The refscore metric's direction (torchmetrics reads it when plotting or tracking a best value)."""
            return bool(self.refscore_metric.higher_is_better)

        def update(self, preds: Any, target: Any) -> None:
            """Add the statistics of ``preds[i]`` against ``target[i]`` (a string or a list of references)."""
            hypotheses, references = _as_batch(preds, target)
            if not hypotheses:
                return
            # torchmetrics' orientation, always: target[i] are the references of preds[i] (never streams)
            stats = self.refscore_metric.statistics(hypotheses, per_segment(references),
                                                    num_threads=self.num_threads)
            totals = torch.from_numpy(np.ascontiguousarray(stats.totals()))
            for index, state in enumerate(self.state_names):
                setattr(self, state, getattr(self, state) + totals[index].to(getattr(self, state).dtype))
            self.segments = self.segments + len(stats)
            # the references per segment of the signature: one count, or -1 once batches differ
            self.nrefs = stats.nrefs if self.nrefs in (0, stats.nrefs) else -1

        def reset(self) -> None:
            """Forget every segment added (the states back to zero)."""
            super().reset()
            self.nrefs = 0

        def totals(self) -> np.ndarray:
            """The column totals of the states (synced across processes inside :meth:`compute`)."""
            return np.array([getattr(self, state).item() for state in self.state_names],
                            dtype=np.int64 if getattr(self, self.state_names[0]).dtype == torch.int64 else np.float64)

        def refscore_score(self) -> Score:
            """refscore's full corpus :class:`~refscore.protocol.Score` of the states as they are (values,
            signature); call it after :meth:`compute` (which syncs) or in one process."""
            stats = Statistics(self.refscore_metric.name, self.refscore_metric.config_hash, self.columns,
                               self.totals()[None, :], self.nrefs or 1)
            return self.refscore_metric.score_from_statistics(stats)

        def compute(self) -> Any:
            """The corpus score (0-1, float64 tensor) of every segment added (in every process)."""
            if self.score_name is None:
                value = float(self.refscore_score().score)
            else:
                names = self.refscore_metric.score_names
                value = float(self.refscore_metric.scores_from_totals(self.totals()[None, :])[
                    0, names.index(self.score_name)])
            return torch.tensor(value, dtype=torch.float64)

    RefscoreMetric.__module__ = __name__
    return {"RefscoreMetric": RefscoreMetric}


def __getattr__(name: str) -> Any:
    """``RefscoreMetric``: the class, defined when first read (it subclasses ``torchmetrics.Metric``)."""
    if name == "RefscoreMetric":
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
