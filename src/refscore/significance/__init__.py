"""Confidence intervals and paired significance tests for every refscore metric, from its statistics.

* :func:`bootstrap_ci` / :func:`bootstrap_ci_from_statistics`: bootstrap interval of one system
  (sacreBLEU's ``--confidence``).
* :func:`paired_test` (:func:`paired_bootstrap`, :func:`paired_approximate_randomization`) and
  :func:`paired_test_from_statistics`: a baseline against any number of systems (sacreBLEU's ``--paired-bs`` /
  ``--paired-ar``), with sacreBLEU 2.6's random draws, so the same seed gives the same p-values and intervals.

See ``docs/significance.md``.
"""
from __future__ import annotations

from refscore.significance.intervals import BootstrapCI, Interval, bootstrap_ci, bootstrap_ci_from_statistics
from refscore.significance.paired import (PairedTestResult, SystemResult, paired_approximate_randomization,
                                          paired_bootstrap, paired_test, paired_test_from_statistics)

__all__ = ["BootstrapCI", "Interval", "PairedTestResult", "SystemResult", "bootstrap_ci",
           "bootstrap_ci_from_statistics", "paired_approximate_randomization", "paired_bootstrap", "paired_test",
           "paired_test_from_statistics"]
