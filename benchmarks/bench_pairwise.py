"""Benchmark: refscore.pairwise n x n matrices against fastChrF's ``pairwise_chrf`` and sacreBLEU loops.

Each item's n candidates are drawn (seeded) from every WMT22 en-de system output (all systems x all segments), and
scored against each other (MBR's matrix, the diagonal included). chrF: refscore with 1 and 2 threads against
fastchrf ``pairwise_chrf`` pinned to one thread (``RAYON_NUM_THREADS=1``, set before fastchrf is imported) and
against a loop over ``sacrebleu.sentence_chrf``; BLEU and TER: refscore against loops over
``sacrebleu.sentence_bleu`` / ``sentence_ter``. Every figure is the best CPU time of ``--repeat`` calls (this
process), except refscore with 2 threads: its best wall-clock time. sacreBLEU loops take minutes at n = 1024, so they run on the first ``--peer-rows`` rows of
each matrix (all rows when n <= 256) and their time per pair is scaled to the whole matrix: the printed
"sacreBLEU s" is then an estimate, marked with "~". Equality is checked on every value both computed (fastchrf:
the whole matrix; sacreBLEU: the rows it ran), exactly: refscore's chrF/BLEU are sacreBLEU's 0-100 floats / 100,
its TER is the quotient of which sacreBLEU prints 100 x.

mbrs (``--mbrs PYTHON``: the interpreter of an environment where mbrs is installed with ``--no-deps``, so that its
dependencies cannot replace torch here): its ``Metric.pairwise_scores`` of BLEU, chrF and TER, default
configurations, ``num_workers=--mbrs-workers`` processes (1: one worker process, the fair match of refscore with 1
thread), on the same rows as the sacreBLEU loops, run in a subprocess (``_mbrs_runner.py``); its CPU time counts
its worker processes, and its values, sacreBLEU's scores as float32 tensors, are compared with refscore's x 100
rounded to float32.

    python benchmarks/bench_pairwise.py                         # n = 64 (8 items), 256 (1 item), 1024 (1 item)
    python benchmarks/bench_pairwise.py --sizes 64 256 --repeat 5
    python benchmarks/bench_pairwise.py --sizes 64 --mbrs /work/venv-mbrs/bin/python
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile
from pathlib import Path

os.environ.setdefault("RAYON_NUM_THREADS", "1")   # before fastchrf starts its thread pool

import numpy as np
import sacrebleu

import refscore
from _timing import best_time

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", ROOT.parent / "shared" / "data")) / "wmt22" / "en-de"
ITEMS = {64: 8, 256: 1, 1024: 1}


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def candidate_items(n: int, items: int, seed: int, data: Path = DATA) -> list[list[str]]:
    """``items`` lists of ``n`` system outputs of the pair folder ``data``, drawn without replacement."""
    pool = [line for path in sorted((data / "sys").glob("*.txt")) for line in read_segments(path)]
    rng = random.Random(seed)
    return [rng.sample(pool, n) for _ in range(items)]


def peer_loop(function, items: list[list[str]], rows: int) -> np.ndarray:
    """sacreBLEU's 0-100 scores of the first ``rows`` candidates of every item against all its candidates."""
    return np.array([[[function(hyp, [ref]).score for ref in cands] for hyp in cands[:rows]] for cands in items])


