// The one bit-parallel Levenshtein kernel of the compiled core (Myers 1999 in Hyyrö 2003's formulation, as
// RapidFuzz's levenshtein_hyrroe2003 and its block variant), used by the WER family (_levenshtein.hpp: the
// distance, and the column vectors its alignment backtracks through) and by the edit-distance metric
// (_edit_distance_kernel.hpp), plus Hyyrö's bit-parallel LCS for the Indel distance.
//
// A pattern of n symbols takes ceil(n / 64) words; the horizontal deltas are carried from word to word. The
// pattern's match masks come from a `Rows` object: `row(symbol)` is a pointer to the pattern's words of masks of
// that symbol (DensePattern below, or the memory-linear table of levenshtein::Workspace). One word is a
// register loop; 2 to 8 words keep the state in registers (a fixed N); more use a heap state reused across pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace refscore {
namespace bitparallel {

// One step of the block algorithm over the column vectors vp/vn (`words` words), advanced by one symbol of the
// text whose masks are `pm`. HP enters word 0 as 1: the top row D[0][j] = j grows by one per column.
inline void advance(uint64_t* vp, uint64_t* vn, const uint64_t* pm, size_t words) {
    uint64_t hp_carry = 1, hn_carry = 0;
    for (size_t w = 0; w < words; ++w) {
        const uint64_t x = pm[w] | hn_carry;
        const uint64_t v_p = vp[w], v_n = vn[w];
        const uint64_t d0 = (((x & v_p) + v_p) ^ v_p) | x | v_n;
        uint64_t hp = v_n | ~(d0 | v_p);
        uint64_t hn = d0 & v_p;
        const uint64_t hp_out = hp >> 63, hn_out = hn >> 63;
        hp = (hp << 1) | hp_carry;
        hn = (hn << 1) | hn_carry;
        vp[w] = hn | ~(d0 | hp);
        vn[w] = hp & d0;
        hp_carry = hp_out;
        hn_carry = hn_out;
    }
}

// The distance over N words of pattern (N = 0: `words` of them, the state in `heap`, 2 * words long), tracking
// the last row's value: the carry out of the pattern's last symbol is the score's change per text symbol.
template <int N, class Rows>
inline int64_t distance_words(Rows& rows, int64_t n, const uint32_t* s2, int64_t m, int64_t words, uint64_t* heap) {
    uint64_t local[N > 0 ? 2 * N : 1];
    const int64_t count = N > 0 ? N : words;
    uint64_t* VP = N > 0 ? local : heap;
    uint64_t* VN = VP + count;
    for (int64_t w = 0; w < count; ++w) {
        VP[w] = ~UINT64_C(0);
        VN[w] = 0;
    }
    const uint64_t last = UINT64_C(1) << ((n - 1) & 63);
    int64_t distance = n;
    for (int64_t j = 0; j < m; ++j) {
        uint64_t HP_carry = 1, HN_carry = 0;
        const uint64_t* PM = rows.row(s2[j]);
        for (int64_t w = 0; w < count; ++w) {
            const uint64_t X = PM[w] | HN_carry;
            const uint64_t vp = VP[w], vn = VN[w];
            const uint64_t D0 = (((X & vp) + vp) ^ vp) | X | vn;
            uint64_t HP = vn | ~(D0 | vp);
            uint64_t HN = D0 & vp;
            const uint64_t HP_in = HP_carry, HN_in = HN_carry;
            if (w < count - 1) {
                HP_carry = HP >> 63;
                HN_carry = HN >> 63;
            } else {
                HP_carry = (HP & last) != 0;
                HN_carry = (HN & last) != 0;
            }
            HP = (HP << 1) | HP_in;
            HN = (HN << 1) | HN_in;
            VP[w] = HN | ~(D0 | HP);
            VN[w] = HP & D0;
        }
        distance += static_cast<int64_t>(HP_carry) - static_cast<int64_t>(HN_carry);
    }
    return distance;
}

// The Levenshtein distance of the pattern (n symbols, its masks in `rows`) and s2[0, m).
template <class Rows>
inline int64_t levenshtein(Rows& rows, int64_t n, const uint32_t* s2, int64_t m, std::vector<uint64_t>& state) {
    if (n == 0) return m;
    if (m == 0) return n;
    const int64_t words = (n + 63) / 64;
    if (words == 1) {
        const uint64_t last = UINT64_C(1) << ((n - 1) & 63);
        int64_t distance = n;
        uint64_t VP = ~UINT64_C(0), VN = 0;
        for (int64_t j = 0; j < m; ++j) {
            const uint64_t X = rows.row(s2[j])[0];
            const uint64_t D0 = (((X & VP) + VP) ^ VP) | X | VN;
            uint64_t HP = VN | ~(D0 | VP);
            uint64_t HN = D0 & VP;
            distance += (HP & last) != 0;
            distance -= (HN & last) != 0;
            HP = (HP << 1) | 1;
            HN = HN << 1;
            VP = HN | ~(D0 | HP);
            VN = HP & D0;
        }
        return distance;
    }
    switch (words) {
        case 2: return distance_words<2>(rows, n, s2, m, 2, nullptr);
        case 3: return distance_words<3>(rows, n, s2, m, 3, nullptr);
        case 4: return distance_words<4>(rows, n, s2, m, 4, nullptr);
        case 5: return distance_words<5>(rows, n, s2, m, 5, nullptr);
        case 6: return distance_words<6>(rows, n, s2, m, 6, nullptr);
        case 7: return distance_words<7>(rows, n, s2, m, 7, nullptr);
        case 8: return distance_words<8>(rows, n, s2, m, 8, nullptr);
        default:
            state.resize(static_cast<size_t>(2 * words));
            return distance_words<0>(rows, n, s2, m, words, state.data());
    }
}

// One column of Hyyrö's LCS over N words (the addition's carry from word to word); two words are one 128-bit
// integer (an add with carry, no flags juggled).
template <int N>
inline void lcs_step(uint64_t* S, const uint64_t* PM) {
    if (N == 2) {
        const unsigned __int128 a = (static_cast<unsigned __int128>(S[1]) << 64) | S[0];
        const unsigned __int128 u = a & ((static_cast<unsigned __int128>(PM[1]) << 64) | PM[0]);
        const unsigned __int128 x = (a + u) | (a - u);
        S[0] = static_cast<uint64_t>(x);
        S[1] = static_cast<uint64_t>(x >> 64);
        return;
    }
    uint64_t carry = 0;
    for (int w = 0; w < N; ++w) {
        const uint64_t a = S[w];
        const uint64_t u = a & PM[w];
        uint64_t t, x;
        const bool first = __builtin_add_overflow(a, u, &t);
        const bool second = __builtin_add_overflow(t, carry, &x);
        carry = static_cast<uint64_t>(first | second);
        S[w] = x | (a - u);
    }
}

template <int N>
inline int64_t lcs_count(const uint64_t* S, int64_t n) {
    int64_t found = 0;
    for (int w = 0; w < N; ++w) {
        uint64_t bits = ~S[w];
        const int64_t valid = std::min<int64_t>(64, n - 64 * w);
        if (valid < 64) bits &= (UINT64_C(1) << valid) - 1;
        found += __builtin_popcountll(bits);
    }
    return found;
}

// LCS length over N words of pattern (N = 0: `words` of them, the state in `heap`): the addition carries from
// word to word (Hyyrö's bit-parallel LCS).
template <int N, class Rows>
inline int64_t lcs_words(Rows& rows, int64_t n, const uint32_t* s2, int64_t m, int64_t words, uint64_t* heap) {
    uint64_t local[N > 0 ? N : 1];
    uint64_t* S = N > 0 ? local : heap;
    const int64_t count = N > 0 ? N : words;
    for (int64_t w = 0; w < count; ++w) S[w] = ~UINT64_C(0);
    for (int64_t j = 0; j < m; ++j) {
        const uint64_t* PM = rows.row(s2[j]);
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
    int64_t found = 0;
    for (int64_t w = 0; w < count; ++w) {
        uint64_t bits = ~S[w];
        const int64_t valid = std::min<int64_t>(64, n - 64 * w);
        if (valid < 64) bits &= (UINT64_C(1) << valid) - 1;
        found += __builtin_popcountll(bits);
    }
    return found;
}

// The LCS length of the pattern (n symbols, its masks in `rows`) and s2[0, m).
template <class Rows>
inline int64_t lcs(Rows& rows, int64_t n, const uint32_t* s2, int64_t m, std::vector<uint64_t>& state) {
    if (n == 0 || m == 0) return 0;
    const int64_t words = (n + 63) / 64;
    if (words == 1) {
        uint64_t S = ~UINT64_C(0);
        for (int64_t j = 0; j < m; ++j) {
            const uint64_t u = S & rows.row(s2[j])[0];
            S = (S + u) | (S - u);
        }
        const uint64_t mask = n == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << n) - 1);
        return __builtin_popcountll(~S & mask);
    }
    switch (words) {
        case 2: {
            uint64_t S[2] = {~UINT64_C(0), ~UINT64_C(0)};
            for (int64_t j = 0; j < m; ++j) lcs_step<2>(S, rows.row(s2[j]));
            return lcs_count<2>(S, n);
        }
        case 3: return lcs_words<3>(rows, n, s2, m, words, nullptr);
        case 4: return lcs_words<4>(rows, n, s2, m, words, nullptr);
        case 5: return lcs_words<5>(rows, n, s2, m, words, nullptr);
        case 6: return lcs_words<6>(rows, n, s2, m, words, nullptr);
        case 7: return lcs_words<7>(rows, n, s2, m, words, nullptr);
        case 8: return lcs_words<8>(rows, n, s2, m, words, nullptr);
        default:
            state.resize(static_cast<size_t>(words));
            return lcs_words<0>(rows, n, s2, m, words, state.data());
    }
}

