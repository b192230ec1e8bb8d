# The one hand-off of text to the kernels: Python strings' own PEP 393 buffers (1, 2 or 4 bytes per code point;
# no copy, no encoding), pointed at once per batch. The kernels read them through _text.hpp (code points,
# str.isspace / str.rstrip / str.lower included). This is the one .pxd of the text family (_text.hpp and its
# generated _unicode_tables.h): every binding cimports their declarations from here.
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int64_t, uint8_t, uint32_t
from libcpp cimport bool as cbool
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

cdef extern from "_text.hpp" namespace "refscore" nogil:
    cdef cppclass TextBatch:
        const void* const* data
        const int* kinds
        const int64_t* lengths

    cdef cppclass StringBuffers:
        vector[const void*] data
        vector[int] kinds
        vector[int64_t] lengths
        int64_t total_chars
        TextBatch batch()

    cdef cppclass TextPreparation:
        cbool rstrip
        cbool lowercase

    uint8_t char_class(uint32_t code_point) noexcept
    size_t append_text(const TextBatch& batch, int64_t t, TextPreparation preparation, vector[uint32_t]& out,
                       vector[uint32_t]& scratch) except +

cdef extern from "_unicode_tables.h":
    const char* REFSCORE_TABLES_UNIDATA_VERSION
    const char* REFSCORE_TABLES_REGEX_VERSION

# Characters per thread below which waking another thread costs more than it saves (results never depend on it).
cdef enum:
    CHARS_PER_THREAD = 32768


cdef inline Py_ssize_t point_at_strings(list texts, StringBuffers& buffers) except -2:
    """Append every text's buffer, kind and length to ``buffers`` (and add the lengths to its ``total_chars``).
    Returns -1, or the index of the first item that is not a str (nothing of it appended; the caller raises its
    own error). The caller keeps ``texts`` alive while a kernel reads the buffers."""
    cdef Py_ssize_t index
    buffers.data.reserve(buffers.data.size() + len(texts))
    buffers.kinds.reserve(buffers.kinds.size() + len(texts))
    buffers.lengths.reserve(buffers.lengths.size() + len(texts))
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            return index
        refscore_string_ready(text)
        buffers.data.push_back(PyUnicode_DATA(text))
        buffers.kinds.push_back(PyUnicode_KIND(text))
        buffers.lengths.push_back(PyUnicode_GET_LENGTH(text))
        buffers.total_chars += PyUnicode_GET_LENGTH(text)
    return -1


cdef inline int point_at_named_strings(list texts, StringBuffers& buffers, str caller, str name) except -1:
    """:func:`point_at_strings`, raising the one ``TypeError`` every binding gives for an item that is not a str:
    ``"{caller}: {name}[{index}] is {type}, expected str"`` (no ``caller``: from ``name`` on)."""
    cdef Py_ssize_t index = point_at_strings(texts, buffers)
    if index >= 0:
        where = f"{caller}: {name}" if caller else name
        raise TypeError(f"{where}[{index}] is {type(texts[index]).__name__}, expected str")
    return 0


cdef inline list plain_pair_texts(object hypothesis, object references, bint lowercase):
    """``[hypothesis, reference, ...]`` for the single-pair entry points when the pair is plain text (exact types:
    a ``str`` hypothesis; a ``str`` or a non-empty list or tuple of ``str`` as references), lowercased by Python when
    ``lowercase``; else None, and the caller takes the batch path, which checks and reports the rest."""
    if type(hypothesis) is not str:
        return None
    cdef list texts
    kind = type(references)
    if kind is str:
        texts = [hypothesis, references]
    elif (kind is list or kind is tuple) and references:
        texts = [hypothesis]
        for reference in references:
            if type(reference) is not str:
                return None
            texts.append(reference)
    else:
        return None
    return [text.lower() for text in texts] if lowercase else texts
