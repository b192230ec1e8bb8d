# cython: language_level=3
"""The common case of batch validation, compiled.

Hypotheses given as a list or tuple of ``str``, and references per segment as a ``str`` or a non-empty list or
tuple of ``str``: that layout is checked and flattened here at C speed. Anything else (token ids, other
containers, a wrong item anywhere) gives ``None``, and :func:`refscore._inputs.prepare_batch` validates it in
Python, with its error messages naming the argument and the index.

>>> hyps, refs, ref_offsets = text_batch_layout(["a", "b"], ["x", ["y", "z"]])
>>> hyps, refs, ref_offsets.tolist()
(['a', 'b'], ['x', 'y', 'z'], [0, 1, 3])
>>> text_batch_layout(["a"], [None]) is None
True
"""
from libc.stdint cimport int64_t

import numpy as np


cdef inline bint is_list_or_tuple(object value):
    return type(value) is list or type(value) is tuple


def text_batch_layout(hypotheses, references):
    """``(hypotheses, flattened references, ref_offsets)`` for a well-formed text batch, else ``None``.

    ``references[ref_offsets[i]:ref_offsets[i + 1]]`` (int64 offsets) are the references of segment ``i``.
    """
    if not is_list_or_tuple(hypotheses) or not is_list_or_tuple(references):
        return None
    cdef Py_ssize_t n = len(hypotheses)
    if n == 0 or len(references) != n:
        return None
    for item in hypotheses:
        if not isinstance(item, str):
            return None
    cdef list flat = []
    offsets = np.empty(n + 1, dtype=np.int64)
    cdef int64_t[::1] offset = offsets
    offset[0] = 0
    cdef Py_ssize_t i
    for i in range(n):
        entry = references[i]
        if isinstance(entry, str):
            flat.append(entry)
        elif is_list_or_tuple(entry) and len(entry) > 0:
            for reference in entry:
                if not isinstance(reference, str):
                    return None
                flat.append(reference)
        else:
            return None
        offset[i + 1] = len(flat)
    return list(hypotheses), flat, offsets
