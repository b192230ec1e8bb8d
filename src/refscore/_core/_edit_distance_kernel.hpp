// Edit distances over symbol sequences (uint32 code points or word ids, remapped to a dense alphabet, or two
// strings numbered pair by pair): Indel distance from a bit-parallel LCS (Hyyrö 2004, as RapidFuzz's Indel),
// Levenshtein from the bit-parallel Myers/Hyyrö 2003 recurrence, both the core's one kernel (_bitparallel.hpp,
// shared with the WER family's _levenshtein.hpp), and torchmetrics' extended edit distance (EED, a
// plain dynamic programme: its jumps and coverage counts have no bit-parallel form). Every function reads its
// inputs and writes only its own scratch, so pairs run on any thread in any order with the same results.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include "_bitparallel.hpp"
#include "_interrupt.hpp"
#include "_levenshtein.hpp"
#include "_text.hpp"

namespace refscore {
namespace editdist {

enum Kind : int { kLevenshtein = 0, kIndel = 1 };
enum Unit : int { kCharacters = 0, kWords = 1 };

// The distance of ``kind`` between the pattern (n symbols, its masks in ``rows``) and s2[0, m).
template <class Rows>
inline int64_t rows_distance(int kind, Rows& rows, int64_t n, const uint32_t* s2, int64_t m,
                             std::vector<uint64_t>& state) {
    if (kind == kLevenshtein) return bitparallel::levenshtein(rows, n, s2, m, state);
    return n + m - 2 * bitparallel::lcs(rows, n, s2, m, state);
}

// A word of str.split(): its span and a hash of its code points.
struct WordSpan {
    uint64_t hash;
    int64_t start, length;
};

// str.split()'s words of s[0, n) (runs of str.isspace separate them), each hashed while it is read.
template <class Char>
inline void split_hashed(const Char* s, int64_t n, std::vector<WordSpan>& out) {
    out.clear();
    int64_t i = 0;
    while (i < n) {
        while (i < n && is_space(s[i])) ++i;
        if (i >= n) break;
        const int64_t start = i;
        // a rotate-xor per code point (no multiply on the loop's critical path), mixed once per word; a collision
        // only costs a comparison (words are compared by their code points)
        uint64_t h = 0;
        while (i < n && !is_space(s[i])) {
            h = ((h << 7) | (h >> 57)) ^ static_cast<uint64_t>(s[i]);
            ++i;
        }
        h ^= static_cast<uint64_t>(i - start) << 56;
        h *= UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 29;
        out.push_back({h, start, i - start});
    }
}

// Local numbering of one pair's symbols without clearing between pairs: a slot belongs to the current pair when
// its stamp is the pair's (a new pair bumps the stamp; a wrap clears the table once in 2^32 pairs).
struct StampedTable {
    std::vector<uint32_t> stamp, id;
    std::vector<uint64_t> hash;
    uint32_t current = 0;

    void start(size_t capacity) {
        if (stamp.size() < capacity) {
            stamp.assign(capacity, 0);
            id.assign(capacity, 0);
            hash.assign(capacity, 0);
            current = 0;
        }
        if (++current == 0) {
            std::fill(stamp.begin(), stamp.end(), 0);
            current = 1;
        }
    }
};

// Per-thread scratch of the pair loops, reused from pair to pair (no allocation per pair once grown): the dense
// mask table, the memory-linear one of the WER kernel (a pattern whose dense table would be too large) with its
// local renumbering, the tables that number a pair's words and code points, and the block state.
struct Workspace {
    bitparallel::DensePattern pattern;
    levenshtein::Workspace linear;
    StampedTable word_table, char_table;
    std::vector<WordSpan> spans1, spans2;
    std::vector<size_t> first_span;   // local word id -> its first span in the first string
    std::vector<uint64_t> state;
};

// The distance of ``kind`` of a pattern (n symbols below ``alphabet``) against s2[0, m): the dense table when
// it fits, the memory-linear one otherwise.
inline int64_t pattern_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                                const uint32_t* b, int64_t m) {
    if (bitparallel::DensePattern::fits(alphabet, n)) {
        ws.pattern.set(alphabet, a, n);
        const int64_t found = rows_distance(kind, ws.pattern, n, b, m, ws.state);
        ws.pattern.clear();
        return found;
    }
    ws.linear.alphabet = static_cast<uint32_t>(alphabet);
    ws.linear.prepare(a, n);
    const int64_t found = rows_distance(kind, ws.linear, n, b, m, ws.state);
    ws.linear.unprepare();
    return found;
}

// The distance of one pair, its common prefix and suffix removed first (they change neither distance), the
// shorter side as the pattern (both distances are symmetric).
inline int64_t pair_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                             const uint32_t* b, int64_t m) {
    while (n > 0 && m > 0 && a[0] == b[0]) { ++a; ++b; --n; --m; }
    while (n > 0 && m > 0 && a[n - 1] == b[m - 1]) { --n; --m; }
    if (n == 0 || m == 0) return n + m;   // one side is empty: every symbol of the other is an edit
    if (n > m) { std::swap(a, b); std::swap(n, m); }
    return pattern_distance(ws, kind, alphabet, a, n, b, m);
}

