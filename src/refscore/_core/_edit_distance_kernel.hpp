// Edit distances over symbol sequences (uint32 code points or word ids, remapped to a dense alphabet):
// Indel distance from a bit-parallel LCS (Hyyrö 2004, as RapidFuzz's Indel), Levenshtein from the bit-parallel
// Myers/Hyyrö 2003 recurrence (_editdist_levenshtein.hpp), and torchmetrics' extended edit distance (EED, a
// plain dynamic programme: its jumps and coverage counts have no bit-parallel form). Every function reads its
// inputs and writes only its own scratch, so pairs run on any thread in any order with the same results.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include "_editdist_levenshtein.hpp"
#include "_interrupt.hpp"

namespace refscore {
namespace editdist {

enum Kind : int { kLevenshtein = 0, kIndel = 1 };

// LCS length over ``N`` 64-bit words of pattern (N = 0: ``words`` of them, the state in ``heap``): the addition
// carries from word to word (Hyyrö's bit-parallel LCS). A fixed N keeps the state in registers.
template <int N>
inline int64_t lcs_words(const Pattern& pattern, const uint32_t* s2, int64_t m, int64_t words, uint64_t* heap) {
    uint64_t local[N > 0 ? N : 1];
    uint64_t* S = N > 0 ? local : heap;
    const int64_t count = N > 0 ? N : words;
    for (int64_t w = 0; w < count; ++w) S[w] = ~UINT64_C(0);
    for (int64_t j = 0; j < m; ++j) {
        const uint64_t* PM = pattern.row(s2[j]);
        uint64_t carry = 0;
        for (int64_t w = 0; w < count; ++w) {
            const uint64_t a = S[w];
            const uint64_t u = a & PM[w];
            uint64_t t, x;
            const bool first = __builtin_add_overflow(a, u, &t);
            const bool second = __builtin_add_overflow(t, carry, &x);
            carry = static_cast<uint64_t>(first | second);
            S[w] = x | (a - u);
        }
    }
    const int64_t n = pattern.length;
    int64_t found = 0;
    for (int64_t w = 0; w < count; ++w) {
        uint64_t bits = ~S[w];
        const int64_t valid = std::min<int64_t>(64, n - 64 * w);
        if (valid < 64) bits &= (UINT64_C(1) << valid) - 1;
        found += __builtin_popcountll(bits);
    }
    return found;
}

// LCS length of the pattern (its match vectors) against s2.
inline int64_t lcs_length(const Pattern& pattern, const uint32_t* s2, int64_t m, std::vector<uint64_t>& state) {
    const int64_t n = pattern.length;
    if (n == 0 || m == 0) return 0;
    const int64_t words = pattern.words;
    if (words == 1) {
        uint64_t S = ~UINT64_C(0);
        for (int64_t j = 0; j < m; ++j) {
            const uint64_t u = S & pattern.get(0, s2[j]);
            S = (S + u) | (S - u);
        }
        const uint64_t mask = n == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << n) - 1);
        return __builtin_popcountll(~S & mask);
    }
    switch (words) {
        case 2: return lcs_words<2>(pattern, s2, m, words, nullptr);
        case 3: return lcs_words<3>(pattern, s2, m, words, nullptr);
        case 4: return lcs_words<4>(pattern, s2, m, words, nullptr);
        case 5: return lcs_words<5>(pattern, s2, m, words, nullptr);
        case 6: return lcs_words<6>(pattern, s2, m, words, nullptr);
        case 7: return lcs_words<7>(pattern, s2, m, words, nullptr);
        case 8: return lcs_words<8>(pattern, s2, m, words, nullptr);
        default:
            state.resize(static_cast<size_t>(words));
            return lcs_words<0>(pattern, s2, m, words, state.data());
    }
}

// The distance of ``kind`` between the pattern's text and s2.
inline int64_t pattern_distance(int kind, const Pattern& pattern, const uint32_t* s2, int64_t m,
                                std::vector<uint64_t>& state) {
    if (kind == kLevenshtein) return levenshtein_distance(pattern, s2, m, state);
    return pattern.length + m - 2 * lcs_length(pattern, s2, m, state);
}

// Per-thread scratch of the pair loops: the pattern table and the block state.
struct Workspace {
    Pattern pattern;
    std::vector<uint64_t> state;
};

// The distance of one pair, its common prefix and suffix removed first (they change neither distance), the
// shorter side as the pattern (both distances are symmetric).
inline int64_t pair_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                             const uint32_t* b, int64_t m) {
    while (n > 0 && m > 0 && a[0] == b[0]) { ++a; ++b; --n; --m; }
    while (n > 0 && m > 0 && a[n - 1] == b[m - 1]) { --n; --m; }
    if (n == 0 || m == 0) return n + m;   // one side is empty: every symbol of the other is an edit
    if (n > m) { std::swap(a, b); std::swap(n, m); }
    ws.pattern.set(alphabet, a, n);
    const int64_t distance = pattern_distance(kind, ws.pattern, b, m, ws.state);
    ws.pattern.clear();
    return distance;
}

// pair_distance, -1 when its tables cannot be allocated (the binding raises MemoryError).
inline int64_t checked_pair_distance(Workspace& ws, int kind, int64_t alphabet, const uint32_t* a, int64_t n,
                                     const uint32_t* b, int64_t m) noexcept {
    try {
        return pair_distance(ws, kind, alphabet, a, n, b, m);
    } catch (const std::bad_alloc&) {
        ws.pattern = Pattern();
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

// One row of a similarity matrix: text ``row`` (the pattern, built once) against each text of ``cols``; writes
// RapidFuzz's normalized similarity of every pair. Returns 0, or -1 when the tables cannot be allocated.
inline int64_t matrix_row(Workspace& ws, int kind, int64_t alphabet, const uint32_t* symbols, const int64_t* offsets,
                          int64_t row, const int64_t* cols, int64_t n_cols, double* out) noexcept try {
    const uint32_t* a = symbols + offsets[row];
    const int64_t n = offsets[row + 1] - offsets[row];
    ws.pattern.set(alphabet, a, n);
    for (int64_t c = 0; c < n_cols; ++c) {
        const uint32_t* b = symbols + offsets[cols[c]];
        const int64_t m = offsets[cols[c] + 1] - offsets[cols[c]];
        const int64_t distance = pattern_distance(kind, ws.pattern, b, m, ws.state);
        out[c] = normalized_similarity(distance, maximum_distance(kind, n, m));
    }
    ws.pattern.clear();
    return 0;
} catch (const std::bad_alloc&) {
    ws.pattern = Pattern();
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
