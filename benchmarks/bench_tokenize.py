"""Throughput of refscore's compiled tokenizers vs sacreBLEU 2.6's, on WMT22 references and system outputs.

For each tokenizer: MB/s (UTF-8 input bytes) of sacreBLEU's BLEU preprocessing
(``tokenizer(line.rstrip()).split()``, its lru caches cleared before each run) and of ``encode_words`` (ids
and offsets, what the metrics use) with 1 and 2 threads, the speed-ups, and whether every segment's tokens
agree (checked with ``encode_words_with_vocab``). Times are the best of ``--repeat`` runs, both as CPU time
of the process (single thread; robust when the machine is shared) and as wall-clock time.

    python benchmarks/bench_tokenize.py [--repeat 3] [--data ../shared/data/wmt22]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from sacrebleu.metrics.bleu import _get_tokenizer

from refscore._core._tokenize import encode_words, encode_words_with_vocab

from _timing import best_time

CASES = [  # (tokenizer, language pair, lowercase)
    ("13a", "en-de", False),
    ("13a", "en-de", True),
    ("intl", "en-de", False),
    ("zh", "en-zh", False),
    ("char", "en-ja", False),
    ("none", "en-de", False),
]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def corpus(pair_dir: Path) -> list[str]:
    """References plus every system output of one WMT22 language pair."""
    files = [pair_dir / "ref.txt"] + sorted((pair_dir / "sys").glob("*.txt"))
    return [line for path in files for line in read_lines(path)]


def clear_caches(tokenizer) -> None:
    for obj in (tokenizer, getattr(tokenizer, "_post_tokenizer", None)):
        if obj is not None and hasattr(type(obj).__call__, "cache_clear"):
            type(obj).__call__.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22")
    args = parser.parse_args()

    print("MB/s of UTF-8 input; 'cpu' columns use process CPU time (robust on a busy machine), 'wall' columns "
          "wall-clock time; x = speed-up over sacreBLEU")
    print(f"{'tokenizer':<10}{'data':<7}{'lc':<4}{'lines':>7}{'MB':>6}{'sacre cpu':>10}{'1thr cpu':>10}{'x cpu':>8}"
          f"{'sacre wall':>11}{'1thr wall':>10}{'2thr wall':>10}{'x 1thr':>8}{'x 2thr':>8}  agree")
    for name, pair, lowercase in CASES:
        lines = corpus(args.data / pair)
        megabytes = sum(len(line.encode("utf-8")) for line in lines) / 1e6
        tokenizer = _get_tokenizer(name)()

        def sacrebleu_tokens():
            clear_caches(tokenizer)
            return [tokenizer((line.lower() if lowercase else line).rstrip()).split() for line in lines]

        peer_wall, peer_cpu, _ = best_time(sacrebleu_tokens, args.repeat)
        one_wall, one_cpu, _ = best_time(lambda: encode_words(lines, name, lowercase, 1), args.repeat)
        two_wall, _, _ = best_time(lambda: encode_words(lines, name, lowercase, 2), args.repeat)
        ids, offsets, vocab = encode_words_with_vocab(lines, name, lowercase, 1)
        expected = sacrebleu_tokens()
        agree = all([vocab[k] for k in ids[offsets[i]:offsets[i + 1]]] == expected[i] for i in range(len(lines)))
        print(f"{name:<10}{pair:<7}{'y' if lowercase else 'n':<4}{len(lines):>7}{megabytes:>6.1f}"
              f"{megabytes / peer_cpu:>10.1f}{megabytes / one_cpu:>10.1f}{peer_cpu / one_cpu:>8.1f}"
              f"{megabytes / peer_wall:>11.1f}{megabytes / one_wall:>10.1f}{megabytes / two_wall:>10.1f}"
              f"{peer_wall / one_wall:>8.1f}{peer_wall / two_wall:>8.1f}  {agree}")


if __name__ == "__main__":
    main()
