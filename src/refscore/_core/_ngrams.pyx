# cython: language_level=3
"""Exact n-gram statistics over integer token ids: BLEU (clipped matches) and Google-BLEU (best reference).

Input layout, shared by both kernels: the token ids of every text of a batch in one ``uint32`` array, text ``t``
being ``ids[offsets[t]:offsets[t + 1]]``. Texts ``0 .. n-1`` are the hypotheses, texts ``n + j`` the flattened
references; segment ``i`` owns references ``ref_offsets[i] .. ref_offsets[i + 1]``.

How n-grams are made exact: every segment gets a fresh open-addressing table (per thread, reused). The key of an
n-gram is ``(slot of its (n-1)-gram prefix << 32) | last token``, the key of a unigram uses the prefix ``2**32-1``.
A slot index identifies one distinct prefix within the segment, so two n-grams share a key exactly when they are
equal: no hash collision can change a count (colliding hashes only cost a probe). The references are inserted
first; the hypothesis only looks n-grams up, and stops extending a start position at the first n-gram that is not
in the table (no longer n-gram from there can be).

One ``nogil`` ``prange`` call per batch, ``schedule='dynamic'``; each segment writes its own output row, so
results do not depend on the thread count.

Text input goes through ``bleu_text_statistics`` / ``gleu_text_statistics``: each segment is tokenized (sacreBLEU's
tokenizers) and its tokens interned in a small per-segment table right before its n-grams are counted, in the
same parallel loop, so no corpus-wide vocabulary or id array is ever built. Their ids are numbered from the
hypothesis' tokens on, so BLEU counts unigrams in dense per-id arrays and keys bigrams by their first token's id
(``bleu_text_segment``): one table probe per token fewer. Texts met several times in a call (equal strings) are
tokenized once per thread, and BLEU segments whose lone reference is such a text are scored as runs against one
count of it (``shared_reference_runs``).
"""
cimport cython
from cython.parallel cimport prange, threadid
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libcpp cimport bool as cbool
from libcpp.vector cimport vector
from refscore._core._strings cimport CHARS_PER_THREAD, StringBuffers, point_at_strings

import numpy as np

from refscore._core._parallel import resolve_num_threads
from refscore._core._tokenize import kernel_case, tokenizer_code

cdef extern from "_tokenize_impl.h" namespace "refscore_tok":
    cdef cppclass RepeatedTextCache:
        RepeatedTextCache()
        void reset(int64_t groups) except +

    cdef cppclass SegmentEncoder:
        SegmentEncoder()
        vector[uint32_t] ids
        vector[int64_t] offsets
        uint32_t first_text_vocabulary
        void begin(int64_t characters) noexcept nogil
        cbool add_repeated_text(RepeatedTextCache& cache, int64_t group, int tokenizer, cbool lowercase, int kind,
                                const void* data, int64_t length) noexcept nogil
        cbool finish() noexcept nogil

    cdef cppclass ReferenceVocabulary:
        ReferenceVocabulary()
        cbool assign(const SegmentEncoder& encoder) noexcept nogil
        cbool lookup(SegmentEncoder& encoder) noexcept nogil

    int64_t SHORT_SEGMENT_CHARS

    int64_t repeated_text_groups(const void* const* data, const int* kinds, const int64_t* lengths, int64_t n,
                                 int64_t* group) except +
    uint64_t multiply_mix64(uint64_t key) noexcept nogil

cdef uint32_t NO_PREFIX = 0xFFFFFFFFu
cdef uint64_t NO_LIMIT = 1ULL << 32   # above every uint32 token id: all may match
cdef int32_t NO_OWNER = -1
cdef int32_t HYPOTHESIS = -2
#: Largest table a segment may need (slot indices must stay below NO_PREFIX; 2**30 slots = 24 GiB).
cdef int64_t TABLE_SLOTS_LIMIT = 1 << 30
MAX_TABLE_SLOTS = TABLE_SLOTS_LIMIT
cdef int64_t MIN_TABLE_SLOTS = 16


# The occurrence counts of one n-gram (a table slot's, or a dense unigram counter's).
cdef struct Count:
    int32_t ref_max     # BLEU: max count over the references; GLEU: count in the hypothesis
    int32_t current     # occurrences in the text being walked (valid while owner == that text)
    int32_t owner       # which text `current` belongs to


cdef struct Slot:
    uint64_t key
    uint32_t gen        # the slot is in use when gen equals the table's current generation
    Count count




cdef inline int64_t count_ngrams(int64_t length, int64_t max_n) noexcept nogil:
    """Number of n-grams of orders 1..max_n in a text of `length` tokens."""
    cdef int64_t n, total = 0
    for n in range(1, max_n + 1):
        if length - n + 1 <= 0:
            break
        total += length - n + 1
    return total


cdef inline int64_t count_ngrams_between(int64_t length, int64_t min_n, int64_t max_n) noexcept nogil:
    """Number of n-grams of orders min_n..max_n (NLTK everygrams) in a text of `length` tokens."""
    cdef int64_t n, total = 0
    for n in range(min_n, max_n + 1):
        if length - n + 1 <= 0:
            break
        total += length - n + 1
    return total


