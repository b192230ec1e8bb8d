"""Pathological long lines: a kernel's memory follows what the metric must hold (docs/reliability.md).

Each case runs in a fresh process and reports the growth of its peak resident memory over the process after a
warm-up call (the kernels' memory is native, so tracemalloc cannot see it). chrF's tables and counters follow the
distinct n-grams, not the positions: one repeated character costs only its per-position arrays (code points,
order-1 ids, the current order's ids: 12 bytes per character), where a hash table sized for every position (16-byte
slots at load factor <= 1/2) and a counter per position (16 bytes) used to add 50-100 bytes per character.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

MEASURE = """
import json, resource, sys
import refscore
text, chars = sys.argv[1], int(sys.argv[2])
line = {"repeat": "a" * chars, "marks": "e" + "\\u0301" * (chars - 1)}[text]
refscore.chrf(["warm up"], ["warm up"])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hypothesis, reference = line, line[: chars // 2]
score = refscore.chrf([hypothesis], [reference]).score
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"added_bytes": (after - before) * 1024, "score": score}))
"""


def added_bytes_per_character(text: str, chars: int) -> float:
    done = subprocess.run([sys.executable, "-c", MEASURE, text, str(chars)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert 0.0 < result["score"] <= 1.0
    return result["added_bytes"] / (chars + chars // 2)


@pytest.mark.parametrize("text", ["repeat", "marks"])
def test_chrf_memory_follows_distinct_ngrams_on_one_repeated_character(text):
    # 12 bytes per character of per-position arrays, the strings' own buffers (1-2 bytes per character as str,
    # 4 as code points), vectors' doubling slack: 30 bytes per character bounds them; the old sizing took 65+
    per_character = added_bytes_per_character(text, 1_500_000)
    assert per_character < 30, f"{per_character:.1f} bytes per character"
