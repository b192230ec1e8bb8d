"""Full token-for-token comparison with sacreBLEU 2.6 on every WMT22 file (too slow for the test suite).

Every language pair, references and all systems: ``13a`` (cased and lowercased) and ``intl`` everywhere, ``zh``
for Chinese targets, ``char`` for Chinese and Japanese targets. Prints the mismatching segments per file set.

    python benchmarks/parity_tokenize_wmt22.py [--data ../shared/data/wmt22]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from sacrebleu.metrics.bleu import _get_tokenizer

from refscore._core._tokenize import encode_words_with_vocab


def tokenizers_for(target: str) -> list[tuple[str, bool]]:
    names = [("13a", False), ("13a", True), ("intl", False)]
    if target == "zh":
        names.append(("zh", False))
    if target in ("zh", "ja"):
        names.append(("char", False))
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22")
    args = parser.parse_args()
    totals: dict[tuple[str, bool], list[int]] = {}
    for pair in sorted(p for p in args.data.iterdir() if p.is_dir() and not p.name.startswith("_")):
        files = sorted(pair.glob("ref*.txt")) + sorted((pair / "sys").glob("*.txt"))
        lines = [line for path in files for line in path.read_text(encoding="utf-8").split("\n")[:-1]]
        for name, lowercase in tokenizers_for(pair.name.split("-")[1]):
            tokenizer = _get_tokenizer(name)()
            ids, offsets, vocab = encode_words_with_vocab(lines, name, lowercase)
            mismatches = sum(
                [vocab[k] for k in ids[offsets[i]:offsets[i + 1]]]
                != tokenizer((line.lower() if lowercase else line).rstrip()).split()
                for i, line in enumerate(lines))
            total = totals.setdefault((name, lowercase), [0, 0])
            total[0] += len(lines)
            total[1] += mismatches
            print(f"{pair.name:<8}{name:<6}lowercase={lowercase!s:<6}{len(lines):>8} segments  {mismatches} mismatches",
                  flush=True)
    for (name, lowercase), (segments, mismatches) in totals.items():
        print(f"TOTAL {name:<6}lowercase={lowercase!s:<6}{segments:>8} segments  {mismatches} mismatches")


if __name__ == "__main__":
    main()
