"""sacreBLEU adds the logs of its precisions with Python's ``sum()``, and CPython 3.12 made ``sum()`` of floats
compensated (Neumaier's algorithm, gh-100425): sacreBLEU 2.6's BLEU then differs in the last bit for about one
sentence in five between Python 3.11 and 3.12 (found when the parity benchmark ran on a machine with Python 3.12).
refscore's compiled BLEU adds the logs as the running interpreter's ``sum()`` does; both ways are checked here
against oracles written from CPython's ``builtin_sum_impl``, and the oracle of this interpreter against ``sum()``.
"""
from __future__ import annotations

import math
import random
import sys

import numpy as np
import pytest

from refscore._core._bleu import PYTHON_SUM_COMPENSATED, bleu_score_one, bleu_scores
from refscore.metrics.bleu.formula import bleu_from_counts, sum_like_python

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python


def plain_sum(values: list[float]) -> float:
    """``sum()`` of floats before CPython 3.12: left to right."""
    total = 0.0
    for value in values:
        total = total + value
    return total


def neumaier_sum(values: list[float]) -> float:
    """``sum()`` of floats from CPython 3.12 on (Objects/bltinmodule.c): Neumaier's compensated sum."""
    total, compensation = 0.0, 0.0
    for value in values:
        step = total + value
        if abs(total) >= abs(value):
            compensation += (total - step) + value
        else:
            compensation += (value - step) + total
        total = step
    return total + compensation if compensation and math.isfinite(compensation) else total


def rows(count: int, seed: int = 7) -> list[tuple[list[int], list[int], int, int]]:
    """Rows with every precision above zero (no smoothing): matches <= totals, lengths like sentences'."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        sys_len = rng.randint(4, 60)
        totals = [max(1, sys_len - n) for n in range(4)]
        correct = [rng.randint(1, total) for total in totals]
        out.append((correct, totals, sys_len, rng.randint(4, 60)))
    return out


def oracle(row, add) -> float:
    correct, totals, sys_len, ref_len = row
    bp = 1.0 if sys_len >= ref_len else math.exp(1 - ref_len / sys_len)
    return bp * math.exp(add([math.log(100. * c / t) for c, t in zip(correct, totals)]) / 4)


def test_this_interpreter_sums_as_its_oracle_says():
    assert PYTHON_SUM_COMPENSATED == (sys.version_info >= (3, 12))
    add = neumaier_sum if PYTHON_SUM_COMPENSATED else plain_sum
    for correct, totals, _, _ in rows(500):
        logs = [math.log(100. * c / t) for c, t in zip(correct, totals)]
        assert sum(logs) == add(logs)


def test_both_ways_of_summing_equal_their_oracle_row_by_row_and_in_batches():
    sample = rows(2000)
    differ = 0
    for python_sum, add in ((False, plain_sum), (True, neumaier_sum)):
        expected = [oracle(row, add) for row in sample]
        single = [bleu_score_one([float(c) for c in row[0]], [float(t) for t in row[1]], row[2], row[3], "exp",
                                 0.0, False, python_sum=python_sum)[0] for row in sample]
        assert single == expected
        batch, _, _ = bleu_scores(np.array([row[0] for row in sample], dtype=np.int64),
                                  np.array([row[1] for row in sample], dtype=np.int64),
                                  np.array([row[2] for row in sample], dtype=np.int64),
                                  np.array([row[3] for row in sample], dtype=np.int64), "exp", 0.0, False,
                                  python_sum=python_sum)  # 2000 rows: the remembered-logs path
        assert batch.tolist() == expected
    differ = sum(oracle(row, plain_sum) != oracle(row, neumaier_sum) for row in sample)
    assert differ > 0   # the two Pythons really disagree on these rows, so each check above can fail


def test_default_follows_this_interpreter():
    row = rows(50)
    for correct, totals, sys_len, ref_len in row:
        args = ([float(c) for c in correct], [float(t) for t in totals], sys_len, ref_len, "exp", 0.0, False)
        assert bleu_score_one(*args)[0] == bleu_score_one(*args, python_sum=PYTHON_SUM_COMPENSATED)[0]



def test_vectorised_sum_adds_both_ways_and_by_default_as_this_interpreter():
    rng = np.random.default_rng(5)
    terms = rng.normal(0, 1, (3000, 4)) * 10.0 ** rng.integers(-3, 12, (3000, 4))   # magnitudes that lose bits
    counts = rng.integers(0, 5, 3000)
    for compensated, add in ((False, plain_sum), (True, neumaier_sum)):
        got = sum_like_python(terms, counts, compensated)
        assert got.tolist() == [add(row[:k].tolist()) for row, k in zip(terms, counts)], compensated
    assert sum_like_python(terms, counts).tolist() == [sum(row[:k].tolist()) for row, k in zip(terms, counts)]
    assert (sum_like_python(terms, counts, False) != sum_like_python(terms, counts, True)).any()


def test_float32_formula_follows_python_sum():
    sample = rows(2000, seed=11)
    arrays = [np.array([row[i] for row in sample], dtype=np.int64) for i in range(4)]
    scores = {python_sum: bleu_from_counts(*arrays, dtype=np.float32, python_sum=python_sum).score
              for python_sum in (False, True, None)}
    assert (scores[False] != scores[True]).any()
    assert scores[None].tolist() == scores[PYTHON_SUM_COMPENSATED].tolist()
