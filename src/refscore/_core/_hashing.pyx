# cython: language_level=3
"""The kernels' hash functions and probe lengths, for the tests of the per-process hash key (docs/reliability.md).

Every compiled module keys its hash table with a random key drawn when it is loaded; ``REFSCORE_HASH_KEY=<int>``
fixes it (0: the unkeyed functions). This module hashes and inserts keys exactly as the kernels do, so that tests
can build input that collides under one key and count the slots its lookups pass under another.
"""
import numpy as np

from libc.stdint cimport int64_t, uint32_t, uint64_t

from refscore._core._hash_table cimport HashTable, hash_key, mix64, multiply_mix64, sequence_digest

#: The hash functions the kernels pass to the table: ``"mix64"`` (chrF, TER, ROUGE, pairwise keys and word
#: digests) and ``"multiply_mix64"`` (n-gram keys, segment-local token ids).
FUNCTIONS = ("mix64", "multiply_mix64")


def _function_number(function):
    if function not in FUNCTIONS:
        raise ValueError(f"function={function!r}: expected one of {', '.join(FUNCTIONS)}")
    return FUNCTIONS.index(function)


cdef inline uint64_t _hash(int function, uint64_t key) noexcept nogil:
    return mix64(key) if function == 0 else multiply_mix64(key)


def key_is_fixed() -> bool:
    """Whether this process's key is the unkeyed 0 (``REFSCORE_HASH_KEY=0``)."""
    return hash_key().seed == 0


def hashes(keys, function="mix64"):
    """The hash of each 64-bit key under this process's key (uint64 array)."""
    cdef int number = _function_number(function)
    cdef uint64_t[::1] source = np.ascontiguousarray(keys, dtype=np.uint64)
    out = np.empty(source.shape[0], dtype=np.uint64)
    cdef uint64_t[::1] target = out
    cdef Py_ssize_t k
    with nogil:
        for k in range(source.shape[0]):
            target[k] = _hash(number, source[k])
    return out


def word_digests(words):
    """The content key of each word as chrF, TER and ROUGE form it: the keyed digest of its code points."""
    out = np.empty(len(words), dtype=np.uint64)
    cdef uint64_t[::1] target = out
    cdef uint32_t[::1] points
    cdef Py_ssize_t k
    for k, word in enumerate(words):
        points = np.frombuffer(word.encode("utf-32-le"), dtype=np.uint32).copy()
        target[k] = sequence_digest[uint32_t](&points[0] if points.shape[0] else NULL, points.shape[0])
    return out


def probe_length(keys, function="mix64") -> int:
    """Occupied slots passed in all, inserting the distinct ``keys`` one by one into a table sized for them.

    The table and the hash are the kernels' own (``HashTable::probe`` from ``hash(key)``); well-spread keys pass
    about one slot each at load factor 1/2, keys whose hashes share a slot pass ~n**2 / 2 in all.
    """
    cdef int number = _function_number(function)
    cdef uint64_t[::1] source = np.ascontiguousarray(keys, dtype=np.uint64)
    cdef HashTable[uint32_t] table
    cdef Py_ssize_t k
    cdef size_t index, mask
    cdef uint64_t hash
    cdef int64_t passed = 0
    if not table.start(source.shape[0]):
        raise MemoryError(f"no memory for a table of {source.shape[0]} keys")
    mask = table.capacity() - 1
    with nogil:
        for k in range(source.shape[0]):
            hash = _hash(number, source[k])
            index = table.probe(source[k], hash)
            passed += (index - table.home(hash)) & mask
            if not table.live(index):
                table.claim(index, source[k], 0)
    return passed
