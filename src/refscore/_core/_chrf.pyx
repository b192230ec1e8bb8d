# cython: language_level=3
"""chrF / chrF++ sufficient statistics: character and word n-gram counts, exact, over Unicode code points.

One call scores a whole batch. Python hands over the strings' own code-point buffers (PEP 393, no copies, no
encoding); then a single ``with nogil`` ``prange`` over segments does everything: whitespace removal, sacreBLEU's
punctuation peeling for word n-grams, n-gram counting and the choice of the best reference.

N-grams are counted by *id chaining*: order-1 items (code points, or word tokens compared by content) get dense
ids from an exact hash table; the order-n id at position ``i`` is the dense id of the exact 64-bit pair
``(id_{n-1}[i], unigram[i + n - 1])``. Keys are compared exactly, so hash collisions only cost probes, never
change counts. Every segment is processed by one thread with its own scratch space, so results do not depend on
the thread count.
"""
import numpy as np

from cython.parallel cimport parallel, prange
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libcpp.vector cimport vector
from refscore._core._hashing cimport mix64
from refscore._core._strings cimport point_at_strings

from refscore._core._parallel import resolve_num_threads

cdef extern from *:
    """
    /* A product followed by a sum, rounded as two separate IEEE operations (as Python computes it): the
       volatile store forbids fusing them into one FMA instruction, which would change the last bit. */
    static double refscore_mul_add(double a, double b, double c) {
        volatile double product = a * b;
        return product + c;
    }
    """
    double refscore_mul_add(double a, double b, double c) noexcept nogil

cdef enum:
    KEEP_SPACE = 0
    REMOVE_PYTHON_SPACE = 1
    REMOVE_REGEX_SPACE = 2

#: Which whitespace is removed before character n-grams are extracted (argument ``space_mode``).
SPACE_KEEP = KEEP_SPACE              # sacreBLEU whitespace=True: every character counts
SPACE_PYTHON = REMOVE_PYTHON_SPACE   # sacreBLEU default: ''.join(line.split()), Python's str.isspace() set
SPACE_REGEX = REMOVE_REGEX_SPACE     # NLTK: regex r"\s+" (`regex`'s Unicode White_Space: no U+001C..U+001F)

cdef double EPS = 1e-16


cdef inline bint is_python_space(uint32_t c) noexcept nogil:
    """``chr(c).isspace()``: the characters ``str.split()`` splits on."""
    if c < 128:
        return (9 <= c <= 13) or (28 <= c <= 32)
    return (c == 0x85 or c == 0xA0 or c == 0x1680 or (0x2000 <= c <= 0x200A) or c == 0x2028 or c == 0x2029
            or c == 0x202F or c == 0x205F or c == 0x3000)


cdef inline bint is_removed_space(uint32_t c, int space_mode) noexcept nogil:
    if space_mode == KEEP_SPACE:
        return False
    if space_mode == REMOVE_REGEX_SPACE and 28 <= c <= 31:
        return False
    return is_python_space(c)


cdef inline bint is_ascii_punctuation(uint32_t c) noexcept nogil:
    """``c in string.punctuation`` (sacreBLEU's ``CHRF._PUNCTS``)."""
    return (33 <= c <= 47) or (58 <= c <= 64) or (91 <= c <= 96) or (123 <= c <= 126)




cdef struct Slot:
    uint64_t key
    uint32_t value
    uint32_t stamp       # the table generation that wrote this slot; older = empty


