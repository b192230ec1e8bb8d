"""The worked example of docs/meta-evaluation.md, in one command: ``refscore meta-eval`` on the WMT21 TED MQM
ratings (en-de, zh-en) and on SummEval's expert ratings, with the default statistics, 1,000 bootstrap resamples of
items, 1,000 PERM-BOTH resamples per pair of metrics, seed 12345. Prints each command and its table.

Usage: python benchmarks/meta_worked_example.py [--data DIR] [--format text|json|latex]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
RUNS = (("mqm_ted/ende.jsonl", "bleu,chrf,ter", ()), ("mqm_ted/zhen.jsonl", "bleu,chrf,ter", ()),
        ("summ_summeval/summeval.jsonl", "rouge,bleu,chrf", ()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--format", choices=("text", "json", "latex"), default="text")
    args = parser.parse_args()
    for path, metrics, extra in RUNS:
        command = ["refscore", "meta-eval", str(args.data / path), "-m", metrics, *extra, "--format", args.format]
        print("$ " + " ".join(command), flush=True)
        done = subprocess.run([sys.executable, "-m", "refscore.cli", *command[1:]], check=False)
        if done.returncode:
            return done.returncode
        print(flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