cdef inline int64_t table_size(int64_t entries) noexcept nogil:
    """Power of two >= 2 * entries (load factor <= 1/2)."""
    cdef int64_t size = MIN_TABLE_SLOTS
    while size < 2 * entries:
        size <<= 1
    return size


cdef inline uint64_t probe(Slot* table, uint64_t mask, uint32_t gen, uint64_t key) noexcept nogil:
    """The slot holding `key`, or the free slot where it belongs (linear probing; free = older generation)."""
    cdef uint64_t h = multiply_mix64(key) & mask
    while table[h].gen == gen and table[h].key != key:
        h = (h + 1) & mask
    return h


cdef inline uint32_t find_or_insert(Slot* table, uint64_t mask, uint32_t gen, uint64_t key) noexcept nogil:
    cdef uint64_t h = probe(table, mask, gen, key)
    cdef Slot* slot = &table[h]
    if slot.gen != gen:
        slot.gen = gen
        slot.key = key
        slot.count.ref_max = 0
        slot.count.current = 0
        slot.count.owner = NO_OWNER
    return <uint32_t>h


cdef inline int64_t find(Slot* table, uint64_t mask, uint32_t gen, uint64_t key) noexcept nogil:
    cdef uint64_t h = probe(table, mask, gen, key)
    return <int64_t>h if table[h].gen == gen else -1


# One thread's scratch table, grown on demand (never shrunk) and reused for every segment it scores.
cdef struct Table:
    Slot* slots
    int64_t capacity
    uint32_t gen        # the current generation: slots stamped with an older one are free
    Count* unigrams     # text kernels: dense unigram counters (see bleu_text_segment), one per token id
    int64_t unigram_capacity
    char padding[28]    # one table per 64-byte cache line (threads write their own `gen`)


cdef Table* new_tables(int threads) except NULL:
    """One empty n-gram table per thread (each grows on first use); release with :func:`free_tables`."""
    cdef Table* tables = <Table*>calloc(<size_t>threads, sizeof(Table))
    if tables == NULL:
        raise MemoryError("cannot allocate per-thread n-gram tables")
    return tables


cdef void free_tables(Table* tables, int threads) noexcept:
    cdef int tid
    for tid in range(threads):
        free(tables[tid].slots)
        free(tables[tid].unigrams)
    free(tables)


cdef inline Slot* start_segment(Table* table, int64_t size) noexcept nogil:
    """An empty table of at least `size` slots for the next segment (NULL when memory runs out).

    Generation stamps make clearing unnecessary; the whole table is zeroed only when it is (re)allocated or
    when the 32-bit generation counter wraps around.
    """
    if size > table.capacity:
        free(table.slots)
        table.slots = <Slot*>calloc(<size_t>size, sizeof(Slot))
        table.capacity = size if table.slots != NULL else 0
        table.gen = 0
        if table.slots == NULL:
            return NULL
    if table.gen == 0xFFFFFFFFu:
        memset(table.slots, 0, <size_t>table.capacity * sizeof(Slot))
        table.gen = 0
    table.gen += 1
    return table.slots


cdef inline void add_reference_occurrence(Count* count, int32_t owner, bint track_max) noexcept nogil:
    """One more occurrence in text `owner`: track_max keeps `ref_max` = the maximum count over owners (BLEU's
    multi-reference clipping); otherwise `ref_max` counts every occurrence (one text)."""
    if track_max:
        if count.owner != owner:
            count.owner = owner
            count.current = 0
        count.current += 1
        if count.current > count.ref_max:
            count.ref_max = count.current
    else:
        count.ref_max += 1


cdef inline bint add_clipped_occurrence(Count* count, int32_t owner) noexcept nogil:
    """One more occurrence in text `owner`; whether it is a clipped match (at most `ref_max` of them)."""
    if count.owner != owner:
        count.owner = owner
        count.current = 0
    count.current += 1
    return count.current <= count.ref_max


cdef inline void insert_ngrams(const uint32_t* tokens, int64_t first, int64_t stop, uint32_t prefix,
                               int32_t owner, Slot* table, uint64_t mask, uint32_t gen, bint track_max,
                               uint64_t limit) noexcept nogil:
    """Insert the n-grams ``tokens[0:n + 1]`` for n = first .. stop - 1 (``prefix``: the key prefix of
    ``tokens[0:first]``), counting them for `owner`; stops at a token >= `limit`."""
    cdef int64_t n
    cdef uint32_t index
    for n in range(first, stop):
        if tokens[n] >= limit:
            break
        index = find_or_insert(table, mask, gen, (<uint64_t>prefix << 32) | tokens[n])
        add_reference_occurrence(&table[index].count, owner, track_max)
        prefix = index


cdef inline void match_ngrams(const uint32_t* tokens, int64_t first, int64_t stop, uint32_t prefix, int64_t min_n,
                              int32_t owner, Slot* table, uint64_t mask, uint32_t gen, int64_t* counts,
                              int64_t stride, uint64_t limit) noexcept nogil:
    """Look the n-grams ``tokens[0:n + 1]`` (n = first .. stop - 1) up, counting them for `owner`; a clipped
    match of order n + 1 >= min_n adds one to ``counts[n * stride]``. Stops at the first n-gram not in the table
    (no longer one can be) or at a token >= `limit`."""
    cdef int64_t n, found
    cdef bint matched
    for n in range(first, stop):
        if tokens[n] >= limit:
            break
        found = find(table, mask, gen, (<uint64_t>prefix << 32) | tokens[n])
        if found < 0:
            break
        matched = add_clipped_occurrence(&table[found].count, owner)
        if matched and n + 1 >= min_n:
            counts[n * stride] += 1
        prefix = <uint32_t>found