cdef cppclass Scratch:
    """One thread's working memory, reused for every segment it processes."""
    vector[uint32_t] raw          # code points of the segment's strings (hypothesis, then references)
    vector[int64_t] raw_start     # string j is raw[raw_start[j]:raw_start[j + 1]]
    vector[uint32_t] units        # order-1 ids (characters or word tokens) of every string, concatenated
    vector[int64_t] unit_start
    vector[uint32_t] ids          # ids of the current order, aligned with `units`
    vector[int64_t] hyp_count     # per id: occurrences in the hypothesis
    vector[int64_t] ref_count     # per id: occurrences in the reference being compared
    vector[int64_t] ref_stats     # per reference: [hyp, ref, match] per order
    # Open-addressing table: exact 64-bit keys -> dense ids; stamps mark the live generation (no clearing).
    vector[Slot] slots
    vector[int64_t] token_pos     # per word id: where its first occurrence starts in `raw`, and its length
    vector[int64_t] token_len
    uint32_t generation
    uint32_t next_id
    uint64_t mask


cdef void table_reset(Scratch* w, int64_t n_items) noexcept nogil:
    """Empty the table and make room for ``n_items`` distinct keys (load factor <= 1/2)."""
    cdef uint64_t capacity = 16
    cdef Slot empty
    empty.key = 0
    empty.value = 0
    empty.stamp = 0
    while capacity < <uint64_t>(2 * n_items):
        capacity <<= 1
    if capacity > w.slots.size():
        w.slots.assign(capacity, empty)
        w.generation = 0
    w.mask = w.slots.size() - 1
    w.generation += 1
    if w.generation == 0:  # wrapped around: stale stamps could look live
        w.slots.assign(w.slots.size(), empty)
        w.generation = 1
    w.next_id = 0


cdef inline uint32_t claim(Scratch* w, Slot* slot, uint64_t key) noexcept nogil:
    """Store ``key`` in the empty ``slot`` with the next dense id, and return that id."""
    slot.stamp = w.generation
    slot.key = key
    slot.value = w.next_id
    w.next_id += 1
    return slot.value


cdef inline uint32_t key_id(Scratch* w, uint64_t key) noexcept nogil:
    """The dense id of an exact 64-bit key, assigning the next id to a new key."""
    cdef uint64_t index = mix64(key) & w.mask
    while w.slots[index].stamp == w.generation:
        if w.slots[index].key == key:
            return w.slots[index].value
        index = (index + 1) & w.mask
    return claim(w, &w.slots[index], key)


cdef inline bint same_token(Scratch* w, uint32_t token_id, int64_t pos, int64_t length) noexcept nogil:
    cdef int64_t other = w.token_pos[token_id]
    cdef int64_t k
    if w.token_len[token_id] != length:
        return False
    for k in range(length):
        if w.raw[other + k] != w.raw[pos + k]:
            return False
    return True


cdef inline uint32_t token_id(Scratch* w, int64_t pos, int64_t length) noexcept nogil:
    """The dense id of the word ``raw[pos:pos + length]``, compared by content (the hash only picks the slot)."""
    cdef uint64_t digest = 0xCBF29CE484222325ULL
    cdef int64_t k
    for k in range(length):
        digest = (digest ^ w.raw[pos + k]) * 0x100000001B3ULL
    digest ^= <uint64_t>length
    cdef uint64_t index = mix64(digest) & w.mask
    while w.slots[index].stamp == w.generation:
        if w.slots[index].key == digest and same_token(w, w.slots[index].value, pos, length):
            return w.slots[index].value
        index = (index + 1) & w.mask
    w.token_pos.push_back(pos)
    w.token_len.push_back(length)
    return claim(w, &w.slots[index], digest)


cdef void decode(const void* data, int kind, int64_t length, uint32_t* out) noexcept nogil:
    """Copy the code points of a PEP 393 string buffer to ``out``."""
    cdef int64_t i
    if kind == 1:
        for i in range(length):
            out[i] = (<const uint8_t*>data)[i]
    elif kind == 2:
        for i in range(length):
            out[i] = (<const uint16_t*>data)[i]
    else:
        for i in range(length):
            out[i] = (<const uint32_t*>data)[i]


