// Levenshtein distance and alignment over the shared bit-parallel kernel (_bitparallel.hpp: Myers 1999 / Hyyrö
// 2003, one 64-bit word per 64 symbols of the first sequence) over integer symbols: token ids or code points,
// after `Workspace::remap` turned them into small local ids (equal symbols, equal ids).
//
// The alignment is the one RapidFuzz 3 (`Levenshtein.editops` / `opcodes`, which jiwer 4 counts hits,
// substitutions, deletions and insertions from) picks among the optimal ones: the common prefix and suffix are
// matches; what is left is backtracked through the bit matrix preferring a deletion, then an insertion, then the
// diagonal, or, when that matrix would exceed 1 MiB, split by Hirschberg at the first column whose two half
// distances add up to the least, and each half aligned the same way. The ties between optimal alignments change
// the counts (``ab`` against ``ba``: two substitutions, or a deletion, a hit and an insertion), so every one of
// those choices is reproduced, not only the distance.
//
// `distance` is the plain distance (no alignment), for edit-distance metrics.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "_bitparallel.hpp"

namespace refscore::levenshtein {

// Opcode types, numbered as the binding reports them.
enum OpType : int { kEqual = 0, kReplace = 1, kInsert = 2, kDelete = 3 };

struct Editop {
    int type;
    int64_t src;    // position in the first sequence (the reference)
    int64_t dest;   // position in the second (the hypothesis)
};

// One run of equal operations over s1[src_begin, src_end) and s2[dest_begin, dest_end) (RapidFuzz's opcode).
struct Chunk {
    int64_t type, src_begin, src_end, dest_begin, dest_end;
};

struct Counts {
    int64_t hits = 0, substitutions = 0, deletions = 0, insertions = 0;
};

// Scratch of one thread: reused across pairs, so a batch allocates once per thread.
class Workspace {
  public:
    std::vector<uint32_t> a, b;   // the pair in local ids: a's symbols 0..k-1, b's symbols not in a get k
    uint32_t alphabet = 0;        // k + 1

    // Local ids: open addressing over the original symbols, cleared slot by slot after each pair.
    template <class Get1, class Get2>
    void remap(Get1 get1, int64_t n1, Get2 get2, int64_t n2) {
        size_t capacity = 16;
        while (capacity < 2 * static_cast<size_t>(n1) + 2) capacity <<= 1;
        if (keys_.size() < capacity) {
            keys_.assign(capacity, 0);
            values_.assign(capacity, 0);
            used_.assign(capacity, 0);
        }
        const size_t mask = capacity - 1;
        a.resize(static_cast<size_t>(n1));
        b.resize(static_cast<size_t>(n2));
        uint32_t next = 0;
        for (int64_t i = 0; i < n1; ++i) {
            const uint64_t key = static_cast<uint64_t>(get1(i));
            size_t slot = hash(key) & mask;
            while (used_[slot] && keys_[slot] != key) slot = (slot + 1) & mask;
            if (!used_[slot]) {
                used_[slot] = 1;
                keys_[slot] = key;
                values_[slot] = next++;
                touched_.push_back(slot);
            }
            a[static_cast<size_t>(i)] = values_[slot];
        }
        for (int64_t j = 0; j < n2; ++j) {
            const uint64_t key = static_cast<uint64_t>(get2(j));
            size_t slot = hash(key) & mask;
            while (used_[slot] && keys_[slot] != key) slot = (slot + 1) & mask;
            b[static_cast<size_t>(j)] = used_[slot] ? values_[slot] : next;
        }
        for (size_t slot : touched_) used_[slot] = 0;
        touched_.clear();
        alphabet = next + 1;
    }

