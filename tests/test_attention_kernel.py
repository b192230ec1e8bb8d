"""The packed self-attention kernel (refscore._core._attention) against torch's attention in float64.

Both of the kernel's paths are checked where this CPU has them (AVX2+FMA and the portable one), on sequence lengths
around the vector widths, head sizes that are and are not multiples of 8, peaked attention (scores hundreds apart)
and random batches. The bound is torch's own float32 error against float64 (twice it, or 2e-6 of the largest
value when that is larger): in float32 a score of size 1000 is only known to 1e-4, whoever computes it.
"""
from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore._core import _attention
from refscore._core._attention import packed_attention_into, vectorised

torch = pytest.importorskip("torch")

PATHS = [pytest.param(True, id="portable"),
         pytest.param(False, id="vector", marks=pytest.mark.skipif(not vectorised(32), reason="no AVX2+FMA"))]


def torch_attention(qkv: np.ndarray, lengths: list[int], heads: int, head_size: int, scale: float,
                    dtype: torch.dtype) -> np.ndarray:
    """torch's scaled_dot_product_attention of each sequence, in ``dtype``."""
    products = torch.from_numpy(qkv).to(dtype)
    context = torch.empty(qkv.shape[0], heads * head_size, dtype=dtype)
    first = 0
    for length in lengths:
        q, k, v = (m[first:first + length].view(1, length, heads, head_size).transpose(1, 2)
                   for m in products.chunk(3, dim=1))
        output = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)
        context[first:first + length] = output.transpose(1, 2).reshape(length, heads * head_size)
        first += length
    return context.numpy()


def assert_close_to_torch(qkv: np.ndarray, lengths: list[int], heads: int, head_size: int, scale: float,
                          portable: bool) -> None:
    expected = torch_attention(qkv, lengths, heads, head_size, scale, torch.float64)
    torch_error = np.abs(torch_attention(qkv, lengths, heads, head_size, scale, torch.float32) - expected).max()
    got = run_kernel(qkv, lengths, heads, head_size, scale, portable)
    assert np.isfinite(got).all()
    error = np.abs(got - expected).max()
    assert error <= max(2 * torch_error, 2e-6 * max(np.abs(expected).max(), 1.0)), (error, torch_error)


def run_kernel(qkv: np.ndarray, lengths: list[int], heads: int, head_size: int, scale: float,
               portable: bool) -> np.ndarray:
    context = np.full((qkv.shape[0], heads * head_size), np.nan, dtype=np.float32)
    packed_attention_into(qkv, context, np.array(lengths, dtype=np.int64), heads, head_size, scale, portable)
    return context


def random_products(lengths: list[int], heads: int, head_size: int, spread: float, seed: int) -> np.ndarray:
    generator = np.random.default_rng(seed)
    return (generator.standard_normal((sum(lengths), 3 * heads * head_size)) * spread).astype(np.float32)


@pytest.mark.parametrize("portable", PATHS)
@pytest.mark.parametrize("head_size", [8, 12, 32, 40, 64])
def test_matches_torch_attention_in_float64(portable, head_size):
    lengths = [1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 130]
    heads = 3
    qkv = random_products(lengths, heads, head_size, 1.5, seed=head_size)
    assert_close_to_torch(qkv, lengths, heads, head_size, head_size ** -0.5, portable)


@pytest.mark.parametrize("portable", PATHS)
def test_peaked_attention_is_finite_and_exact(portable):
    """Scores hundreds apart: the exponentials of all but the top key underflow; nothing becomes NaN or inf."""
    lengths = [5, 19, 40]
    qkv = random_products(lengths, 2, 16, 12.0, seed=1)
    assert_close_to_torch(qkv, lengths, 2, 16, 1.0, portable)


@settings(max_examples=40, deadline=None)
@given(lengths=st.lists(st.integers(1, 70), min_size=1, max_size=6), heads=st.integers(1, 4),
       head_size=st.sampled_from([8, 16, 24, 32, 20]), seed=st.integers(0, 2**16))
def test_random_batches_match_torch(lengths, heads, head_size, seed):
    qkv = random_products(lengths, heads, head_size, 1.0, seed)
    for portable in (True, False):
        assert_close_to_torch(qkv, lengths, heads, head_size, head_size ** -0.5, portable)


@pytest.mark.parametrize("portable", PATHS)
def test_nan_in_a_query_gives_nan_for_that_token_and_head_only(portable):
    lengths = [6, 9]
    qkv = random_products(lengths, 2, 8, 1.0, seed=3)
    qkv[7, 8 + 3] = np.nan  # token 7 (the second sequence's second), head 1, query component 3
    got = run_kernel(qkv, lengths, 2, 8, 8 ** -0.5, portable)
    assert np.isnan(got[7, 8:]).all()
    got[7, 8:] = 0.0
    assert np.isfinite(got).all()


def test_leaves_the_callers_floating_point_mode_alone():
    """The kernel flushes tiny values to zero while it runs; afterwards they are computed as before."""
    qkv = random_products([20], 1, 32, 30.0, seed=2)
    run_kernel(qkv, [20], 1, 32, 1.0, portable=False)
    tiny = np.array([1e-38], dtype=np.float32)
    assert (tiny / np.float32(8))[0] > 0


def test_bad_arrays_are_value_errors():
    qkv = np.zeros((5, 12), dtype=np.float32)
    context = np.zeros((5, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="qkv must have 3 \\* 4 columns and context 4, got 12 and 3"):
        packed_attention_into(qkv, np.zeros((5, 3), dtype=np.float32), np.array([5]), 2, 2, 1.0)
    with pytest.raises(ValueError, match="the lengths add up to 4 tokens, but qkv has 5 rows"):
        packed_attention_into(qkv, context, np.array([1, 3]), 2, 2, 1.0)
    with pytest.raises(ValueError, match="lengths\\[1\\] is 0"):
        packed_attention_into(qkv, context, np.array([5, 0]), 2, 2, 1.0)
    with pytest.raises(ValueError, match="heads and head_size must be at least 1"):
        packed_attention_into(qkv, context, np.array([5]), 0, 2, 1.0)
    with pytest.raises(ValueError):  # not C-contiguous
        packed_attention_into(np.zeros((12, 5), dtype=np.float32).T, context, np.array([5]), 2, 2, 1.0)
    packed_attention_into(qkv[:0], context[:0], np.zeros(0, dtype=np.int64), 2, 2, 1.0)  # nothing to do


def test_docstring_example_runs():
    failures, attempted = doctest.testmod(_attention)
    assert failures == 0 and attempted > 0