// pair_distance, -1 when its tables cannot be allocated (the binding raises MemoryError).
inline int64_t checked_pair_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                                     const uint32_t* b, int64_t m) noexcept {
    try {
        return pair_distance(ws, kind, alphabet, a, n, b, m);
    } catch (const std::bad_alloc&) {
        ws = Workspace();
        return -1;
    }
}

template <class C1, class C2>
inline bool same_code_points(const C1* a, const C2* b, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (static_cast<uint32_t>(a[i]) != static_cast<uint32_t>(b[i])) return false;
    return true;
}

// Words of the two strings numbered locally into ws.linear.a / .b: the first string's words 0..k-1, a word of the
// second that is none of them k; words compared by their code points (the hash finds the candidates).
template <class C1, class C2>
inline void number_words(Workspace& ws, const C1* s1, int64_t n1, const C2* s2, int64_t n2) {
    split_hashed(s1, n1, ws.spans1);
    split_hashed(s2, n2, ws.spans2);
    size_t capacity = 16;
    while (capacity < 2 * ws.spans1.size() + 2) capacity <<= 1;
    StampedTable& table = ws.word_table;
    table.start(capacity);
    const size_t mask = capacity - 1;
    std::vector<uint32_t>& a = ws.linear.a;
    std::vector<uint32_t>& b = ws.linear.b;
    a.resize(ws.spans1.size());
    b.resize(ws.spans2.size());
    uint32_t next = 0;
    ws.first_span.clear();
    for (size_t w = 0; w < ws.spans1.size(); ++w) {
        const WordSpan& word = ws.spans1[w];
        size_t slot = word.hash & mask;
        uint32_t found = UINT32_MAX;
        while (table.stamp[slot] == table.current) {
            if (table.hash[slot] == word.hash) {
                const WordSpan& seen = ws.spans1[ws.first_span[table.id[slot]]];
                if (seen.length == word.length && same_code_points(s1 + seen.start, s1 + word.start, word.length)) {
                    found = table.id[slot];
                    break;
                }
            }
            slot = (slot + 1) & mask;
        }
        if (found == UINT32_MAX) {
            table.stamp[slot] = table.current;
            table.hash[slot] = word.hash;
            table.id[slot] = found = next++;
            ws.first_span.push_back(w);
        }
        a[w] = found;
    }
    for (size_t w = 0; w < ws.spans2.size(); ++w) {
        const WordSpan& word = ws.spans2[w];
        size_t slot = word.hash & mask;
        uint32_t found = next;   // no word of the first string: the one id that matches nothing
        while (table.stamp[slot] == table.current) {
            if (table.hash[slot] == word.hash) {
                const WordSpan& seen = ws.spans1[ws.first_span[table.id[slot]]];
                if (seen.length == word.length && same_code_points(s1 + seen.start, s2 + word.start, word.length)) {
                    found = table.id[slot];
                    break;
                }
            }
            slot = (slot + 1) & mask;
        }
        b[w] = found;
    }
    ws.linear.alphabet = next + 1;
}

// Code points of two strings, their common affixes stripped, numbered locally into ws.linear.a / .b (equal code
// points, equal ids; only the pair's own symbols): a direct table below 2^16, the WER kernel's hashing above.
template <class C1, class C2>
inline void number_code_points(Workspace& ws, const C1* s1, int64_t n1, const C2* s2, int64_t n2) {
    while (n1 > 0 && n2 > 0 && static_cast<uint32_t>(s1[0]) == static_cast<uint32_t>(s2[0])) { ++s1; ++s2; --n1; --n2; }
    while (n1 > 0 && n2 > 0 && static_cast<uint32_t>(s1[n1 - 1]) == static_cast<uint32_t>(s2[n2 - 1])) { --n1; --n2; }
    if (sizeof(C1) == 4 || sizeof(C2) == 4) {
        ws.linear.remap([s1](int64_t i) { return static_cast<uint32_t>(s1[i]); }, n1,
                        [s2](int64_t j) { return static_cast<uint32_t>(s2[j]); }, n2);
        return;
    }
    StampedTable& table = ws.char_table;
    table.start(65536);
    std::vector<uint32_t>& a = ws.linear.a;
    std::vector<uint32_t>& b = ws.linear.b;
    a.resize(static_cast<size_t>(n1));
    b.resize(static_cast<size_t>(n2));
    uint32_t next = 0;
    for (int64_t i = 0; i < n1; ++i) {
        const uint32_t c = s1[i];
        if (table.stamp[c] != table.current) {
            table.stamp[c] = table.current;
            table.id[c] = next++;
        }
        a[static_cast<size_t>(i)] = table.id[c];
    }
    for (int64_t j = 0; j < n2; ++j) {
        const uint32_t c = s2[j];
        b[static_cast<size_t>(j)] = table.stamp[c] == table.current ? table.id[c] : next;
    }
    ws.linear.alphabet = next + 1;
}