    // Pattern-match masks of a[0, n): symbol s matches where PM bits are set. A symbol frequent enough gets a
    // dense row of words; the rest keep their positions and are expanded into `scratch_` when a row asks, so
    // memory stays linear in n whatever the alphabet.
    void prepare(const uint32_t* s, int64_t n) {
        words_ = static_cast<size_t>((n + 63) / 64);
        if (slot_.size() < alphabet) slot_.assign(alphabet, -1);
        if (count_.size() < alphabet) count_.assign(alphabet, 0);
        for (int64_t i = 0; i < n; ++i) ++count_[s[i]];
        // dense when a row of words costs no more than expanding its positions about 8 times
        const size_t dense_from = std::max<size_t>(1, words_ / 8);
        size_t dense = 0;
        present_.clear();
        for (int64_t i = 0; i < n; ++i) {
            const uint32_t c = s[i];
            if (slot_[c] != -1) continue;
            if (static_cast<size_t>(count_[c]) >= dense_from) {
                slot_[c] = static_cast<int64_t>(dense++);
            } else {
                slot_[c] = -2;   // sparse: positions in sparse_
            }
            present_.push_back(c);
        }
        dense_.assign(dense * words_, 0);
        if (sparse_start_.size() < alphabet + 1) sparse_start_.assign(alphabet + 1, 0);
        // sparse positions grouped by symbol (a counting sort over the sparse symbols)
        size_t total = 0;
        for (uint32_t c : present_)
            if (slot_[c] == -2) {
                sparse_start_[c] = static_cast<int64_t>(total);
                total += static_cast<size_t>(count_[c]);
            }
        sparse_.resize(total);
        for (uint32_t c : present_) count_[c] = 0;   // reused as the fill cursor
        for (int64_t i = 0; i < n; ++i) {
            const uint32_t c = s[i];
            if (slot_[c] >= 0)
                dense_[static_cast<size_t>(slot_[c]) * words_ + static_cast<size_t>(i / 64)] |= UINT64_C(1)
                                                                                                 << (i % 64);
            else
                sparse_[static_cast<size_t>(sparse_start_[c] + count_[c]++)] = i;
        }
        sparse_count_.resize(alphabet);
        for (uint32_t c : present_) sparse_count_[c] = count_[c];
        if (scratch_.size() < words_) scratch_.assign(words_, 0);
        if (zeros_.size() < words_) zeros_.assign(words_, 0);
    }

    // Release the per-sequence marks of `prepare` (the symbol tables are shared by every sequence of a pair).
    void unprepare() {
        clear_scratch();
        for (uint32_t c : present_) {
            slot_[c] = -1;
            count_[c] = 0;
        }
        present_.clear();
    }

    // The masks of symbol c over the prepared sequence (valid until the next `row` call).
    const uint64_t* row(uint32_t c) {
        if (c >= slot_.size() || slot_[c] == -1) return zeros_.data();
        if (slot_[c] >= 0) return dense_.data() + static_cast<size_t>(slot_[c]) * words_;
        clear_scratch();
        const int64_t* p = sparse_.data() + sparse_start_[c];
        for (int64_t k = 0; k < sparse_count_[c]; ++k) scratch_[static_cast<size_t>(p[k] / 64)] |= UINT64_C(1)
                                                                                                   << (p[k] % 64);
        scratch_symbol_ = c;
        return scratch_.data();
    }

    size_t words() const { return words_; }

    std::vector<uint64_t> vp, vn;          // the bit matrix of the last `matrix` call, row-major (s2 rows)
    std::vector<uint64_t> col_vp, col_vn;  // the current column's vectors
    std::vector<int64_t> left, right;      // Hirschberg's two score columns
    std::vector<uint32_t> ra, rb;          // reversed halves
    std::vector<Editop> ops, backtrack;
    std::vector<uint64_t> state;           // the block state of `distance` (more than 8 words)

  private:
    static uint64_t hash(uint64_t x) {
        x ^= x >> 33;
        x *= UINT64_C(0xff51afd7ed558ccd);
        x ^= x >> 33;
        return x;
    }
    void clear_scratch() {
        if (scratch_symbol_ == UINT32_MAX) return;
        const int64_t* p = sparse_.data() + sparse_start_[scratch_symbol_];
        for (int64_t k = 0; k < sparse_count_[scratch_symbol_]; ++k) scratch_[static_cast<size_t>(p[k] / 64)] = 0;
        scratch_symbol_ = UINT32_MAX;
    }

