# cython: language_level=3
# distutils: language = c++
"""Edit-distance kernels: Levenshtein and Indel distances of pairs and of all pairs of two lists (bit-parallel,
``_edit_distance_kernel.hpp``), and torchmetrics' extended edit distance (EED), one nogil ``prange`` each.

Pairs of strings (:func:`text_pair_distances`) are read from the strings' own buffers and numbered pair by pair
inside the parallel loop. Otherwise texts arrive as one uint32 array of symbols (code points or word ids) with int64
offsets (text ``t`` is ``symbols[offsets[t]:offsets[t + 1]]``); :func:`dense_symbols` numbers the symbols densely
first, so the pattern tables are indexed directly. Both distances come from the core's one bit-parallel kernel
(``_bitparallel.hpp``), shared with the WER family. Results do not depend on the number of threads: every pair is
computed on its own.
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t
from libcpp.vector cimport vector
from refscore._core._strings cimport StringBuffers, TextBatch, point_at_strings
from refscore._core._edit_distance_kernel cimport (EedWorkspace, Workspace, checked_pair_distance, eed_score,
                                                   kCharacters, kIndel, kLevenshtein, kWords, matrix_row,
                                                   text_pair_distance)
from refscore._core._interrupt cimport begin as begin_interruptible, raise_if_interrupted

import numpy as np

from refscore._core._parallel import resolve_num_threads

LEVENSHTEIN = kLevenshtein
INDEL = kIndel
CHARACTERS = kCharacters
WORDS = kWords


def dense_symbols(uint32_t[::1] symbols not None):
    """Renumber ``symbols`` in place as 0, 1, 2, ... in order of first appearance; returns the alphabet's size.

    >>> values = np.array([104, 105, 104, 33], dtype=np.uint32)
    >>> dense_symbols(values), values.tolist()
    (3, [0, 1, 0, 2])
    """
    cdef Py_ssize_t n = symbols.shape[0], i
    if n == 0:
        return 0
    cdef uint32_t top = 0
    for i in range(n):
        if symbols[i] > top:
            top = symbols[i]
    cdef vector[uint32_t] table = vector[uint32_t](<size_t>top + 1, <uint32_t>0xFFFFFFFFu)
    cdef uint32_t alphabet = 0
    cdef uint32_t unset = 0xFFFFFFFF
    with nogil:
        for i in range(n):
            if table[symbols[i]] == unset:
                table[symbols[i]] = alphabet
                alphabet += 1
            symbols[i] = table[symbols[i]]
    return alphabet


def char_symbols(list texts not None):
    """``(symbols, offsets, alphabet)`` of ``texts`` as code points numbered densely in order of first appearance,
    read from the strings' own buffers in one pass (no UTF-32 copy of the joined text).

    >>> symbols, offsets, alphabet = char_symbols(["abca", "", "c😀"])
    >>> symbols.tolist(), offsets.tolist(), alphabet
    ([0, 1, 2, 0, 2, 3], [0, 4, 4, 6], 4)
    """
    cdef StringBuffers buffers
    cdef Py_ssize_t index = point_at_strings(texts, buffers)
    if index >= 0:
        raise TypeError(f"char_symbols: texts[{index}] is {type(texts[index]).__name__}, expected str")
    cdef Py_ssize_t n_texts = len(texts), t, i
    offsets_array = np.zeros(n_texts + 1, dtype=np.int64)
    cdef int64_t[::1] offsets = offsets_array
    for t in range(n_texts):
        offsets[t + 1] = offsets[t] + buffers.lengths[t]
    symbols_array = np.empty(offsets[n_texts], dtype=np.uint32)
    if offsets[n_texts] == 0:
        return symbols_array, offsets_array, 0
    cdef uint32_t[::1] symbols = symbols_array
    cdef vector[uint32_t] table = vector[uint32_t](0x110000, <uint32_t>0xFFFFFFFFu)
    cdef uint32_t unset = 0xFFFFFFFF, alphabet = 0, point
    cdef int kind
    cdef const void* data
    cdef int64_t at
    with nogil:
        for t in range(n_texts):
            kind = buffers.kinds[t]
            data = buffers.data[t]
            at = offsets[t]
            if kind == 1:   # Latin-1 text: every code point below 256
                for i in range(buffers.lengths[t]):
                    point = (<const uint8_t*>data)[i]
                    if table[point] == unset:
                        table[point] = alphabet
                        alphabet += 1
                    symbols[at + i] = table[point]
            elif kind == 2:
                for i in range(buffers.lengths[t]):
                    point = (<const uint16_t*>data)[i]
                    if table[point] == unset:
                        table[point] = alphabet
                        alphabet += 1
                    symbols[at + i] = table[point]
            else:
                for i in range(buffers.lengths[t]):
                    point = (<const uint32_t*>data)[i]
                    if table[point] == unset:
                        table[point] = alphabet
                        alphabet += 1
                    symbols[at + i] = table[point]
    return symbols_array, offsets_array, alphabet


def _check_texts(const uint32_t[::1] symbols, const int64_t[::1] offsets, const int64_t[::1] indices, str name):
    cdef Py_ssize_t n_texts = offsets.shape[0] - 1
    if n_texts < 0 or offsets[n_texts] > symbols.shape[0]:
        raise ValueError("offsets must hold one entry per text plus one and end within symbols")
    if indices.shape[0] and (np.min(indices) < 0 or np.max(indices) >= n_texts):
        raise ValueError(f"{name} must be text indices in [0, {n_texts})")


def pair_distances(const uint32_t[::1] symbols not None, const int64_t[::1] offsets not None,
                   const int64_t[::1] left not None, const int64_t[::1] right not None, int kind,
                   int64_t alphabet, num_threads=None):
    """The distance of ``kind`` (``LEVENSHTEIN`` or ``INDEL``) of text ``left[k]`` against text ``right[k]``.

    >>> symbols = np.array([0, 1, 2, 0, 2], dtype=np.uint32)     # "abc", "ac"
    >>> offsets = np.array([0, 3, 5])
    >>> pair_distances(symbols, offsets, np.array([0]), np.array([1]), LEVENSHTEIN, 3).tolist()
    [1]
    """
    if left.shape[0] != right.shape[0]:
        raise ValueError("left and right must have one entry per pair")
    _check_texts(symbols, offsets, left, "left")
    _check_texts(symbols, offsets, right, "right")
    cdef Py_ssize_t n_pairs = left.shape[0], k
    cdef int threads = resolve_num_threads(num_threads, n_pairs)
    out_array = np.zeros(n_pairs, dtype=np.int64)
    cdef int64_t[::1] out = out_array
    if n_pairs == 0:
        return out_array
    cdef vector[Workspace] workspaces = vector[Workspace](threads)
    cdef uint32_t empty = 0
    cdef const uint32_t* data = &symbols[0] if symbols.shape[0] > 0 else &empty
    with nogil:
        for k in prange(n_pairs, num_threads=threads, schedule="dynamic", chunksize=64):
            out[k] = checked_pair_distance(workspaces[threadid()], kind, alphabet,
                                   data + offsets[left[k]], offsets[left[k] + 1] - offsets[left[k]],
                                   data + offsets[right[k]], offsets[right[k] + 1] - offsets[right[k]])
    if n_pairs and out_array.min() < 0:
        raise MemoryError("edit distance: out of memory for the pattern tables of a pair")
    return out_array


def text_pair_distances(list hypotheses not None, list references not None, const int64_t[::1] owner not None,
                        int kind, int unit, num_threads=None):
    """The distance of ``kind`` of ``references[k]`` against ``hypotheses[owner[k]]`` in ``unit``
    (``CHARACTERS``: code points; ``WORDS``: ``str.split()``), read from the strings' own buffers and numbered
    pair by pair (no corpus-wide vocabulary): ``(distance, hyp_length, ref_length)``, int64 arrays, the lengths
    in ``unit``.

    >>> [a.tolist() for a in text_pair_distances(["kitten", "a b"], ["sitting", "a c b"], np.array([0, 1]),
    ...                                          LEVENSHTEIN, CHARACTERS)]
    [[3, 2], [6, 3], [7, 5]]
    >>> text_pair_distances(["the cat sat"], ["the cat  sat down"], np.array([0]), INDEL, WORDS)[0].tolist()
    [1]
    """
    if owner.shape[0] != len(references):
        raise ValueError("owner must have one entry per reference")
    if unit != kCharacters and unit != kWords:
        raise ValueError(f"unit must be CHARACTERS or WORDS, got {unit}")
    cdef Py_ssize_t n_hyps = len(hypotheses), n_pairs = len(references), k
    if n_pairs and (np.min(owner) < 0 or np.max(owner) >= n_hyps):
        raise ValueError(f"owner must be hypothesis indices in [0, {n_hyps})")
    cdef StringBuffers buffers   # the hypotheses, then the references
    cdef Py_ssize_t index = point_at_strings(hypotheses, buffers)
    if index >= 0:
        raise TypeError(f"text_pair_distances: hypotheses[{index}] is {type(hypotheses[index]).__name__}, expected str")
    index = point_at_strings(references, buffers)
    if index >= 0:
        raise TypeError(f"text_pair_distances: references[{index}] is {type(references[index]).__name__}, "
                        "expected str")
    cdef TextBatch texts = buffers.batch()
    cdef int threads = resolve_num_threads(num_threads, n_pairs)
    if n_pairs < 64 * threads:   # a thread per 64 pairs at least: small batches are not worth waking a team
        threads = max(1, <int>(n_pairs // 64))
    out_array = np.zeros(n_pairs, dtype=np.int64)
    lengths_array = np.zeros((n_pairs, 2), dtype=np.int64)
    cdef int64_t[::1] out = out_array
    cdef int64_t[:, ::1] lengths = lengths_array
    if n_pairs == 0:
        return out_array, lengths_array[:, 0], lengths_array[:, 1]
    cdef vector[Workspace] workspaces = vector[Workspace](threads)
    cdef Py_ssize_t h, r
    with nogil:
        for k in prange(n_pairs, num_threads=threads, schedule="dynamic", chunksize=64):
            h = owner[k]
            r = n_hyps + k
            out[k] = text_pair_distance(workspaces[threadid()], kind, unit, texts.kinds[h], texts.data[h],
                                        texts.lengths[h], texts.kinds[r], texts.data[r], texts.lengths[r],
                                        &lengths[k, 0])
    if out_array.min() < 0:
        raise MemoryError("edit distance: out of memory for the pattern tables of a pair")
    return out_array, lengths_array[:, 0].copy(), lengths_array[:, 1].copy()


def similarity_matrix(const uint32_t[::1] symbols not None, const int64_t[::1] offsets not None,
                      const int64_t[::1] rows not None, const int64_t[::1] cols not None, int kind,
                      int64_t alphabet, num_threads=None, bint symmetric=False):
    """RapidFuzz's normalized similarity of ``kind`` of every text of ``rows`` against every text of ``cols``:
    float64 ``(len(rows), len(cols))``, each row's pattern table built once. ``symmetric`` (``rows`` and
    ``cols`` the same texts): the upper triangle is computed and mirrored (both measures are symmetric, so the
    mirrored values are the same bits), as RapidFuzz's ``cdist`` does for one list against itself.

    >>> symbols = np.array([0, 1, 2, 0, 2], dtype=np.uint32)     # "abc", "ac"
    >>> similarity_matrix(symbols, np.array([0, 3, 5]), np.array([0, 1]), np.array([1]), INDEL, 3).tolist()
    [[0.8], [1.0]]
    """
    _check_texts(symbols, offsets, rows, "rows")
    _check_texts(symbols, offsets, cols, "cols")
    if symmetric and not np.array_equal(rows, cols):
        raise ValueError("symmetric needs rows and cols to be the same texts")
    cdef Py_ssize_t n_rows = rows.shape[0], n_cols = cols.shape[0], r
    cdef int threads = resolve_num_threads(num_threads, n_rows)
    out_array = np.zeros((n_rows, n_cols), dtype=np.float64)
    if n_rows == 0 or n_cols == 0:
        return out_array
    cdef double[:, ::1] out = out_array
    status_array = np.zeros(n_rows, dtype=np.int64)
    cdef int64_t[::1] status = status_array
    cdef vector[Workspace] workspaces = vector[Workspace](threads)
    cdef uint32_t empty = 0
    cdef const uint32_t* data = &symbols[0] if symbols.shape[0] > 0 else &empty
    with nogil:
        for r in prange(n_rows, num_threads=threads, schedule="dynamic"):
            status[r] = matrix_row(workspaces[threadid()], kind, alphabet, data, &offsets[0], rows[r], &cols[0],
                                   r if symmetric else 0, n_cols, &out[r, 0])
    if status_array.min() < 0:
        raise MemoryError("edit distance: out of memory for the pattern table of a candidate")
    if symmetric:
        lower = np.tril_indices(n_rows, -1)
        out_array[lower] = out_array.T[lower]
    return out_array


def eed_pairs(const uint32_t[::1] symbols not None, const int64_t[::1] offsets not None,
              const int64_t[::1] hyps not None, const int64_t[::1] refs not None, double alpha, double rho,
              double deletion, double insertion, num_threads=None):
    """torchmetrics' EED score (float64, before its rounding to float32) of text ``hyps[k]`` against text
    ``refs[k]``, both preprocessed code points.

    >>> symbols = np.array([ord(c) for c in " a b  a c "], dtype=np.uint32)
    >>> round(float(eed_pairs(symbols, np.array([0, 5, 10]), np.array([0]), np.array([1]), 2.0, 0.3, 0.2, 1.0)[0]), 6)
    0.322034
    """
    if hyps.shape[0] != refs.shape[0]:
        raise ValueError("hyps and refs must have one entry per pair")
    _check_texts(symbols, offsets, hyps, "hyps")
    _check_texts(symbols, offsets, refs, "refs")
    cdef Py_ssize_t n_pairs = hyps.shape[0], k
    cdef int threads = resolve_num_threads(num_threads, n_pairs)
    out_array = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] out = out_array
    if n_pairs == 0:
        return out_array
    cdef vector[EedWorkspace] workspaces = vector[EedWorkspace](threads)
    cdef uint32_t empty = 0
    cdef const uint32_t* data = &symbols[0] if symbols.shape[0] > 0 else &empty
    begin_interruptible()   # Ctrl-C stops the quadratic programme within a row (_interrupt.hpp)
    with nogil:
        for k in prange(n_pairs, num_threads=threads, schedule="dynamic"):
            out[k] = eed_score(workspaces[threadid()], data + offsets[hyps[k]], offsets[hyps[k] + 1] - offsets[hyps[k]],
                               data + offsets[refs[k]], offsets[refs[k] + 1] - offsets[refs[k]],
                               alpha, rho, deletion, insertion)
    raise_if_interrupted()   # the scores are incomplete after a signal: never returned
    if np.isnan(out_array).any():
        raise MemoryError("EED: out of memory for the rows of a pair (or 0 / 0 with rho = 0 and an empty reference)")
    return out_array
