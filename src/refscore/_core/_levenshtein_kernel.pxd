# Cython declarations of the Levenshtein kernel (_levenshtein.hpp), cimported by _levenshtein.pyx.
from libc.stdint cimport int64_t
from libcpp.vector cimport vector

cdef extern from "_levenshtein.hpp" namespace "refscore::levenshtein" nogil:
    cdef cppclass Chunk:
        int64_t type, src_begin, src_end, dest_begin, dest_end
    cdef cppclass Counts:
        int64_t hits, substitutions, deletions, insertions
    cdef cppclass Workspace:
        Workspace() except +
    void remap_ids(Workspace& ws, const int64_t* s1, int64_t n1, const int64_t* s2, int64_t n2) except +
    void remap_text(Workspace& ws, int kind1, const void* d1, int64_t n1, int kind2, const void* d2,
                    int64_t n2) except +
    Counts align_pair(Workspace& ws, vector[Chunk]* chunks) except +
    int64_t distance(Workspace& ws) except +

cdef extern from "_levenshtein_words.hpp" namespace "refscore::levenshtein" nogil:
    cdef cppclass WordInterner:
        WordInterner() except +
    Counts align_text_words(Workspace& ws, WordInterner& interner, int kind1, const void* d1, int64_t n1,
                            int kind2, const void* d2, int64_t n2, int mode, vector[Chunk]* chunks,
                            int64_t* lengths) except +
    int kSplitJiwer
    int kSplitWhitespace
