"""BERTScore (bert-score 0.3.13 semantics): the metric and its internals, one package.

Modules: :mod:`~refscore.metrics.bertscore.metric` (the public API: :func:`bertscore`, :class:`BERTScorer`,
:class:`BERTScoreMetric` and their results), :mod:`~refscore.metrics.bertscore.config` (:class:`BERTScoreConfig`,
the one list of its settings), :mod:`~refscore.metrics.bertscore.tables` (bert-score's model tables: default layers,
language models; public, the drop-in's ``model2layers`` reads them), and the internals behind them:
:mod:`~refscore.metrics.bertscore.models` (model loading), :mod:`~refscore.metrics.bertscore.encoding`
(tokenization), :mod:`~refscore.metrics.bertscore.engine` (embedding and greedy matching on threads),
:mod:`~refscore.metrics.bertscore.packed` (the padding-free forward), :mod:`~refscore.metrics.bertscore.idf`,
:mod:`~refscore.metrics.bertscore.baseline` (baseline rescaling), :mod:`~refscore.metrics.bertscore.scorer` (one
loaded model scoring pairs) and :mod:`~refscore.metrics.bertscore.deps` (the ``bertscore`` extra).

torch and transformers are imported only inside the functions that need them (the ``bertscore`` extra).

>>> from refscore.metrics.bertscore import BERTScoreMetric
>>> BERTScoreMetric.name
'bertscore'
"""
from typing import Any

from refscore.metrics.bertscore import metric as _metric
from refscore.metrics.bertscore.metric import BERTScoreConfig, BERTScoreMetric, BERTScorer, bertscore, config_hash_of

__all__ = ["bertscore", "BERTScorer", "BERTScoreConfig", "BERTScoreMetric", "config_hash_of"]


def __getattr__(name: str) -> Any:   # the deprecated result class names, with the metric module's warning
    return getattr(_metric, name)
