"""One segment per call: loops of single-pair calls, refscore against the peer, on WMT22 en-de pairs (system
output vs reference A), same run, same pairs. This is how LLM-application tests and per-sample rewards call a
metric; the batch APIs (``sentence_scores``, ``score_batch``) are the fast way for many pairs.

Rows (microseconds per call, best of ``--repeat`` loops; ratio = peer / refscore; whether every result agrees):

1. BLEU: sacreBLEU ``BLEU(effective_order=True).sentence_score`` vs ``refscore.BLEU(effective_order=True)
   .sentence_score``; ``sacrebleu.sentence_bleu`` vs ``refscore.sentence_bleu`` (metric built by the call) and
   vs the drop-in ``refscore.compat.sacrebleu.sentence_bleu``; NLTK ``sentence_bleu`` (``method1``, 13a token
   lists) vs ``refscore.compat.nltk.sentence_bleu``;
2. chrF: sacreBLEU ``CHRF().sentence_score`` vs ``refscore.CHRF().sentence_score``;
3. TER: sacreBLEU ``TER().sentence_score`` vs ``refscore.TER().sentence_score``;
4. ROUGE (rouge1, rouge2, rougeL): rouge-score ``RougeScorer.score`` vs the drop-in
   ``refscore.compat.rouge_score.rouge_scorer.RougeScorer.score``.

    python benchmarks/bench_single_calls.py [--pairs 2000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from rouge_score import rouge_scorer as peer_rouge
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore
from bench_bleu import DATA, read_segments  # the sibling script (benchmarks/ is on sys.path)
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu
from refscore.compat.rouge_score import rouge_scorer as compat_rouge

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]


def per_call(loop: Callable[[], list[Any]], calls: int, repeat: int) -> tuple[float, list[Any]]:
    """Best microseconds per call over ``repeat`` runs of ``loop`` (which makes ``calls`` calls)."""
    best, results = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        results = loop()
        best = min(best, time.perf_counter() - start)
    return 1e6 * best / calls, results


def row(name: str, peer: Callable[[], list[Any]], ours: Callable[[], list[Any]],
        agree: Callable[[Any, Any], bool], calls: int, repeat: int) -> None:
    ours_us, our_results = per_call(ours, calls, repeat)   # refscore first: the peers' caches start cold
    peer_us, peer_results = per_call(peer, calls, repeat)
    same = all(agree(a, b) for a, b in zip(our_results, peer_results))
    print(f"{name:<48} {peer_us:9.1f} {ours_us:9.1f} {peer_us / ours_us:7.2f}x   {'yes' if same else 'NO'}")


def close(ours: float, peer: float) -> bool:
    return abs(ours - peer) <= 1e-9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pair_dir = DATA / "en-de"
    systems = sorted((pair_dir / "sys").glob("*.txt"))
    hyps: Sequence[str] = read_segments(systems[0])[:args.pairs]
    refs: Sequence[str] = read_segments(pair_dir / "ref.txt")[:args.pairs]
    pairs = list(zip(hyps, refs))
    calls, repeat = len(pairs), args.repeat
    print(f"{calls:,} single-pair calls (WMT22 en-de, {systems[0].stem} vs reference A), microseconds per call")
    print(f"{'call':<48} {'peer':>9} {'refscore':>9} {'ratio':>8}   agree")

    peer_bleu, our_bleu = SacreBLEU(effective_order=True), refscore.BLEU(effective_order=True)
    row("BLEU sentence_score", lambda: [peer_bleu.sentence_score(h, [r]).score for h, r in pairs],
        lambda: [100 * our_bleu.sentence_score(h, r).score for h, r in pairs], close, calls, repeat)
    row("sentence_bleu (metric built per call)", lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs],
        lambda: [100 * refscore.sentence_bleu(h, r).score for h, r in pairs], close, calls, repeat)
    row("sentence_bleu (drop-in)", lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs],
        lambda: [compat_sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs], close, calls, repeat)
    tokenize = Tokenizer13a()
    token_pairs = [(tokenize(h).split(), tokenize(r).split()) for h, r in pairs]
    peer_method1, our_method1 = nltk_bleu.SmoothingFunction().method1, compat_nltk.SmoothingFunction().method1
    row("NLTK sentence_bleu, method1 (drop-in)",
        lambda: [nltk_bleu.sentence_bleu([r], h, smoothing_function=peer_method1) for h, r in token_pairs],
        lambda: [compat_nltk.sentence_bleu([r], h, smoothing_function=our_method1) for h, r in token_pairs],
        lambda a, b: a == b, calls, repeat)
    peer_chrf, our_chrf = SacreCHRF(), refscore.CHRF()
    row("chrF sentence_score", lambda: [peer_chrf.sentence_score(h, [r]).score for h, r in pairs],
        lambda: [100 * our_chrf.sentence_score(h, r).score for h, r in pairs], close, calls, repeat)
    peer_ter, our_ter = SacreTER(), refscore.TER()
    row("TER sentence_score", lambda: [peer_ter.sentence_score(h, [r]).score for h, r in pairs],
        lambda: [100 * our_ter.sentence_score(h, r).score for h, r in pairs], close, calls, repeat)
    peer_scorer = peer_rouge.RougeScorer(ROUGE_TYPES)
    our_scorer = compat_rouge.RougeScorer(ROUGE_TYPES)
    row("ROUGE RougeScorer.score (drop-in)", lambda: [peer_scorer.score(r, h) for h, r in pairs],
        lambda: [our_scorer.score(r, h) for h, r in pairs], lambda a, b: a == b, calls, repeat)


if __name__ == "__main__":
    main()