cdef inline void count_text(const uint32_t* tokens, int64_t length, int64_t max_n, int32_t owner,
                            Slot* table, uint64_t mask, uint32_t gen, bint track_max,
                            uint64_t limit) noexcept nogil:
    """Insert every n-gram (orders 1..max_n) of one text (see :func:`add_reference_occurrence` for
    `track_max`: BLEU's multi-reference clipping table, or GLEU's hypothesis table). A start position stops at
    the first token >= `limit`: the other side has no such token, so no n-gram with it can ever match.
    """
    cdef int64_t start
    for start in range(length):
        insert_ngrams(tokens + start, 0, length - start if length - start < max_n else max_n, NO_PREFIX, owner,
                      table, mask, gen, track_max, limit)


cdef inline void count_clipped(const uint32_t* tokens, int64_t length, int64_t min_n, int64_t max_n,
                               int32_t owner, Slot* table, uint64_t mask, uint32_t gen, int64_t* counts,
                               int64_t stride, uint64_t limit) noexcept nogil:
    """Look up every n-gram (orders 1..max_n) of one text in a table made by `count_text`, counting occurrences
    under `owner`; an occurrence up to the table's `ref_max` is a clipped match, added to
    `counts[(n - 1) * stride]` for orders n >= min_n (stride 1: one count per order; stride 0: one total).
    """
    cdef int64_t start
    for start in range(length):
        match_ngrams(tokens + start, 0, length - start if length - start < max_n else max_n, NO_PREFIX, min_n,
                     owner, table, mask, gen, counts, stride, limit)


cdef inline void begin_row(int64_t* row, int64_t max_order, int64_t hyp_len, int64_t ref_len) noexcept nogil:
    """A BLEU row without its matches: ``[hyp_len, ref_len, 0.., total_1..N]``."""
    cdef int64_t n
    for n in range(2 + 2 * max_order):
        row[n] = 0
    row[0] = hyp_len
    row[1] = ref_len
    for n in range(max_order):
        if hyp_len - n > 0:
            row[2 + max_order + n] = hyp_len - n


cdef inline int64_t start_row(const int64_t* offsets, int64_t hyp_text, int64_t ref_first, int64_t ref_last,
                              int64_t max_order, int64_t* row) noexcept nogil:
    """A segment's BLEU row without its matches: ``[hyp_len, closest ref_len, 0.., total_1..N]``; returns the
    number of reference n-grams (what its table must hold)."""
    cdef int64_t r, length, entries = 0
    cdef int64_t hyp_len = offsets[hyp_text + 1] - offsets[hyp_text]
    cdef int64_t best_diff = -1, best_len = 0, diff
    for r in range(ref_first, ref_last):
        length = offsets[r + 1] - offsets[r]
        entries += count_ngrams(length, max_order)
        # closest reference length, ties to the shorter (sacreBLEU's _get_closest_ref_len)
        diff = hyp_len - length if hyp_len >= length else length - hyp_len
        if best_diff == -1 or diff < best_diff or (diff == best_diff and length < best_len):
            best_diff = diff
            best_len = length
    begin_row(row, max_order, hyp_len, best_len)
    return entries


cdef int bleu_segment(const uint32_t* ids, const int64_t* offsets, int64_t hyp_text, int64_t ref_first,
                      int64_t ref_last, int64_t max_order, Table* scratch, int64_t* row,
                      uint64_t hyp_limit) noexcept nogil:
    """row = [hyp_len, closest ref_len, match_1..N, total_1..N] of one segment; -1 when out of memory.
    Every hypothesis token is < `hyp_limit` (segment-local ids: the hypothesis' tokens are numbered first)."""
    cdef int64_t r, size
    cdef int64_t entries = start_row(offsets, hyp_text, ref_first, ref_last, max_order, row)
    cdef int64_t hyp_len = row[0]
    cdef uint64_t mask
    cdef uint32_t generation
    cdef Slot* table
    if hyp_len == 0 or entries == 0:
        return 0

    size = table_size(entries)
    mask = <uint64_t>(size - 1)
    table = start_segment(scratch, size)
    if table == NULL:
        return -1
    generation = scratch.gen
    # with one reference, its count is the maximum: plain counting skips the per-owner bookkeeping
    for r in range(ref_first, ref_last):
        count_text(ids + offsets[r], offsets[r + 1] - offsets[r], max_order, <int32_t>(r - ref_first),
                   table, mask, generation, ref_last - ref_first > 1, hyp_limit)
    count_clipped(ids + offsets[hyp_text], hyp_len, 1, max_order, HYPOTHESIS, table, mask, generation, row + 2, 1,
                  NO_LIMIT)
    return 0


#: Bit 31 marks a bigram key's prefix as a token id (dense unigrams); slot indices stay below 2**30.
cdef uint32_t TOKEN_PREFIX = 0x80000000u


