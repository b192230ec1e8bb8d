// The calling thread's number within an OpenMP parallel region (0 outside one, or without OpenMP): kernels index
// their per-thread scratch with it.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

namespace refscore {

#ifdef _OPENMP
inline int thread_id() { return omp_get_thread_num(); }
#else
inline int thread_id() { return 0; }
#endif

}  // namespace refscore
