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
>>> count_endswith(["a .", "b", " ."], " ."), count_endswith(["a", 1], "a")
(2, -1)
"""
from cpython.unicode cimport PyUnicode_GET_LENGTH
from libc.stdint cimport int64_t
from refscore._core._strings cimport refscore_string_ready

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


cdef extern from "Python.h":
    Py_UCS4 PyUnicode_READ_CHAR(object text, Py_ssize_t index)


def count_endswith(list texts, str suffix):
    """``sum(text.endswith(suffix) for text in texts)`` for a list of ``str`` at C speed (sacreBLEU's check for
    tokenized text reads every hypothesis' last characters on every corpus score), or -1 when an item is not a
    ``str`` (the caller counts those in Python)."""
    refscore_string_ready(suffix)
    cdef Py_ssize_t count = 0, k, length, width = PyUnicode_GET_LENGTH(suffix)
    for text in texts:
        if type(text) is not str:
            return -1
        refscore_string_ready(text)
        length = PyUnicode_GET_LENGTH(text)
        if length < width:
            continue
        for k in range(1, width + 1):
            if PyUnicode_READ_CHAR(text, length - k) != PyUnicode_READ_CHAR(suffix, width - k):
                break
        else:
            count += 1
    return count
