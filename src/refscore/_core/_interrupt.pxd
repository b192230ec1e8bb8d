# Cython declarations of _interrupt.hpp: Ctrl-C / SIGTERM during a long nogil kernel call (see the header).
cdef extern from "_interrupt.hpp" namespace "refscore::interrupt" nogil:
    bint interrupted() noexcept
    void begin() noexcept
    bint end() noexcept
