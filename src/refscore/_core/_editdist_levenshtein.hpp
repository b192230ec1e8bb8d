// Levenshtein distance (unit weights) by the bit-parallel recurrence of Hyyrö 2003 (Myers 1999 in Hyyrö's
// formulation, as RapidFuzz's levenshtein_hyrroe2003 and its block variant): one 64-bit word per 64 symbols of
// the pattern, horizontal deltas carried from word to word. The edit-distance metric's own kernel, kept apart
// from the WER family's so that each can change without the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace refscore {
namespace editdist {

// Match vectors of one pattern over a dense alphabet: bit i of bits[symbol * capacity_words + word] is set when
// the pattern's symbol 64 * word + i is ``symbol`` (a symbol's words side by side: one cache line per step). Zero outside the current pattern's entries, so setting and
// clearing a pattern costs its length, not the alphabet's size.
struct Pattern {
    std::vector<uint64_t> bits;
    int64_t alphabet = 0;
    int64_t capacity_words = 0;
    const uint32_t* text = nullptr;
    int64_t length = 0;
    int64_t words = 0;

    void set(int64_t alphabet_size, const uint32_t* s, int64_t n) {
        if (alphabet_size != alphabet) {
            alphabet = alphabet_size;
            capacity_words = 0;
            bits.clear();
        }
        words = (n + 63) / 64;
        if (words > capacity_words) {   // the table is all zeros between patterns: a new one has the new layout
            capacity_words = words;
            bits.assign(static_cast<size_t>(alphabet * capacity_words), 0);
        }
        text = s;
        length = n;
        for (int64_t i = 0; i < n; ++i) bits[static_cast<size_t>(s[i] * capacity_words + (i >> 6))] |= UINT64_C(1) << (i & 63);
    }

    void clear() {
        for (int64_t i = 0; i < length; ++i) bits[static_cast<size_t>(text[i] * capacity_words + (i >> 6))] = 0;
        length = 0;
        words = 0;
    }

    uint64_t get(int64_t word, uint32_t symbol) const {
        return bits[static_cast<size_t>(symbol * capacity_words + word)];
    }
    const uint64_t* row(uint32_t symbol) const { return bits.data() + static_cast<size_t>(symbol) * capacity_words; }
};

// The block recurrence over ``N`` words of pattern (N = 0: ``words``, the state in ``heap``, 2 * words long):
// the horizontal deltas carried from word to word. A fixed N keeps the state in registers.
template <int N>
inline int64_t levenshtein_words(const Pattern& pattern, const uint32_t* s2, int64_t m, int64_t words,
                                 uint64_t* heap) {
    uint64_t local[N > 0 ? 2 * N : 1];
    const int64_t count = N > 0 ? N : words;
    uint64_t* VP = N > 0 ? local : heap;
    uint64_t* VN = VP + count;
    for (int64_t w = 0; w < count; ++w) {
        VP[w] = ~UINT64_C(0);
        VN[w] = 0;
    }
    const int64_t n = pattern.length;
    const uint64_t last = UINT64_C(1) << ((n - 1) & 63);
    int64_t distance = n;
    for (int64_t j = 0; j < m; ++j) {
        uint64_t HP_carry = 1, HN_carry = 0;
        const uint64_t* PM = pattern.row(s2[j]);
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

inline int64_t levenshtein_distance(const Pattern& pattern, const uint32_t* s2, int64_t m,
                                    std::vector<uint64_t>& state) {
    const int64_t n = pattern.length;
    if (n == 0) return m;
    if (m == 0) return n;
    int64_t distance = n;
    const uint64_t last = UINT64_C(1) << ((n - 1) & 63);
    if (pattern.words == 1) {
        uint64_t VP = ~UINT64_C(0), VN = 0;
        for (int64_t j = 0; j < m; ++j) {
            const uint64_t X = pattern.get(0, s2[j]);
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
    switch (pattern.words) {
        case 2: return levenshtein_words<2>(pattern, s2, m, 2, nullptr);
        case 3: return levenshtein_words<3>(pattern, s2, m, 3, nullptr);
        case 4: return levenshtein_words<4>(pattern, s2, m, 4, nullptr);
        default:
            state.resize(static_cast<size_t>(2 * pattern.words));
            return levenshtein_words<0>(pattern, s2, m, pattern.words, state.data());
    }
}

}  // namespace editdist
}  // namespace refscore
