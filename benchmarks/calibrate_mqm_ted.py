"""Threshold calibration on real labels: the WMT21 TED MQM ratings (../shared/data/mqm_ted).

A translation passes when its MQM score is >= -1 (MQM scores are penalties, 0 is perfect and more negative is worse;
-1 is at most one minor error). For each language pair the systems, sorted by name, are split in two halves (even
positions calibrate, odd positions evaluate); chrF and sentence BLEU (the test-case checks' defaults) get a threshold
on the first half for each objective, and the agreement of that threshold on the second half is reported with a
95% bootstrap interval (1,000 resamples of the held-out cases, seed 12345), next to the agreement of the trivial
rule "everything passes" on the same cases. The results are in docs/meta-evaluation.md.

    python benchmarks/calibrate_mqm_ted.py [--data ../shared/data] [--pairs ende zhen]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from refscore.meta.calibration import agreement, agreement_interval, calibrate, labels_from_ratings
from refscore.meta.inputs import load_judgments
from refscore.testing import Check

CUTOFF = ">= -1"
OBJECTIVES = (("accuracy", None), ("f1", None), ("precision", 0.9))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
    parser.add_argument("--data", default=os.environ.get("REFSCORE_SHARED_DATA", default))
    parser.add_argument("--pairs", nargs="+", default=["ende", "zhen"])
    args = parser.parse_args()
    print(f"| pair | check | objective | threshold (calibration half) | in-sample agreement [95% CI] | held-out "
          f"agreement [95% CI] | held-out recall | held-out: everything passes |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in args.pairs:
        path = os.path.join(args.data, "mqm_ted", f"{pair}.jsonl")
        if not os.path.exists(path):
            print(f"{path}: not found (give --data)", file=sys.stderr)
            return 2
        judgments = load_judgments(path, align="intersect")
        systems = sorted(judgments.systems)
        halves = judgments.select_systems(systems[0::2]), judgments.select_systems(systems[1::2])
        labels = [labels_from_ratings(half.human["mqm"].ravel(), CUTOFF) for half in halves]
        print(f"<!-- {pair}: calibrate on {', '.join(systems[0::2])}; evaluate on {', '.join(systems[1::2])}; "
              f"human pass rate {np.nanmean(labels[0]):.3f} / {np.nanmean(labels[1]):.3f} -->")
        for check in (Check("chrf"), Check("bleu")):
            scores = [half.metric_scores(check.metric).ravel() for half in halves]
            for objective, target in OBJECTIVES:
                fit = calibrate(scores[0], labels[0], higher_is_better=check.higher_is_better,
                                threshold_range=check.metric_class.threshold_range, objective=objective,
                                target_precision=target)
                held = agreement(scores[1], labels[1], fit.threshold, objective=objective)
                low, high = agreement_interval(scores[1], labels[1], fit.threshold, objective=objective)
                trivial = agreement(scores[1], labels[1], -np.inf, objective=objective)
                human_passes = labels[1] == 1   # missing labels (NaN) are not passes
                recall = check.replace(threshold=fit.threshold).passes(scores[1][human_passes]).mean()
                name = objective if target is None else f"precision ≥ {target:g}"
                print(f"| {pair} | {check.label} | {name} | {fit.threshold:.4f} (passes {fit.check_passes}/"
                      f"{fit.cases}) | {fit.agreement:.3f} [{fit.interval[0]:.3f}, {fit.interval[1]:.3f}] | "
                      f"{held:.3f} [{low:.3f}, {high:.3f}] | {recall:.3f} | {trivial:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
