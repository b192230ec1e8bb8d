"""Throughput of refscore's compiled tokenizers vs sacreBLEU 2.6's, on WMT22 references and system outputs.

For each tokenizer: MB/s (UTF-8 input bytes) of sacreBLEU's BLEU preprocessing
(``tokenizer(line.rstrip()).split()``, caches cleared before each run) and of ``encode_words`` with 1 and 2
threads, the speed-up, and whether every segment's tokens agree.

    python benchmarks/bench_tokenize.py [--repeat 3] [--data ../shared/data/wmt22]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from sacrebleu.metrics.bleu import _get_tokenizer

from refscore._core._tokenize import encode_words_with_vocab

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


def best_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22")
    args = parser.parse_args()

    print(f"{'tokenizer':<10}{'data':<7}{'lc':<4}{'lines':>8}{'MB':>7}{'sacreBLEU MB/s':>16}"
          f"{'1 thr MB/s':>12}{'2 thr MB/s':>12}{'x (1 thr)':>11}{'x (2 thr)':>11}  agree")
    for name, pair, lowercase in CASES:
        lines = corpus(args.data / pair)
        megabytes = sum(len(line.encode("utf-8")) for line in lines) / 1e6
        tokenizer = _get_tokenizer(name)()

        def sacrebleu_tokens():
            clear_caches(tokenizer)
            return [tokenizer((line.lower() if lowercase else line).rstrip()).split() for line in lines]

        peer_time = best_time(sacrebleu_tokens, args.repeat)
        ours = {threads: best_time(lambda: encode_words_with_vocab(lines, name, lowercase, threads), args.repeat)
                for threads in (1, 2)}
        ids, offsets, vocab = encode_words_with_vocab(lines, name, lowercase, 1)
        expected = sacrebleu_tokens()
        agree = all([vocab[k] for k in ids[offsets[i]:offsets[i + 1]]] == expected[i] for i in range(len(lines)))
        print(f"{name:<10}{pair:<7}{'y' if lowercase else 'n':<4}{len(lines):>8}{megabytes:>7.1f}"
              f"{megabytes / peer_time:>16.1f}{megabytes / ours[1]:>12.1f}{megabytes / ours[2]:>12.1f}"
              f"{peer_time / ours[1]:>11.1f}{peer_time / ours[2]:>11.1f}  {agree}")


if __name__ == "__main__":
    main()
