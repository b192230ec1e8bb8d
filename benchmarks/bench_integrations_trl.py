"""TRL reward calls per second: refscore.integrations.trl's reward functions against a plain sacreBLEU reward
function (``[sentence_chrf(c, [s]).score / 100 for ...]``, what a TRL user writes by hand), both called the way
GRPOTrainer calls them (``f(prompts=..., completions=..., completion_ids=..., solution=...)``) on batches of 1,024
completions (256 prompts x 4 samples of WMT22 en-de, as benchmarks/bench_reward.py), plain text and
conversational (lists of message dicts).

Per reward: the best wall time of one call over ``--repeat`` calls (each a new batch), calls per second, the peer's,
the ratio and the largest difference of the rewards.

    python benchmarks/bench_integrations_trl.py [--repeat 10] [--peer-calls 2]
"""
from __future__ import annotations

import argparse
import itertools
import logging

import sacrebleu

from _timing import best_time
from bench_reward import batch, load_batches  # the sibling script (benchmarks/ is on sys.path)
from refscore.integrations.trl import reward

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def peer_chrf(prompts=None, completions=None, completion_ids=None, solution=None, **_):
    return [sacrebleu.sentence_chrf(c, [s]).score / 100 for c, s in zip(completions, solution)]


def peer_bleu(prompts=None, completions=None, completion_ids=None, solution=None, **_):
    return [sacrebleu.sentence_bleu(c, [s]).score / 100 for c, s in zip(completions, solution)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--peer-calls", type=int, default=2)
    args = parser.parse_args()
    references, samples = load_batches()
    print(f"{'reward':28} {'refscore ms':>11} {'calls/s':>8} {'peer ms':>9} {'calls/s':>8} {'ratio':>7} "
          f"{'max diff':>9}")
    for name, chat, peer in (("chrf", False, peer_chrf), ("chrf", True, peer_chrf), ("bleu", False, peer_bleu)):
        function = reward(name, reference_column="solution")
        calls = itertools.count()

        def one(f, wrap):
            completions, solutions = batch(references, samples, next(calls))
            shown = [[{"role": "assistant", "content": c}] for c in completions] if wrap else completions
            return f(prompts=["p"] * len(completions), completions=shown, completion_ids=None,
                     solution=solutions), completions, solutions

        own_wall, _, (own, completions, solutions) = best_time(lambda: one(function, chat), args.repeat)
        peer_wall, _, _ = best_time(lambda: one(peer, False), args.peer_calls)
        expected = peer(completions=completions, solution=solutions)
        diff = max(abs(a - b) for a, b in zip(own, expected))
        label = f"{function.__name__}{' (chat)' if chat else ''}"
        print(f"{label:28} {1e3 * own_wall:11.2f} {1 / own_wall:8.1f} {1e3 * peer_wall:9.1f} {1 / peer_wall:8.2f} "
              f"{peer_wall / own_wall:6.1f}x {diff:9.2e}")


if __name__ == "__main__":
    main()
