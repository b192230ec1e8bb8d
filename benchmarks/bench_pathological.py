"""Time and peak memory of hostile and pathological inputs, one case per fresh subprocess (docs/reliability.md).

    python benchmarks/bench_pathological.py                      # every case at its documented size
    python benchmarks/bench_pathological.py --mb 1 --case line-chrf   # one case, a 1 MB line

Each case runs in its own interpreter so that the peak resident memory (``ru_maxrss``) is that case's alone; the
baseline (importing refscore and building the metric on a one-word input) is measured the same way and printed
next to it, so the table's memory column is what the input added.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time

WORDS = [f"w{i}" for i in range(5000)] + ["the", "a", "of", "cat", "sat", "on", "mat", "."]
LINE_METRICS = {
    "bleu": "refscore.metrics.bleu:BLEU", "gleu": "refscore.metrics.gleu:GLEU", "chrf": "refscore.metrics.chrf:CHRF",
    "chrf++": "refscore.metrics.chrf:CHRF", "ter": "refscore.metrics.ter:TER", "rouge": "refscore.metrics.rouge:ROUGE",
    "rouge155": "refscore.metrics.rouge:ROUGE155", "meteor": "refscore.metrics.meteor:METEOR",
}
OPTIONS = {"chrf++": {"word_order": 2}, "rouge": {"types": ("rouge1", "rouge2", "rougeL")}}


def words_line(size_bytes: int, seed: int) -> str:
    rng = random.Random(seed)
    out, length = [], 0
    while length < size_bytes:
        word = rng.choice(WORDS)
        out.append(word)
        length += len(word) + 1
    return " ".join(out)


def case_inputs(case: str, size: float) -> tuple[str, dict, list, list]:
    """(metric key, options, hypotheses, references) of one case; ``size`` is MB for lines, a count otherwise."""
    kind, _, metric = case.partition("-")
    if kind == "line":
        n = int(size * 1_000_000)
        return metric, OPTIONS.get(metric, {}), [words_line(n, 1)], [[words_line(n, 2)]]
    if kind == "refs":
        references = [words_line(60, i) for i in range(int(size))]
        return metric, OPTIONS.get(metric, {}), ["the cat sat on the mat"], [references]
    if kind == "tokens":
        rng = random.Random(1)
        return metric, {"types": ("rougeL",)} if metric == "rouge" else {}, [
            " ".join(rng.choice(WORDS) for _ in range(int(size)))], [[words_line(400, 3)]]
    if kind == "repeat":
        return metric, OPTIONS.get(metric, {}), ["a" * int(size * 1_000_000)], [["a" * int(size * 1_000_000)]]
    if kind == "combining":
        text = "\u0301" * int(size * 1_000_000 / 2)
        return metric, OPTIONS.get(metric, {}), [text], [[text]]
    raise SystemExit(f"unknown case {case!r}")


def run_one(case: str, size: float) -> dict:
    import importlib

    metric_key, options, hypotheses, references = case_inputs(case, size)
    module, _, name = LINE_METRICS[metric_key].partition(":")
    metric = getattr(importlib.import_module(module), name)(**options)
    metric.corpus_score(["warm up"], [["warm up"]])
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    score = metric.corpus_score(hypotheses, references).score
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"case": case, "size": size, "seconds": round(wall, 3), "base_mb": round(base_rss / 1024),
            "peak_mb": round(peak / 1024), "score": score}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", help="line-<metric>, refs-<metric>, tokens-<metric>, "
                        "repeat-<metric>, combining-<metric> (default: all)")
    parser.add_argument("--mb", type=float, default=10.0, help="line size in MB (default 10)")
    parser.add_argument("--refs", type=int, default=100_000)
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        case, size = args.one.rsplit("@", 1)
        print(json.dumps(run_one(case, float(size))))
        return
    cases = args.case or ([f"line-{m}" for m in LINE_METRICS] + [f"refs-{m}" for m in LINE_METRICS]
                          + ["tokens-ter", "tokens-rouge"] + [f"repeat-{m}" for m in LINE_METRICS]
                          + [f"combining-{m}" for m in LINE_METRICS])
    for case in cases:
        kind = case.partition("-")[0]
        size = {"refs": args.refs, "tokens": args.tokens}.get(kind, args.mb)
        try:
            done = subprocess.run([sys.executable, __file__, "--one", f"{case}@{size}"], capture_output=True,
                                  text=True, timeout=args.timeout)
            line = done.stdout.strip().splitlines()[-1] if done.returncode == 0 else json.dumps(
                {"case": case, "size": size, "error": done.stderr.strip().splitlines()[-1][:200]})
        except subprocess.TimeoutExpired:
            line = json.dumps({"case": case, "size": size, "error": f"over {args.timeout:.0f} s"})
        print(line, flush=True)


if __name__ == "__main__":
    main()
