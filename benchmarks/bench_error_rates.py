"""Corpus WER and CER: refscore vs jiwer 4.0 and torchmetrics on the same pairs, printing times, ratios and whether
every number agrees (exactly: the integer counts and the rates to the last bit).

    python benchmarks/bench_error_rates.py [--data ../shared/data/wmt22] [--pairs 100000] [--repeat 3]
                                           [--torchmetrics-pairs 2000]

Pairs: WMT22 system outputs against their references (all language pairs, round robin over the systems), so the
texts are real sentences in many scripts (Latin, Cyrillic, CJK). refscore runs with 1 and 2 threads; the drop-in
``refscore.compat.jiwer`` is timed too. torchmetrics' edit distance is a Python double loop (minutes per 100,000
pairs for CER), so it runs on the first ``--torchmetrics-pairs`` pairs, against ``peer="torchmetrics"``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import best_time  # noqa: E402

import refscore  # noqa: E402
from refscore.compat import jiwer as drop_in  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def read(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def pairs(data: Path, count: int) -> tuple[list[str], list[str]]:
    """(hypotheses, references): every system of every language pair, one after the other, until ``count``."""
    hyps: list[str] = []
    refs: list[str] = []
    for directory in sorted(p for p in data.iterdir() if (p / "ref.txt").exists()):
        ref = read(directory / "ref.txt")
        for system in sorted((directory / "sys").glob("*.txt")):
            hyp = read(system)
            if len(hyp) == len(ref):
                hyps += hyp
                refs += ref
    if not hyps:
        raise SystemExit(f"no WMT22 pairs under {data}")
    return [hyps[i % len(hyps)] for i in range(count)], [refs[i % len(refs)] for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--torchmetrics-pairs", type=int, default=2000, help="0: skip torchmetrics")
    args = parser.parse_args()
    import jiwer

    hyps, refs = pairs(args.data, args.pairs)
    print(f"{len(hyps):,} pairs from {args.data} ({sum(map(len, refs)):,} reference characters)")

    def row(name: str, ours: float, peer: float, agree: bool) -> None:
        print(f"{name:<46} refscore {ours:8.3f}s  peer {peer:8.3f}s  ratio {peer / ours:7.2f}x  agree: {agree}")

    for unit, peer_function, ours_function, drop_in_function in (
            ("wer", jiwer.process_words, refscore.wer, drop_in.wer),
            ("cer", jiwer.process_characters, refscore.cer, drop_in.cer)):
        peer_wall, _, expected = best_time(lambda: peer_function(refs, hyps), 1)
        counts = [expected.hits, expected.substitutions, expected.deletions, expected.insertions]
        value = getattr(expected, unit)
        for threads in (1, 2):
            wall, _, score = best_time(lambda: ours_function(hyps, refs, num_threads=threads), args.repeat)
            agree = score.score == value and score.statistics.totals().tolist()[:4] == counts
            row(f"refscore.{unit} ({threads} thread{'s' if threads > 1 else ''}) vs jiwer.process_*", wall,
                peer_wall, agree)
        peer_wall, _, expected_value = best_time(lambda: getattr(jiwer, unit)(refs, hyps), 1)
        wall, _, got = best_time(lambda: drop_in_function(refs, hyps), args.repeat)
        row(f"compat jiwer.{unit} vs jiwer.{unit}", wall, peer_wall, got == expected_value == value)
    if args.torchmetrics_pairs:
        from torchmetrics.text import CharErrorRate, WordErrorRate

        n = args.torchmetrics_pairs
        for unit, peer_class, function in (("wer", WordErrorRate, refscore.wer), ("cer", CharErrorRate, refscore.cer)):
            peer_wall, _, expected_tm = best_time(lambda: float(peer_class()(hyps[:n], refs[:n])), 1)
            wall, _, score = best_time(lambda: function(hyps[:n], refs[:n], peer="torchmetrics", num_threads=1),
                                       args.repeat)
            row(f"refscore.{unit} vs torchmetrics ({n:,} pairs, 1 thread)", wall, peer_wall,
                score.score == expected_tm)


if __name__ == "__main__":
    main()
