"""Benchmark: the report's compare-mt analyses (``refscore.reporting.mt_analyses.analyse``: length ratio and brevity
penalty, word F-measure by frequency bucket, length differences) against compare-mt 0.2.10's own functions on the
same words, CPU time.

Data: ../shared/data/wmt17/en-de (3004 segments, 16 systems). refscore's time is ``analyse`` on gathered report data
(its tokenization included; the BLEU statistics are the report's own, gathered beforehand and not timed); compare-mt's
is its ``length`` scorer, its BLEU (which holds the brevity penalty), its frequency word bucketer and its
length-difference sentence bucketer on the same 13a words (sacreBLEU's tokenizer, not timed).

Usage: python benchmarks/bench_mt_analyses.py [--data DIR] [--systems 16]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "wmt17" / "en-de"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--systems", type=int, default=16)
    args = parser.parse_args()

    from compare_mt import bucketers, scorers
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from refscore.metrics.bleu import BLEU
    from refscore.reporting.data import gather
    from refscore.reporting.mt_analyses import analyse

    paths = sorted((args.data / "sys").glob("*.txt"))[:args.systems]
    systems = {path.stem: lines(path) for path in paths}
    references = lines(args.data / "ref.txt")
    data = gather(systems, [[r] for r in references], [BLEU()], n=10)
    start = time.process_time()
    analyse(data)
    mine = time.process_time() - start

    tokenizer = Tokenizer13a()
    reference = [tokenizer(text.rstrip()).split() for text in references]
    outputs = [[tokenizer(text.rstrip()).split() for text in texts] for texts in systems.values()]
    start = time.process_time()
    length, bleu = scorers.create_scorer_from_profile("length"), scorers.BleuScorer()
    for output in outputs:
        length.score_corpus(reference, output)
        bleu.score_corpus(reference, output)
    bucketers.create_word_bucketer_from_profile("freq", freq_data=reference).calc_statistics(reference, outputs)
    lengthdiff = bucketers.create_sentence_bucketer_from_profile("lengthdiff")
    for output in outputs:
        lengthdiff.create_bucketed_corpus(output, ref=reference)
    theirs = time.process_time() - start
    print(f"{len(systems)} systems x {len(references)} segments: refscore analyse {mine:.2f} s CPU, "
          f"compare-mt's functions {theirs:.2f} s CPU")


if __name__ == "__main__":
    main()