    std::vector<uint64_t> keys_;
    std::vector<uint32_t> values_;
    std::vector<uint8_t> used_;
    std::vector<size_t> touched_;
    size_t words_ = 0;
    std::vector<int64_t> slot_, count_, sparse_start_, sparse_count_, sparse_;
    std::vector<uint32_t> present_;
    std::vector<uint64_t> dense_, scratch_, zeros_;
    uint32_t scratch_symbol_ = UINT32_MAX;
};

using bitparallel::advance;

// D[i][n2] for i = 0..n1 (s1 = a[0, n1) along the bits, s2 = b[0, n2)) into `out` (n1 + 1 values).
inline void last_column(Workspace& ws, const uint32_t* a, int64_t n1, const uint32_t* b, int64_t n2,
                        std::vector<int64_t>& out) {
    out.resize(static_cast<size_t>(n1 + 1));
    out[0] = n2;
    if (n1 == 0) return;
    ws.prepare(a, n1);
    const size_t words = ws.words();
    ws.col_vp.assign(words, ~UINT64_C(0));
    ws.col_vn.assign(words, 0);
    for (int64_t j = 0; j < n2; ++j) advance(ws.col_vp.data(), ws.col_vn.data(), ws.row(b[j]), words);
    ws.unprepare();
    for (int64_t i = 1; i <= n1; ++i) {
        const size_t w = static_cast<size_t>((i - 1) / 64);
        const uint64_t bit = UINT64_C(1) << ((i - 1) % 64);
        out[static_cast<size_t>(i)] = out[static_cast<size_t>(i - 1)] + ((ws.col_vp[w] & bit) != 0) -
                                      ((ws.col_vn[w] & bit) != 0);
    }
}

// The distance of a[0, n1) and b[0, n2), with the bit matrix of every column kept in ws.vp / ws.vn.
inline int64_t matrix(Workspace& ws, const uint32_t* a, int64_t n1, const uint32_t* b, int64_t n2) {
    ws.prepare(a, n1);
    const size_t words = ws.words();
    ws.vp.resize(words * static_cast<size_t>(n2));
    ws.vn.resize(words * static_cast<size_t>(n2));
    ws.col_vp.assign(words, ~UINT64_C(0));
    ws.col_vn.assign(words, 0);
    for (int64_t j = 0; j < n2; ++j) {
        advance(ws.col_vp.data(), ws.col_vn.data(), ws.row(b[j]), words);
        std::copy(ws.col_vp.begin(), ws.col_vp.end(), ws.vp.begin() + static_cast<ptrdiff_t>(j * words));
        std::copy(ws.col_vn.begin(), ws.col_vn.end(), ws.vn.begin() + static_cast<ptrdiff_t>(j * words));
    }
    ws.unprepare();
    int64_t dist = n2;
    for (int64_t i = 0; i < n1; ++i) {
        const size_t w = static_cast<size_t>(i / 64);
        const uint64_t bit = UINT64_C(1) << (i % 64);
        dist += ((ws.col_vp[w] & bit) != 0) - ((ws.col_vn[w] & bit) != 0);
    }
    return dist;
}

inline bool test_bit(const std::vector<uint64_t>& m, size_t words, int64_t row, int64_t col) {
    return (m[static_cast<size_t>(row) * words + static_cast<size_t>(col / 64)] >> (col % 64)) & 1;
}

// Backtrack the matrix of `matrix` (RapidFuzz's order: deletion, insertion, diagonal), appending the edit
// operations in order.
inline void backtrack(Workspace& ws, const uint32_t* a, int64_t n1, const uint32_t* b, int64_t n2,
                      int64_t src_pos, int64_t dest_pos, std::vector<Editop>& out) {
    std::vector<Editop>& rev = ws.backtrack;
    rev.clear();
    const size_t words = static_cast<size_t>((n1 + 63) / 64);
    int64_t col = n1, row = n2;
    while (row && col) {
        if (test_bit(ws.vp, words, row - 1, col - 1)) {
            --col;
            rev.push_back({kDelete, col + src_pos, row + dest_pos});
        } else {
            --row;
            if (row && test_bit(ws.vn, words, row - 1, col - 1)) {
                rev.push_back({kInsert, col + src_pos, row + dest_pos});
            } else {
                --col;
                if (a[col] != b[row]) rev.push_back({kReplace, col + src_pos, row + dest_pos});
            }
        }
    }
    while (col) {
        --col;
        rev.push_back({kDelete, col + src_pos, row + dest_pos});
    }
    while (row) {
        --row;
        rev.push_back({kInsert, col + src_pos, row + dest_pos});
    }
    out.insert(out.end(), rev.rbegin(), rev.rend());
}

// Align a[0, n1) with b[0, n2); `max` bounds the distance (it decides, as in RapidFuzz, whether the matrix is
// small enough to keep or the problem is split).
inline void align(Workspace& ws, const uint32_t* a, int64_t n1, const uint32_t* b, int64_t n2, int64_t src_pos,
                  int64_t dest_pos, int64_t max, std::vector<Editop>& out) {
    // the common prefix and suffix are matches
    int64_t prefix = 0;
    while (prefix < n1 && prefix < n2 && a[prefix] == b[prefix]) ++prefix;
    a += prefix;
    b += prefix;
    n1 -= prefix;
    n2 -= prefix;
    src_pos += prefix;
    dest_pos += prefix;
    while (n1 && n2 && a[n1 - 1] == b[n2 - 1]) {
        --n1;
        --n2;
    }
    max = std::min(max, std::max(n1, n2));
    const int64_t full_band = std::min(n1, 2 * max + 1);
    const int64_t matrix_size = 2 * full_band * n2 / 8;
    if (matrix_size < 1024 * 1024 || n1 < 65 || n2 < 10) {
        if (n1 == 0 || n2 == 0) {
            for (int64_t i = 0; i < n1; ++i) out.push_back({kDelete, src_pos + i, dest_pos});
            for (int64_t j = 0; j < n2; ++j) out.push_back({kInsert, src_pos, dest_pos + j});
            return;
        }
        if (matrix(ws, a, n1, b, n2) != 0) backtrack(ws, a, n1, b, n2, src_pos, dest_pos, out);
        return;
    }
    // Hirschberg: the column of s2 is cut in half, s1 where the two halves' distances add up to the least
    const int64_t left_size = n2 / 2, right_size = n2 - left_size;
    ws.ra.assign(std::reverse_iterator<const uint32_t*>(a + n1), std::reverse_iterator<const uint32_t*>(a));
    ws.rb.assign(std::reverse_iterator<const uint32_t*>(b + n2),
                 std::reverse_iterator<const uint32_t*>(b + left_size));
    last_column(ws, ws.ra.data(), n1, ws.rb.data(), right_size, ws.right);
    last_column(ws, a, n1, b, left_size, ws.left);
    int64_t best = INT64_MAX, mid = 0, left_score = 0, right_score = 0;
    for (int64_t i = 0; i < n1; ++i) {
        const int64_t l = ws.left[static_cast<size_t>(i + 1)], r = ws.right[static_cast<size_t>(n1 - i - 1)];
        if (l + r < best) {
            best = l + r;
            mid = i + 1;
            left_score = l;
            right_score = r;
        }
    }
    align(ws, a, mid, b, left_size, src_pos, dest_pos, left_score, out);
    align(ws, a + mid, n1 - mid, b + left_size, right_size, src_pos + mid, dest_pos + left_size, right_score, out);
}

// Edit operations of s1 -> s2 for the pair held in ws.a / ws.b (after `remap`), in order, into ws.ops.
inline void editops(Workspace& ws) {
    ws.ops.clear();
    const int64_t n1 = static_cast<int64_t>(ws.a.size()), n2 = static_cast<int64_t>(ws.b.size());
    align(ws, ws.a.data(), n1, ws.b.data(), n2, 0, 0, std::max(n1, n2), ws.ops);
}

inline Counts count(const std::vector<Editop>& ops, int64_t n1) {
    Counts c;
    for (const Editop& op : ops) {
        if (op.type == kReplace)
            ++c.substitutions;
        else if (op.type == kDelete)
            ++c.deletions;
        else
            ++c.insertions;
    }
    c.hits = n1 - c.substitutions - c.deletions;
    return c;
}

// RapidFuzz's Opcodes from Editops: runs of one type, the gaps between them `equal`, over the whole pair.
inline void opcodes(const std::vector<Editop>& ops, int64_t n1, int64_t n2, std::vector<Chunk>& out) {
    int64_t src = 0, dest = 0;
    size_t i = 0;
    while (i < ops.size()) {
        if (src < ops[i].src || dest < ops[i].dest) {
            out.push_back({kEqual, src, ops[i].src, dest, ops[i].dest});
            src = ops[i].src;
            dest = ops[i].dest;
        }
        const int64_t src_begin = src, dest_begin = dest;
        const int type = ops[i].type;
        do {
            if (type == kReplace) {
                ++src;
                ++dest;
            } else if (type == kInsert) {
                ++dest;
            } else {
                ++src;
            }
            ++i;
        } while (i < ops.size() && ops[i].type == type && src == ops[i].src && dest == ops[i].dest);
        out.push_back({type, src_begin, src, dest_begin, dest});
    }
    if (src < n1 || dest < n2) out.push_back({kEqual, src, n1, dest, n2});
}

// The Levenshtein distance of the pair in ws.a / ws.b (after `remap`): common affixes stripped, then the shared
// bit-parallel kernel (_bitparallel.hpp) with the shorter side as the pattern (the distance is symmetric).
inline int64_t distance(Workspace& ws) {
    const uint32_t* a = ws.a.data();
    const uint32_t* b = ws.b.data();
    int64_t n1 = static_cast<int64_t>(ws.a.size()), n2 = static_cast<int64_t>(ws.b.size());
    int64_t prefix = 0;
    while (prefix < n1 && prefix < n2 && a[prefix] == b[prefix]) ++prefix;
    a += prefix;
    b += prefix;
    n1 -= prefix;
    n2 -= prefix;
    while (n1 && n2 && a[n1 - 1] == b[n2 - 1]) {
        --n1;
        --n2;
    }
    if (n1 == 0 || n2 == 0) return n1 + n2;
    if (n1 > n2) {
        std::swap(a, b);
        std::swap(n1, n2);
    }
    ws.prepare(a, n1);
    const int64_t found = bitparallel::levenshtein(ws, n1, b, n2, ws.state);
    ws.unprepare();
    return found;
}

// Code point `i` of a PEP 393 buffer of kind 1, 2 or 4.
inline uint32_t code_point(int kind, const void* data, int64_t i) {
    if (kind == 1) return static_cast<const uint8_t*>(data)[i];
    if (kind == 2) return static_cast<const uint16_t*>(data)[i];
    return static_cast<const uint32_t*>(data)[i];
}

inline void remap_ids(Workspace& ws, const int64_t* s1, int64_t n1, const int64_t* s2, int64_t n2) {
    ws.remap([s1](int64_t i) { return s1[i]; }, n1, [s2](int64_t j) { return s2[j]; }, n2);
}

inline void remap_text(Workspace& ws, int kind1, const void* d1, int64_t n1, int kind2, const void* d2,
                       int64_t n2) {
    ws.remap([kind1, d1](int64_t i) { return code_point(kind1, d1, i); }, n1,
             [kind2, d2](int64_t j) { return code_point(kind2, d2, j); }, n2);
}

// Counts of the pair held in `ws` (after a remap), its opcodes appended to `chunks` when given.
inline Counts align_pair(Workspace& ws, std::vector<Chunk>* chunks) {
    editops(ws);
    const int64_t n1 = static_cast<int64_t>(ws.a.size()), n2 = static_cast<int64_t>(ws.b.size());
    if (chunks != nullptr) opcodes(ws.ops, n1, n2, *chunks);
    return count(ws.ops, n1);
}

}  // namespace refscore::levenshtein
