"""Benchmark: paired significance tests, refscore vs sacreBLEU 2.6's command line, same inputs, same run.

Data: ../shared/data/wmt22/en-de (9 systems x 2037 segments, reference ref.txt), metrics BLEU and chrF.
Tests: paired bootstrap resampling (1,000 resamples) and approximate randomization (10,000 trials), seed 12345.

For each test it times, as separate processes (so import and file reading count on both sides):
  * ``sacrebleu ref.txt -i SYS... -m bleu chrf --paired-bs|--paired-ar --format latex -w 4``
  * ``refscore compare -r ref.txt -i SYS... -m bleu,chrf --paired-bs|--paired-ar --format json`` (1 and 2 threads)
and reports wall time, peak memory (``/usr/bin/time``), the speed-up, and whether the results agree at the 4
decimals sacreBLEU prints: p-values, scores, bootstrap means and intervals identical (the full-precision
comparison is in tests/test_significance_wmt22.py and tests/test_significance_sacrebleu_live.py).
It also times the in-process test alone (statistics given).

Usage: python benchmarks/bench_significance.py [--tests bs,ar] [--data DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "wmt22" / "en-de"
COUNTS = {"bs": 1000, "ar": 10000}
SACREBLEU_NAMES = {"BLEU": "bleu", "chrF2": "chrf"}


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak RSS in MiB and stdout of a command.

    CPU time is reported too because wall time is inflated when the machine is shared.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".time") as time_file:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", time_file.name, *command],
                              capture_output=True, text=True, env={**os.environ, **(env or {})})
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"command failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
        peak_kib, user, system = time_file.read().strip().splitlines()[-1].split()
    return seconds, float(user) + float(system), int(peak_kib) / 1024, done.stdout


CELL = re.compile(r"([\d.]+)(?: \(([\d.]+) ± ([\d.]+)\))?(?: \(p = ([\d.]+)\))?")


def sacrebleu_results(stdout: str) -> dict[str, list[dict]]:
    """sacreBLEU's ``--format latex -w 4`` table (its ``--format json`` crashes on float32 values under NumPy 2)."""
    out: dict[str, list[dict]] = {name: [] for name in SACREBLEU_NAMES.values()}
    rows = [line for line in stdout.splitlines() if line.rstrip().endswith("\\\\") and "System" not in line]
    for line in rows:
        cells = [cell.strip() for cell in line.rstrip().rstrip("\\").split("&")][1:]
        for name, cell in zip(SACREBLEU_NAMES.values(), cells):
            score, mean, ci, p_value = CELL.match(cell).groups()
            out[name].append({"score": float(score), "mean": mean and float(mean), "ci": ci and float(ci),
                              "p_value": p_value and float(p_value)})
    return out


def refscore_results(stdout: str) -> dict[str, list[dict]]:
    payload = json.loads(stdout)
    return {name: [system["scores"][name] for system in payload["systems"]] for name in SACREBLEU_NAMES.values()}


def compare(theirs: dict[str, list[dict]], ours: dict[str, list[dict]]) -> tuple[bool, str]:
    """Agreement at the 4 printed decimals (both print scores, means and intervals on sacreBLEU's 0-100 scale)."""
    worst = {"score": 0.0, "mean": 0.0, "ci": 0.0, "p_value": 0.0}
    for name in theirs:
        if len(theirs[name]) != len(ours[name]):
            return False, f"{name}: {len(theirs[name])} rows vs {len(ours[name])}"
        for a, b in zip(theirs[name], ours[name]):
            for key in worst:
                if a.get(key) is not None:
                    worst[key] = max(worst[key], abs(a[key] - round(b[key], 4)))
    agree = all(worst[key] < 1e-9 for key in ("score", "p_value", "mean", "ci"))
    detail = "max |diff| at 4 decimals: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items())
    return agree, detail


