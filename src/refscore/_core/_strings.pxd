# Pointing the compiled kernels at Python strings' own PEP 393 buffers (1, 2 or 4 bytes per code point; no copy,
# no encoding), shared by the tokenizer, n-gram and chrF modules.
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int64_t
from libcpp.vector cimport vector

cdef extern from *:
    """
    /* Python < 3.12 may hold a str in the legacy (not yet "ready") representation, without a PEP 393 buffer. */
    static int refscore_string_ready(PyObject *text) {
    #if PY_VERSION_HEX < 0x030C0000
        return PyUnicode_READY(text);
    #else
        (void)text;
        return 0;
    #endif
    }
    """
    int refscore_string_ready(object text) except -1

# Characters per thread below which waking another thread costs more than it saves (results never depend on it).
cdef enum:
    CHARS_PER_THREAD = 32768


cdef inline Py_ssize_t point_at_strings(list texts, vector[const void*]& data, vector[int]& kinds,
                                        vector[int64_t]& lengths, int64_t* total_chars) except -2:
    """Append every text's buffer, kind and length, and add the lengths to ``total_chars[0]``. Returns -1, or the
    index of the first item that is not a str (nothing of it appended; the caller raises its own error)."""
    cdef Py_ssize_t index
    data.reserve(data.size() + len(texts))
    kinds.reserve(kinds.size() + len(texts))
    lengths.reserve(lengths.size() + len(texts))
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            return index
        refscore_string_ready(text)
        data.push_back(PyUnicode_DATA(text))
        kinds.push_back(PyUnicode_KIND(text))
        lengths.push_back(PyUnicode_GET_LENGTH(text))
        total_chars[0] += PyUnicode_GET_LENGTH(text)
    return -1
