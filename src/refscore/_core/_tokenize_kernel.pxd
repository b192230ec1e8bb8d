# Cython declarations of the tokenizer family (_tokenize_vocabulary.hpp, _tokenize_segments.hpp, over
# _tokenize_kernel.hpp), cimported by _tokenize.pyx and _ngrams.pyx.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libcpp cimport bool as cbool

cdef extern from "_tokenize_vocabulary.hpp" namespace "refscore::tok":
    cdef cppclass ThreadStore:
        ThreadStore()
        int64_t n_tokens
        bint failed
    cdef cppclass Interner:
        size_t size()
        const uint32_t* items(uint32_t id)
        uint32_t length(uint32_t id)
    int64_t tokenize_segment(int tokenizer, cbool lowercase, int kind, const void* data, int64_t length,
                             ThreadStore& store) noexcept nogil
    cbool merge_ids(ThreadStore* stores, int n_threads, Interner& vocabulary, int64_t n_segments,
                    const int32_t* thread_of, const int64_t* first, const int64_t* offsets,
                    uint32_t* ids) noexcept nogil

cdef extern from "_tokenize_segments.hpp" namespace "refscore::tok":
    int64_t repeated_text_groups(const void* const* data, const int* kinds, const int64_t* lengths, int64_t n,
                                 int64_t* group) except +
    uint64_t text_content_hash(int kind, const void* data, int64_t length) noexcept nogil
