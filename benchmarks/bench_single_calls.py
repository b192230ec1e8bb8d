"""One segment per call: loops of single-pair calls, refscore against the peer, on WMT22 en-de pairs (system
output vs reference A) cut to short (10 words), typical (30) and long (200) sentences, same run, same pairs. This
is how LLM-application tests and per-sample rewards call a metric; the batch APIs (``sentence_scores``,
``score_batch``) are the fast way for many pairs.

Columns (microseconds per call, best of ``--repeat`` rounds in which the loops of a row take turns): ``peer``,
``refscore``, ``ratio`` (peer / refscore, best against best), ``median`` (the ratio of the median rounds),
``kernel`` (the compiled call alone that refscore's call makes: its single-pair entry point or kernel, same
arguments), ``outside`` (the share of refscore's call outside the kernel: the Python overhead budget),
``/floor+k`` (refscore's call over the floor plus the kernel; the floor is a loop of calls of an empty Python
function of two arguments, printed on the header line) and whether every result agrees (equal floats, or equal
within 1e-9 on sacreBLEU's 0-100 scale where refscore reports 0-1).

Rows: BLEU ``sentence_score`` (sacreBLEU ``BLEU(effective_order=True)`` vs ``refscore.BLEU(effective_order=True)``),
``sentence_bleu`` (sacreBLEU's vs ``refscore.sentence_bleu``, and vs the drop-in
``refscore.compat.sacrebleu.sentence_bleu``), NLTK ``sentence_bleu`` (``method1``, 13a token lists) vs
``refscore.compat.nltk.sentence_bleu``, chrF and TER ``sentence_score``, and rouge-score ``RougeScorer.score``
(rouge1, rouge2, rougeL) vs the drop-in ``refscore.compat.rouge_score``.

    python benchmarks/bench_single_calls.py [--pairs 2000] [--repeat 3] [--lengths 10,30,200]

Long sentences use a tenth of ``--pairs`` (the peers take milliseconds per call there), and TER's long row
:data:`TER_LONG_PAIRS` calls in one loop (sacreBLEU's TER takes seconds per call there).
"""
from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from rouge_score import rouge_scorer as peer_rouge
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore
from bench_bleu import DATA, read_segments  # the sibling script (benchmarks/ is on sys.path)
from refscore._core._chrf import SPACE_PYTHON
from refscore._core._chrf import PairScorer as ChrfPair
from refscore._core._ngrams import TokenPairCounter, bleu_text_pair
from refscore._core._rouge import PairScorer as RougePair
from refscore._core._ter import PairScorer as TerPair
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu
from refscore.compat.rouge_score import rouge_scorer as compat_rouge

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]
#: sacreBLEU's TER calls on long sentences (its shift search takes seconds per 200-word pair).
TER_LONG_PAIRS = 3
Pairs = list[tuple[str, str]]
Loop = Callable[[], list[Any]]


def per_call(loop: Loop, calls: int, repeat: int) -> tuple[float, list[Any]]:
    """Best microseconds per call over ``repeat`` runs of ``loop`` (which makes ``calls`` calls)."""
    best, results = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        results = loop()
        best = min(best, time.perf_counter() - start)
    return 1e6 * best / calls, results


def alternated(loops: Sequence[Loop], calls: int, repeat: int) -> tuple[list[list[float]], list[list[Any]]]:
    """Microseconds per call of each loop in each of ``repeat`` rounds, the loops taking turns within a round (a
    slow spell of a shared machine falls on all of them), and each loop's last results."""
    times: list[list[float]] = [[] for _ in loops]
    results: list[list[Any]] = [[] for _ in loops]
    for _ in range(repeat):
        for k, loop in enumerate(loops):
            start = time.perf_counter()
            results[k] = loop()
            times[k].append(1e6 * (time.perf_counter() - start) / calls)
    return times, results


def cut_pairs(hyps: Sequence[str], refs: Sequence[str], words: int, count: int) -> Pairs:
    """``count`` (hypothesis, reference) pairs of ``words`` hypothesis words: consecutive segments joined until
    the hypothesis has that many words, both sides cut to that many words (the pairs stay roughly parallel)."""
    pairs: Pairs = []
    hyp_words: list[str] = []
    ref_words: list[str] = []
    for hyp, ref in zip(hyps, refs):
        hyp_words += hyp.split()
        ref_words += ref.split()
        if len(hyp_words) >= words:
            pairs.append((" ".join(hyp_words[:words]), " ".join(ref_words[:words])))
            hyp_words, ref_words = [], []
            if len(pairs) == count:
                break
    return pairs


def close(ours: float, peer: float) -> bool:
    return abs(ours - peer) <= 1e-9


class Table:
    """Prints the rows of one sentence length against its floor."""

    def __init__(self, pairs: Pairs, repeat: int) -> None:
        self.pairs, self.calls, self.repeat = pairs, len(pairs), repeat

        def empty(hypothesis: str, reference: str) -> None:
            return None

        self.floor = min(per_call(lambda: [empty(h, r) for h, r in pairs], self.calls, repeat)[0] for _ in range(3))

    def row(self, name: str, peer: Loop, ours: Loop, kernel: Loop, agree: Callable[[Any, Any], bool]) -> None:
        (ours_t, kernel_t, peer_t), (our_results, _, peer_results) = alternated([ours, kernel, peer], self.calls,
                                                                                 self.repeat)
        same = len(our_results) == len(peer_results) and all(agree(a, b) for a, b in zip(our_results, peer_results))
        ours_us, kernel_us, peer_us = min(ours_t), min(kernel_t), min(peer_t)
        outside = max(ours_us - kernel_us, 0.0) / ours_us
        median_ratio = statistics.median(peer_t) / statistics.median(ours_t)
        print(f"{name:<40} {peer_us:9.1f} {ours_us:9.1f} {peer_us / ours_us:8.2f}x {median_ratio:8.2f}x "
              f"{kernel_us:8.1f} {outside:8.0%} {ours_us / (self.floor + kernel_us):8.2f}x   {'yes' if same else 'NO'}")


