"""Ray overhead on one machine: ``refscore.distributed`` on a local Ray against the single-process stream, on
pairs sampled from the WMT22 system outputs.

    python benchmarks/bench_distributed.py [--pairs 10000000] [--cpus 2] [--metrics bleu] [--workdir /tmp]
                                           [--single-core-pairs 1000000] [--totals]

Writes a JSON Lines file of ``--pairs`` (hypothesis, references) records drawn with a fixed seed from every WMT22
system output and its references, then times (wall clock, one run each):

- the single-process stream (``refscore.streaming.stream_scores``, the local engine of ``refscore score``
  for large files) with ``--cpus`` threads on all pairs, and with 1 thread on the first ``--single-core-pairs``
  (the per-core throughput, without a second full pass);
- ``refscore.distributed.statistics`` on ``ray.init(num_cpus=--cpus)``: Ray Data reads, scores and returns every
  segment's statistics, the driver orders, checks and merges them;
- with ``--totals``, ``refscore.distributed.corpus_scores`` on the same Ray: only per-batch column totals travel
  (integer metrics);
- the driver's merge alone (ordering, span checks, building Statistics) on the same number of rows.

It prints throughputs (pairs/s), the Ray run against the single-process runs (overhead = how much of the ideal
``--cpus`` x single-core throughput Ray loses), the peak resident memory of each Ray worker process and of the
driver, the statistics bytes per segment, and whether every score equals the single-process one exactly.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import threading
import time
from pathlib import Path

import numpy as np

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def pool(data: Path) -> list[bytes]:
    """Every (system output line, its references) of WMT22 as one encoded JSON line."""
    lines = []
    for pair in sorted(p for p in data.iterdir() if (p / "sys").is_dir()):
        streams = [read_segments(path) for path in sorted(pair.glob("ref*.txt"))]
        references = [[s[i] for s in streams] for i in range(len(streams[0]))]
        for system in sorted((pair / "sys").glob("*.txt")):
            for hypothesis, refs in zip(read_segments(system), references):
                lines.append((json.dumps({"prediction": hypothesis, "references": refs}, ensure_ascii=False)
                              + "\n").encode("utf-8"))
    return lines


def write_sample(path: Path, lines: list[bytes], pairs: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    with open(path, "wb") as handle:
        for start in range(0, pairs, 1_000_000):
            picks = rng.integers(0, len(lines), size=min(1_000_000, pairs - start))
            handle.write(b"".join(lines[i] for i in picks))


class WorkerMemory:
    """Samples the resident memory of Ray's worker processes (``ray::`` in /proc/PID/cmdline) every 0.2 s."""

    def __init__(self) -> None:
        self.peak: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as handle:
                        if not handle.read().startswith(b"ray::"):
                            continue
                    with open(f"/proc/{pid}/status") as handle:
                        rss = next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
                except (OSError, StopIteration, ValueError):
                    continue
                self.peak[pid] = max(self.peak.get(pid, 0), rss * 1024)

    def __enter__(self) -> WorkerMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def merge_cost(rows: int, columns: int, blocks: int = 1000) -> float:
    """Seconds for the driver to order, check and build the statistics of ``rows`` segments arriving in shuffled
    blocks (the merge of a distributed pass without the transfer)."""
    from refscore.distributed.compute import NREFS, stats_column
    from refscore.distributed.merge import Collected, metric_statistics, order_and_check_spans
    from refscore.metrics.bleu import BLEU

    starts = np.arange(rows, dtype=np.int64) * 100
    pieces = np.array_split(np.arange(rows), blocks)
    arrival = np.concatenate([pieces[i] for i in np.random.default_rng(0).permutation(blocks)])
    data = {"__file": np.zeros(rows, dtype=np.int32), "__start": starts[arrival], "__end": starts[arrival] + 100,
            NREFS: np.ones(rows, dtype=np.int64)}
    data.update({stats_column(0, f"c{k}"): np.arange(rows, dtype=np.int64)[arrival] for k in range(columns)})
    collected = Collected(data)
    start = time.perf_counter()
    order = order_and_check_spans(data["__file"], data["__start"], data["__end"], {0: rows * 100}, ["f"])
    metric_statistics(collected, order, np.arange(rows), [BLEU()])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=10_000_000)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--metrics", default="bleu", help="comma-separated metric names")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp"))
    parser.add_argument("--single-core-pairs", type=int, default=1_000_000,
                        help="pairs of the 1-thread run (the per-core throughput)")
    parser.add_argument("--totals", action="store_true", help="also time corpus_scores (column totals only)")
    args = parser.parse_args()

    import ray

    import refscore.distributed as rd
    from refscore.streaming import stream_scores
    from refscore.metrics import get_metric_class

    metrics = [get_metric_class(name)() for name in args.metrics.split(",")]
    path = args.workdir / f"refscore_bench_{args.pairs}.jsonl"
    if not path.exists():
        seconds, _ = timed(lambda: write_sample(path, pool(args.data), args.pairs))
        print(f"wrote {path} ({path.stat().st_size / 2**20:.0f} MiB) in {seconds:.1f} s")
    size = path.stat().st_size
    print(f"{args.pairs:,} pairs sampled from WMT22 ({size / 2**20:.0f} MiB), metrics {args.metrics}, "
          f"{args.cpus} CPUs, {os.cpu_count()} cores on this machine")

    head = args.workdir / f"refscore_bench_{args.pairs}_head{args.single_core_pairs}.jsonl"
    core_pairs = min(args.single_core_pairs, args.pairs)
    with open(path, "rb") as source, open(head, "wb") as target:
        target.writelines(source.readline() for _ in range(core_pairs))
    local1, _ = timed(lambda: stream_scores(str(head), metrics, num_threads=1))
    head.unlink()
    localn, result1 = timed(lambda: stream_scores(str(path), metrics, num_threads=args.cpus))
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ray.data.DataContext.get_current().enable_progress_bars = False
    warm = args.workdir / "refscore_bench_warm.jsonl"
    with open(path, "rb") as source, open(warm, "wb") as target:
        target.writelines(source.readline() for _ in range(1000))
    rd.statistics(str(warm), metrics)  # starts the worker processes, outside the timed runs
    with WorkerMemory() as memory:
        on_ray, merged = timed(lambda: rd.statistics(str(path), metrics))
    totals_time, totals = timed(lambda: rd.corpus_scores(str(path), metrics)) if args.totals else (None, None)
    ray.shutdown()
    scores = merged.scores()[str(path)]
    exact = all(scores[m.name] == result1.scores[str(path)][m.name] for m in metrics)
    columns = sum(len(merged.of(m).columns) for m in metrics)
    print(f"single process, 1 thread : {local1:8.1f} s  {core_pairs / local1:12,.0f} pairs/s "
          f"(first {core_pairs:,} pairs)")
    print(f"single process, {args.cpus} threads: {localn:8.1f} s  {args.pairs / localn:12,.0f} pairs/s")
    print(f"ray, {args.cpus} CPUs            : {on_ray:8.1f} s  {args.pairs / on_ray:12,.0f} pairs/s")
    if totals_time is not None:
        print(f"ray, {args.cpus} CPUs, totals only: {totals_time:8.1f} s  {args.pairs / totals_time:12,.0f} pairs/s "
              f"(corpus_scores; equal: {totals[str(path)] == result1.scores[str(path)]})")
    ideal = args.cpus * core_pairs / local1
    print(f"ray / single process ({args.cpus} threads): {localn / on_ray:.2f}x throughput; "
          f"ray overhead against {args.cpus} x one core: {1 - (args.pairs / on_ray) / ideal:.0%}")
    workers = sorted(memory.peak.values())
    if workers:
        print(f"ray worker peak RSS: max {workers[-1] / 2**20:.0f} MiB, median {workers[len(workers) // 2] / 2**20:.0f}"
              f" MiB over {len(workers)} processes")
    print(f"driver peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print(f"statistics per segment: {columns} columns x 8 B + 32 B key and reference count = {8 * columns + 32} B")
    print(f"merge of {args.pairs:,} rows in 1000 shuffled blocks: {merge_cost(args.pairs, columns):.2f} s")
    print(f"scores equal to the single-process run: {exact}  ({', '.join(f'{k} {v.score:.6f}' for k, v in scores.items())})")


if __name__ == "__main__":
    main()
