# Cython declarations of the ROUGE family (_rouge_kernels.hpp over _rouge_tokenizer.hpp, _rouge_lcs.hpp,
# _rouge_ngrams.hpp; _rouge_porter.hpp), cimported by _rouge.pyx.
from libc.stdint cimport int64_t, uint32_t
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector
from refscore._core._strings cimport TextBatch

cdef extern from "_rouge_tokenizer.hpp" namespace "refscore::rouge" nogil:
    cdef cppclass Config:
        bint stem
        bint lowercase
        const int64_t* types
        int64_t n_types

    cdef cppclass Tokens:
        vector[uint32_t] ids
        vector[uint32_t] sentences

cdef extern from "_rouge_kernels.hpp" namespace "refscore::rouge" nogil:
    cdef cppclass Worker:
        Worker(const Config* config) except +
        int64_t tokenize_text(const TextBatch& texts, int64_t t, Tokens& out) except +
        const string_view& term_string(uint32_t id)
        int score_segment(const TextBatch& texts, int64_t hyp, int64_t ref_begin, int64_t ref_end,
                          int64_t* out_counts, int64_t* out_best) noexcept
        int64_t lcs_length(const uint32_t* a, size_t n, const uint32_t* b, size_t m) except +
        void lcs_positions(const uint32_t* ref, size_t n, const uint32_t* can, size_t m,
                           vector[uint32_t]& positions, bint up_on_tie) except +
        void reserve_terms(uint32_t n_terms) except +
        void set_table_limit(size_t words)
        int score_segment_ids(const uint32_t* ids, const int64_t* tok_off, const uint32_t* sent_ids,
                              const int64_t* sent_tok_off, const int64_t* bounds, const int64_t* bound_off,
                              int64_t hyp, int64_t ref_begin, int64_t ref_end, int64_t* out_counts,
                              int64_t* out_best) noexcept

cdef extern from "_rouge_porter.hpp" namespace "refscore::rouge" nogil:
    cdef cppclass PorterStemmer:
        string stem(string_view word) except +
