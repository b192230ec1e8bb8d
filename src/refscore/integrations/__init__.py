"""Adapters of refscore's metrics to the frameworks that consume metrics, one module per framework, each importing
its framework on first use (an extra per framework: a missing one is an error naming ``pip install
'refscore[EXTRA]'``):

- :mod:`refscore.integrations.torchmetrics`: stateful ``torchmetrics.Metric`` objects whose states are a metric's
  summed statistics columns, so ``compute()`` is refscore's corpus score, in one process or synced across many
  (extra ``torchmetrics``);
- :mod:`refscore.integrations.trl`: reward functions with TRL's ``GRPOTrainer`` signature (extra ``trl``);
- :mod:`refscore.integrations.lm_eval`: metric functions and a corpus aggregation for lm-evaluation-harness task
  YAMLs, with the stderr of refscore's bootstrap (extra ``lm_eval``);
- :mod:`refscore.integrations.mlflow`: scorers for ``mlflow.genai.evaluate`` and ``log_run`` of a refscore run to
  a tracking store (extra ``mlflow``);
- :mod:`refscore.integrations.inspect_ai`: inspect_ai scorers, sentence and corpus, registered as ``refscore/NAME``
  through inspect_ai's entry points (extra ``inspect``);
- :mod:`refscore.integrations.lighteval`: lighteval ``SampleLevelMetric`` / ``CorpusLevelMetric`` objects, each
  sample scored against its own golds (extra ``lighteval``).

They use refscore's public API only (a metric's ``statistics``/``score_from_statistics``/``scores_from_totals``,
:class:`refscore.Reward`), so every number they give is the metric's own. docs/integrations/ has a page each.

>>> import refscore.integrations
>>> refscore.integrations.FRAMEWORKS["torchmetrics"]
'torchmetrics'
"""
from __future__ import annotations

__all__ = ["FRAMEWORKS"]

#: adapter module -> the extra that installs its framework (pyproject.toml's optional dependencies).
FRAMEWORKS: dict[str, str] = {"torchmetrics": "torchmetrics", "trl": "trl", "lm_eval": "lm_eval", "mlflow": "mlflow",
                              "inspect_ai": "inspect", "lighteval": "lighteval"}
