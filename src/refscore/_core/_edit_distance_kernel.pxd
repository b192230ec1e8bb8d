# Cython declarations of the edit-distance kernels (_edit_distance_kernel.hpp), cimported by _edit_distance.pyx.
# Each entry point catches its own allocation failure (a negative distance, a NaN score): nothing throws here.
from libc.stdint cimport int64_t, uint32_t

cdef extern from "_edit_distance_kernel.hpp" namespace "refscore::editdist" nogil:
    cdef cppclass Workspace:
        Workspace() except +
    cdef cppclass EedWorkspace:
        EedWorkspace() except +
    int kLevenshtein
    int kIndel
    int kCharacters
    int kWords
    int64_t checked_pair_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                                  const uint32_t* b, int64_t m) noexcept
    int64_t text_pair_distance(Workspace& ws, int kind, int unit, int kind1, const void* d1, int64_t n1, int kind2,
                               const void* d2, int64_t n2, int64_t* lengths) noexcept
    int64_t matrix_row(Workspace& ws, int kind, int64_t alphabet, const uint32_t* symbols, const int64_t* offsets,
                       int64_t row, const int64_t* cols, int64_t first, int64_t n_cols, double* out) noexcept
    double eed_score(EedWorkspace& ws, const uint32_t* hyp, int64_t n, const uint32_t* ref, int64_t m,
                     double alpha, double rho, double deletion, double insertion) noexcept