cdef inline Count* start_unigrams(Table* scratch, int64_t vocabulary) noexcept nogil:
    """Empty dense unigram counters for token ids 0 .. vocabulary-1 (NULL when memory runs out)."""
    cdef int64_t k
    if vocabulary > scratch.unigram_capacity:
        free(scratch.unigrams)
        scratch.unigrams = <Count*>calloc(<size_t>vocabulary, sizeof(Count))
        scratch.unigram_capacity = vocabulary if scratch.unigrams != NULL else 0
        if scratch.unigrams == NULL:
            return NULL
    for k in range(vocabulary):
        scratch.unigrams[k].ref_max = 0
        scratch.unigrams[k].current = 0
        scratch.unigrams[k].owner = NO_OWNER
    return scratch.unigrams


cdef inline void count_reference(const uint32_t* tokens, int64_t length, int64_t max_order, int32_t owner,
                                 bint track_max, uint64_t limit, Count* unigrams, Slot* table, uint64_t mask,
                                 uint32_t gen) noexcept nogil:
    """Count one reference's n-grams for `owner` (see :func:`add_reference_occurrence` for `track_max`): unigrams
    in the dense per-id counters, longer n-grams in the table, a bigram keyed by its first token's id (marked by
    TOKEN_PREFIX). A start position stops at a token >= `limit` (the hypothesis has none)."""
    cdef int64_t start, stop
    cdef uint32_t token
    for start in range(length):
        token = tokens[start]
        if token >= limit:
            continue
        add_reference_occurrence(&unigrams[token], owner, track_max)
        stop = length - start if length - start < max_order else max_order
        insert_ngrams(tokens + start, 1, stop, TOKEN_PREFIX | token, owner, table, mask, gen, track_max, limit)


cdef inline void match_hypothesis(const uint32_t* tokens, int64_t length, int64_t max_order, int32_t owner,
                                  uint64_t limit, Count* unigrams, Slot* table, uint64_t mask, uint32_t gen,
                                  int64_t* matches) noexcept nogil:
    """Add a hypothesis' clipped matches of orders 1..max_order to ``matches[0 .. max_order)``, against references
    counted by :func:`count_reference`: occurrences (under `owner`) up to the references' maximum match. A token
    >= `limit`, or one in no reference, starts no match."""
    cdef int64_t start, stop
    cdef uint32_t token
    for start in range(length):
        token = tokens[start]
        if token >= limit or unigrams[token].ref_max == 0:
            continue
        if add_clipped_occurrence(&unigrams[token], owner):
            matches[0] += 1
        stop = length - start if length - start < max_order else max_order
        match_ngrams(tokens + start, 1, stop, TOKEN_PREFIX | token, 1, owner, table, mask, gen, matches, 1, limit)


cdef int bleu_text_segment(const uint32_t* ids, const int64_t* offsets, int64_t n_refs, int64_t max_order,
                           Table* scratch, int64_t* row, uint32_t vocabulary) noexcept nogil:
    """:func:`bleu_segment` for segment-local ids whose hypothesis tokens are ``0 .. vocabulary-1`` (text 0 is
    the hypothesis, texts 1..n_refs its references). Unigrams are counted in dense per-id arrays instead of the
    table, and a bigram's key takes its first token's id (marked by TOKEN_PREFIX) as prefix: one table probe per
    token fewer on both sides. Same row as bleu_segment; -1 when out of memory."""
    cdef int64_t r, size
    cdef int64_t entries = start_row(offsets, 0, 1, 1 + n_refs, max_order, row)
    cdef int64_t hyp_len = row[0]
    cdef uint64_t mask
    cdef uint32_t generation
    cdef bint track_max = n_refs > 1
    cdef Slot* table
    cdef Count* unigrams
    if hyp_len == 0 or entries == 0:
        return 0

    size = table_size(entries)
    mask = <uint64_t>(size - 1)
    table = start_segment(scratch, size)
    unigrams = start_unigrams(scratch, vocabulary)
    if table == NULL or unigrams == NULL:
        return -1
    generation = scratch.gen

    # references: unigrams counted per id (the maximum over references), longer n-grams inserted in the table;
    # a start position stops at a token absent from the hypothesis (id >= vocabulary)
    for r in range(1, 1 + n_refs):
        count_reference(ids + offsets[r], offsets[r + 1] - offsets[r], max_order, <int32_t>(r - 1), track_max,
                        vocabulary, unigrams, table, mask, generation)
    match_hypothesis(ids, hyp_len, max_order, HYPOTHESIS, vocabulary, unigrams, table, mask, generation, row + 2)
    return 0


cdef int STATUS_NO_MEMORY = -1
cdef int STATUS_TOO_LARGE = -2


# ---- references scored against several hypotheses ------------------------------------------------------------
#
# When one reference is the lone reference of several short BLEU segments of a call (one reference list scored for
# several systems), those segments are scored one after the other as a run (see shared_reference_runs): the
# reference is tokenized, interned and counted once, its distinct tokens numbered in order of first appearance
# (ReferenceVocabulary, in C++), its unigrams in dense counters and its longer n-grams in the thread's table,
# exactly as bleu_text_segment counts them. Each hypothesis is tokenized and its tokens looked up in that
# vocabulary (a token the reference lacks matches nothing), then its n-grams are looked up as always, under an
# owner number of its own, so that no occurrence count of an earlier hypothesis leaks in. Rows are written per
# segment, so the order of work never shows in the results.

