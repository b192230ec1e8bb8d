"""Benchmark: Kendall without grouping and meta-eval's bootstrap intervals, refscore vs mt-metrics-eval's stats.py
(the reference), same data, same run.

Data: ../shared/data/mqm_ted/{ende,zhen}.jsonl (WMT21 TED MQM, 13 systems x 529 segments each, every cell rated) and
sentence BLEU and chrF computed per segment by refscore (not timed; bench_meta.py's metric set, first two).

1. Kendall's tau-b without grouping (mt-metrics-eval's ``Correlation.Kendall("none")``, what ``meta-eval``
   computes for ``kendall`` with grouping ``none``), best of 5: refscore's ``meta.kendall(human, metric, "none")``
   against the reference on the same matrices; the numbers must be identical (==).
2. meta-eval's default bootstrap: 1,000 item resamples (all systems' scores of a segment move together) of the
   default statistics, system level (Pearson, Spearman, Kendall tau-b, pairwise accuracy on the resampled system
   scores) and segment level (Pearson without grouping, Pearson and Kendall tau-b by item), for two metrics:
   refscore's ``meta_evaluate(..., n_bootstrap=1000, k=0)`` minus the same call with ``n_bootstrap=0`` (the point
   values), against the reference computing the same statistics on each resampled matrix with
   ``stats.Correlation`` (mt-metrics-eval has no bootstrap of its own: this is the loop a user writes, as its
   ``PermutationSigDiff`` loops over resamples). The reference is timed on ``--reference-resamples`` resamples
   (default 20) and scaled linearly to 1,000 (said in the output); its replicates must equal refscore's on those
   resamples to 1e-12.

Timed: wall clock and this process's CPU time (on a busy machine, compare the CPU ratios).

Usage: python benchmarks/bench_meta_bootstrap.py [--pairs ende zhen] [--reference-resamples N]
"""
from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np

from _timing import best_time
from bench_meta import SHARED, metric_scores, packed, reference_module, timing

RESAMPLES = 1000
SEED = 12345


def _reference_replicates(stats, human, segments, gold_systems, metric_systems, counts):
    """The default statistics of each resample, as stats.Correlation computes them on the resampled matrices."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row, gold, systems in zip(counts, gold_systems, metric_systems):
            picks = np.repeat(np.arange(human.shape[1]), row)
            seg = stats.Correlation(human.shape[0], packed(human[:, picks]), packed(segments[:, picks]))
            sys_corr = stats.Correlation(1, list(map(float, gold)), list(map(float, systems)))
            agree, pairs = stats.Agreement(list(gold), list(systems))
            out.append([sys_corr.Pearson()[0], sys_corr.Spearman()[0], sys_corr.Kendall()[0], agree / pairs,
                        seg.Pearson("none")[0], seg.Pearson("item")[0], seg.Kendall("item")[0]])
    return np.array(out)


def _refscore_replicates(human, scores, counts):
    """The same replicates by refscore's batched bootstrap."""
    from refscore.meta import _bootstrap
    from refscore.meta.evaluate import human_system_scores

    gold = human_system_scores(human, counts)
    systems = scores.resample(counts)
    columns = [_bootstrap.system_replicates(name, gold, systems, options) for name, options in
               (("pearson", {}), ("spearman", {}), ("kendall", {"variant": "b"}), ("pairwise_accuracy", {}))]
    columns += [_bootstrap.segment_replicates(name, human, scores.segments, grouping, options, counts,
                                              progress=False)
                for name, grouping, options in (("pearson", "none", {}), ("pearson", "item", {}),
                                                ("kendall", "item", {"variant": "b"}))]
    return np.stack(columns, axis=1), gold, systems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", nargs="+", default=["ende", "zhen"])
    parser.add_argument("--reference-resamples", type=int, default=20)
    args = parser.parse_args()
    from refscore import meta
    from refscore.meta.evaluate import meta_evaluate

    stats = reference_module()
    agree = True
    for pair in args.pairs:
        path = SHARED / "data" / "mqm_ted" / f"{pair}.jsonl"
        human, scores = metric_scores(Path(path))
        chosen = {name: scores[name] for name in list(scores)[:2]}
        print(f"\n{pair}: {human.shape[0]} systems x {human.shape[1]} segments, "
              f"{int((~np.isnan(human)).sum())} rated; metrics {', '.join(chosen)}")
        print(f"{'':34}{'wall':>10}{'':8}{'CPU':>10}")

        # 1. Kendall tau-b without grouping
        for name, item in chosen.items():
            ref = stats.Correlation(human.shape[0], packed(human), packed(item.segments))
            wall_ref, cpu_ref, expected = best_time(lambda: ref.Kendall("none")[0], 5)
            wall, cpu, got = best_time(lambda: meta.kendall(human, item.segments, "none"), 5)
            same = got == expected
            agree &= same
            print(f"Kendall tau-b (none), {name}")
            print(f"  reference stats.py              {timing((wall_ref, cpu_ref), milliseconds=True)}")
            print(f"  refscore                        {timing((wall, cpu), (wall_ref, cpu_ref), True)}  "
                  f"{'identical' if same else 'DIFFER'} ({got!r})")

        # 2. the default bootstrap of meta-eval
        metrics = list(chosen.values())
        wall_all, cpu_all, _ = best_time(lambda: meta_evaluate(human, metrics, n_bootstrap=RESAMPLES, k=0,
                                                                seed=SEED, progress=False), 1)
        wall_none, cpu_none, _ = best_time(lambda: meta_evaluate(human, metrics, n_bootstrap=0, k=0, seed=SEED,
                                                                 progress=False), 1)
        mine = np.array([wall_all - wall_none, cpu_all - cpu_none])
        rng = np.random.default_rng(SEED)
        n = args.reference_resamples
        counts = np.stack([np.bincount(rng.integers(0, human.shape[1], human.shape[1]), minlength=human.shape[1])
                           for _ in range(n)])
        reference = np.zeros(2)
        close = True
        for item in metrics:
            got, gold, systems = _refscore_replicates(human, item, counts)
            wall_ref, cpu_ref, expected = best_time(lambda: _reference_replicates(
                stats, human, item.segments, gold, systems, counts), 1)
            reference += np.array([wall_ref, cpu_ref]) * RESAMPLES / n
            close &= bool(np.allclose(got, expected, rtol=1e-12, atol=1e-15))
        agree &= close
        print(f"bootstrap, {RESAMPLES} item resamples x 7 statistics x {len(metrics)} metrics (the reference "
              f"timed on {n} resamples, SCALED LINEARLY to {RESAMPLES})")
        print(f"  reference stats.py (scaled)     {timing(reference)}")
        print(f"  refscore meta_evaluate          {timing(mine, reference)}  replicates "
              f"{'equal (1e-12)' if close else 'DIFFER'} on the {n} resamples")
    print(f"\nnumbers agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