cdef void char_units(Scratch* w, int n_strings, int space_mode) noexcept nogil:
    """Order-1 character ids (whitespace removed per ``space_mode``), one run per string."""
    cdef int j
    cdef int64_t p, count = 0
    cdef uint32_t c
    table_reset(w, w.raw.size())
    w.units.resize(w.raw.size())
    w.unit_start.resize(n_strings + 1)
    for j in range(n_strings):
        w.unit_start[j] = count
        for p in range(w.raw_start[j], w.raw_start[j + 1]):
            c = w.raw[p]
            if not is_removed_space(c, space_mode):
                w.units[count] = key_id(w, c)
                count += 1
    w.unit_start[n_strings] = count
    w.units.resize(count)


cdef void word_units(Scratch* w, int n_strings) noexcept nogil:
    """Order-1 word ids: ``str.split()`` then sacreBLEU's ``_remove_punctuation`` (one ASCII punctuation
    character peeled off the end, else off the start, of every word longer than one character)."""
    cdef int j
    cdef int64_t p, end, start, length
    table_reset(w, w.raw.size())
    w.token_pos.clear()
    w.token_len.clear()
    w.units.clear()
    w.unit_start.clear()
    for j in range(n_strings):
        w.unit_start.push_back(w.units.size())
        p = w.raw_start[j]
        end = w.raw_start[j + 1]
        while p < end:
            if is_python_space(w.raw[p]):
                p += 1
                continue
            start = p
            while p < end and not is_python_space(w.raw[p]):
                p += 1
            length = p - start
            if length == 1:
                w.units.push_back(token_id(w, start, 1))
            elif is_ascii_punctuation(w.raw[p - 1]):
                w.units.push_back(token_id(w, start, length - 1))
                w.units.push_back(token_id(w, p - 1, 1))
            elif is_ascii_punctuation(w.raw[start]):
                w.units.push_back(token_id(w, start, 1))
                w.units.push_back(token_id(w, start + 1, length - 1))
            else:
                w.units.push_back(token_id(w, start, length))
    w.unit_start.push_back(w.units.size())


cdef void count_orders(Scratch* w, int n_refs, int max_order, int first_column, int n_columns) noexcept nogil:
    """[hyp, ref, match] per order 1..max_order for every reference, from the order-1 ids in ``w.units``.

    sacreBLEU's rule: the hypothesis count is 0 for an order where the reference has no n-gram.
    """
    cdef int64_t total = w.units.size()
    cdef int64_t hyp_begin = w.unit_start[0]
    cdef int64_t p, begin, n_grams, hyp_grams, match
    cdef int n, j, column
    cdef uint32_t gram
    w.ids = w.units
    if <int64_t>w.hyp_count.size() < total + 1:
        w.hyp_count.resize(total + 1, 0)
        w.ref_count.resize(total + 1, 0)
    for n in range(1, max_order + 1):
        if n > 1:
            table_reset(w, total)
            for j in range(n_refs + 1):
                for p in range(w.unit_start[j], w.unit_start[j + 1] - n + 1):
                    w.ids[p] = key_id(w, (<uint64_t>w.ids[p] << 32) | w.units[p + n - 1])
        hyp_grams = w.unit_start[1] - hyp_begin - n + 1
        if hyp_grams < 0:
            hyp_grams = 0
        for p in range(hyp_begin, hyp_begin + hyp_grams):
            w.hyp_count[w.ids[p]] += 1
        column = first_column + 3 * (n - 1)
        for j in range(1, n_refs + 1):
            begin = w.unit_start[j]
            n_grams = w.unit_start[j + 1] - begin - n + 1
            if n_grams < 0:
                n_grams = 0
            match = 0
            for p in range(begin, begin + n_grams):
                gram = w.ids[p]
                w.ref_count[gram] += 1
                if w.ref_count[gram] <= w.hyp_count[gram]:
                    match += 1
            for p in range(begin, begin + n_grams):
                w.ref_count[w.ids[p]] = 0
            w.ref_stats[(j - 1) * n_columns + column] = hyp_grams if n_grams > 0 else 0
            w.ref_stats[(j - 1) * n_columns + column + 1] = n_grams
            w.ref_stats[(j - 1) * n_columns + column + 2] = match
        for p in range(hyp_begin, hyp_begin + hyp_grams):
            w.hyp_count[w.ids[p]] = 0