#: Segments per run at most (longer runs are split: the reference is counted again for each piece), so that
#: threads share the work of a reference scored many times.
cdef int64_t RUN_LIMIT = 1024


cdef int64_t shared_reference_runs(Kind kind, const int64_t* groups, const int64_t* lengths,
                                   const int64_t* ref_offsets, int64_t n_segments, int64_t n_groups,
                                   vector[int64_t]& order, vector[int64_t]& runs, vector[char]& shared) except -1:
    """The order of work: run ``r`` is the segments ``order[runs[r] .. runs[r + 1])``; ``shared[r]`` says they are
    short one-reference BLEU segments sharing their reference (in input order, the run placed where the first of
    them is), else the run is one segment. Returns the number of runs."""
    cdef vector[int64_t] key, members, place
    cdef int64_t i, t, group, position = 0, start, stop
    key.assign(n_segments, -1)
    members.assign(n_groups, 0)
    if kind == KIND_BLEU:
        for i in range(n_segments):
            t = n_segments + ref_offsets[i]
            if (ref_offsets[i + 1] - ref_offsets[i] == 1 and groups[t] >= 0 and lengths[t] <= SHORT_SEGMENT_CHARS
                    and lengths[i] <= SHORT_SEGMENT_CHARS):
                key[i] = groups[t]
                members[groups[t]] += 1
    place.assign(n_groups, -1)
    order.resize(n_segments)
    runs.assign(1, 0)
    shared.clear()
    for i in range(n_segments):
        group = key[i]
        if group >= 0 and members[group] >= 2:
            if place[group] < 0:
                place[group] = start = position
                position += members[group]
                while start < position:
                    stop = min(start + RUN_LIMIT, position)
                    runs.push_back(stop)
                    shared.push_back(1)
                    start = stop
            order[place[group]] = i
            place[group] += 1
        else:
            order[position] = i
            position += 1
            runs.push_back(position)
            shared.push_back(0)
    return <int64_t>shared.size()


cdef int shared_reference_run(SegmentEncoder* encoder, RepeatedTextCache* cache,
                              ReferenceVocabulary* vocabulary, Table* scratch, const void** data, const int* kinds,
                              const int64_t* lengths, const int64_t* groups, const int64_t* segments, int64_t count,
                              int64_t ref_text, int tokenizer, cbool lowercase, int64_t max_order, int64_t* out,
                              int64_t width) noexcept nogil:
    """Score the `count` segments ``segments[..]`` whose lone reference is text `ref_text` into their rows of
    `out`; 0, or STATUS_NO_MEMORY."""
    cdef int64_t length, size, k, segment, hyp_len
    cdef uint32_t words, generation
    cdef uint64_t mask
    cdef Slot* table
    cdef Count* unigrams
    cdef int64_t* row
    encoder.begin(lengths[ref_text])
    if not (encoder.add_repeated_text(cache[0], groups[ref_text], tokenizer, lowercase, kinds[ref_text],
                                      data[ref_text], lengths[ref_text])
            and encoder.finish()):
        return STATUS_NO_MEMORY
    if not vocabulary.assign(encoder[0]):
        return STATUS_NO_MEMORY
    length = encoder.offsets[1]
    words = encoder.first_text_vocabulary
    size = table_size(count_ngrams(length, max_order) - length)
    mask = <uint64_t>(size - 1)
    table = start_segment(scratch, size)
    unigrams = start_unigrams(scratch, words)
    if table == NULL or (unigrams == NULL and words > 0):
        return STATUS_NO_MEMORY
    generation = scratch.gen
    count_reference(encoder.ids.data(), length, max_order, 0, False, NO_LIMIT, unigrams, table, mask, generation)

    for k in range(count):
        segment = segments[k]
        encoder.begin(lengths[segment])
        if not (encoder.add_repeated_text(cache[0], groups[segment], tokenizer, lowercase, kinds[segment],
                                          data[segment], lengths[segment])
                and vocabulary.lookup(encoder[0])):
            return STATUS_NO_MEMORY
        hyp_len = encoder.offsets[1]
        row = out + segment * width
        begin_row(row, max_order, hyp_len, length)
        # a fresh owner per hypothesis: the counters' `current` restarts for it; tokens >= words are not in the
        # reference
        match_hypothesis(encoder.ids.data(), hyp_len, max_order, <int32_t>k, words, unigrams, table, mask,
                         generation, row + 2)
    return 0


