"""Crafted hash collisions: the kernels' hash table is keyed per process (docs/reliability.md, "Hash collisions").

Input is built to collide under the unkeyed functions (``REFSCORE_HASH_KEY=0``, in a subprocess): there every key
starts probing at one slot and inserting n of them passes n(n-1)/2 occupied slots. Under another key the same
input passes about as many slots as random keys do (linear). Scores never depend on the key: every kernel's scores
are equal, bit for bit, under the unkeyed, a fixed and a random key.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import read_segments, shared_data_path

from refscore._core import _hashing

COLLIDING = 256  # keys per crafted set: their table has 512 slots, and the unkeyed hash sends all to slot 0


def run_python(code: str, key: str | None, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("REFSCORE_HASH_KEY", None)
    if key is not None:
        env["REFSCORE_HASH_KEY"] = key
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=300)


CRAFT = """
import json, sys
import numpy as np
from refscore._core import _hashing
assert _hashing.key_is_fixed()
n, slots = int(sys.argv[1]), int(sys.argv[1]) * 2
home = lambda hashes: hashes & np.uint64(slots - 1)
# the n-gram kernels' unigram keys of token-id input, (2**32 - 1) << 32 | token: the tokens are the caller's
tokens = np.arange(1 << 21, dtype=np.uint64)
unigram_keys = (np.uint64(0xFFFFFFFF) << np.uint64(32)) | tokens
ngram = unigram_keys[home(_hashing.hashes(unigram_keys, "multiply_mix64")) == 0][:n]
# words as chrF, TER and ROUGE key them (digest of the characters, placed by mix64)
rng = np.random.default_rng(7)
letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
words = ["".join(w) for w in rng.choice(letters, size=(3 * n * slots, 5))]
digests = _hashing.word_digests(words)
chosen = np.flatnonzero(home(_hashing.hashes(digests, "mix64")) == 0)
colliding_words = list(dict.fromkeys(words[k] for k in chosen))[:n]
print(json.dumps({"ngram": [int(k) for k in ngram], "words": colliding_words,
                  "word_digests": [int(d) for d in _hashing.word_digests(colliding_words)],
                  "ngram_passed": _hashing.probe_length(ngram, "multiply_mix64"),
                  "words_passed": _hashing.probe_length(_hashing.word_digests(colliding_words), "mix64")}))
"""

PROBE = """
import json, sys
import numpy as np
from refscore._core import _hashing
crafted = json.loads(sys.stdin.read())
print(json.dumps({"ngram_passed": _hashing.probe_length(np.array(crafted["ngram"], dtype=np.uint64),
                                                        "multiply_mix64"),
                  "words_passed": _hashing.probe_length(_hashing.word_digests(crafted["words"]), "mix64")}))