def in_process(systems: list[Path], reference: Path, test: str, threads: int) -> tuple[float, float]:
    """Wall and CPU seconds of the test alone, statistics already computed (BLEU and chrF)."""
    from refscore.metrics import get_metric_class
    from refscore.significance import paired_test_from_statistics

    refs = [[line] for line in reference.read_text(encoding="utf-8").splitlines()]
    wall = cpu = 0.0
    for name in SACREBLEU_NAMES.values():
        metric = get_metric_class(name)()
        stats = {str(p): metric.statistics(p.read_text(encoding="utf-8").splitlines(), refs) for p in systems}
        start, start_cpu = time.perf_counter(), time.process_time()
        paired_test_from_statistics(metric, stats, test=test, n=COUNTS[test], num_threads=threads)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", default="bs,ar")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    systems = sorted((args.data / "sys").glob("*.txt"))
    reference = args.data / "ref.txt"
    files = [str(p) for p in systems]
    print(f"data: {args.data} ({len(systems)} systems, "
          f"{len(reference.read_text(encoding='utf-8').splitlines())} segments), metrics BLEU + chrF, seed 12345")
    # scoring alone (same inputs, no test): what both command lines spend on start-up, reading and statistics
    sb_plain = timed([sys.executable, "-m", "sacrebleu", str(reference), "-i", *files, "-m", "bleu", "chrf"])
    rs_plain = timed([sys.executable, "-m", "refscore.cli", "score", "-r", str(reference), "-i", *files,
                      "-m", "bleu,chrf", "--num-threads", "1"], env={"REFSCORE_NUM_THREADS": "1",
                                                                      "OPENBLAS_NUM_THREADS": "1"})
    print(f"scoring only (no test): sacreBLEU CLI {sb_plain[0]:.2f} s wall, {sb_plain[1]:.2f} s CPU; "
          f"refscore CLI (1 thread) {rs_plain[0]:.2f} s wall, {rs_plain[1]:.2f} s CPU")
    for test in args.tests.split(","):
        flag = "--paired-bs" if test == "bs" else "--paired-ar"
        count_flag = ["--paired-bs-n" if test == "bs" else "--paired-ar-n", str(COUNTS[test])]
        sb_seconds, sb_cpu, sb_peak, sb_out = timed([sys.executable, "-m", "sacrebleu", str(reference), "-i", *files,
                                             "-m", "bleu", "chrf", flag, *count_flag, "--format", "latex", "-w", "4"],
                                            env={"SACREBLEU_SEED": "12345"})
        theirs = sacrebleu_results(sb_out)
        test_cpu = {"sacrebleu": sb_cpu - sb_plain[1]}
        print(f"\n{test} ({COUNTS[test]} {'resamples' if test == 'bs' else 'trials'}): sacreBLEU CLI "
              f"{sb_seconds:.2f} s wall, {sb_cpu:.2f} s CPU, {sb_peak:.0f} MiB")
        for threads in (1, 2):
            seconds, cpu, peak, out = timed([sys.executable, "-m", "refscore.cli", "compare", "-r", str(reference),
                                        "-i", *files, "-m", "bleu,chrf", flag, "--n", str(COUNTS[test]),
                                        "--format", "json", "--num-threads", str(threads)],
                                       env={"REFSCORE_NUM_THREADS": str(threads), "OMP_NUM_THREADS": str(threads),
                                            "OPENBLAS_NUM_THREADS": str(threads)})
            agree, detail = compare(theirs, refscore_results(out))
            if threads == 1:
                test_cpu["refscore"] = cpu - rs_plain[1]
            print(f"  refscore CLI, {threads} thread(s): {seconds:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MiB; "
                  f"{sb_seconds / seconds:.1f}x faster (wall), {sb_cpu / cpu:.1f}x (CPU); agree: {agree} ({detail})")
        print(f"  the test's own CPU cost (paired run minus scoring only): sacreBLEU {test_cpu['sacrebleu']:.2f} s, "
              f"refscore {test_cpu['refscore']:.2f} s")
        for threads in (1, 2):
            wall, cpu = in_process(systems, reference, test, threads)
            print(f"  refscore test alone (statistics given), {threads} thread(s): {wall:.3f} s wall, {cpu:.3f} s CPU")


if __name__ == "__main__":
    main()
