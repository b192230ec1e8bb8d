"""chrF / chrF++: refscore vs sacreBLEU 2.6 on WMT22 en-de and zh-en, same data, same run.

    python benchmarks/bench_chrf.py [--data ../shared/data/wmt22] [--system Online-A] [--repeat 5]

For each pair and setting (chrF and chrF++, reference A alone and both references) it prints sacreBLEU's time,
refscore's time on 1 and 2 threads (best of ``--repeat`` wall-clock runs, text to score, validation included), the
speed-ups (wall clock, and CPU time of the single-thread runs, which a busy machine distorts less), and whether the
corpus scores agree to 1e-9 (0–100 scale) and between thread counts; then the peak memory allocated while scoring.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc
from pathlib import Path

from sacrebleu.metrics import CHRF as PeerCHRF

import refscore

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def load(data: Path, pair: str, system: str) -> tuple[list[str], list[list[str]]]:
    hyps = read_segments(data / pair / "sys" / f"{system}.txt")
    streams = [read_segments(path) for path in sorted((data / pair).glob("ref*.txt"))]
    return hyps, streams


def best_time(function, repeat: int) -> tuple[float, float, object]:
    """Best wall-clock time, the CPU time of that run, and the result."""
    best_wall, best_cpu, result = float("inf"), 0.0, None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if wall < best_wall:
            best_wall, best_cpu = wall, cpu
    return best_wall, best_cpu, result


def peak_memory_mib(function) -> float:
    """Peak Python-heap allocation (tracemalloc, numpy included) while ``function`` runs. refscore's C++ scratch
    (not traced) is per thread and proportional to the longest segment: a few hundred KiB here."""
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--system", default="Online-A")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"refscore {refscore.__version__}, config {refscore.show_config()}")
    header = (f"{'pair':6} {'metric':8} {'refs':4} {'segs':>5} {'sacrebleu s':>11} {'refscore 1T s':>13} "
              f"{'x1T':>6} {'cpu x1T':>7} {'refscore 2T s':>13} {'x2T':>6} agree")
    print(header)
    print("-" * len(header))
    for pair in ("en-de", "zh-en"):
        hyps, streams = load(args.data, pair, args.system)
        for word_order in (0, 2):
            for n_refs in (1, len(streams)):
                refs = streams[:n_refs]
                per_segment = [list(r) for r in zip(*refs)]
                peer_metric = PeerCHRF(word_order=word_order)
                peer_time, peer_cpu, peer = best_time(lambda: peer_metric.corpus_score(hyps, refs), 1)
                metric = refscore.CHRF(word_order=word_order)
                one, one_cpu, ours = best_time(lambda: metric.corpus_score(hyps, per_segment, num_threads=1),
                                               args.repeat)
                two, _, ours2 = best_time(lambda: metric.corpus_score(hyps, per_segment, num_threads=2), args.repeat)
                agree = abs(100 * ours.score - peer.score) <= 1e-9 and ours.score == ours2.score
                print(f"{pair:6} {peer.name:8} {n_refs:4} {len(hyps):5} {peer_time:11.3f} {one:13.4f} "
                      f"{peer_time / one:6.1f} {peer_cpu / one_cpu:7.1f} {two:13.4f} {peer_time / two:6.1f} {agree}")
    hyps, streams = load(args.data, "zh-en", args.system)
    per_segment = [list(r) for r in zip(*streams)]
    for word_order in (0, 2):
        ours = peak_memory_mib(lambda: refscore.CHRF(word_order=word_order).corpus_score(hyps, per_segment))
        peer = peak_memory_mib(lambda: PeerCHRF(word_order=word_order).corpus_score(hyps, streams))
        print(f"peak memory while scoring zh-en (both refs, word_order={word_order}): refscore {ours:.2f} MiB, "
              f"sacreBLEU {peer:.2f} MiB")


if __name__ == "__main__":
    main()