template <class C1, class C2>
inline int64_t typed_text_distance(Workspace& ws, int kind, int unit, const C1* s1, int64_t n1, const C2* s2,
                                   int64_t n2, int64_t* lengths) {
    if (unit == kWords) {
        number_words(ws, s1, n1, s2, n2);
        lengths[0] = static_cast<int64_t>(ws.linear.a.size());
        lengths[1] = static_cast<int64_t>(ws.linear.b.size());
    } else {
        lengths[0] = n1;
        lengths[1] = n2;
        number_code_points(ws, s1, n1, s2, n2);
    }
    const std::vector<uint32_t>& a = ws.linear.a;
    const std::vector<uint32_t>& b = ws.linear.b;
    return pair_distance(ws, kind, ws.linear.alphabet, a.data(), static_cast<int64_t>(a.size()), b.data(),
                         static_cast<int64_t>(b.size()));
}

template <class C1>
inline int64_t typed_text_distance(Workspace& ws, int kind, int unit, const C1* s1, int64_t n1, int kind2,
                                   const void* d2, int64_t n2, int64_t* lengths) {
    if (kind2 == 1) return typed_text_distance(ws, kind, unit, s1, n1, static_cast<const uint8_t*>(d2), n2, lengths);
    if (kind2 == 2) return typed_text_distance(ws, kind, unit, s1, n1, static_cast<const uint16_t*>(d2), n2, lengths);
    return typed_text_distance(ws, kind, unit, s1, n1, static_cast<const uint32_t*>(d2), n2, lengths);
}

// The distance of ``kind`` between two strings (PEP 393 buffers of kind 1, 2 or 4) in ``unit``: characters (code
// points) or str.split() words, each pair numbered on its own; ``lengths`` gets both lengths in that unit. -1
// when a table cannot be allocated.
inline int64_t text_pair_distance(Workspace& ws, int kind, int unit, int kind1, const void* d1, int64_t n1,
                                  int kind2, const void* d2, int64_t n2, int64_t* lengths) noexcept {
    try {
        if (kind1 == 1)
            return typed_text_distance(ws, kind, unit, static_cast<const uint8_t*>(d1), n1, kind2, d2, n2, lengths);
        if (kind1 == 2)
            return typed_text_distance(ws, kind, unit, static_cast<const uint16_t*>(d1), n1, kind2, d2, n2, lengths);
        return typed_text_distance(ws, kind, unit, static_cast<const uint32_t*>(d1), n1, kind2, d2, n2, lengths);
    } catch (const std::bad_alloc&) {
        ws = Workspace();
        return -1;
    }
}

// RapidFuzz's normaliser of ``kind`` with unit weights: max(n, m) for Levenshtein, n + m for Indel.
inline int64_t maximum_distance(int kind, int64_t n, int64_t m) {
    return kind == kLevenshtein ? std::max(n, m) : n + m;
}

// RapidFuzz's normalized similarity: 1 - distance / maximum (0 distance when both are empty).
inline double normalized_similarity(int64_t distance, int64_t maximum) {
    const double normalized_distance = maximum ? static_cast<double>(distance) / static_cast<double>(maximum) : 0.0;
    return 1.0 - normalized_distance;
}

