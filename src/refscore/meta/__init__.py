"""Meta-evaluation: how well a metric agrees with human judgments (MQM, DA, Likert, pass/fail), with the
statistics of the WMT metrics tasks (mt-metrics-eval's ``stats.py``). See docs/meta-evaluation.md.

>>> import refscore.meta as meta
>>> meta.pearson([-1.0, -3.0, -0.5, -2.0], [0.62, 0.41, 0.70, 0.52]) > 0.9
True
"""
from __future__ import annotations

from refscore.meta.correlations import (KENDALL_VARIANTS, ConstantScoresWarning, TiesResult, kendall, kendall_like,
                                        kendall_ties_opt, pairwise_accuracy, pearson, soft_pairwise_accuracy,
                                        spearman)
from refscore.meta.evaluate import MetricScores, meta_evaluate
from refscore.meta.significance import (CorrelationInterval, PermBothResult, bootstrap_interval, perm_both,
                                        perm_both_matrix, significance_clusters, williams)

__all__ = ["KENDALL_VARIANTS", "ConstantScoresWarning", "CorrelationInterval", "MetricScores", "PermBothResult",
           "TiesResult", "meta_evaluate",
           "bootstrap_interval", "kendall", "kendall_like", "kendall_ties_opt", "pairwise_accuracy", "pearson",
           "perm_both", "perm_both_matrix", "significance_clusters", "soft_pairwise_accuracy", "spearman", "williams"]

# several language pairs at once (WMT's global pairwise accuracy): refscore.meta.language_pairs
from refscore.meta.language_pairs import GlobalAccuracy, global_pairwise_accuracy  # noqa: E402

__all__ += ["GlobalAccuracy", "global_pairwise_accuracy"]
