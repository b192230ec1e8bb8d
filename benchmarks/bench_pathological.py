"""Time and peak memory of hostile and pathological inputs, one case per fresh subprocess (docs/reliability.md).

    python benchmarks/bench_pathological.py                      # every case at its documented size
    python benchmarks/bench_pathological.py --mb 1 --case line-chrf   # one case, a 1 MB line
    python benchmarks/bench_pathological.py --timeout 60 --max-memory 4GiB --markdown   # capped, as a table
    python benchmarks/bench_pathological.py --jobs 14 --timeout 60 --max-memory 6GiB  # a 16-core machine

Each case runs in its own interpreter so that the peak resident memory (``ru_maxrss``) is that case's alone; the
baseline (importing refscore and building the metric on a one-word input) is measured the same way and printed
next to it, so the table's memory column is what the input added. ``--max-memory`` caps each case's address
space (``RLIMIT_AS``), so a case that would take more ends with a MemoryError instead of swapping the machine.
Metrics: bleu, gleu, chrf, chrf++, ter, rouge (1, 2, L together), rouge12, rougeL, rougeLsum, rougeW, rougeS
(skip distance 4), rougeSU (4), rougeS* (any distance), rouge155 (ROUGE-1.5.5's script), meteor.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

WORDS = [f"w{i}" for i in range(5000)] + ["the", "a", "of", "cat", "sat", "on", "mat", "."]
_ROUGE = "refscore.metrics.rouge:ROUGE"
LINE_METRICS = {
    "bleu": "refscore.metrics.bleu:BLEU", "gleu": "refscore.metrics.gleu:GLEU", "chrf": "refscore.metrics.chrf:CHRF",
    "chrf++": "refscore.metrics.chrf:CHRF", "ter": "refscore.metrics.ter:TER", "rouge": _ROUGE, "rouge12": _ROUGE,
    "rougeL": _ROUGE, "rougeLsum": _ROUGE, "rougeW": _ROUGE, "rougeS": _ROUGE, "rougeSU": _ROUGE, "rougeS*": _ROUGE,
    "rouge155": "refscore.metrics.rouge:ROUGE155", "meteor": "refscore.metrics.meteor:METEOR",
}
OPTIONS = {"chrf++": {"word_order": 2}, "rouge": {"types": ("rouge1", "rouge2", "rougeL")},
           "rouge12": {"types": ("rouge1", "rouge2")}, "rougeL": {"types": ("rougeL",)},
           "rougeLsum": {"types": ("rougeLsum",)}, "rougeW": {"types": ("rougeW",)},
           "rougeS": {"types": ("rougeS",), "skip_distance": 4}, "rougeSU": {"types": ("rougeSU",), "skip_distance": 4},
           "rougeS*": {"types": ("rougeS",), "skip_distance": None}}


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
        return metric, OPTIONS.get(metric, {}), [
            " ".join(rng.choice(WORDS) for _ in range(int(size)))], [[words_line(400, 3)]]
    if kind == "repeat":
        return metric, OPTIONS.get(metric, {}), ["a" * int(size * 1_000_000)], [["a" * int(size * 1_000_000)]]
    if kind == "combining":
        text = "\u0301" * int(size * 1_000_000 / 2)
        return metric, OPTIONS.get(metric, {}), [text], [[text]]
    raise SystemExit(f"unknown case {case!r}")


def run_one(case: str, size: float, max_memory: int) -> dict:
    import importlib

    if max_memory:
        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))

    metric_key, options, hypotheses, references = case_inputs(case, size)
    module, _, name = LINE_METRICS[metric_key].partition(":")
    metric = getattr(importlib.import_module(module), name)(**options)
    metric.corpus_score(["warm up"], [["warm up"]])
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start, cpu = time.perf_counter(), time.process_time()
    score = metric.corpus_score(hypotheses, references).score
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"case": case, "size": size, "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
            "base_mb": round(base_rss / 1024),
            "peak_mb": round(peak / 1024), "score": score}


def _markdown(results: list[dict]) -> str:
    rows = ["| Case | Size | Wall (s) | CPU (s) | Memory added (MB) | Score or error |",
            "| --- | --- | --- | --- | --- | --- |"]
    for r in results:
        if "error" in r:
            rows.append(f"| {r['case']} | {r['size']:g} | - | - | - | {r['error']} |")
        else:
            rows.append(f"| {r['case']} | {r['size']:g} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} "
                        f"| {r['peak_mb'] - r['base_mb']} | {r['score']:.4g} |")
    return "\n".join(rows)


def main() -> None:
    from refscore._memory import parse_size

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", help="line-<metric>, refs-<metric>, tokens-<metric>, "
                        "repeat-<metric>, combining-<metric> (default: all)")
    parser.add_argument("--mb", type=float, default=10.0, help="line size in MB (default 10)")
    parser.add_argument("--refs", type=int, default=100_000)
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per case (default 600)")
    parser.add_argument("--max-memory", default="0", help="address-space cap per case, e.g. 4GiB (default: none)")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once, each in its own process (default 1)")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table at the end")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    max_memory = 0 if args.max_memory in ("0", "") else parse_size(args.max_memory, "--max-memory")
    if args.one:
        case, size = args.one.rsplit("@", 1)
        print(json.dumps(run_one(case, float(size), max_memory)))
        return
    cases = args.case or ([f"line-{m}" for m in LINE_METRICS] + [f"refs-{m}" for m in LINE_METRICS]
                          + ["tokens-ter", "tokens-rougeL", "tokens-rougeW"] + [f"repeat-{m}" for m in LINE_METRICS]
                          + [f"combining-{m}" for m in LINE_METRICS])
    def run_case(case: str) -> dict:
        kind = case.partition("-")[0]
        size = {"refs": args.refs, "tokens": args.tokens}.get(kind, args.mb)
        command = [sys.executable, __file__, "--one", f"{case}@{size}", "--max-memory", str(max_memory)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return {"case": case, "size": size, "error": f"over {args.timeout:.0f} s"}
        if done.returncode == 0:
            return json.loads(done.stdout.strip().splitlines()[-1])
        error = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1][:200]
        return {"case": case, "size": size, "error": error}

    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:   # each case is its own process
        for result in pool.map(run_case, cases):
            results.append(result)
            print(json.dumps(result), flush=True)
    if args.markdown:
        print(_markdown(results))


if __name__ == "__main__":
    main()
