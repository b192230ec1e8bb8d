# cython: language_level=3
"""Pairwise n-gram matches of many candidates against many references, bound from ``_pairwise_kernel.hpp``
(the algorithm, and why it is exact).

The caller cuts every distinct text of a call into units once (code points, word ids) with the metric's own
preprocessing; one ``nogil`` call then counts each item's texts once and fills every item's matrix of clipped
matches, in parallel over items and over candidates' rows. Results do not depend on the thread count.
"""
import numpy as np

from libc.stdint cimport int32_t, int64_t, uint32_t
from libcpp.vector cimport vector
from refscore._core._pairwise_kernel cimport Items, Stream, pairwise_matches as kernel_matches

from refscore._core._parallel import resolve_num_threads

#: The largest number of units an item's texts may hold in one stream (dense n-gram ids are uint32).
MAX_ITEM_UNITS = (1 << 31) - 1


def _check_offsets(offsets, Py_ssize_t n_texts, str name):
    if offsets.ndim != 1 or offsets.shape[0] != n_texts + 1 or offsets[0] != 0 or np.any(np.diff(offsets) < 0):
        raise ValueError(f"pairwise_matches: {name} must rise from 0 with {n_texts + 1} entries")


def pairwise_matches(list streams not None, Py_ssize_t n_texts, cand_texts, cand_offsets, ref_texts, ref_offsets,
                     bint symmetric, num_threads=None):
    """Clipped n-gram matches of every candidate against every reference, per item and order.

    ``streams``: ``(units uint32, offsets int64, max_order)`` per stream; text ``t`` of the call is
    ``units[offsets[t]:offsets[t + 1]]``. Item ``k``'s candidates are the call's texts
    ``cand_texts[cand_offsets[k]:cand_offsets[k + 1]]``, its references likewise (``symmetric``: the candidates,
    and ``ref_texts``/``ref_offsets`` are ignored). Returns ``(flat int32, out_offsets int64)``: item ``k``'s block
    ``flat[out_offsets[k]:out_offsets[k + 1]]`` has shape ``(candidates, references, orders)``, orders being
    ``1..max_order`` of each stream in turn.

    >>> units = np.array([97, 98, 97, 98, 99], dtype=np.uint32)      # "ab", "abc"
    >>> flat, _ = pairwise_matches([(units, np.array([0, 2, 5]), 2)], 2, np.array([0, 1]), np.array([0, 2]),
    ...                            None, None, True)
    >>> flat.reshape(2, 2, 2).tolist()
    [[[2, 1], [2, 1]], [[2, 1], [3, 2]]]
    """
    cdef vector[Stream] kernel_streams
    cdef Stream stream
    cdef const uint32_t[::1] units_view
    cdef const int64_t[::1] offsets_view
    keep = []
    for index, (units, offsets, max_order) in enumerate(streams):
        units = np.ascontiguousarray(units, dtype=np.uint32)
        offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        _check_offsets(offsets, n_texts, f"streams[{index}] offsets")
        if offsets[n_texts] != units.shape[0] or max_order < 1:
            raise ValueError(f"pairwise_matches: streams[{index}] needs offsets ending at len(units) and "
                             f"max_order >= 1")
        if units.shape[0] == 0:
            units = np.zeros(1, dtype=np.uint32)   # a valid pointer; no text reads it
        keep.append((units, offsets))
        units_view = units
        offsets_view = offsets
        stream.units = &units_view[0]
        stream.offsets = &offsets_view[0]
        stream.max_order = max_order
        kernel_streams.push_back(stream)
    if kernel_streams.size() == 0:
        raise ValueError("pairwise_matches: give at least one stream")
    cdef int n_orders = sum(int(s[2]) for s in streams)
    cand_texts = np.ascontiguousarray(cand_texts, dtype=np.int64)
    cand_offsets = np.ascontiguousarray(cand_offsets, dtype=np.int64)
    cdef Py_ssize_t n_items = cand_offsets.shape[0] - 1
    _check_offsets(cand_offsets, n_items, "cand_offsets")
    if cand_offsets[n_items] != cand_texts.shape[0]:
        raise ValueError("pairwise_matches: cand_offsets must end at len(cand_texts)")
    if symmetric:
        ref_texts, ref_offsets = cand_texts, cand_offsets
    else:
        ref_texts = np.ascontiguousarray(ref_texts, dtype=np.int64)
        ref_offsets = np.ascontiguousarray(ref_offsets, dtype=np.int64)
        _check_offsets(ref_offsets, n_items, "ref_offsets")
        if ref_offsets[n_items] != ref_texts.shape[0]:
            raise ValueError("pairwise_matches: ref_offsets must end at len(ref_texts)")
    for texts in (cand_texts, ref_texts):
        if texts.shape[0] and (texts.min() < 0 or texts.max() >= n_texts):
            raise ValueError(f"pairwise_matches: text indices must lie in [0, {n_texts})")
    sizes = np.diff(cand_offsets) * np.diff(ref_offsets) * n_orders
    out_offsets = np.zeros(n_items + 1, dtype=np.int64)
    np.cumsum(sizes, out=out_offsets[1:])
    flat = np.zeros(int(out_offsets[n_items]), dtype=np.int32)
    if n_items == 0 or flat.shape[0] == 0:
        return flat, out_offsets
    cdef const int64_t[::1] cand_view = cand_texts if cand_texts.shape[0] else np.zeros(1, np.int64)
    cdef const int64_t[::1] cand_offsets_view = cand_offsets
    cdef const int64_t[::1] ref_view = ref_texts if ref_texts.shape[0] else np.zeros(1, np.int64)
    cdef const int64_t[::1] ref_offsets_view = ref_offsets
    cdef const int64_t[::1] out_offsets_view = out_offsets
    cdef int32_t[::1] out_view = flat
    cdef Items items
    items.cand_texts = &cand_view[0]
    items.cand_offsets = &cand_offsets_view[0]
    items.ref_texts = &ref_view[0]
    items.ref_offsets = &ref_offsets_view[0]
    items.out_offsets = &out_offsets_view[0]
    items.n_items = n_items
    items.symmetric = symmetric
    cdef int threads = resolve_num_threads(num_threads)
    cdef int64_t failures
    with nogil:
        failures = kernel_matches(kernel_streams.data(), <int>kernel_streams.size(), items, threads, &out_view[0])
    if failures:
        raise MemoryError(f"pairwise_matches: out of memory for {failures} item(s)")
    return flat, out_offsets