cdef int gleu_segment(const uint32_t* ids, const int64_t* offsets, int64_t hyp_text, int64_t ref_first,
                      int64_t ref_last, int64_t min_len, int64_t max_len, Table* scratch,
                      int64_t* row, uint64_t hyp_limit) noexcept nogil:
    """row = [n_match, n_all] of the reference with the best tp / max(tpfp, tpfn) (NLTK corpus_gleu); -1 when
    out of memory."""
    cdef int64_t hyp_len = offsets[hyp_text + 1] - offsets[hyp_text]
    cdef int64_t r, length, tp, tpfp, tpfn, n_all
    cdef uint64_t mask
    cdef uint32_t generation
    cdef bint have_best = False
    cdef double ratio, best_ratio = 0.0
    cdef Slot* table

    row[0] = 0
    row[1] = 0
    tpfp = count_ngrams_between(hyp_len, min_len, max_len)
    mask = <uint64_t>(table_size(count_ngrams(hyp_len, max_len)) - 1)
    table = start_segment(scratch, <int64_t>mask + 1)
    if table == NULL:
        return -1
    generation = scratch.gen
    count_text(ids + offsets[hyp_text], hyp_len, max_len, 0, table, mask, generation, False, NO_LIMIT)

    for r in range(ref_first, ref_last):
        length = offsets[r + 1] - offsets[r]
        tpfn = count_ngrams_between(length, min_len, max_len)
        tp = 0
        if hyp_len > 0:
            count_clipped(ids + offsets[r], length, min_len, max_len, <int32_t>(r - ref_first), table, mask,
                          generation, &tp, 0, hyp_limit)
        n_all = tpfp if tpfp > tpfn else tpfn
        if n_all > 0:
            # NLTK: max(candidates, key=tp / n_all): the first maximum wins; same IEEE division as Python's.
            ratio = <double>tp / <double>n_all
            if not have_best or ratio > best_ratio:
                have_best = True
                best_ratio = ratio
                row[0] = tp
                row[1] = n_all
    return 0


cdef int64_t max_table_size(const int64_t* offsets, const int64_t* ref_offsets, int64_t n_segments,
                            int64_t max_n, bint from_references) noexcept nogil:
    """The largest per-segment table of a batch (references' n-grams for BLEU, the hypothesis' for GLEU)."""
    cdef int64_t i, r, entries, largest = 0
    for i in range(n_segments):
        entries = 0
        if from_references:
            for r in range(n_segments + ref_offsets[i], n_segments + ref_offsets[i + 1]):
                entries += count_ngrams(offsets[r + 1] - offsets[r], max_n)
        else:
            entries = count_ngrams(offsets[i + 1] - offsets[i], max_n)
        if entries > largest:
            largest = entries
    return table_size(largest)


cdef bint non_decreasing(const int64_t[::1] values) noexcept:
    cdef Py_ssize_t k
    for k in range(1, values.shape[0]):
        if values[k] < values[k - 1]:
            return False
    return True


def _check_layout(const uint32_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] ref_offsets):
    n_segments = ref_offsets.shape[0] - 1
    if n_segments < 0:
        raise ValueError("ref_offsets must have n_segments + 1 entries")
    n_texts = n_segments + ref_offsets[n_segments]
    if offsets.shape[0] != n_texts + 1:
        raise ValueError(f"offsets must have {n_texts + 1} entries (hypotheses + references + 1), "
                         f"got {offsets.shape[0]}")
    if ref_offsets[0] != 0 or not non_decreasing(ref_offsets):
        raise ValueError("ref_offsets must start at 0 and be non-decreasing")
    if offsets[0] != 0 or offsets[n_texts] != ids.shape[0] or not non_decreasing(offsets):
        raise ValueError("offsets must start at 0, be non-decreasing and end at len(ids)")
    return n_segments


cdef enum Kind:
    KIND_BLEU
    KIND_GLEU


@cython.boundscheck(False)
@cython.wraparound(False)
cdef object run_segments(Kind kind, const uint32_t[::1] ids, const int64_t[::1] offsets,
                         const int64_t[::1] ref_offsets, int64_t width, int64_t low, int64_t high, num_threads):
    """Validate the layout, allocate per-thread tables, and fill one output row per segment in one prange."""
    cdef int64_t n_segments = _check_layout(ids, offsets, ref_offsets)
    cdef int threads = resolve_num_threads(num_threads)
    result = np.zeros((n_segments, width), dtype=np.int64)
    if n_segments == 0:
        return result
    cdef int64_t[:, ::1] out = result
    # BLEU tables hold the references' n-grams, GLEU tables the hypothesis'
    cdef int64_t largest = max_table_size(&offsets[0], &ref_offsets[0], n_segments, high, kind == KIND_BLEU)
    if largest > MAX_TABLE_SLOTS:
        raise MemoryError(f"a segment has too many n-grams for one table ({largest} slots needed, at most "
                          f"{MAX_TABLE_SLOTS}); split very long segments")
    if threads > n_segments:
        threads = <int>n_segments
    cdef Table* scratch = new_tables(threads)
    cdef const uint32_t* tokens = &ids[0] if ids.shape[0] > 0 else NULL
    cdef int64_t i, failures = 0
    cdef int tid, status
    try:
        with nogil:
            for i in prange(n_segments, num_threads=threads, schedule="dynamic", chunksize=16):
                tid = threadid()
                if kind == KIND_BLEU:
                    status = bleu_segment(tokens, &offsets[0], i, n_segments + ref_offsets[i],
                                          n_segments + ref_offsets[i + 1], high, scratch + tid, &out[i, 0],
                                          NO_LIMIT)
                else:
                    status = gleu_segment(tokens, &offsets[0], i, n_segments + ref_offsets[i],
                                          n_segments + ref_offsets[i + 1], low, high, scratch + tid, &out[i, 0],
                                          NO_LIMIT)
                if status != 0:
                    failures += 1
    finally:
        free_tables(scratch, threads)
    if failures:
        raise MemoryError(f"out of memory for the n-gram tables of {failures} segment(s) (largest table: "
                          f"{largest} slots of {sizeof(Slot)} bytes per thread)")
    return result


