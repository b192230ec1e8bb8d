"""Edit distance and EED: refscore vs RapidFuzz (pairs, and all-pairs ``process.cdist`` with 1 and 2 workers) and
vs torchmetrics' ``extended_edit_distance``, on the same WMT22 texts, printing times, ratios and whether every
number agrees.

    python benchmarks/bench_edit_distance.py [--data ../shared/data/wmt22] [--pairs 100000] [--matrix 2000]
                                             [--eed-pairs 300] [--repeat 3]

Pairs: WMT22 references against one system's outputs (``--pairs``, repeated to that count), normalized similarity
per pair (RapidFuzz in a Python loop, as promptfoo-style scoring does it; ``process.cpdist`` where RapidFuzz has
it). Matrices: ``--matrix`` references against themselves, ``refscore.pairwise`` vs ``process.cdist`` (float64),
characters and words. EED: torchmetrics is pure Python, so ``--eed-pairs`` is small.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time  # noqa: E402

import refscore  # noqa: E402
from refscore.metrics.edit_distance import EditDistance  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def texts(data: Path, pairs: int) -> tuple[list[str], list[str]]:
    hyps: list[str] = []
    refs: list[str] = []
    for directory in sorted(p for p in data.iterdir() if (p / "ref.txt").exists()):
        systems = sorted((directory / "sys").glob("*.txt"))
        if not systems:
            continue
        ref = (directory / "ref.txt").read_text(encoding="utf-8").split("\n")
        hyp = systems[0].read_text(encoding="utf-8").split("\n")
        for h, r in zip(hyp, ref):
            if h or r:
                hyps.append(h)
                refs.append(r)
    return [hyps[i % len(hyps)] for i in range(pairs)], [refs[i % len(refs)] for i in range(pairs)]


def row(name: str, ours: float, peer: float, agree: bool) -> None:
    print(f"{name:<58} refscore {ours:8.3f}s  peer {peer:8.3f}s  ratio {peer / ours:6.2f}x  agree: {agree}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--matrix", type=int, default=2000)
    parser.add_argument("--eed-pairs", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from rapidfuzz import process
    from rapidfuzz.distance import Indel, Levenshtein

    hyps, refs = texts(args.data, args.pairs)
    print(f"{len(hyps):,} pairs from {args.data} (mean {np.mean([len(r) for r in refs]):.0f} characters)")
    peers = {"levenshtein": Levenshtein, "indel": Indel}
    for measure, peer in peers.items():
        for unit in ("characters", "words"):
            split = (lambda t: t) if unit == "characters" else str.split
            a, b = [split(h) for h in hyps], [split(r) for r in refs]
            scorer = peer.normalized_similarity
            single = 0.0
            for threads, workers in ((1, 1), (2, 2)):
                metric = EditDistance(measure=measure, unit=unit)
                wall, _, stats = best_time(lambda: metric.statistics(hyps, refs, num_threads=threads), args.repeat)
                single = single or wall
                peer_wall, _, expected = best_time(
                    lambda: process.cpdist(a, b, scorer=scorer, dtype=np.float64, workers=workers), args.repeat)
                row(f"pairs {measure}/{unit}, {threads} thread(s) vs cpdist workers={workers}", wall, peer_wall,
                    bool(np.array_equal(stats.column("similarity"), expected)))
            if unit == "characters":
                loop_wall, _, looped = best_time(lambda: [scorer(x, y) for x, y in zip(a, b)], 1)
                row(f"pairs {measure}/{unit}, 1 thread vs a Python loop", single, loop_wall,
                    looped == stats.column("similarity").tolist())
    matrix_texts = refs[: args.matrix]
    for measure, peer in peers.items():
        for unit in ("characters", "words"):
            split = (lambda t: t) if unit == "characters" else str.split
            peer_texts = [split(t) for t in matrix_texts]
            for threads, workers in ((1, 1), (2, 2)):
                metric = EditDistance(measure=measure, unit=unit)
                wall, _, found = best_time(lambda: refscore.pairwise(metric, [matrix_texts], num_threads=threads)[0],
                                           args.repeat)
                peer_wall, _, expected = best_time(
                    lambda: process.cdist(peer_texts, peer_texts, scorer=peer.normalized_similarity,
                                          dtype=np.float64, workers=workers), args.repeat)
                row(f"{args.matrix}x{args.matrix} {measure}/{unit}, {threads} thread(s) vs cdist workers={workers}",
                    wall, peer_wall, bool(np.array_equal(found, expected)))
    from torchmetrics.functional.text import extended_edit_distance

    eh, er = hyps[: args.eed_pairs], refs[: args.eed_pairs]
    peer_wall, _, (tm_corpus, tm_sentences) = best_time(
        lambda: extended_edit_distance(eh, er, return_sentence_level_score=True), 1)
    for threads in (1, 2):
        wall, _, result = best_time(lambda: refscore.eed(eh, er, num_threads=threads), args.repeat)
        agree = (result.score == float(tm_corpus)
                 and result.segments["eed"].tolist() == tm_sentences.numpy().astype(np.float64).tolist())
        row(f"EED {len(eh)} pairs, {threads} thread(s) vs torchmetrics", wall, peer_wall, agree)


if __name__ == "__main__":
    main()
