# Cython declarations of the kernels' hash table and its keyed hash functions (_hash_table.hpp), cimported by
# _hashing.pyx.
from libc.stdint cimport uint32_t, uint64_t
from libcpp cimport bool as cbool

cdef extern from "_hash_table.hpp" namespace "refscore" nogil:
    cdef cppclass HashKey:
        uint64_t seed
        uint64_t multipliers[4]
    const HashKey& hash_key() noexcept
    uint64_t mix64(uint64_t x) noexcept
    uint64_t multiply_mix64(uint64_t x) noexcept
    uint64_t sequence_digest[Item](const Item* items, size_t length) noexcept
    cdef cppclass HashTable[Value]:
        HashTable() except +
        cbool start(size_t entries) noexcept
        size_t probe(uint64_t key, uint64_t hash) noexcept
        cbool live(size_t index) noexcept
        Value& claim(size_t index, uint64_t key, const Value& value) noexcept
        size_t home(uint64_t hash) noexcept
        size_t capacity() noexcept
