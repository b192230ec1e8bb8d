"""chrF / chrF++: refscore vs sacreBLEU 2.6 on WMT22 en-de and zh-en, same data, same run.

    python benchmarks/bench_chrf.py [--data ../shared/data/wmt22] [--system Online-A] [--repeat 5]
    python benchmarks/bench_chrf.py --skip-corpus    # only the sentence-level rows

For each pair and setting (chrF and chrF++, reference A alone and both references) it prints sacreBLEU's time,
refscore's time on 1 and 2 threads (best of ``--repeat`` wall-clock runs, text to score, validation included), the
speed-ups (wall clock, and CPU time of the single-thread runs, which a busy machine distorts less), and whether the
corpus scores agree to 1e-9 (0–100 scale) and between thread counts; then the peak memory allocated while scoring.

Then sentence-level chrF of every (hypothesis, first reference) pair of the system on en-de, zh-en and en-zh
(Chinese text: most characters outside Latin-1, which the kernel hashes rather than looks up directly): one
``CHRF().sentence_scores`` call (1 thread) against fastchrf's ``pairwise_chrf`` given the same pairs as items of one
hypothesis and one reference (``RAYON_NUM_THREADS=1``, set before fastchrf is imported; skipped with a note when
fastchrf is not installed: ``pip install fastchrf``) and against a loop over sacreBLEU's ``sentence_score``; best CPU
seconds of ``--repeat`` runs (``--peer-repeat`` for the peers), the ratios, and whether every score agrees with
sacreBLEU's to 1e-9 (fastchrf: its largest difference from sacreBLEU, as it computes in its own float order).
"""
from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # fastchrf on one thread (read when it is first imported)

import numpy as np
from _timing import best_time as best_times
from sacrebleu.metrics import CHRF as PeerCHRF

import refscore

try:
    import fastchrf
except ImportError:  # optional peer of the sentence-level rows
    fastchrf = None

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


def sentence_rows(data: Path, system: str, repeat: int, peer_repeat: int) -> None:
    """Sentence chrF of every (hypothesis, first reference) pair: refscore vs fastchrf and sacreBLEU, CPU time."""
    print(f"\nsentence chrF, (hypothesis, first reference) pairs, 1 thread, best CPU s "
          f"(fastchrf: pairwise_chrf, one item per pair, RAYON_NUM_THREADS={os.environ['RAYON_NUM_THREADS']})")
    header = (f"{'pair':6} {'pairs':>5} {'refscore s':>10} {'MB/s':>6} {'fastchrf s':>10} {'x fastchrf':>10} "
              f"{'sacreBLEU s':>11} {'x sacreBLEU':>11} agree  fastchrf max|diff|")
    print(header)
    print("-" * len(header))
    for pair in ("en-de", "zh-en", "en-zh"):
        hyps, streams = load(data, pair, system)
        refs = streams[0]
        megabytes = sum(len(t.encode("utf-8")) for t in hyps + refs) / 1e6
        metric = refscore.CHRF()
        per_segment = [[r] for r in refs]
        _, ours_cpu, ours = best_times(lambda: metric.sentence_scores(hyps, per_segment, num_threads=1), repeat)
        peer = PeerCHRF()
        _, peer_cpu, expected = best_times(lambda: [peer.sentence_score(h, [r]).score for h, r in zip(hyps, refs)],
                                           peer_repeat)
        agree = bool(np.allclose(100 * ours, expected, rtol=0, atol=1e-9))
        fast = "fastchrf not installed (pip install fastchrf)"
        if fastchrf is not None:
            items_h, items_r = [[h] for h in hyps], [[r] for r in refs]
            _, fast_cpu, fast_scores = best_times(lambda: fastchrf.pairwise_chrf(items_h, items_r), peer_repeat)
            difference = float(np.max(np.abs(np.array(fast_scores).reshape(-1) - np.array(expected))))
            fast = f"{fast_cpu:10.4f} {fast_cpu / ours_cpu:10.1f}"
        else:
            difference = float("nan")
        print(f"{pair:6} {len(hyps):5} {ours_cpu:10.4f} {megabytes / ours_cpu:6.0f} {fast} {peer_cpu:11.3f} "
              f"{peer_cpu / ours_cpu:11.1f} {str(agree):5}  {difference:.2e}")


def corpus_rows(data: Path, system: str, repeat: int) -> None:
    """Corpus chrF / chrF++ per pair and reference count: refscore (1 and 2 threads) vs sacreBLEU."""
    header = (f"{'pair':6} {'metric':8} {'refs':4} {'segs':>5} {'sacrebleu s':>11} {'refscore 1T s':>13} "
              f"{'x1T':>6} {'cpu x1T':>7} {'refscore 2T s':>13} {'x2T':>6} agree")
    print(header)
    print("-" * len(header))
    for pair in ("en-de", "zh-en"):
        hyps, streams = load(data, pair, system)
        for word_order in (0, 2):
            for n_refs in (1, len(streams)):
                refs = streams[:n_refs]
                per_segment = [list(r) for r in zip(*refs)]
                peer_metric = PeerCHRF(word_order=word_order)
                peer_time, peer_cpu, peer = best_time(lambda: peer_metric.corpus_score(hyps, refs), 1)
                metric = refscore.CHRF(word_order=word_order)
                one, one_cpu, ours = best_time(lambda: metric.corpus_score(hyps, per_segment, num_threads=1),
                                               repeat)
                two, _, ours2 = best_time(lambda: metric.corpus_score(hyps, per_segment, num_threads=2), repeat)
                agree = abs(100 * ours.score - peer.score) <= 1e-9 and ours.score == ours2.score
                print(f"{pair:6} {peer.name:8} {n_refs:4} {len(hyps):5} {peer_time:11.3f} {one:13.4f} "
                      f"{peer_time / one:6.1f} {peer_cpu / one_cpu:7.1f} {two:13.4f} {peer_time / two:6.1f} {agree}")
    hyps, streams = load(data, "zh-en", system)
    per_segment = [list(r) for r in zip(*streams)]
    for word_order in (0, 2):
        ours = peak_memory_mib(lambda: refscore.CHRF(word_order=word_order).corpus_score(hyps, per_segment))
        peer = peak_memory_mib(lambda: PeerCHRF(word_order=word_order).corpus_score(hyps, streams))
        print(f"peak memory while scoring zh-en (both refs, word_order={word_order}): refscore {ours:.2f} MiB, "
              f"sacreBLEU {peer:.2f} MiB")



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--system", default="Online-A")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--peer-repeat", type=int, default=3, help="sentence rows: best of this many peer runs")
    parser.add_argument("--skip-corpus", action="store_true", help="only the sentence-level rows")
    args = parser.parse_args()

    print(f"refscore {refscore.__version__}, config {refscore.show_config()}")
    if not args.skip_corpus:
        corpus_rows(args.data, args.system, args.repeat)
    sentence_rows(args.data, args.system, max(args.repeat, 10), args.peer_repeat)


if __name__ == "__main__":
    main()