def bleu_statistics(const uint32_t[::1] ids not None, const int64_t[::1] offsets not None,
                    const int64_t[::1] ref_offsets not None, int max_order, num_threads=None):
    """BLEU statistics per segment: int64 array ``(n, 2 + 2 * max_order)``.

    Columns: ``hyp_len, ref_len`` (closest reference length, ties to the shorter), ``match_1..N`` (hypothesis
    n-gram counts clipped by the maximum count in any one reference), ``total_1..N`` (hypothesis n-grams).
    """
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    return run_segments(KIND_BLEU, ids, offsets, ref_offsets, 2 + 2 * max_order, 1, max_order, num_threads)


def gleu_statistics(const uint32_t[::1] ids not None, const int64_t[::1] offsets not None,
                    const int64_t[::1] ref_offsets not None, int min_len, int max_len, num_threads=None):
    """Google-BLEU statistics per segment: int64 array ``(n, 2)`` of ``(n_match, n_all)``.

    NLTK ``corpus_gleu`` semantics: n-grams of orders ``min_len..max_len``; per segment the reference with the
    highest ``tp / max(tpfp, tpfn)`` (the first on ties) gives ``(tp, max(tpfp, tpfn))``; ``(0, 0)`` when every
    reference has ``max(tpfp, tpfn) == 0`` (NLTK skips such pairs).
    """
    if min_len < 1 or max_len < min_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    return run_segments(KIND_GLEU, ids, offsets, ref_offsets, 2, min_len, max_len, num_threads)


cdef int text_segment(Kind kind, SegmentEncoder* encoder, RepeatedTextCache* cache, Table* scratch,
                      const void** data, const int* kinds, const int64_t* lengths, const int64_t* groups,
                      int64_t n_segments, int64_t segment, const int64_t* ref_offsets, int tokenizer,
                      cbool lowercase, int64_t low, int64_t high, int64_t* row) noexcept nogil:
    """Tokenize one segment (hypothesis, then its references) into segment-local ids and count its n-grams. A
    text met several times in the call (``groups``) is tokenized once per thread (``cache``)."""
    cdef int64_t r, t, entries = 0, characters = lengths[segment]
    for r in range(ref_offsets[segment], ref_offsets[segment + 1]):
        characters += lengths[n_segments + r]
    encoder.begin(characters)
    if not encoder.add_repeated_text(cache[0], groups[segment], tokenizer, lowercase, kinds[segment], data[segment],
                                     lengths[segment]):
        return STATUS_NO_MEMORY
    for r in range(ref_offsets[segment], ref_offsets[segment + 1]):
        t = n_segments + r
        if not encoder.add_repeated_text(cache[0], groups[t], tokenizer, lowercase, kinds[t], data[t], lengths[t]):
            return STATUS_NO_MEMORY
    if not encoder.finish():
        return STATUS_NO_MEMORY
    cdef int64_t n_refs = ref_offsets[segment + 1] - ref_offsets[segment]
    cdef const int64_t* offsets = encoder.offsets.data()
    cdef const uint32_t* ids = encoder.ids.data()
    if kind == KIND_BLEU:
        for t in range(1, 1 + n_refs):
            entries += count_ngrams(offsets[t + 1] - offsets[t], high)
    else:
        entries = count_ngrams(offsets[1], high)
    if table_size(entries) > TABLE_SLOTS_LIMIT:
        return STATUS_TOO_LARGE
    # ids are numbered in order of first appearance, the hypothesis first: a reference token >= the number of
    # distinct hypothesis tokens does not occur in the hypothesis
    cdef uint64_t hyp_limit = encoder.first_text_vocabulary
    if kind == KIND_BLEU:
        if hyp_limit < TOKEN_PREFIX:
            return bleu_text_segment(ids, offsets, n_refs, high, scratch, row, <uint32_t>hyp_limit)
        return bleu_segment(ids, offsets, 0, 1, 1 + n_refs, high, scratch, row, hyp_limit)
    return gleu_segment(ids, offsets, 0, 1, 1 + n_refs, low, high, scratch, row, hyp_limit)


