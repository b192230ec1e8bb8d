// The calling thread's number within an OpenMP parallel region (0 outside one, or without OpenMP): kernels index
// their per-thread scratch with it.
#pragma once

#ifdef _OPENMP
#include <omp.h>
inline int refscore_thread_id() { return omp_get_thread_num(); }
#else
inline int refscore_thread_id() { return 0; }
#endif
