"""Benchmark: refscore.meta's PERM-BOTH tests vs mt-metrics-eval's stats.py (the reference), same data, same run.

Data: ../shared/data/mqm_ted/ende.jsonl (WMT21 TED MQM, 13 systems x 529 segments) and six metrics computed per
segment by refscore (BLEU, chrF, chrF++, TER negated, GLEU, ROUGE-L; not timed). Task (the issue's): segment-level
Pearson (no grouping) and system-level Pearson, with the PERM-BOTH test between every pair of the 6 metrics
(15 pairs, mt-metrics-eval's ComputeSigMatrix order: metrics by decreasing correlation, one random stream),
1,000 resamples each.

Timed, in this process (wall clock and this process's CPU time; on a busy machine the CPU ratios are the ones
to compare; the reference once, refscore best of 3):
  * reference: ``np.random.seed(SEED)`` then ``stats.PermutationSigDiff`` for every pair (both levels);
  * refscore ``resampler="reference"``: the same draws, bit for bit (p-values compared for equality);
  * refscore ``resampler="fast"`` (the default): its own coins, one set shared by the pairs; the correlations are
    compared to 1e-12 and each p-value to the reference's within 4 binomial standard errors
    (4 * sqrt(p (1 - p) / 1000), at least 0.01), the agreement in distribution that tests/test_meta_significance.py
    checks with a Kolmogorov-Smirnov test.

Then ``KendallWithTiesOpt`` (acc23, item grouping, all pairs): it re-optimises its tie threshold on every resample,
so the reference is timed on a few resamples of one pair and both sides are scaled linearly to 1,000 resamples x
15 pairs (the output says so).

Usage: python benchmarks/bench_meta.py [--seed S] [--ties-resamples N] [--data FILE]
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import scipy.stats

from _timing import best_time

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
K = 1000


def reference_module():
    sys.path.insert(0, str(SHARED / "reference"))
    from mt_metrics_eval import stats

    return stats


def metric_scores(path: Path):
    from refscore.meta.evaluate import MetricScores
    from refscore.meta.inputs import load_judgments
    from refscore.metrics.bleu import BLEU
    from refscore.metrics.chrf import CHRF
    from refscore.metrics.gleu import GLEU
    from refscore.metrics.rouge import ROUGE
    from refscore.metrics.ter import TER

    judgments = load_judgments(str(path))
    metrics = {"bleu": BLEU(effective_order=True), "chrf": CHRF(), "chrf++": CHRF(word_order=2), "ter": TER(),
               "gleu": GLEU(), "rougeL": ROUGE(types=("rougeL",))}
    scores = {name: MetricScores.from_metric(metric, judgments) for name, metric in metrics.items()}
    return judgments.human["mqm"], scores


def packed(matrix: np.ndarray) -> list:
    return [None if value != value else float(value) for value in np.asarray(matrix, dtype=float).ravel()]


def reference_matrix(stats, corrs: dict, k: int, seed: int, function=scipy.stats.pearsonr, **options):
    """ComputeSigMatrix's loop: names by decreasing correlation, p[i, j] = PermutationSigDiff(j, i)."""
    values = {name: corr.Pearson()[0] if function is scipy.stats.pearsonr else None for name, corr in corrs.items()}
    order = sorted(corrs, key=lambda name: -values[name])
    np.random.seed(seed)
    p = np.full((len(order), len(order)), np.nan)
    for i, better in enumerate(order):
        for j in range(i + 1, len(order)):
            p[i, j] = stats.PermutationSigDiff(corrs[order[j]], corrs[better], function, "none", k, **options)[0]
    return order, np.array([values[name] for name in order]), p


def timing(seconds, reference=None, milliseconds: bool = False) -> str:
    """Wall and CPU seconds (or milliseconds), each with its speed-up over ``reference`` (wall, CPU) when given."""
    cells = []
    for index in range(2):
        ratio = f"x{reference[index] / seconds[index]:7.1f}" if reference is not None else " " * 8
        cells.append(f"{seconds[index] * 1e3:7.2f} ms {ratio}" if milliseconds else f"{seconds[index]:8.3f} s {ratio}")
    return "  ".join(cells)