cdef object run_text_segments(Kind kind, list hypotheses, list references, const int64_t[::1] ref_offsets,
                              tokenizer, bint lowercase, int64_t width, int64_t low, int64_t high, num_threads):
    """Check the layout, point at every string's buffer, and fill one output row per segment in one prange."""
    cdef int code = tokenizer_code(tokenizer)
    cdef int64_t n_segments = len(hypotheses)
    cdef int64_t t
    cdef bint ordered = ref_offsets.shape[0] == n_segments + 1 and non_decreasing(ref_offsets)
    if not ordered or ref_offsets[0] != 0 or ref_offsets[n_segments] != len(references):
        raise ValueError(f"ref_offsets must have len(hypotheses) + 1 = {n_segments + 1} non-decreasing entries "
                         f"from 0 to len(references) = {len(references)}")
    hypothesis_texts, kernel_lowercase = kernel_case(hypotheses, lowercase)
    reference_texts, _ = kernel_case(references, lowercase)
    lowercase = kernel_lowercase
    cdef StringBuffers buffers   # the hypotheses' buffers, then the references'
    for name, texts in (("hypotheses", hypothesis_texts), ("references", reference_texts)):
        t = point_at_strings(texts, buffers)
        if t >= 0:
            where = f"hypotheses[{t}]" if name == "hypotheses" else f"references[{t}] (flattened)"
            raise TypeError(f"{where} is {type(texts[t]).__name__}, expected str")
    cdef const void** data = buffers.data.data()
    cdef const int* kinds = buffers.kinds.data()
    cdef const int64_t* lengths = buffers.lengths.data()
    cdef int64_t n_texts = buffers.data.size()

    result = np.zeros((n_segments, width), dtype=np.int64)
    if n_segments == 0:
        return result
    cdef int64_t[:, ::1] out = result
    cdef int threads = <int>min(resolve_num_threads(num_threads), 1 + buffers.total_chars // CHARS_PER_THREAD,
                                n_segments)
    cdef vector[int64_t] groups
    groups.resize(n_texts)
    cdef int64_t n_groups = repeated_text_groups(data, kinds, lengths, n_texts, groups.data())
    cdef vector[RepeatedTextCache] caches
    caches.resize(threads)
    cdef int worker
    for worker in range(threads):
        caches[worker].reset(n_groups)
    cdef RepeatedTextCache* cache = caches.data()
    cdef vector[SegmentEncoder] encoders
    encoders.resize(threads)
    cdef SegmentEncoder* encoder = encoders.data()
    cdef vector[ReferenceVocabulary] vocabularies
    vocabularies.resize(threads)
    cdef ReferenceVocabulary* vocabulary = vocabularies.data()
    cdef vector[int64_t] order, runs
    cdef vector[char] shared
    cdef int64_t n_runs = shared_reference_runs(kind, groups.data(), lengths, &ref_offsets[0], n_segments,
                                                n_groups, order, runs, shared)
    cdef Table* scratch = new_tables(threads)
    cdef int64_t run, first, no_memory = 0, too_large = 0
    cdef int tid, status
    try:
        with nogil:
            for run in prange(n_runs, num_threads=threads, schedule="dynamic", chunksize=8):
                tid = threadid()
                first = order[runs[run]]
                if shared[run]:
                    status = shared_reference_run(encoder + tid, cache + tid, vocabulary + tid, scratch + tid,
                                                  data, kinds, lengths, groups.data(),
                                                  &order[runs[run]], runs[run + 1] - runs[run],
                                                  n_segments + ref_offsets[first], code, lowercase, high,
                                                  &out[0, 0], width)
                else:
                    status = text_segment(kind, encoder + tid, cache + tid, scratch + tid, data, kinds, lengths,
                                          groups.data(), n_segments, first, &ref_offsets[0], code, lowercase,
                                          low, high, &out[first, 0])
                if status == STATUS_NO_MEMORY:
                    no_memory += 1
                elif status == STATUS_TOO_LARGE:
                    too_large += 1
    finally:
        free_tables(scratch, threads)
    if too_large:
        raise MemoryError(f"{too_large} segment(s) have too many n-grams for one table (at most "
                          f"{MAX_TABLE_SLOTS} slots); split very long segments")
    if no_memory:
        raise MemoryError(f"out of memory while tokenizing and counting the n-grams of {no_memory} segment(s) (or a "
                          f"segment of more than 2**32 characters in all; split very long segments)")
    return result


def bleu_text_statistics(list hypotheses not None, list references not None, const int64_t[::1] ref_offsets not None,
                         tokenizer, bint lowercase, int max_order, num_threads=None):
    """BLEU statistics per segment straight from text (see :func:`bleu_statistics` for the columns).

    ``references`` is the flat list of every segment's references; segment ``i`` owns
    ``references[ref_offsets[i]:ref_offsets[i + 1]]``. ``tokenizer`` and ``lowercase`` are sacreBLEU's.

    >>> bleu_text_statistics(["The cat sat."], ["the cat sat ."], np.array([0, 1]), "13a", True, 2).tolist()
    [[4, 4, 4, 3, 4, 3]]
    """
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    return run_text_segments(KIND_BLEU, hypotheses, references, ref_offsets, tokenizer, lowercase,
                             2 + 2 * max_order, 1, max_order, num_threads)


def gleu_text_statistics(list hypotheses not None, list references not None, const int64_t[::1] ref_offsets not None,
                         tokenizer, bint lowercase, int min_len, int max_len, num_threads=None):
    """Google-BLEU statistics per segment straight from text (see :func:`gleu_statistics`).

    >>> gleu_text_statistics(["a b c"], ["a b d", "a b c"], np.array([0, 2]), "none", False, 1, 2).tolist()
    [[5, 5]]
    """
    if min_len < 1 or max_len < min_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    return run_text_segments(KIND_GLEU, hypotheses, references, ref_offsets, tokenizer, lowercase, 2, min_len,
                             max_len, num_threads)