// The LCS lengths of one pattern of N words against two texts at once: the two columns' dependency chains
// interleaved (each step waits on its own previous step only), about twice one text's throughput.
template <int N, class Rows>
inline void lcs_two(Rows& rows, int64_t n, const uint32_t* s2, int64_t m2, const uint32_t* s3, int64_t m3,
                    int64_t* out2, int64_t* out3) {
    uint64_t S[N], T[N];
    for (int w = 0; w < N; ++w) S[w] = T[w] = ~UINT64_C(0);
    const int64_t common = std::min(m2, m3);
    for (int64_t j = 0; j < common; ++j) {
        const uint64_t* P = rows.row(s2[j]);
        const uint64_t* Q = rows.row(s3[j]);
        lcs_step<N>(S, P);
        lcs_step<N>(T, Q);
    }
    for (int64_t j = common; j < m2; ++j) lcs_step<N>(S, rows.row(s2[j]));
    for (int64_t j = common; j < m3; ++j) lcs_step<N>(T, rows.row(s3[j]));
    *out2 = lcs_count<N>(S, n);
    *out3 = lcs_count<N>(T, n);
}

// Match masks of one pattern over a dense alphabet: bit i of bits[symbol * capacity_words + word] is set when the
// pattern's symbol 64 * word + i is `symbol` (a symbol's words side by side: one cache line per step). Zero
// outside the current pattern's entries, so setting and clearing a pattern costs its length, not the alphabet's
// size; the table only grows (no allocation per pair once it is large enough). Its size is alphabet x words:
// callers use it while that stays small (`fits`), the memory-linear table of levenshtein::Workspace otherwise.
struct DensePattern {
    std::vector<uint64_t> bits;
    int64_t alphabet = 0;        // symbols the layout holds (>= the current pattern's alphabet)
    int64_t capacity_words = 0;
    const uint32_t* text = nullptr;
    int64_t length = 0;

    static constexpr int64_t kMaxEntries = int64_t(1) << 21;   // 16 MiB of masks

    static bool fits(int64_t alphabet_size, int64_t n) { return alphabet_size * ((n + 63) / 64) <= kMaxEntries; }

    void set(int64_t alphabet_size, const uint32_t* s, int64_t n) {
        const int64_t words = (n + 63) / 64;
        if (alphabet_size > alphabet || words > capacity_words) {   // all zeros between patterns: relayout
            alphabet = std::max(alphabet, alphabet_size);
            capacity_words = std::max(capacity_words, words);
            bits.assign(static_cast<size_t>(alphabet * capacity_words), 0);
        }
        text = s;
        length = n;
        for (int64_t i = 0; i < n; ++i)
            bits[static_cast<size_t>(s[i] * capacity_words + (i >> 6))] |= UINT64_C(1) << (i & 63);
    }

    void clear() {
        for (int64_t i = 0; i < length; ++i) bits[static_cast<size_t>(text[i] * capacity_words + (i >> 6))] = 0;
        length = 0;
    }

    const uint64_t* row(uint32_t symbol) const { return bits.data() + static_cast<size_t>(symbol) * capacity_words; }
};

}  // namespace bitparallel
}  // namespace refscore
