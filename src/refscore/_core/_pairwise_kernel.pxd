# Cython declarations of the pairwise n-gram match kernel (_pairwise_kernel.hpp), cimported by _pairwise.pyx.
from libc.stdint cimport int32_t, int64_t, uint32_t
from libcpp cimport bool as cbool

cdef extern from "_pairwise_kernel.hpp" namespace "refscore::pairwise" nogil:
    cdef cppclass Stream:
        const uint32_t* units
        const int64_t* offsets
        int max_order
    cdef cppclass Items:
        const int64_t* cand_texts
        const int64_t* cand_offsets
        const int64_t* ref_texts
        const int64_t* ref_offsets
        const int64_t* out_offsets
        int64_t n_items
        cbool symmetric
    int64_t pairwise_matches(const Stream* streams, int n_streams, const Items& items, int threads,
                             int32_t* out) noexcept
