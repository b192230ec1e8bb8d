# cython: language_level=3
"""Float32 loops of refscore's packed BERT forward (:mod:`refscore._bertscore.packed`) that torch would run as
several passes over a batch's activations."""
cimport cython
from libc.stdint cimport int64_t


def first_layer_products(const float[:, ::1] id_rows, const float[:, ::1] position_rows,
                         const int64_t[::1] slots, const int64_t[::1] positions, const float[::1] rstd,
                         const float[::1] constant, float[:, ::1] out) -> None:
    """``out[t] = (id_rows[slots[t]] + position_rows[positions[t]]) * rstd[t] + constant`` for every token ``t``
    with ``slots[t] >= 0``, in one pass (rows with a negative slot are left as they are); see
    :mod:`refscore._bertscore.first_layer`.

    >>> import numpy as np
    >>> out = np.zeros((2, 2), np.float32)
    >>> first_layer_products(np.ones((1, 2), np.float32), np.full((3, 2), 2, np.float32), np.array([0, -1]),
    ...                      np.array([2, 0]), np.array([0.5, 1], np.float32), np.zeros(2, np.float32), out)
    >>> out.tolist()
    [[1.5, 1.5], [0.0, 0.0]]
    """
    cdef Py_ssize_t tokens = out.shape[0], width = out.shape[1], t, j
    cdef Py_ssize_t id_count = id_rows.shape[0], position_count = position_rows.shape[0]
    cdef int64_t slot, position
    cdef float scale
    if id_rows.shape[1] != width or position_rows.shape[1] != width or constant.shape[0] != width:
        raise ValueError(f"first_layer_products: rows of width {id_rows.shape[1]} (ids), "
                         f"{position_rows.shape[1]} (positions) and {constant.shape[0]} (constant) "
                         f"for an output of width {width}")
    if slots.shape[0] != tokens or positions.shape[0] != tokens or rstd.shape[0] != tokens:
        raise ValueError(f"first_layer_products: {slots.shape[0]} slots, {positions.shape[0]} positions and "
                         f"{rstd.shape[0]} scales for {tokens} tokens")
    for t in range(tokens):
        if slots[t] >= id_count or not 0 <= positions[t] < position_count:
            raise ValueError(f"first_layer_products: token {t} has slot {slots[t]} (of {id_count}) and "
                             f"position {positions[t]} (of {position_count})")
    with nogil:
        for t in range(tokens):
            slot = slots[t]
            if slot < 0:
                continue
            position = positions[t]
            scale = rstd[t]
            for j in range(width):
                out[t, j] = (id_rows[slot, j] + position_rows[position, j]) * scale + constant[j]

