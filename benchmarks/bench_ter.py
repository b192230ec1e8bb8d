"""Benchmark: refscore TER vs sacreBLEU 2.6 TER on WMT22, plus a long multi-reference segment.

Wall-clock and CPU time are both printed: on a shared, loaded machine the CPU-time ratio is the steadier one.

For each language pair it times sacreBLEU's ``TER().corpus_score`` and refscore's ``TER().corpus_score`` on the
same systems in the same run (refscore: best of ``--repeat`` runs, 1 thread and 2 threads), prints the speed-up
and whether the corpus scores agree (to 1e-9), and measures the peak resident memory that refscore adds.
Then it times refscore on a synthetic 2,000-token segment against 1, 3 and 9 references of ~2,000 tokens, each
in a fresh process, to show that memory grows linearly (not quadratically) with the number of references.

    python benchmarks/bench_ter.py                      # en-de (ref A) and zh-en (refs A+B), 1 system each
    python benchmarks/bench_ter.py --pairs en-de --peer-systems 2 --repeat 3
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _timing import best_time

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "wmt22"
#: pair -> reference files used (en-de with one reference, as sacreBLEU's ≈5 s/system figure; zh-en with both)
PAIRS = {"en-de": ("ref.txt",), "zh-en": ("ref.txt", "ref2.txt")}


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far (VmHWM), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def current_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_pair(pair: str, peer_systems: int, repeat: int) -> None:
    import sacrebleu

    import refscore
    from refscore.metrics.ter import TER

    directory = DATA / pair
    streams = [read_segments(directory / name) for name in PAIRS[pair]]
    references = refscore.from_streams(streams)
    systems = sorted((directory / "sys").glob("*.txt"))[:peer_systems]
    hypotheses = {path.stem: read_segments(path) for path in systems}
    metric = TER()

    peer_seconds, peer_cpu, peer_scores = 0.0, 0.0, {}
    for name, hyps in hypotheses.items():
        wall, cpu, score = best_time(lambda: sacrebleu.metrics.TER().corpus_score(hyps, streams), 1)
        peer_scores[name] = score.score
        peer_seconds += wall
        peer_cpu += cpu

    rss_before = current_rss_mib()
    timings, agree = {}, True
    for threads in (1, 2):
        total_wall = total_cpu = 0.0
        for name, hyps in hypotheses.items():
            wall, cpu, score = best_time(lambda: metric.corpus_score(hyps, references, num_threads=threads), repeat)
            total_wall += wall
            total_cpu += cpu
            agree = agree and abs(100 * score.score - peer_scores[name]) <= 1e-9
        timings[threads] = (total_wall, total_cpu)
    rss_added = peak_rss_mib() - rss_before

    words = sum(len(h.split()) for hyps in hypotheses.values() for h in hyps)
    print(f"{pair} ({len(streams)} ref{'s' if len(streams) > 1 else ''}, {len(systems)} system(s), "
          f"{len(references)} segments, {words} hypothesis words)")
    print(f"  sacreBLEU TER         wall {peer_seconds:9.3f} s   cpu {peer_cpu:9.3f} s")
    for threads, (wall, cpu) in timings.items():
        label = f"{threads} thread{'s' if threads > 1 else ' '}"
        print(f"  refscore  {label}      wall {wall:9.3f} s   cpu {cpu:9.3f} s   "
              f"{peer_seconds / wall:7.1f}x faster (wall), {peer_cpu / cpu:7.1f}x less CPU")
    print(f"  scores agree (1e-9):  {agree}   "
          + ", ".join(f"{name} {score:.4f}" for name, score in peer_scores.items()))
    print(f"  refscore peak memory added: {max(rss_added, 0.0):.1f} MiB")


LONG_CASE = r"""
import json, sys, time
import numpy as np
from pathlib import Path
from refscore.metrics.ter import TER

def rss(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024

n_refs, threads = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
vocab = np.array([f"w{i}" for i in range(500)])
hyp = " ".join(rng.choice(vocab, 2000))
words = hyp.split()
refs = []
for k in range(n_refs):  # references: the hypothesis with ~20% words replaced and a few blocks moved
    ref = list(words)
    for i in rng.choice(len(ref), 400, replace=False):
        ref[i] = str(rng.choice(vocab))
    cut = int(rng.integers(100, 1900))
    refs.append(" ".join(ref[cut:cut + 50] + ref[:cut] + ref[cut + 50:]))
metric = TER()
metric.corpus_score(["a b"], [["a b"]], num_threads=1)  # load the kernel
before = rss("VmRSS:")
start, cpu = time.perf_counter(), time.process_time()
score = metric.corpus_score([hyp], [refs], num_threads=threads)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_added_mib": rss("VmHWM:") - before,
                  "edits": score.values["num_edits"], "ref_length": score.values["ref_length"]}))
"""


def bench_long_segment() -> None:
    print("2,000-token hypothesis vs n references of ~2,000 tokens (fresh process each)")
    for n_refs in (1, 3, 9):
        output = subprocess.run([sys.executable, "-c", LONG_CASE, str(n_refs), "1"], check=True,
                                capture_output=True, text=True).stdout
        result = json.loads(output)
        print(f"  {n_refs} reference(s): wall {result['seconds']:7.3f} s, cpu {result['cpu']:7.3f} s, "
              f"peak memory added {max(result['peak_added_mib'], 0.0):6.1f} MiB, edits {result['edits']}, "
              f"avg ref length {result['ref_length']:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", default=",".join(PAIRS), help="comma-separated, from: " + ", ".join(PAIRS))
    parser.add_argument("--peer-systems", type=int, default=1, help="systems per pair timed (sacreBLEU is slow)")
    parser.add_argument("--repeat", type=int, default=3, help="refscore runs per measurement (best is kept)")
    parser.add_argument("--skip-long", action="store_true", help="skip the long-segment case")
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"WMT22 data not found at {DATA}")
    for pair in args.pairs.split(","):
        bench_pair(pair, args.peer_systems, args.repeat)
    if not args.skip_long:
        bench_long_segment()


if __name__ == "__main__":
    main()
