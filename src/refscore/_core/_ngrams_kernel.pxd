# Cython declarations of the n-gram family (_ngrams_kernel.hpp: token ids; _ngrams_text.hpp: strings), cimported
# by _ngrams.pyx.
from libc.stdint cimport int64_t, uint32_t
from libcpp cimport bool as cbool
from refscore._core._strings cimport TextBatch

cdef extern from "_ngrams_kernel.hpp" namespace "refscore::ngrams" nogil:
    cdef enum Kind:
        KIND_BLEU
        KIND_GLEU
    int64_t TABLE_SLOTS_LIMIT
    size_t kSlotBytes
    int64_t max_table_size(const int64_t* offsets, const int64_t* ref_offsets, int64_t n_segments, int64_t max_n,
                           cbool from_references) noexcept
    cdef cppclass Scratch:
        pass
    int bleu_text_segment(const uint32_t* ids, const int64_t* offsets, int64_t n_refs, int64_t max_order,
                          Scratch& scratch, int64_t* row, uint32_t vocabulary, cbool shortest) except +
    int64_t ids_batch(Kind kind, const uint32_t* ids, const int64_t* offsets, const int64_t* ref_offsets,
                      int64_t n_segments, int64_t width, int64_t low, int64_t high, int threads,
                      int64_t* out) except +

cdef extern from "_ngrams_text.hpp" namespace "refscore::ngrams" nogil:
    cdef cppclass TextInput:
        TextBatch texts
        const int64_t* groups
        int64_t n_segments
        const int64_t* ref_offsets
        int tokenizer
        cbool lowercase
        cbool shortest_ref
    cdef cppclass TextFailures:
        int64_t no_memory
        int64_t too_large
    cdef cppclass TextWorker:
        pass
    int text_segment(Kind kind, TextWorker& worker, const TextInput& input, int64_t segment, int64_t low,
                     int64_t high, int64_t* row) except +
    int STATUS_OK
    int STATUS_TOO_LARGE
    TextFailures text_batch(Kind kind, const TextInput& input, int64_t n_groups, int64_t width, int64_t low,
                            int64_t high, int threads, int64_t* out) except +
