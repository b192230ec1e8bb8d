# cython: language_level=3
# distutils: language = c++
"""Softmax self-attention over packed sequences (BERTScore's padding-free CPU forward), without the GIL.

The math is in ``_attention_kernel.hpp``; this module checks the arrays and runs it. Callers run it from several
threads at once (one batch each), so it uses the calling thread only.
"""
from libc.stdint cimport int64_t


cdef extern from "_attention_kernel.hpp" namespace "refscore_attention" nogil:
    cdef cppclass Workspace:
        Workspace() except +
    cdef cppclass Layout:
        const float* qkv
        float* context
        int64_t width
        int64_t heads
        int64_t head_size
        float scale
    bint vector_path_available(int64_t head_size)
    int64_t packed_attention(const Layout& layout, const int64_t* lengths, int64_t n_sequences, bint portable,
                             Workspace& ws) except +


def packed_attention_into(const float[:, ::1] qkv, float[:, ::1] context, const int64_t[::1] lengths,
                          int heads, int head_size, float scale, bint portable=False) -> None:
    """Write ``softmax(scale · Q Kᵀ) V`` of each sequence and head into ``context``.

    ``qkv`` is ``(n_tokens, 3 · heads · head_size)``: each token's queries, keys and values, head after head;
    the sequences are ``lengths`` consecutive rows each. ``context`` is ``(n_tokens, heads · head_size)``.
    The AVX2+FMA path runs where :func:`vectorised` says so, unless ``portable`` (the plain C++ path, for tests).

    >>> import numpy as np
    >>> qkv = np.zeros((3, 6), dtype=np.float32); qkv[:, 4:] = [[1, 2], [3, 4], [5, 6]]
    >>> context = np.empty((3, 2), dtype=np.float32)
    >>> packed_attention_into(qkv, context, np.array([2, 1]), 1, 2, 1.0)
    >>> context.tolist()  # equal scores: the mean of each sequence's values
    [[2.0, 3.0], [2.0, 3.0], [5.0, 6.0]]
    """
    if heads < 1 or head_size < 1:
        raise ValueError(f"heads and head_size must be at least 1, got {heads} and {head_size}")
    cdef int64_t width = <int64_t>heads * head_size
    if qkv.shape[1] != 3 * width or context.shape[1] != width:
        raise ValueError(f"qkv must have 3 * {width} columns and context {width}, got {qkv.shape[1]} and "
                         f"{context.shape[1]}")
    cdef int64_t total = 0
    cdef Py_ssize_t s
    for s in range(lengths.shape[0]):
        if lengths[s] < 1:
            raise ValueError(f"lengths[{s}] is {lengths[s]}; every sequence needs at least one token")
        total += lengths[s]
    if total != qkv.shape[0] or total != context.shape[0]:
        raise ValueError(f"the lengths add up to {total} tokens, but qkv has {qkv.shape[0]} rows and context "
                         f"{context.shape[0]}")
    if total == 0:
        return
    cdef Layout layout
    layout.qkv = &qkv[0, 0]
    layout.context = &context[0, 0]
    layout.width = width
    layout.heads = heads
    layout.head_size = head_size
    layout.scale = scale
    cdef Workspace workspace
    with nogil:
        packed_attention(layout, &lengths[0], lengths.shape[0], portable, workspace)


def vectorised(int head_size) -> bool:
    """Whether this CPU runs the kernel's AVX2+FMA path for heads of ``head_size`` (else the portable one)."""
    return vector_path_available(head_size)