// One row of a similarity matrix: text ``row`` (the pattern, built once) against each text of ``cols`` from
// ``first`` on; writes RapidFuzz's normalized similarity of every pair. Returns 0, or -1 when the tables cannot
// be allocated.
inline int64_t matrix_row(Workspace& ws, int kind, int64_t alphabet, const uint32_t* symbols, const int64_t* offsets,
                          int64_t row, const int64_t* cols, int64_t first, int64_t n_cols, double* out) noexcept try {
    const uint32_t* a = symbols + offsets[row];
    const int64_t n = offsets[row + 1] - offsets[row];
    const bool dense = bitparallel::DensePattern::fits(alphabet, n);
    if (dense) {
        ws.pattern.set(alphabet, a, n);
    } else {
        ws.linear.alphabet = static_cast<uint32_t>(alphabet);
        ws.linear.prepare(a, n);
    }
    const int64_t words = (n + 63) / 64;
    if (dense && kind == kIndel && n > 0 && words <= 2) {   // two columns at a time (see bitparallel::lcs_two)
        for (; first + 1 < n_cols; first += 2) {
            const uint32_t* b = symbols + offsets[cols[first]];
            const int64_t m = offsets[cols[first] + 1] - offsets[cols[first]];
            const uint32_t* d = symbols + offsets[cols[first + 1]];
            const int64_t k = offsets[cols[first + 1] + 1] - offsets[cols[first + 1]];
            int64_t lcs_b, lcs_d;
            if (words == 1)
                bitparallel::lcs_two<1>(ws.pattern, n, b, m, d, k, &lcs_b, &lcs_d);
            else
                bitparallel::lcs_two<2>(ws.pattern, n, b, m, d, k, &lcs_b, &lcs_d);
            out[first] = normalized_similarity(n + m - 2 * lcs_b, maximum_distance(kind, n, m));
            out[first + 1] = normalized_similarity(n + k - 2 * lcs_d, maximum_distance(kind, n, k));
        }
    }
    for (int64_t c = first; c < n_cols; ++c) {
        const uint32_t* b = symbols + offsets[cols[c]];
        const int64_t m = offsets[cols[c] + 1] - offsets[cols[c]];
        const int64_t distance = dense ? rows_distance(kind, ws.pattern, n, b, m, ws.state)
                                       : rows_distance(kind, ws.linear, n, b, m, ws.state);
        out[c] = normalized_similarity(distance, maximum_distance(kind, n, m));
    }
    if (dense)
        ws.pattern.clear();
    else
        ws.linear.unprepare();
    return 0;
} catch (const std::bad_alloc&) {
    ws = Workspace();
    return -1;
}

// Scratch of the EED dynamic programme.
struct EedWorkspace {
    std::vector<double> row, next;
    std::vector<int64_t> visits;
};

// torchmetrics 1.x ``_eed_function`` (RWTH's EED.py) on code points, operation for operation in double precision
// (the same additions in the same order, so the same bits): ``hyp`` and ``ref`` already preprocessed. The
// programme is quadratic, so it polls for Ctrl-C once per row (_interrupt.hpp) and then returns NaN at once.
inline double eed_score(EedWorkspace& ws, const uint32_t* hyp, int64_t n, const uint32_t* ref, int64_t m,
                        double alpha, double rho, double deletion, double insertion) noexcept try {
    ws.visits.assign(static_cast<size_t>(n + 1), -1);
    ws.row.assign(static_cast<size_t>(n + 1), 1.0);
    ws.next.assign(static_cast<size_t>(n + 1), std::numeric_limits<double>::infinity());
    ws.row[0] = 0.0;
    double* row = ws.row.data();
    double* next = ws.next.data();
    for (int64_t w = 1; w <= m; ++w) {
        if (interrupt::interrupted()) return std::numeric_limits<double>::quiet_NaN();
        const uint32_t symbol = ref[w - 1];
        next[0] = row[0] + 1.0;
        for (int64_t i = 1; i <= n; ++i) {
            const double deleted = next[i - 1] + deletion;
            const double substituted = row[i - 1] + (hyp[i - 1] != symbol ? 1.0 : 0.0);
            const double inserted = row[i] + insertion;
            next[i] = std::min(std::min(deleted, substituted), inserted);
        }
        int64_t min_index = 0;   // Python's list.index(min(...)): the first minimum
        for (int64_t i = 1; i <= n; ++i) {
            if (next[i] < next[min_index]) min_index = i;
        }
        ws.visits[static_cast<size_t>(min_index)] += 1;
        if (symbol == 0x20) {   // a long jump from the row's best cell, at a space of the reference
            const double jump = alpha + next[min_index];
            for (int64_t i = 0; i <= n; ++i) next[i] = std::min(next[i], jump);
        }
        std::swap(row, next);
    }
    int64_t visited = 0;
    for (int64_t count : ws.visits) visited += count >= 0 ? count : 1;
    // a volatile product: never contracted with the sum below into a fused multiply-add (Python rounds twice)
    volatile double coverage = rho * static_cast<double>(visited);
    const double numerator = row[n] + coverage;
    const double denominator = static_cast<double>(m) + coverage;
    const double score = numerator / denominator;
    return score > 1.0 ? 1.0 : score;
} catch (const std::bad_alloc&) {
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace editdist
}  // namespace refscore