cdef double f_score(const int64_t* stats, int order, double factor, bint eps_smoothing) noexcept nogil:
    """sacreBLEU's ``CHRF._compute_f_score`` (0–100), operation for operation, so ties break identically."""
    cdef double score = 0.0, avg_prec = 0.0, avg_rec = 0.0, prec, rec, denom
    cdef int effective_order = 0, i
    cdef int64_t n_hyp, n_ref, n_match
    for i in range(order):
        n_hyp = stats[3 * i]
        n_ref = stats[3 * i + 1]
        n_match = stats[3 * i + 2]
        prec = (<double>n_match) / n_hyp if n_hyp > 0 else EPS
        rec = (<double>n_match) / n_ref if n_ref > 0 else EPS
        denom = refscore_mul_add(factor, prec, rec)
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / order
    if effective_order == 0:
        avg_prec = 0.0
        avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec != 0:
        score = (1 + factor) * avg_prec * avg_rec
        score /= refscore_mul_add(factor, avg_prec, avg_rec)
        return 100 * score
    return 0.0


def chrf_f_scores(const int64_t[:, ::1] totals not None, int order, double factor, bint eps_smoothing):
    """sacreBLEU's ``CHRF._compute_f_score`` (0–100) of every row of ``(m, 3 * order)`` integer statistics,
    compiled: each value is the very float sacreBLEU computes.

    >>> chrf_f_scores(np.array([[4, 5, 2]]), 1, 4.0, False).round(4).tolist()
    [41.6667]
    """
    if order < 1 or totals.shape[1] != 3 * order:
        raise ValueError(f"chrF totals must have shape (m, {3 * order}) for order {order}, got "
                         f"({totals.shape[0]}, {totals.shape[1]})")
    cdef Py_ssize_t rows = totals.shape[0], row
    scores = np.empty(rows, dtype=np.float64)
    cdef double[::1] out = scores
    with nogil:
        for row in range(rows):
            out[row] = f_score(&totals[row, 0], order, factor, eps_smoothing)
    return scores


cdef void segment_statistics(Scratch* w, int64_t segment, const void** hyp_data, const int* hyp_kind,
                             const int64_t* hyp_len, const void** ref_data, const int* ref_kind,
                             const int64_t* ref_len, const int64_t* ref_offsets, int char_order, int word_order,
                             double factor, bint eps_smoothing, int space_mode, int64_t* out) noexcept nogil:
    cdef int64_t first_ref = ref_offsets[segment]
    cdef int n_refs = <int>(ref_offsets[segment + 1] - first_ref)
    cdef int n_columns = 3 * (char_order + word_order)
    cdef int j, best = 0, k
    cdef double best_f = -1.0, f
    cdef int64_t length = hyp_len[segment]
    for j in range(n_refs):
        length += ref_len[first_ref + j]
    w.raw.resize(length)
    w.raw_start.resize(n_refs + 2)
    w.raw_start[0] = 0
    decode(hyp_data[segment], hyp_kind[segment], hyp_len[segment], w.raw.data())
    w.raw_start[1] = hyp_len[segment]
    for j in range(n_refs):
        decode(ref_data[first_ref + j], ref_kind[first_ref + j], ref_len[first_ref + j],
               w.raw.data() + w.raw_start[j + 1])
        w.raw_start[j + 2] = w.raw_start[j + 1] + ref_len[first_ref + j]
    w.ref_stats.assign(n_refs * n_columns, 0)
    if char_order > 0:
        char_units(w, n_refs + 1, space_mode)
        count_orders(w, n_refs, char_order, 0, n_columns)
    if word_order > 0:
        word_units(w, n_refs + 1)
        count_orders(w, n_refs, word_order, 3 * char_order, n_columns)
    for j in range(n_refs):
        f = f_score(&w.ref_stats[j * n_columns], char_order + word_order, factor, eps_smoothing)
        if f > best_f:
            best_f = f
            best = j
    for k in range(n_columns):
        out[k] = w.ref_stats[best * n_columns + k]


