# Cython declarations of the chrF kernel (_chrf_kernel.hpp), cimported by _chrf.pyx.
from libc.stdint cimport int64_t
from libcpp cimport bool as cbool
from refscore._core._strings cimport TextBatch

cdef extern from "_chrf_kernel.hpp" namespace "refscore::chrf" nogil:
    cdef enum SpaceMode:
        KEEP_SPACE
        REMOVE_PYTHON_SPACE
        REMOVE_REGEX_SPACE
    cdef cppclass Settings:
        int char_order
        int word_order
        double factor
        cbool eps_smoothing
        int space_mode
        cbool lowercase
    double f_score(const int64_t* stats, int order, double factor, cbool eps_smoothing) noexcept
    int64_t batch_statistics(const Settings& settings, const TextBatch& hypotheses, const TextBatch& references,
                             const int64_t* ref_offsets, int64_t n_segments, int threads, int64_t* out) noexcept
    cdef cppclass Scratch:
        void segment_statistics(const Settings& settings, const TextBatch& hypotheses, int64_t segment,
                                const TextBatch& references, int64_t ref_begin, int64_t ref_end,
                                int64_t* out) except +
