"""ROUGE speed, memory and agreement: refscore vs rouge-score 0.1.2 on the CNN/DM baseline outputs.

    python benchmarks/bench_rouge.py                   # CNN/DM timing (1 and 2 threads), agreement, long documents
    python benchmarks/bench_rouge.py --peer-docs 2000  # time rouge-score on 2,000 documents and extrapolate
    python benchmarks/bench_rouge.py --full-parity     # every document of the 3 systems, stemmer on and off

Times are wall-clock seconds of the scoring call (texts already in memory); memory is the growth of the peak
resident set of a child process during the scoring call (its peak is reset after the data is loaded; Linux).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO.parent / "shared" / "data"))
CNNDM = DATA / "summ_cnndm_see2017"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def load(system: str) -> tuple[list[str], list[list[str]]]:
    records = [json.loads(line) for line in (CNNDM / f"{system}.jsonl").open(encoding="utf-8")]
    return [r["prediction"] for r in records], [r["references"] for r in records]


def refscore_scores(predictions, references, stemmer, num_threads):
    import refscore

    start = time.perf_counter()
    result = refscore.rouge(predictions, references, TYPES, stemmer=stemmer, num_threads=num_threads)
    return time.perf_counter() - start, result


def peer_scores(predictions, references, stemmer):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stemmer)
    start = time.perf_counter()
    scores = [scorer.score(refs[0], prediction) for prediction, refs in zip(predictions, references)]
    return time.perf_counter() - start, scores


def disagreements(result, peer, count) -> int:
    bad = 0
    for rouge_type in TYPES:
        for k, measure in enumerate(("precision", "recall", "fmeasure")):
            mine = getattr(result[rouge_type], measure)[:count]
            theirs = np.array([score[rouge_type][k] for score in peer])
            bad += int(np.count_nonzero(mine != theirs))
    return bad


_CHILD = """
import gc, sys
sys.path.insert(0, {bench_dir!r})
import bench_rouge as b
import refscore
{setup}
gc.collect()
def status(key):
    return int(next(l for l in open('/proc/self/status') if l.startswith(key)).split()[1])
open('/proc/self/clear_refs', 'w').write('5')  # reset the peak resident set to the current one
before = status('VmRSS:')
{work}
print((status('VmHWM:') - before) / 1024)
"""


def memory_mib(setup: str, work: str) -> float:
    """Peak resident-set growth (MiB) of a child process while it runs ``work`` after ``setup``."""
    code = _CHILD.format(bench_dir=str(Path(__file__).resolve().parent), setup=setup, work=work)
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if process.returncode != 0:
        raise RuntimeError(process.stderr)
    return float(process.stdout.strip().split()[-1])


def cnndm_benchmark(peer_docs: int | None) -> None:
    predictions, references = load("baseline")
    n = len(predictions)
    print(f"CNN/DM baseline: {n} documents, types {'+'.join(TYPES)}, stemming on")
    refscore_scores(predictions[:200], references[:200], True, 1)  # warm-up (first import, page-in)
    t1, result = min((refscore_scores(predictions, references, True, 1) for _ in range(3)), key=lambda r: r[0])
    t2, result2 = min((refscore_scores(predictions, references, True, 2) for _ in range(3)), key=lambda r: r[0])
    count = peer_docs or n
    peer_time, peer = peer_scores(predictions[:count], references[:count], True)
    peer_full = peer_time * n / count
    label = "measured" if count == n else f"extrapolated from {count} documents"
    print(f"  rouge-score 0.1.2     : {peer_full:8.2f} s ({label})")
    print(f"  refscore, 1 thread    : {t1:8.3f} s   {peer_full / t1:6.0f}x faster")
    print(f"  refscore, 2 threads   : {t2:8.3f} s   {peer_full / t2:6.0f}x faster")
    same_threads = all(np.array_equal(result[t].fmeasure, result2[t].fmeasure) for t in TYPES)
    bad = disagreements(result, peer, count)
    print(f"  scores agree with rouge-score on {count} documents x 4 types x P/R/F: "
          f"{'yes' if bad == 0 else f'NO ({bad} values differ)'}; 1 vs 2 threads identical: {same_threads}")
    memory = memory_mib("p, r = b.load('baseline')",
                        "refscore.rouge(p, r, b.TYPES, stemmer=True, num_threads=1)")
    print(f"  refscore peak memory  : {memory:8.1f} MiB above the loaded texts")


def long_documents() -> None:
    setup = ("import numpy as np\n"
             "rng = np.random.default_rng(0)\n"
             "vocab = np.array([f'w{k}' for k in range(5000)])\n"
             "a = ' '.join(vocab[rng.integers(0, 5000, 100_000)])\n"
             "b_ = ' '.join(vocab[rng.integers(0, 5000, 100_000)])\n"
             "lines = lambda t: '\\n'.join(' '.join(t.split()[i:i + 25]) for i in range(0, 100_000, 25))\n")
    namespace: dict = {}
    exec(setup, namespace)
    import refscore

    a, b = namespace["a"], namespace["b_"]
    print("Two 100,000-token documents (5,000-word vocabulary):")
    for label, (x, y), code in (
            ("one line each     ", (a, b), "refscore.rouge([a], [b_], ('rougeL', 'rougeLsum'), num_threads=1)"),
            ("4,000 lines each  ", (namespace["lines"](a), namespace["lines"](b)),
             "refscore.rouge([lines(a)], [lines(b_)], ('rougeL', 'rougeLsum'), num_threads=1)")):
        start = time.perf_counter()
        result = refscore.rouge([x], [y], ("rougeL", "rougeLsum"), num_threads=1)
        elapsed = time.perf_counter() - start
        memory = memory_mib(setup, code)
        print(f"  {label}: rougeL+rougeLsum {elapsed:6.2f} s, peak memory {memory:6.1f} MiB "
              f"(a full int32 LCS table would need {100_000 ** 2 * 4 / 2 ** 30:.0f} GiB); "
              f"F = {result['rougeL'].fmeasure[0]:.5f} / {result['rougeLsum'].fmeasure[0]:.5f}")


def full_parity() -> None:
    for system in ("baseline", "pointer-gen", "pointer-gen-cov"):
        predictions, references = load(system)
        for stemmer in (False, True):
            _, result = refscore_scores(predictions, references, stemmer, None)
            peer_time, peer = peer_scores(predictions, references, stemmer)
            bad = disagreements(result, peer, len(predictions))
            print(f"{system:16s} stemmer={stemmer!s:5s}: {len(predictions)} documents, {bad} of "
                  f"{len(predictions) * 12} P/R/F values differ (rouge-score took {peer_time:.1f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer-docs", type=int, default=None, help="time rouge-score on this many documents only")
    parser.add_argument("--full-parity", action="store_true", help="compare every document of the 3 systems")
    args = parser.parse_args()
    if not CNNDM.exists():
        sys.exit(f"shared data not found at {CNNDM} (set REFSCORE_SHARED_DATA)")
    if args.full_parity:
        full_parity()
        return
    cnndm_benchmark(args.peer_docs)
    long_documents()
    print(f"(process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