cdef int string_buffers(list texts, vector[const void*]& data, vector[int]& kind,
                        vector[int64_t]& length) except -1:
    cdef int64_t total_chars = 0
    cdef Py_ssize_t index = point_at_strings(texts, data, kind, length, &total_chars)
    if index >= 0:
        raise TypeError(f"chrf_statistics: expected str, got {type(texts[index]).__name__}")
    return 0


def chrf_statistics(list hypotheses, list references, const int64_t[::1] ref_offsets, int char_order,
                    int word_order, double factor, bint eps_smoothing, int space_mode, num_threads=None):
    """Per-segment chrF statistics: an int64 array ``(n, 3 * (char_order + word_order))``.

    Row ``i`` holds ``[hyp, ref, match]`` for character orders ``1..char_order`` then word orders
    ``1..word_order``, taken from the reference of segment ``i`` with the best sentence chrF (``factor`` =
    beta², ``eps_smoothing`` as sacreBLEU; the first reference wins ties). The references of segment ``i`` are
    ``references[ref_offsets[i]:ref_offsets[i + 1]]``. Strings must already be lowercased if wanted.

    >>> import numpy as np
    >>> chrf_statistics(["ab"], ["abc"], np.array([0, 1]), 2, 0, 4.0, False, SPACE_PYTHON)[0].tolist()
    [2, 3, 2, 1, 2, 1]
    """
    cdef int64_t n = len(hypotheses)
    cdef int64_t segment
    cdef int threads = resolve_num_threads(num_threads)
    cdef int n_columns = 3 * (char_order + word_order)
    cdef vector[const void*] hyp_data, ref_data
    cdef vector[int] hyp_kind, ref_kind
    cdef vector[int64_t] hyp_len, ref_len
    cdef Scratch* scratch
    if char_order < 0 or word_order < 0 or char_order + word_order < 1:
        raise ValueError(f"chrf_statistics: need char_order >= 0, word_order >= 0 and at least one order, got "
                         f"char_order={char_order}, word_order={word_order}")
    if space_mode not in (SPACE_KEEP, SPACE_PYTHON, SPACE_REGEX):
        raise ValueError(f"chrf_statistics: unknown space_mode {space_mode}")
    if ref_offsets.shape[0] != n + 1 or (n >= 0 and ref_offsets[0] != 0) or ref_offsets[n] != len(references):
        raise ValueError("chrf_statistics: ref_offsets must have n + 1 entries from 0 to len(references)")
    for segment in range(n):
        if ref_offsets[segment + 1] <= ref_offsets[segment]:
            raise ValueError(f"chrf_statistics: segment {segment} has no reference")
    string_buffers(hypotheses, hyp_data, hyp_kind, hyp_len)
    string_buffers(references, ref_data, ref_kind, ref_len)
    out = np.zeros((n, n_columns), dtype=np.int64)
    cdef int64_t[:, ::1] rows = out
    if n == 0:
        return out
    scratch = NULL
    with nogil, parallel(num_threads=threads):
        scratch = new Scratch()
        scratch.generation = 0
        for segment in prange(n, schedule="dynamic"):
            segment_statistics(scratch, segment, hyp_data.data(), hyp_kind.data(), hyp_len.data(),
                               ref_data.data(), ref_kind.data(), ref_len.data(), &ref_offsets[0], char_order,
                               word_order, factor, eps_smoothing, space_mode, &rows[segment, 0])
        del scratch
    return out
