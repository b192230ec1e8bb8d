# cython: language_level=3
# distutils: language = c++
"""Levenshtein kernels: hits, substitutions, deletions, insertions (and the alignment's opcodes) of many pairs,
one nogil ``prange`` over the pairs, each thread with its own workspace (``_levenshtein.hpp``).

The alignment is the one RapidFuzz 3's ``Levenshtein.opcodes(reference, hypothesis)`` returns, the one jiwer 4
counts from. Pair ``p`` is ``references[p]`` (the first sequence, whose symbols a deletion removes) against
``hypotheses[p]``; over token ids (``*_ids``: ``ids[offsets[p]:offsets[p + 1]]``) or the code points of strings
(``*_text``). Results do not depend on the number of threads: every pair is computed on its own.
"""
from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t
from libcpp.vector cimport vector
from refscore._core._levenshtein_kernel cimport (Chunk, Counts, WordInterner, Workspace, align_pair, align_text_words,
                                                 distance, kSplitJiwer, kSplitWhitespace, remap_ids, remap_text)
from refscore._core._strings cimport StringBuffers, TextBatch, point_at_named_strings

import numpy as np

from refscore._core._parallel import resolve_num_threads

#: The opcode types of the chunks' first column, in RapidFuzz's names.
OPCODE_NAMES = ("equal", "replace", "insert", "delete")
#: Word splits of :func:`align_words_text`: jiwer 4's default transform, or ``str.split()``.
SPLIT_JIWER = kSplitJiwer
SPLIT_WHITESPACE = kSplitWhitespace


def _check_offsets(const int64_t[::1] ids, const int64_t[::1] offsets, str name):
    if offsets.shape[0] < 1:
        raise ValueError(f"{name}_offsets must have one entry per sequence plus one, got none")
    if offsets[0] != 0 or offsets[offsets.shape[0] - 1] > ids.shape[0]:
        raise ValueError(f"{name}_offsets must start at 0 and end within {name}_ids ({ids.shape[0]} ids)")
    for k in range(offsets.shape[0] - 1):
        if offsets[k + 1] < offsets[k]:
            raise ValueError(f"{name}_offsets must not decrease (entry {k + 1})")
    return offsets.shape[0] - 1


cdef _collect(vector[vector[Chunk]]& per_pair, Py_ssize_t n_pairs):
    """The chunks of every pair as one (m, 5) int64 array and its (n_pairs + 1) offsets."""
    offsets_array = np.zeros(n_pairs + 1, dtype=np.int64)
    cdef int64_t[::1] offsets = offsets_array
    cdef Py_ssize_t p, k
    cdef int64_t total = 0
    for p in range(n_pairs):
        total += per_pair[p].size()
        offsets[p + 1] = total
    chunks_array = np.empty((total, 5), dtype=np.int64)
    cdef int64_t[:, ::1] chunks = chunks_array
    cdef int64_t row = 0
    for p in range(n_pairs):
        for k in range(<Py_ssize_t>per_pair[p].size()):
            chunks[row, 0] = per_pair[p][k].type
            chunks[row, 1] = per_pair[p][k].src_begin
            chunks[row, 2] = per_pair[p][k].src_end
            chunks[row, 3] = per_pair[p][k].dest_begin
            chunks[row, 4] = per_pair[p][k].dest_end
            row += 1
    return chunks_array, offsets_array


