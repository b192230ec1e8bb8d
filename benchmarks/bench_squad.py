"""SQuAD F1/EM and exact match: refscore vs the peers on the same answers, printing times, ratios and whether
every number agrees.

    python benchmarks/bench_squad.py [--data ../shared/data/wmt22] [--pairs 100000] [--repeat 3]

Answers: WMT22 references (en-de, en-zh, de-en ...) as gold answers, each prediction a lowercased prefix or a
shuffled copy of its reference, so that F1 takes every value between 0 and 1. Peers: the official SQuAD v1.1
script's arithmetic as evaluate's ``squad`` runs it (tests/_squad_peer.py; ``evaluate.load("squad")`` itself needs
the Hub, and adds its ``datasets`` encoding on top, so the ratio against it is a lower bound), torchmetrics'
``squad`` (float32 tensors: agreement to 1e-6), and evaluate's ``exact_match`` (numpy) for exact match.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _squad_peer import evaluate_exact_match, evaluate_squad  # noqa: E402
from _timing import best_time  # noqa: E402

import refscore  # noqa: E402
from refscore.compat import evaluate  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def answers(data: Path, pairs: int) -> tuple[list[str], list[str]]:
    refs: list[str] = []
    for path in sorted(data.glob("*/ref.txt")):
        refs += [line for line in path.read_text(encoding="utf-8").split("\n") if line]
    rng = random.Random(1)
    refs = [refs[i % len(refs)] for i in range(pairs)]
    hyps = []
    for ref in refs:
        words = ref.split()
        if rng.random() < 0.5:
            hyps.append(" ".join(words[: rng.randint(0, len(words))]).lower())
        else:
            rng.shuffle(words)
            hyps.append(" ".join(words[: max(1, len(words) // 2)]))
    return hyps, refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-torchmetrics", action="store_true")
    args = parser.parse_args()
    hyps, refs = answers(args.data, args.pairs)
    predictions = [{"id": str(i), "prediction_text": h} for i, h in enumerate(hyps)]
    references = [{"id": str(i), "answers": {"text": [r], "answer_start": [0]}} for i, r in enumerate(refs)]
    print(f"{len(hyps):,} answers from {args.data}")

    def row(name: str, ours: float, peer: float, agree: bool) -> None:
        print(f"{name:<44} refscore {ours:8.3f}s  peer {peer:8.3f}s  ratio {peer / ours:6.2f}x  agree: {agree}")

    peer_wall, _, expected = best_time(lambda: evaluate_squad(predictions, references), args.repeat)
    squad_wall, _, result = best_time(lambda: refscore.squad(hyps, refs), args.repeat)
    wall = squad_wall
    agree = (abs(result.values["f1"] * 100 - expected["f1"]) <= 1e-9 * expected["f1"]
             and result.values["exact_match"] * 100 == expected["exact_match"])
    row("refscore.squad vs the v1.1 script (evaluate)", wall, peer_wall, agree)
    wall, _, drop_in = best_time(lambda: evaluate.load("squad").compute(predictions=predictions,
                                                                       references=references), args.repeat)
    row("compat evaluate squad vs the v1.1 script", wall, peer_wall, drop_in == expected)
    if not args.no_torchmetrics:
        from torchmetrics.functional.text import squad as tm_squad

        # torchmetrics: v2.0's F1 rule, float32 sums (agreement to 1e-3 relative)
        v2_wall, _, v2 = best_time(lambda: refscore.squad(hyps, refs, version="2.0"), args.repeat)
        tm_wall, _, tm = best_time(lambda: tm_squad(predictions, references), 1)
        close = abs(float(tm["f1"]) - v2.values["f1"] * 100) <= 1e-3 * max(1.0, float(tm["f1"]))
        row("refscore.squad v2.0 vs torchmetrics (1 run)", v2_wall, tm_wall, close)
    for options in ({}, {"ignore_case": True, "ignore_punctuation": True}):
        peer_wall, _, expected_em = best_time(lambda: evaluate_exact_match(hyps, refs, **options), args.repeat)
        wall, _, em = best_time(lambda: evaluate.load("exact_match").compute(predictions=hyps, references=refs,
                                                                            **options), args.repeat)
        row(f"compat exact_match {sorted(options) or 'default'}", wall, peer_wall, em == expected_em)


if __name__ == "__main__":
    main()
