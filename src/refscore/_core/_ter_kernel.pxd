# Cython declarations of the TER kernel (_ter_kernel.hpp), cimported by _ter.pyx.
from libc.stdint cimport int64_t
from refscore._core._strings cimport TextBatch, TextPreparation

cdef extern from "_ter_kernel.hpp" namespace "refscore::ter" nogil:
    cdef cppclass Workspace:
        Workspace() except +
    int text_segment(Workspace* ws, const TextBatch& texts, TextPreparation preparation, int64_t hyp_index,
                     int64_t ref_begin, int64_t ref_end, int flags, int64_t* ref_edits,
                     int64_t* ref_lengths) noexcept
    int ids_segment(Workspace* ws, const int64_t* ids, const int64_t* offsets, int64_t hyp_index,
                    int64_t ref_begin, int64_t ref_end, int64_t* ref_edits, int64_t* ref_lengths) noexcept
    int kNormalized
    int kNoPunct
    int kAsianSupport
