# cython: language_level=3
"""Thread-count policy and OpenMP introspection for the compiled core."""
import os

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static int refscore_openmp_enabled(void) { return 1; }
    static int refscore_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int refscore_openmp_enabled(void) { return 0; }
    static int refscore_max_threads(void) { return 1; }
    #endif
    """
    int refscore_openmp_enabled() noexcept nogil
    int refscore_max_threads() noexcept nogil

ENV_VAR = "REFSCORE_NUM_THREADS"


def openmp_enabled() -> bool:
    """Whether the compiled core was built with OpenMP (multi-core kernels)."""
    return bool(refscore_openmp_enabled())


def resolve_num_threads(num_threads=None) -> int:
    """Number of threads a kernel uses.

    ``num_threads`` wins when given (>= 1); else ``$REFSCORE_NUM_THREADS``; else all cores that OpenMP
    sees (``OMP_NUM_THREADS`` is honoured). The thread count never changes results.
    """
    if num_threads is None:
        env_value = os.environ.get(ENV_VAR, "").strip()
        if env_value:
            try:
                num_threads = int(env_value)
            except ValueError:
                raise ValueError(
                    f"{ENV_VAR}={env_value!r} is not an integer; set it to a positive thread count or unset it"
                ) from None
            if num_threads < 1:
                raise ValueError(f"{ENV_VAR}={env_value!r} must be >= 1")
        else:
            num_threads = max(1, refscore_max_threads())
    else:
        if isinstance(num_threads, bool) or not isinstance(num_threads, int):
            raise TypeError(f"num_threads must be a positive int or None, got {type(num_threads).__name__}")
        if num_threads < 1:
            raise ValueError(f"num_threads must be >= 1 (or None for all cores), got {num_threads}")
    if not refscore_openmp_enabled():
        return 1
    return num_threads
