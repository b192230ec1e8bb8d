"""Benchmark: the ROUGE-1.5.5 flavor (refscore.rouge155) on the CNN/DM baseline system (11,490 documents)
against the Perl script ROUGE-1.5.5.pl, with the script's usual options for pyrouge + stemming:
``-e data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m -d -z SPL`` (ROUGE-1..4, L, W-1.2, S*, SU*, per-document scores,
bootstrap averages and 95% intervals).

The script is not shipped with refscore. Give its path with ``--perl-script`` (and ``--perl-data``, the folder
holding ``smart_common_words.txt`` and ``WordNet-2.0.exc.db``) to time it in the same run; without it the
refscore timings are compared with the script's stored output only (do the scores agree).

    python benchmarks/bench_rouge155.py [--perl-script ROUGE-1.5.5.pl --perl-data DIR] [--docs N]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO.parent / "shared" / "data"))
TYPES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*")
PERL_OPTIONS = ["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a", "-m", "-d", "-z", "SPL"]


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def printed(result) -> dict[tuple[str, str], tuple[str, ...]]:
    """(type, 'Eval k') -> (R, P, F) strings and (type, 'Average_X') -> (avg, low, high) strings."""
    out = {}
    for name, r in result.items():
        for i in range(len(r.recall)):
            out[(name, f"{i + 1}")] = tuple(f"{x:.5f}" for x in (r.recall[i], r.precision[i], r.fmeasure[i]))
        for c, p in r.printed.items():
            out[(name, f"Average_{c}")] = tuple(f"{x:.5f}" for x in (p.average, p.low, p.high))
    return out


def parse_perl(text: str, ids: list[str]) -> dict[tuple[str, str], tuple[str, ...]]:
    position = {f"{int(doc) + 1}": f"{k + 1}" for k, doc in enumerate(ids)}
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[2] == "Eval":
            key = parts[3].split(".")[0]
            if key in position:
                out[(parts[1], position[key])] = tuple(p.split(":")[1] for p in parts[4:7])
        elif len(parts) >= 8 and parts[2].startswith("Average_"):
            out[(parts[1], parts[2].rstrip(":"))] = (parts[3], parts[5], parts[7].rstrip(")"))
    return out


def run_refscore(predictions, references, threads: int):
    from refscore import rouge155

    wall, cpu = time.perf_counter(), time.process_time()
    result = rouge155(predictions, references, types=TYPES, stemming=True, num_threads=threads)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def run_perl(script: Path, data: Path, rows, ids) -> tuple[str, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lines = []
        for row in rows:
            (folder / f"p{row['id']}.spl").write_text(row["prediction"] + "\n", encoding="utf-8")
            (folder / f"m{row['id']}.spl").write_text(row["references"][0] + "\n", encoding="utf-8")
            lines.append(f"{folder}/p{row['id']}.spl {folder}/m{row['id']}.spl")
        (folder / "list.lst").write_text("\n".join(lines) + "\n")
        start = time.perf_counter()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(["perl", str(script), "-e", str(data), *PERL_OPTIONS, str(folder / "list.lst"),
                               "baseline"], capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
        return done.stdout, time.perf_counter() - start, cpu


LARGE_CASES = {  # name: (tokens per document, types, tokens per sentence; 0 = one sentence)
    "ngram-skip": (100_000, ("ROUGE-1", "ROUGE-2", "ROUGE-S4", "ROUGE-SU4"), 25),
    "lcs-wlcs": (10_000, ("ROUGE-L", "ROUGE-W-1.2"), 0),
}


def large_documents(case: str) -> None:
    """Memory stays linear: 100,000-token documents for N and bounded skip-bigrams, and 10,000-token single
    sentences for the summary-level LCS and WLCS (whose backtrack would need a 10^8-cell table). Run in a fresh
    process per case so that the peak RSS is its own."""
    import random

    from refscore import rouge155

    length, types, sentence = LARGE_CASES[case]
    rng = random.Random(155)
    words = [f"w{i}" for i in range(5000)]
    docs = []
    for _ in range(2):
        tokens = [rng.choice(words) for _ in range(length)]
        if sentence:
            tokens = [" ".join(tokens[i:i + sentence]) for i in range(0, length, sentence)]
        docs.append(("\n" if sentence else " ").join(tokens))
    before = peak_rss_mib()
    wall, cpu = time.perf_counter(), time.process_time()
    result = rouge155([docs[0]], [docs[1]], types=types, printed_averages=False, num_threads=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    shape = "one sentence" if not sentence else f"{sentence}-token sentences"
    scores = ", ".join(f"{result[name].fmeasure[0]:.4f}" for name in result)
    print(f"two {length:,}-token documents ({shape}), {', '.join(types)}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"peak RSS +{peak_rss_mib() - before:.0f} MiB; F = {scores}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perl-script", type=Path, help="path to ROUGE-1.5.5.pl (not shipped with refscore)")
    parser.add_argument("--perl-data", type=Path, help="its data folder (smart_common_words.txt, WordNet-2.0.exc.db)")
    parser.add_argument("--docs", type=int, default=0, help="use only the first N documents (0 = all 11,490)")
    parser.add_argument("--skip-large", action="store_true", help="skip the large-document memory check")
    parser.add_argument("--large-case", choices=sorted(LARGE_CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.large_case:
        large_documents(args.large_case)
        return
    path = DATA / "summ_cnndm_see2017" / "baseline.jsonl"
    if not path.exists():
        sys.exit(f"data not found: {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    if args.docs:
        rows = rows[:args.docs]
    predictions = [r["prediction"] for r in rows]
    references = [r["references"] for r in rows]
    ids = [r["id"] for r in rows]
    print(f"CNN/DM baseline: {len(rows)} documents; types {', '.join(TYPES)}; stemming (-m); bootstrap -r 1000")

    import refscore.metrics.rouge  # noqa: F401  (import time is not scored)

    rss_before = peak_rss_mib()
    timings = {}
    for threads in (1, 2, 1):  # the first run includes the cold stemmer cache, the last one is warm
        result, wall, cpu = run_refscore(predictions, references, threads)
        label = f"{threads} thread{'s' if threads > 1 else ''}"
        label += " (warm cache)" if label in timings else ""
        timings[label] = (wall, cpu)
        print(f"refscore {label:>22}: {wall:7.2f} s wall, {cpu:7.2f} s CPU")
    print(f"refscore peak RSS: {peak_rss_mib():.0f} MiB (+{peak_rss_mib() - rss_before:.0f} MiB while scoring)")
    ours = printed(result)

    if not args.docs:
        stored = DATA / "summ_cnndm_see2017" / "rouge155" / "baseline.rouge155_pyrouge_default_m.out"
        reference = parse_perl(stored.read_text(encoding="utf-8"), ids)
        agree = sum(ours[k] == v for k, v in reference.items())
        print(f"agreement with the stored ROUGE-1.5.5 output: {agree}/{len(reference)} printed values identical")

    if args.perl_script:
        if not args.perl_data:
            sys.exit("--perl-data is required with --perl-script")
        output, perl_wall, perl_cpu = run_perl(args.perl_script, args.perl_data, rows, ids)
        theirs = parse_perl(output, ids)
        agree = sum(ours.get(k) == v for k, v in theirs.items())
        best = min(wall for wall, _ in timings.values())
        wall_1, cpu_1 = timings["1 thread"]
        print(f"ROUGE-1.5.5.pl: {perl_wall:.1f} s wall, {perl_cpu:.1f} s CPU; refscore on 1 thread is "
              f"{perl_wall / wall_1:.0f}x faster in wall time ({perl_wall / best:.0f}x at best) and "
              f"{perl_cpu / cpu_1:.0f}x in CPU time; scores agree: {agree}/{len(theirs)} printed values identical")
    else:
        print("ROUGE-1.5.5.pl not timed (pass --perl-script and --perl-data; the script is not shipped)")
    if not args.skip_large:
        for case in LARGE_CASES:
            subprocess.run([sys.executable, __file__, "--large-case", case], check=True)


if __name__ == "__main__":
    main()