def tolerance(p: np.ndarray) -> np.ndarray:
    return np.maximum(4 * np.sqrt(p * (1 - p) / K), 0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--ties-resamples", type=int, default=3, help="reference resamples timed for ties (3)")
    parser.add_argument("--data", type=Path, default=SHARED / "data" / "mqm_ted" / "ende.jsonl")
    args = parser.parse_args()
    from refscore.meta import perm_both, perm_both_matrix
    from refscore.meta.evaluate import human_system_scores

    stats = reference_module()
    human, scores = metric_scores(args.data)
    gold_system = human_system_scores(human)[0]
    print(f"data: {args.data} ({human.shape[0]} systems x {human.shape[1]} segments), metrics: {', '.join(scores)}")
    print(f"task: PERM-BOTH between every pair of {len(scores)} metrics, {K} resamples, seed {args.seed}\n")
    levels = {"segment": (human, {n: s.segments for n, s in scores.items()}),
              "system": (gold_system, {n: s.systems for n, s in scores.items()})}
    totals = {name: np.zeros(2) for name in ("reference", "refscore reference", "refscore fast")}
    agree = True
    print(f"{'':32}{'wall':>10}{'':8}{'CPU':>10}")
    for level, (gold, metric_matrices) in levels.items():
        num_sys = gold.shape[0] if gold.ndim == 2 else 1
        corrs = {name: stats.Correlation(num_sys, packed(gold), packed(matrix))
                 for name, matrix in metric_matrices.items()}
        wall_ref, cpu_ref, (order_ref, values_ref, p_ref) = best_time(
            lambda: reference_matrix(stats, corrs, K, args.seed), 1)
        wall_same, cpu_same, (order_same, values_same, p_same) = best_time(lambda: perm_both_matrix(
            gold, metric_matrices, k=K, seed=args.seed, resampler="reference"), 3)
        wall_fast, cpu_fast, (order_fast, values_fast, p_fast) = best_time(lambda: perm_both_matrix(
            gold, metric_matrices, k=K, seed=args.seed), 3)
        upper = np.triu_indices(len(order_ref), 1)
        same = order_same == order_ref and np.array_equal(p_same[upper], p_ref[upper])
        close = np.allclose(values_fast, values_ref, rtol=1e-12) and order_fast == order_ref
        within = bool(np.all(np.abs(p_fast[upper] - p_ref[upper]) <= tolerance(p_ref[upper])))
        agree &= same and close and within
        reference = np.array([wall_ref, cpu_ref])
        totals["reference"] += reference
        totals["refscore reference"] += (wall_same, cpu_same)
        totals["refscore fast"] += (wall_fast, cpu_fast)
        print(f"{level}-level Pearson, 15 pairs x {K} resamples")
        print(f"  reference stats.py            {timing(reference)}")
        print(f"  refscore resampler=reference  {timing((wall_same, cpu_same), reference)}  p-values "
              f"{'identical' if same else 'DIFFER'}")
        print(f"  refscore resampler=fast       {timing((wall_fast, cpu_fast), reference)}  correlations "
              f"{'equal (1e-12)' if close else 'DIFFER'}, p-values {'within' if within else 'NOT within'} 4 s.e. "
              f"(max |diff| {np.max(np.abs(p_fast[upper] - p_ref[upper])):.3f})")
    print("both levels")
    print(f"  reference stats.py            {timing(totals['reference'])}")
    print(f"  refscore resampler=reference  {timing(totals['refscore reference'], totals['reference'])}")
    print(f"  refscore resampler=fast       {timing(totals['refscore fast'], totals['reference'])}")

    # KendallWithTiesOpt: a few reference resamples, scaled linearly
    names = list(scores)[:2]
    corr1, corr2 = (stats.Correlation(human.shape[0], packed(human), packed(scores[n].segments)) for n in names)
    n_ref, n_mine = args.ties_resamples, 20
    params = stats.PermutationSigDiffParams(block_size=K)
    options = {"variant": "acc23", "sample_rate": 1.0}
    np.random.seed(args.seed)
    start = time.perf_counter()
    ref = stats.PermutationSigDiff(corr1, corr2, stats.KendallWithTiesOpt, "item", n_ref, params, **options)
    ref_per = (time.perf_counter() - start) / (n_ref + 1)  # +1: the unresampled pair of correlations
    start = time.perf_counter()
    same = perm_both(human, scores[names[0]].segments, scores[names[1]].segments, "kendall_ties_opt", "item",
                     k=n_ref, seed=args.seed, resampler="reference", **options)
    same_per = (time.perf_counter() - start) / (n_ref + 1)
    start = time.perf_counter()
    perm_both(human, scores[names[0]].segments, scores[names[1]].segments, "kendall_ties_opt", "item", k=n_mine,
              seed=args.seed, **options)
    fast_per = (time.perf_counter() - start) / (n_mine + 1)
    identical = same.p_value == ref[0] and np.allclose(same.samples, np.array(ref[3]), rtol=1e-12, atol=0)
    agree &= identical
    scale = K * 15
    print(f"\nKendallWithTiesOpt (acc23, item grouping), {names[1]} vs {names[0]}: timed on {n_ref} reference "
          f"resamples and {n_mine} fast ones, SCALED LINEARLY to {K} resamples x 15 pairs")
    print(f"  reference stats.py            {ref_per * scale:10.1f} s (scaled)")
    print(f"  refscore resampler=reference  {same_per * scale:10.1f} s (scaled)  x{ref_per / same_per:6.1f}  "
          f"resampled correlations {'identical' if identical else 'DIFFER'}")
    print(f"  refscore resampler=fast       {fast_per * scale:10.1f} s (scaled)  x{ref_per / fast_per:6.1f}")
    print(f"\nnumbers agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
