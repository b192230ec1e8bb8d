# Cython declarations of _interrupt.hpp: Ctrl-C / SIGTERM during a long nogil kernel call (see the header).
# Usage: ``begin()`` before the nogil block (the kernel polls ``interrupted()``), ``raise_if_interrupted()`` after.
from cpython.exc cimport PyErr_CheckSignals

cdef extern from "_interrupt.hpp" namespace "refscore::interrupt" nogil:
    bint interrupted() noexcept
    void begin() noexcept
    bint end() noexcept


cdef inline int raise_if_interrupted() except -1:
    """End the interruptible call; when a signal arrived its results are incomplete, so they are never returned:
    Python's handler ran (the signal was passed on), and its ``KeyboardInterrupt`` (or the command line's SIGTERM
    exception) is raised here; a handler that raised nothing still leaves a ``KeyboardInterrupt``."""
    if end():
        PyErr_CheckSignals()
        raise KeyboardInterrupt
    return 0