cdef _run(const int64_t* ref_ids, const int64_t* ref_offsets, const int64_t* hyp_ids, const int64_t* hyp_offsets,
          const TextBatch* texts, Py_ssize_t n_pairs, bint want_chunks, bint distance_only, num_threads,
          int word_mode=-1):
    """The parallel loop of every entry point: token ids, or (``texts``) references then hypotheses as text, over
    code points, or over words when ``word_mode`` is a split (then two more columns: the word counts)."""
    cdef int threads = resolve_num_threads(num_threads)
    if n_pairs < 2 * threads:
        threads = max(1, <int>(n_pairs // 2))
    width = 1 if distance_only else (6 if word_mode >= 0 else 4)
    counts_array = np.zeros((n_pairs, width), dtype=np.int64)
    cdef int64_t[:, ::1] counts = counts_array
    cdef vector[Workspace] workspaces = vector[Workspace](threads)
    cdef vector[WordInterner] interners = vector[WordInterner](threads if word_mode >= 0 else 0)
    cdef Workspace* ws
    cdef vector[vector[Chunk]] per_pair
    if want_chunks:
        per_pair.resize(n_pairs)
    cdef bint is_text = texts != NULL
    cdef Py_ssize_t p
    cdef Counts c
    if n_pairs:
        with nogil:
            for p in prange(n_pairs, num_threads=threads, schedule="dynamic", chunksize=64):
                ws = workspaces.data() + threadid()
                if word_mode >= 0:
                    c = align_text_words(ws[0], interners.data()[threadid()], texts.kinds[p], texts.data[p],
                                         texts.lengths[p], texts.kinds[n_pairs + p], texts.data[n_pairs + p],
                                         texts.lengths[n_pairs + p], word_mode,
                                         &per_pair[p] if want_chunks else NULL, &counts[p, 4])
                    counts[p, 0] = c.hits
                    counts[p, 1] = c.substitutions
                    counts[p, 2] = c.deletions
                    counts[p, 3] = c.insertions
                    continue
                if is_text:
                    remap_text(ws[0], texts.kinds[p], texts.data[p], texts.lengths[p], texts.kinds[n_pairs + p],
                               texts.data[n_pairs + p], texts.lengths[n_pairs + p])
                else:
                    remap_ids(ws[0], ref_ids + ref_offsets[p], ref_offsets[p + 1] - ref_offsets[p],
                              hyp_ids + hyp_offsets[p], hyp_offsets[p + 1] - hyp_offsets[p])
                if distance_only:
                    counts[p, 0] = distance(ws[0])
                else:
                    c = align_pair(ws[0], &per_pair[p] if want_chunks else NULL)
                    counts[p, 0] = c.hits
                    counts[p, 1] = c.substitutions
                    counts[p, 2] = c.deletions
                    counts[p, 3] = c.insertions
    if distance_only:
        return counts_array[:, 0]
    if want_chunks:
        return (counts_array,) + _collect(per_pair, n_pairs)
    return counts_array


cdef _ids_run(const int64_t[::1] ref_ids, const int64_t[::1] ref_offsets, const int64_t[::1] hyp_ids,
              const int64_t[::1] hyp_offsets, bint want_chunks, bint distance_only, num_threads):
    cdef Py_ssize_t n_pairs = _check_offsets(ref_ids, ref_offsets, "ref")
    if _check_offsets(hyp_ids, hyp_offsets, "hyp") != n_pairs:
        raise ValueError(f"ref_offsets describe {n_pairs} sequences, hyp_offsets {hyp_offsets.shape[0] - 1}")
    cdef int64_t empty = 0
    return _run(&ref_ids[0] if ref_ids.shape[0] else &empty, &ref_offsets[0],
                &hyp_ids[0] if hyp_ids.shape[0] else &empty, &hyp_offsets[0], NULL, n_pairs, want_chunks,
                distance_only, num_threads)


cdef _text_run(list references, list hypotheses, bint want_chunks, bint distance_only, num_threads, str caller,
               int word_mode=-1):
    if len(references) != len(hypotheses):
        raise ValueError(f"{caller}: {len(references)} references for {len(hypotheses)} hypotheses")
    cdef StringBuffers buffers   # the references, then the hypotheses
    point_at_named_strings(references, buffers, caller, "references")
    point_at_named_strings(hypotheses, buffers, caller, "hypotheses")
    cdef TextBatch texts = buffers.batch()
    return _run(NULL, NULL, NULL, NULL, &texts, len(references), want_chunks, distance_only, num_threads,
                word_mode)


def align_ids(const int64_t[::1] ref_ids, const int64_t[::1] ref_offsets, const int64_t[::1] hyp_ids,
              const int64_t[::1] hyp_offsets, bint chunks=False, num_threads=None):
    """Hits, substitutions, deletions, insertions of each pair of token-id sequences: an (n, 4) int64 array;
    with ``chunks``, also the opcodes ``(type, ref_start, ref_end, hyp_start, hyp_end)`` as an (m, 5) array and
    the (n + 1) offsets of each pair's rows in it.

    >>> align_ids(np.array([1, 2, 3]), np.array([0, 3]), np.array([1, 3, 4]), np.array([0, 3])).tolist()
    [[1, 2, 0, 0]]
    """
    return _ids_run(ref_ids, ref_offsets, hyp_ids, hyp_offsets, chunks, False, num_threads)


def align_text(list references not None, list hypotheses not None, bint chunks=False, num_threads=None):
    """Like :func:`align_ids` over the code points of strings.

    >>> align_text(["kitten"], ["sitting"]).tolist()
    [[4, 2, 0, 1]]
    """
    return _text_run(references, hypotheses, chunks, False, num_threads, "align_text")


def align_words_text(list references not None, list hypotheses not None, int split=kSplitJiwer, bint chunks=False,
                     num_threads=None):
    """Like :func:`align_text` over the words of the strings (``split``: :data:`SPLIT_JIWER`, jiwer 4's default
    transform, or :data:`SPLIT_WHITESPACE`, ``str.split()``): an (n, 6) array, the four counts then the words of
    the reference and of the hypothesis.

    >>> align_words_text(["the  cat\\tsat "], ["the cat sat"]).tolist()
    [[1, 1, 0, 1, 2, 3]]
    """
    if split != kSplitJiwer and split != kSplitWhitespace:
        raise ValueError(f"align_words_text: split must be SPLIT_JIWER or SPLIT_WHITESPACE, got {split}")
    return _text_run(references, hypotheses, chunks, False, num_threads, "align_words_text", split)


def distance_ids(const int64_t[::1] ref_ids, const int64_t[::1] ref_offsets, const int64_t[::1] hyp_ids,
                 const int64_t[::1] hyp_offsets, num_threads=None):
    """The Levenshtein distance of each pair of token-id sequences (int64 array).

    >>> distance_ids(np.array([1, 2]), np.array([0, 2]), np.array([2, 1]), np.array([0, 2])).tolist()
    [2]
    """
    return _ids_run(ref_ids, ref_offsets, hyp_ids, hyp_offsets, False, True, num_threads)


def distance_text(list references not None, list hypotheses not None, num_threads=None):
    """The Levenshtein distance of each pair of strings (over code points).

    >>> distance_text(["kitten", ""], ["sitting", "abc"]).tolist()
    [3, 3]
    """
    return _text_run(references, hypotheses, False, True, num_threads, "distance_text")