def run_length(pairs: Pairs, words: int, repeat: int) -> None:
    table = Table(pairs, repeat)
    print(f"\n{words} words: {len(pairs):,} calls; floor (empty Python function call) {table.floor:.2f} us")
    print(f"{'call':<40} {'peer':>9} {'refscore':>9} {'ratio':>9} {'median':>9} {'kernel':>8} {'outside':>8} "
          f"{'/floor+k':>9}   agree")
    bleu_counter = bleu_text_pair("13a", False, 4)
    bleu_kernel: Loop = lambda: [bleu_counter.counts(h, r) for h, r in pairs]   # noqa: E731
    peer_bleu, our_bleu = SacreBLEU(effective_order=True), refscore.BLEU(effective_order=True)
    table.row("BLEU sentence_score", lambda: [peer_bleu.sentence_score(h, [r]).score for h, r in pairs],
              lambda: [100 * our_bleu.sentence_score(h, r).score for h, r in pairs], bleu_kernel, close)
    table.row("sentence_bleu (metric built per call)",
              lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs],
              lambda: [100 * refscore.sentence_bleu(h, r).score for h, r in pairs], bleu_kernel, close)
    table.row("sentence_bleu (sacrebleu drop-in)", lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs],
              lambda: [compat_sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs], bleu_kernel, close)

    tokenize = Tokenizer13a()
    token_pairs = [(tokenize(h).split(), [tokenize(r).split()]) for h, r in pairs]
    peer_method1, our_method1 = nltk_bleu.SmoothingFunction().method1, compat_nltk.SmoothingFunction().method1
    token_counter = TokenPairCounter(4)
    table.row("NLTK sentence_bleu, method1 (drop-in)",
              lambda: [nltk_bleu.sentence_bleu(r, h, smoothing_function=peer_method1) for h, r in token_pairs],
              lambda: [compat_nltk.sentence_bleu(r, h, smoothing_function=our_method1) for h, r in token_pairs],
              lambda: [token_counter.counts(h, r) for h, r in token_pairs], lambda a, b: a == b)

    peer_chrf, our_chrf = SacreCHRF(), refscore.CHRF()
    config = our_chrf.config
    chrf_kernel = ChrfPair(config.char_order, config.word_order, float(config.beta) ** 2, config.eps_smoothing,
                           SPACE_PYTHON)
    table.row("chrF sentence_score", lambda: [peer_chrf.sentence_score(h, [r]).score for h, r in pairs],
              lambda: [100 * our_chrf.sentence_score(h, r).score for h, r in pairs],
              lambda: [chrf_kernel.score(h, r) for h, r in pairs], close)
    peer_ter, our_ter = SacreTER(), refscore.TER()
    ter_kernel = TerPair(our_ter.config.kernel_flags, True)
    ter_pairs = pairs[:TER_LONG_PAIRS] if words > 50 else pairs   # sacreBLEU's TER takes seconds per long pair
    ter_table = table if ter_pairs is pairs else Table(ter_pairs, 1)
    ter_table.row(f"TER sentence_score{'' if ter_pairs is pairs else f' ({len(ter_pairs)} calls, 1 loop)'}",
                  lambda: [peer_ter.sentence_score(h, [r]).score for h, r in ter_pairs],
                  lambda: [100 * our_ter.sentence_score(h, r).score for h, r in ter_pairs],
                  lambda: [ter_kernel.edits(h, r) for h, r in ter_pairs], close)

    peer_scorer = peer_rouge.RougeScorer(ROUGE_TYPES)
    our_scorer = compat_rouge.RougeScorer(ROUGE_TYPES)
    rouge_kernel = RougePair(np.array([1, 2, 0], dtype=np.int64), False)
    table.row("ROUGE RougeScorer.score (drop-in)", lambda: [peer_scorer.score(r, h) for h, r in pairs],
              lambda: [our_scorer.score(r, h) for h, r in pairs],
              lambda: [rouge_kernel.scores(h, r) for h, r in pairs], lambda a, b: a == b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lengths", default="10,30,200", help="hypothesis words per pair, comma-separated")
    args = parser.parse_args()
    pair_dir = DATA / "en-de"
    systems = sorted((pair_dir / "sys").glob("*.txt"))
    hyps: Sequence[str] = read_segments(systems[0])
    refs: Sequence[str] = read_segments(pair_dir / "ref.txt")
    print(f"single-pair calls on WMT22 en-de ({systems[0].stem} vs reference A), microseconds per call")
    for words in (int(w) for w in args.lengths.split(",")):
        count = args.pairs if words <= 50 else max(args.pairs // 10, 1)
        run_length(cut_pairs(hyps, refs, words, count), words, args.repeat)


if __name__ == "__main__":
    main()
