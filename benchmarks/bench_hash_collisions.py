"""Crafted hash collisions: chrF++, TER and ROUGE on words built to collide under the unkeyed hash, timed with the
hash key fixed to 0 (what an attacker can precompute) and with the default random per-process key.

Words are drawn at random and kept when their digest, placed by ``mix64`` under ``REFSCORE_HASH_KEY=0``, starts
probing in the same ``--low-bits`` low bits (the kernels' word tables: chrF++'s word n-grams, TER's vocabulary,
ROUGE's terms). One segment holds them all (hypothesis: the words; reference: the same words reversed); a control
segment holds as many random words of the same length. Each case runs in a fresh process (the key is read when a
module is loaded); every row says whether the scores under both keys agree. No peer: the comparison is refscore
with and without the key (docs/reliability.md, "Hash collisions").

    python benchmarks/bench_hash_collisions.py                 # 1,000 words sharing 16 low bits
    python benchmarks/bench_hash_collisions.py --words 300 --low-bits 12   # quick
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CRAFT = """
import json, sys
import numpy as np
from refscore._core import _hashing
assert _hashing.key_is_fixed()
n, low_bits, length = int(sys.argv[1]), int(sys.argv[2]), 7
rng = np.random.default_rng(11)
found, control = [], []
while len(found) < n:
    # the unkeyed digest (FNV-1a over the code points, then the length), vectorised over a batch of words
    letters = rng.integers(ord("a"), ord("z") + 1, size=(1 << 21, length), dtype=np.uint64)
    digests = np.full(len(letters), 0xCBF29CE484222325, dtype=np.uint64)
    for column in letters.T:
        digests = (digests ^ column) * np.uint64(0x100000001B3)
    digests ^= np.uint64(length)
    homes = _hashing.hashes(digests, "mix64") & np.uint64((1 << low_bits) - 1)
    words = ["".join(map(chr, row)) for row in letters[homes == 0]]
    assert list(_hashing.word_digests(words)) == list(digests[homes == 0])
    found += words
    control += ["".join(map(chr, row)) for row in letters[:n]]
print(json.dumps({"crafted": list(dict.fromkeys(found))[:n], "control": control[:n]}))
"""

SCORE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from _timing import best_time
import refscore
words, repeat = json.loads(sys.stdin.read()), int(sys.argv[2])
hyp, ref = [" ".join(words)], [" ".join(reversed(words))]
out = {}
for name, run in (("chrF++", lambda: refscore.chrf(hyp, ref, word_order=2, num_threads=1).score),
                  ("TER", lambda: refscore.ter(hyp, ref, num_threads=1).score),
                  ("ROUGE-1", lambda: refscore.rouge(hyp, ref, types=["rouge1"]).score)):
    _, cpu, score = best_time(run, repeat)
    out[name] = [cpu, score]
print(json.dumps(out))
"""


def run(code: str, key: str | None, args: list[str], stdin: str | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "REFSCORE_HASH_KEY"}
    if key is not None:
        env["REFSCORE_HASH_KEY"] = key
    done = subprocess.run([sys.executable, "-c", code, *args], input=stdin, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=1000, help="words per segment (default 1000)")
    parser.add_argument("--low-bits", type=int, default=16, help="low bits the crafted homes share (default 16: one home in tables up to 65,536 slots)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many calls (default 3)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    words = run(CRAFT, "0", [str(args.words), str(args.low_bits)])
    print(f"{args.words} words per segment, crafted homes sharing {args.low_bits} low bits under key 0; CPU s")
    print(f"{'input':<8} {'metric':<8} {'key 0':>9} {'random key':>11} {'ratio':>7}  scores agree")
    for label in ("crafted", "control"):
        payload = json.dumps(words[label])
        fixed = run(SCORE, "0", [here, str(args.repeat)], payload)
        keyed = run(SCORE, None, [here, str(args.repeat)], payload)
        for metric, (cpu_fixed, score_fixed) in fixed.items():
            cpu_keyed, score_keyed = keyed[metric]
            print(f"{label:<8} {metric:<8} {cpu_fixed:9.4f} {cpu_keyed:11.4f} {cpu_fixed / cpu_keyed:7.1f}  "
                  f"{score_fixed == score_keyed}")


if __name__ == "__main__":
    main()