"""


@pytest.fixture(scope="module")
def crafted() -> dict:
    done = run_python(CRAFT, "0", str(COLLIDING))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_crafted_keys_collide_without_the_key(crafted):
    n = COLLIDING
    assert len(crafted["ngram"]) == n and len(crafted["words"]) == n
    # every insertion passes all the keys before it: quadratic
    assert crafted["ngram_passed"] == n * (n - 1) // 2
    assert crafted["words_passed"] == n * (n - 1) // 2


def test_a_key_keeps_probing_linear(crafted):
    n = COLLIDING
    ngram = np.array(crafted["ngram"], dtype=np.uint64)
    words = crafted["words"]
    # Linear probing at load factor 1/2 passes ~n/2 slots in all for well-spread keys (Knuth: (1 + 1/(1-a)**2)/2
    # probes per insertion averaged over the fill); 4n leaves room for chance and is ~32x below n(n-1)/2.
    assert not _hashing.key_is_fixed()
    assert _hashing.probe_length(ngram, "multiply_mix64") < 4 * n
    assert _hashing.probe_length(_hashing.word_digests(words), "mix64") < 4 * n
    # the key is the defence, not the digests: under the unkeyed function the words' digests are those crafted
    assert [int(d) for d in _hashing.word_digests(words)] != crafted["word_digests"]
    fixed = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps(crafted), capture_output=True, text=True,
                           env={**os.environ, "REFSCORE_HASH_KEY": "12345"}, timeout=300)
    assert fixed.returncode == 0, fixed.stderr
    passed = json.loads(fixed.stdout)
    assert passed["ngram_passed"] < 4 * n and passed["words_passed"] < 4 * n


def test_probe_length_grows_linearly_with_the_key(crafted):
    # twice the crafted keys: twice the slots passed (a quadratic cost would be four times)
    ngram = np.array(crafted["ngram"], dtype=np.uint64)
    rng = np.random.default_rng(1)
    more = np.concatenate([ngram, rng.integers(0, 2**63, size=3 * len(ngram), dtype=np.uint64)])
    small, large = (_hashing.probe_length(more[:m], "multiply_mix64") for m in (len(more) // 2, len(more)))
    assert large < 4 * len(more) and small < 4 * len(more) // 2


SCORES = """
import json, sys
import refscore
hyps, refs = json.loads(sys.stdin.read())
out = {}
for name in ("bleu", "chrf", "ter", "rouge", "gleu"):
    score = getattr(refscore, name)(hyps, refs)
    out[name] = [repr(score.score), score.statistics.data.tolist(),
                 {k: [repr(v) for v in values] for k, values in score.segments.items()}]
ids = [[int(t) % 1000 for t in h.encode()] for h in hyps]
out["bleu_ids"] = repr(refscore.bleu(ids, [[[int(t) % 1000 for t in r.encode()] for r in rs] for rs in refs]).score)
out["chrf_pairs"] = repr(refscore.chrf(hyps[:5], [rs[0] for rs in refs[:5]], word_order=2).score)
print(json.dumps(out))
"""


def test_scores_do_not_depend_on_the_key(crafted):
    folder = shared_data_path("wmt22", "de-en")
    systems = sorted((folder / "sys").iterdir())
    hyps = read_segments(systems[0])[:60]
    refs = [[r] for r in read_segments(folder / "ref.txt")[:60]]
    words = crafted["words"]
    # the crafted words as text: segments that share and repeat them, and one long segment of all of them
    hyps += [" ".join(words[k:k + 40]) for k in range(0, 200, 20)] + [" ".join(words)]
    refs += [[" ".join(words[k + 10:k + 50]), " ".join(words[k:k + 30])] for k in range(0, 200, 20)]
    refs += [[" ".join(reversed(words))]]
    payload = json.dumps([hyps, refs])
    results = []
    for key in ("0", "12345", None):
        env = {k: v for k, v in os.environ.items() if k != "REFSCORE_HASH_KEY"}
        if key is not None:
            env["REFSCORE_HASH_KEY"] = key
        done = subprocess.run([sys.executable, "-c", SCORES], input=payload, capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        results.append(json.loads(done.stdout))
    assert results[0] == results[1] == results[2]
    assert float(results[0]["bleu"][0]) > 0 and float(results[0]["chrf"][0]) > 0


@pytest.mark.parametrize("value", ["-1", "0x10", "seven", str(2**64), ""])
def test_a_bad_hash_key_is_refused(value):
    done = run_python("import refscore; refscore.bleu(['a'], ['a'])", value)
    assert done.returncode != 0
    assert "REFSCORE_HASH_KEY=" + repr(value) in done.stderr and "decimal integer" in done.stderr


def test_the_key_differs_between_processes():
    code = "from refscore._core import _hashing; print(int(_hashing.hashes([1], 'mix64')[0]))"
    values = {run_python(code, None).stdout for _ in range(2)}
    fixed = {run_python(code, "99").stdout for _ in range(2)}
    assert len(values) == 2 and len(fixed) == 1
