"""A corpus larger than memory on one machine: ``refscore score`` streams a multi-GB JSON Lines file in bounded
memory, and its result equals an in-memory run of the Python API on the same data.

    python benchmarks/bench_streaming.py [--gigabytes 2] [--metrics bleu] [--workdir /tmp] [--keep]

Writes a JSON Lines file of about ``--gigabytes`` GiB of (hypothesis, references) records drawn with a fixed seed
from every WMT22 system output (``bench_distributed.pool`` / ``write_sample``), then

- runs ``refscore score --format json`` on it in a child process (the local engine, which streams record files
  larger than ``refscore.cli.engines.STREAM_BYTES``) under ``/usr/bin/time``, which reports the child's peak
  resident memory (the child is started from the small ``time`` process, so the benchmark's own memory is not
  counted in it);
- reads every record into lists and scores them with one ``corpus_score`` call per metric (several GB of memory);
- prints the file size, the pairs, the peak RSS and time of both runs, and whether the scores are exactly equal.

The generated file is deleted at the end unless ``--keep`` is given.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_distributed import DEFAULT_DATA, pool, write_sample  # noqa: E402

#: Integer score fields compared between the two runs besides the headline score.
COUNTS = ("counts", "totals", "sys_len", "ref_len")


def streamed_run(path: Path, metrics: str) -> tuple[list[dict], float, int]:
    """``refscore score`` on ``path`` in a child process: (its JSON output, seconds, peak RSS in bytes)."""
    refscore = Path(sys.executable).with_name("refscore")
    command = [str(refscore) if refscore.exists() else "refscore", "score", "-m", metrics, "-i", str(path),
               "--format", "json", "--no-progress"]
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        timer = shutil.which("time") or "/usr/bin/time"
        if os.path.exists(timer):
            command = [timer, "-f", "%M", "-o", report.name] + command
        start = time.perf_counter()
        finished = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
        if finished.returncode != 0:
            raise SystemExit(f"refscore score failed ({finished.returncode}): {finished.stderr}")
        text = report.read().strip()
    if text:
        peak = int(text.splitlines()[-1]) * 1024  # GNU time's %M is in KiB
    else:  # no /usr/bin/time: the peak of any child of this process (includes what it inherited at fork)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return json.loads(finished.stdout), seconds, peak


def in_memory_run(path: Path, metrics: str) -> tuple[dict[str, tuple[object, float]], float, int]:
    """Every record read into lists, one ``corpus_score`` per metric: ({name: (score, its 0–100 headline value
    as the command line prints it)}, seconds, pairs)."""
    from refscore.metrics import get_metric_class

    start = time.perf_counter()
    hypotheses, references = [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            refs = record["references"]
            hypotheses.append(record["prediction"])
            references.append([refs] if isinstance(refs, str) else refs)
    scores = {}
    for name in metrics.split(","):
        metric = get_metric_class(name)()
        score = metric.corpus_score(hypotheses, references)
        scores[name] = score, float(metric.percent_scores_from_totals(score.statistics.totals()[None, :])[0, 0])
    return scores, time.perf_counter() - start, len(hypotheses)


def same(streamed: dict, in_memory: object, percent: float) -> bool:
    """Whether the CLI's JSON score (0–100) and its integer counts equal the in-memory score's, exactly."""
    fields = [name for name in COUNTS if name in streamed]
    values = [list(v) if isinstance(v := getattr(in_memory, name), (list, tuple)) else v for name in fields]
    return streamed["score"] == percent and all(streamed[name] == value for name, value in zip(fields, values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--gigabytes", type=float, default=2.0)
    parser.add_argument("--metrics", default="bleu", help="comma-separated metric names")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp"))
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    args = parser.parse_args()

    path = args.workdir / f"refscore_bench_streaming_{args.gigabytes:g}gb.jsonl"
    try:
        if not path.exists():
            lines = pool(args.data)
            mean = sum(map(len, lines)) / len(lines)
            start = time.perf_counter()
            write_sample(path, lines, int(args.gigabytes * 2**30 / mean))
            del lines
            print(f"wrote {path} in {time.perf_counter() - start:.1f} s", flush=True)
        size = path.stat().st_size
        print(f"{size:,} bytes ({size / 2**30:.2f} GiB) of JSON Lines, metrics {args.metrics}", flush=True)
        output, streamed_seconds, peak = streamed_run(path, args.metrics)
        print(f"refscore score (streamed): {streamed_seconds:.1f} s, peak RSS {peak / 2**20:.0f} MiB", flush=True)
        scores, memory_seconds, pairs = in_memory_run(path, args.metrics)
        own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(f"in-memory Python API: {memory_seconds:.1f} s, peak RSS {own_peak / 2**20:.0f} MiB "
              f"(this process, generation included)")
        print(f"pairs: {pairs:,}; streamed {pairs / streamed_seconds:,.0f} pairs/s")
        for name, (score, percent) in scores.items():
            streamed = output[0]["scores"][name]
            print(f"{name}: streamed {streamed['score']!r}, in memory {percent!r}, "
                  f"exactly equal: {same(streamed, score, percent)}")
    finally:
        if not args.keep:
            path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
