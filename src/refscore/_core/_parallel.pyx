# cython: language_level=3
"""Thread-count policy and OpenMP introspection for the compiled core.

Every kernel asks :func:`resolve_num_threads` for its team size, which is capped at :func:`thread_limit`
(``THREADS_PER_CPU`` threads per CPU this process may run on, at most ``MAX_THREADS``): more threads than that only
cost memory (a stack each) and, in the tens of thousands, crash the OpenMP runtime. When the system still refuses
a thread (a ``pids`` limit, ``ulimit -v``), GNU OpenMP prints ``libgomp: Thread creation failed`` and ends the
process with status 1; a handler installed here turns that into one ``refscore: error:`` line and status
``THREAD_FAILURE_EXIT`` (the runtime cannot continue, so the process still ends).
"""
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

    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>

    #define REFSCORE_THREAD_FAILURE_EXIT 11
    /* The largest team a kernel asked for; 0 while none has asked for more than one thread. */
    static volatile int refscore_team_asked = 0;

    #if defined(__GLIBC__) && defined(_OPENMP)
    /* libgomp's gomp_fatal ("Thread creation failed") calls exit(EXIT_FAILURE) while the interpreter runs (Python's
       own exit finalizes it first): that status, from a process that started a team, is the failed team. */
    static void refscore_on_exit(int status, void *unused) {
        (void)unused;
        if (status != EXIT_FAILURE || refscore_team_asked <= 1 || !Py_IsInitialized()) return;
        char line[320];
        int n = snprintf(line, sizeof line,
                         "refscore: error: the system refused to start the compiled core's threads (up to %d asked; "
                         "a limit on processes or memory, e.g. ulimit -v or a container's pids limit); use fewer "
                         "with --num-threads / num_threads= or REFSCORE_NUM_THREADS\\n", refscore_team_asked);
        if (n > 0) { ssize_t ignored = write(2, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1)); (void)ignored; }
        _exit(REFSCORE_THREAD_FAILURE_EXIT);
    }
    static int refscore_install_exit_guard(void) { return on_exit(refscore_on_exit, NULL); }
    #else
    static int refscore_install_exit_guard(void) { return 0; }
    #endif
    static void refscore_note_team(int threads) { if (threads > refscore_team_asked) refscore_team_asked = threads; }
    """
    int refscore_openmp_enabled() noexcept nogil
    int refscore_max_threads() noexcept nogil
    int refscore_install_exit_guard() noexcept nogil
    void refscore_note_team(int threads) noexcept nogil
    int REFSCORE_THREAD_FAILURE_EXIT

ENV_VAR = "REFSCORE_NUM_THREADS"
#: Threads per CPU a team may have (kernels are CPU-bound: more than one per CPU only helps a loaded machine).
THREADS_PER_CPU = 4
#: The largest team whatever the CPU count.
MAX_THREADS = 1024
#: Exit status of a process whose OpenMP threads the system refused to create.
THREAD_FAILURE_EXIT = REFSCORE_THREAD_FAILURE_EXIT

refscore_install_exit_guard()


def openmp_enabled() -> bool:
    """Whether the compiled core was built with OpenMP (multi-core kernels)."""
    return bool(refscore_openmp_enabled())


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def thread_limit() -> int:
    """The largest team a kernel starts: ``THREADS_PER_CPU`` x :func:`usable_cpus`, at most ``MAX_THREADS``."""
    return min(THREADS_PER_CPU * usable_cpus(), MAX_THREADS)


def resolve_num_threads(num_threads=None, items=None) -> int:
    """Number of threads a kernel uses.

    ``num_threads`` wins when given (>= 1); else ``$REFSCORE_NUM_THREADS``; else all cores that OpenMP
    sees (``OMP_NUM_THREADS`` is honoured). Any of them is capped at :func:`thread_limit`, and at ``items`` (the
    loop's length: segments, pairs) when given, because a team member with nothing to do still has to be woken and
    waited for, which on a busy machine costs a scheduler time slice: a one-segment call would pay milliseconds. The
    thread count never changes results.

    >>> resolve_num_threads(4, items=1)
    1
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
    cdef int threads = <int>min(num_threads, thread_limit())
    if items is not None:
        threads = <int>max(1, min(threads, items))
    refscore_note_team(threads)
    return threads