def run_mbrs(python: str, items: list[list[str]], rows: int, workers: int, repeat: int) -> tuple[dict, dict]:
    """mbrs's timings and matrices (by metric name) from ``_mbrs_runner.py`` run by mbrs's interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        spec, output = Path(folder) / "items.json", Path(folder) / "mbrs.npz"
        spec.write_text(json.dumps({"items": items, "rows": rows}), encoding="utf-8")
        done = subprocess.run([python, str(Path(__file__).with_name("_mbrs_runner.py")), str(spec), str(output),
                               "--workers", str(workers), "--repeat", str(repeat)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"_mbrs_runner.py failed under {python}:\n{done.stderr}")
        with np.load(output) as archive:
            return json.loads(done.stdout.splitlines()[-1]), {name: archive[name] for name in archive.files}


def fastchrf_module():
    try:
        import fastchrf
    except ImportError:
        return None
    return fastchrf


def report(label: str, ours_cpu: float, ours2_wall: float, peer: str, peer_cpu: float, estimated: bool,
           equal: bool) -> None:
    mark = "~" if estimated else " "
    print(f"{label:<16} refscore 1 thr {ours_cpu:8.4f} s (2 thr wall {ours2_wall:7.4f} s)  {peer:<9} {mark}{peer_cpu:9.3f} s"
          f"  ratio (1 thr) {mark}{peer_cpu / ours_cpu:8.1f}x  equal: {equal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-rows", type=int, default=16, help="sacreBLEU rows per item when n > 256")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--mbrs", default=None, metavar="PYTHON",
                        help="also time mbrs, installed in the environment of this interpreter")
    parser.add_argument("--mbrs-workers", type=int, default=1, help="mbrs's num_workers (default 1)")
    args = parser.parse_args()
    fastchrf = fastchrf_module()
    metrics = [("chrF", refscore.CHRF(), sacrebleu.sentence_chrf, 100.0),
               ("BLEU", refscore.BLEU(effective_order=True), sacrebleu.sentence_bleu, 100.0),
               ("TER", refscore.TER(), sacrebleu.sentence_ter, None)]
    print(f"WMT22 en-de system outputs as candidates; best CPU time of {args.repeat}; fastchrf "
          f"{'RAYON_NUM_THREADS=' + os.environ['RAYON_NUM_THREADS'] if fastchrf else 'not installed'}")
    for n in args.sizes:
        items = candidate_items(n, ITEMS.get(n, 1), args.seed)
        rows = n if n <= 256 else min(args.peer_rows, n)
        scale = n / rows
        pairs = len(items) * n * n
        print(f"\nn = {n}: {len(items)} item(s) x {n} x {n} = {pairs:,} pairs")
        mbrs_times, mbrs_values = (run_mbrs(args.mbrs, items, rows, args.mbrs_workers, 1) if args.mbrs
                                   else ({}, {}))
        if mbrs_times:
            print(f"mbrs {args.mbrs_workers} worker(s), {rows} row(s) per item: " + ", ".join(
                f"{name} CPU {t['cpu']:.2f} s wall {t['wall']:.2f} s" for name, t in mbrs_times.items()))
        for name, metric, peer, percent in metrics:
            _, cpu1, ours = best_time(lambda: refscore.pairwise(metric, items, num_threads=1), args.repeat)
            wall2, _, ours2 = best_time(lambda: refscore.pairwise(metric, items, num_threads=2), args.repeat)
            assert np.array_equal(ours, ours2)
            _, peer_cpu, theirs = best_time(lambda: peer_loop(peer, items, rows), 1)
            mine = ours[:, :rows]
            equal = (np.array_equal(100 * mine, theirs) if percent is None
                     else np.array_equal(mine, theirs / percent))
            report(f"{name} x sacreBLEU", cpu1, wall2, "sacreBLEU", peer_cpu * scale, rows < n, equal)
            if name.lower() in mbrs_times:   # mbrs's float32 values: sacreBLEU's 0-100 scores rounded
                report(f"{name} x mbrs", cpu1, wall2, "mbrs", mbrs_times[name.lower()]["cpu"] * scale, rows < n,
                       np.array_equal((100 * mine).astype(np.float32), mbrs_values[name.lower()]))
            if name == "chrF" and fastchrf is not None:
                _, fast_cpu, fast = best_time(lambda: fastchrf.pairwise_chrf(items, items), args.repeat)
                report("chrF x fastchrf", cpu1, wall2, "fastchrf", fast_cpu, False,
                       np.array_equal(ours, np.asarray(fast) / 100.0))
            print(f"{'':<16} refscore {1e9 * cpu1 / pairs:.0f} ns per pair (1 thread)")


if __name__ == "__main__":
    main()
