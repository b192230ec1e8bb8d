# Cython declarations of the ROUGE-1.5.5 family: the scorer (_rouge155_kernel.hpp over _rouge155_lcs.hpp), cimported
# by _rouge155.pyx,
# and the script's text reading (_rouge155_text.hpp, over _rouge155_porter.hpp), cimported by _rouge155_text.pyx.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.string cimport string
from libcpp.vector cimport vector
from refscore._core._strings cimport TextBatch

cdef extern from "_rouge155_lcs.hpp" namespace "refscore::rouge155" nogil:
    cdef cppclass Seq:
        const uint32_t* data
        int64_t len

    cdef cppclass PathMarker:
        cbool weighted
        const double* fpow
        int64_t block_cells
        void mark(Seq model, Seq peer, uint8_t* hit_mask)
        double wlcs_value(Seq model, Seq peer)

cdef extern from "_rouge155_kernel.hpp" namespace "refscore::rouge155" nogil:
    cdef cppclass Scratch:
        PathMarker marker
        vector[double] fpow

    cdef cppclass Corpus:
        const uint32_t* flat_tokens
        const int64_t* flat_offsets
        const uint32_t* unit_tokens
        const int64_t* unit_offsets
        const int64_t* text_units
        const int64_t* peer_text
        const int64_t* model_offsets
        const int64_t* model_texts
        int64_t n_types
        const int64_t* kinds
        const int64_t* int_params
        const double* weights
        const int64_t* unigram_flags
        cbool best_model
        double alpha

    void score_document(const Corpus& c, int64_t doc, Scratch& s, double* out)
    void ensure_pow_table(Scratch& s, double weight, int64_t up_to)
    void skip_bigram_keys(Seq s, int64_t skip, cbool unigrams, vector[uint64_t]& out, cbool last_unigram)
    int64_t clipped_overlap(const vector[uint64_t]& a, const vector[uint64_t]& b)

cdef extern from "_rouge155_text.hpp" namespace "refscore::rouge155" nogil:
    cdef cppclass ScriptRules:
        void add_stopword(const string& word) except +
        void add_exception(const string& inflected, const string& base) except +

    cdef cppclass ScriptTokens:
        vector[uint32_t] ids
        vector[int64_t] unit_lengths
        vector[int64_t] units_per_text
        int64_t bad_text
        int64_t bad_position

    string porter_stem "refscore::rouge155::porter::stem" (string word) except +
    void read_script_texts(const TextBatch& texts, int64_t n_texts, cbool split_lines, const ScriptRules& rules,
                           cbool stemming, cbool remove_stopwords, ScriptTokens& out) except +
