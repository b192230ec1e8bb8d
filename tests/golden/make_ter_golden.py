"""Cache sacreBLEU 2.6's TER on every system of ../shared/data/wmt22 (peer output, never refscore's).

For every language pair the script scores each system with ``sacrebleu.metrics.TER()`` (default options) against
all of the pair's references at once (``ref.txt`` and, where present, ``ref2.txt``), and records:

* ``{pair}|{system}|edits``: ``(n_refs, n_segments)`` edit counts of every hypothesis against every reference, as
  returned by sacreBLEU's own ``lib_ter.translation_edit_rate`` during that corpus run (the call is wrapped to
  record its result; the score itself is untouched);
* ``{pair}|{system}|score``: sacreBLEU's corpus TER (0-100) of the multi-reference run;
* ``{pair}|ref_lengths``: ``(n_refs, n_segments)`` reference lengths in Tercom tokens.

Every finished system is checkpointed under ``--cache-dir`` so that an interrupted run resumes, and the compressed
archive ``tests/golden/ter_wmt22.npz`` is rewritten after each system (so it always holds every finished system).

Usage (slow: about two CPU-hours; run it niced in the background)::

    nice -n 19 python tests/golden/make_ter_golden.py [--data ../shared/data/wmt22] [--pairs en-de,zh-en]
    # several processes: --jobs 2
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np
import sacrebleu

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from _ter_peer import recording_edits  # noqa: E402
DEFAULT_DATA = HERE.parent.parent.parent / "shared" / "data" / "wmt22"
DEFAULT_OUT = HERE / "ter_wmt22.npz"
DEFAULT_CACHE = Path("/tmp/refscore_ter_golden_cache")


def read_segments(path: Path) -> list[str]:
    """Lines of a UTF-8 file without their newline (same rule as tests/conftest.py)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def reference_files(pair_dir: Path) -> list[Path]:
    return [p for p in (pair_dir / "ref.txt", pair_dir / "ref2.txt") if p.exists()]


def score_system(hypotheses: list[str], references: list[list[str]]) -> dict:
    with recording_edits() as recorder:
        score = sacrebleu.metrics.TER().corpus_score(hypotheses, references)
    n_refs, n_segments = len(references), len(hypotheses)
    if len(recorder.calls) != n_refs * n_segments:
        raise RuntimeError(f"expected {n_refs * n_segments} edit computations, saw {len(recorder.calls)}")
    calls = np.array(recorder.calls, dtype=np.int64).reshape(n_segments, n_refs, 2)
    return {"edits": calls[:, :, 0].T.copy(), "ref_lengths": calls[:, :, 1].T.copy(), "score": float(score.score)}


def write_archive(cache_dir: Path, out: Path) -> int:
    arrays: dict[str, np.ndarray] = {}
    systems = []
    for path in sorted(cache_dir.glob("*.npz")):
        pair, system = path.stem.split("__", 1)
        with np.load(path) as part:
            edits = part["edits"]
            if edits.max(initial=0) >= 2**16 or part["ref_lengths"].max(initial=0) >= 2**16:
                raise RuntimeError(f"{pair}/{system}: counts do not fit uint16")
            arrays[f"{pair}|{system}|edits"] = edits.astype(np.uint16)
            arrays[f"{pair}|{system}|score"] = np.float64(part["score"])
            arrays.setdefault(f"{pair}|ref_lengths", part["ref_lengths"].astype(np.uint16))
        systems.append(f"{pair}/{system}")
    arrays["meta"] = np.array(json.dumps({"sacrebleu": sacrebleu.__version__, "metric": "TER() defaults",
                                          "systems": systems}))
    tmp = out.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(out)
    return len(systems)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--pairs", default="", help="comma-separated subset of language pairs (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()
    args.cache_dir.mkdir(parents=True, exist_ok=True)

    pair_dirs = sorted(p for p in args.data.iterdir() if p.is_dir() and (p / "sys").is_dir())
    if args.pairs:
        wanted = set(args.pairs.split(","))
        pair_dirs = [p for p in pair_dirs if p.name in wanted]
    references = {p.name: [read_segments(f) for f in reference_files(p)] for p in pair_dirs}
    jobs = [(p.name, f) for p in pair_dirs for f in sorted((p / "sys").glob("*.txt"))]
    pending = [(pair, path, references[pair]) for pair, path in schedule(jobs, references)
               if not (args.cache_dir / f"{pair}__{path.stem}.npz").exists()]
    with multiprocessing.Pool(args.jobs) as pool:
        for pair, path, seconds, result in pool.imap_unordered(score_job, pending):
            target = args.cache_dir / f"{pair}__{path.stem}.npz"
            np.savez(target.with_suffix(".tmp.npz"), **result)
            target.with_suffix(".tmp.npz").replace(target)
            count = write_archive(args.cache_dir, args.out)
            print(f"{pair}/{path.stem}: TER {result['score']:.4f} ({seconds:.1f} s, {count} systems cached)",
                  flush=True)


def score_job(job: tuple[str, Path, list[list[str]]]) -> tuple[str, Path, float, dict]:
    pair, path, references = job
    start = time.perf_counter()
    result = score_system(read_segments(path), references)
    return pair, path, time.perf_counter() - start, result


def schedule(jobs: list[tuple[str, Path]], references: dict[str, list[list[str]]]) -> list[tuple[str, Path]]:
    """Cheapest system of every pair first (so an interrupted run covers every pair), then the rest by cost.

    Cost estimate: words of the hypotheses times words of the references, summed over segments."""
    def cost(job: tuple[str, Path]) -> float:
        hyps = read_segments(job[1])
        return float(sum(len(h.split()) * sum(len(r[i].split()) for r in references[job[0]])
                         for i, h in enumerate(hyps)))

    costs = {job: cost(job) for job in jobs}
    by_cost = sorted(jobs, key=lambda job: costs[job])
    first_of_pair: dict[str, tuple[str, Path]] = {}
    for job in by_cost:
        first_of_pair.setdefault(job[0], job)
    firsts = list(first_of_pair.values())
    return firsts + [job for job in by_cost if job not in firsts]


if __name__ == "__main__":
    main()
