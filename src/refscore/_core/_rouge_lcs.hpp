// ROUGE-L and ROUGE-Lsum (rouge-score 0.1.2 semantics): the LCS length, bit-parallel with memory linear in the
// shorter text, and rouge-score's backtrack (BitParallelLcs); the summary-level union LCS with its exact
// backtrack tie-breaking and unigram clipping (SummaryLcs). Both work on term ids of one TermTokenizer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "_rouge_tokenizer.hpp"

namespace refscore::rouge {

// Portable SWAR popcount (the generic x86-64 target has no popcnt instruction; libgcc's fallback is slower).
inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

// ---- LCS: bit-parallel length and rouge-score's backtrack ---------------------------------------------------------
// Works on term ids below the count given to ensure_terms.
class BitParallelLcs {
  public:
    void ensure_terms(std::size_t n_terms) {
        if (slot_of_.size() < n_terms) slot_of_.resize(std::max<std::size_t>(n_terms, slot_of_.size() * 2), -1);
    }

    // ---- LCS length: bit-parallel (Hyyro 2004), columns = the shorter text, processed in blocks of at most
    // 4096 columns with the row carries kept as bits, so memory is linear in the input. ------------------------
    int64_t lcs_length(const uint32_t* a, std::size_t n, const uint32_t* b, std::size_t m) {
        if (n == 0 || m == 0) return 0;
        if (m > n) {
            std::swap(a, b);
            std::swap(n, m);
        }
        const std::size_t max_block_words = 64;
        std::size_t total_words = (m + 63) / 64;
        std::size_t block_words = std::min(total_words, max_block_words);
        carries_.assign((n + 63) / 64, 0);
        int64_t lcs = 0;
        for (std::size_t c0 = 0; c0 < m; c0 += block_words * 64) {
            std::size_t cols = std::min(block_words * 64, m - c0);
            std::size_t bw = (cols + 63) / 64;
            build_masks(b + c0, cols, bw);
            row_.assign(bw, ~0ull);
            uint64_t* v = row_.data();
            for (std::size_t i = 0; i < n; ++i) {
                int32_t slot = slot_of_[a[i]];
                uint64_t carry = (carries_[i >> 6] >> (i & 63)) & 1ull;
                if (slot < 0 && carry == 0) continue;
                const uint64_t* mask = slot < 0 ? zero_mask(bw) : masks_.data() + static_cast<std::size_t>(slot) * bw;
                carry = advance_row(v, v, mask, bw, carry);
                if (carry)
                    carries_[i >> 6] |= (1ull << (i & 63));
                else
                    carries_[i >> 6] &= ~(1ull << (i & 63));
            }
            lcs += static_cast<int64_t>(cols) - count_ones(v, cols);
            clear_masks(b + c0, cols);
        }
        return lcs;
    }

    // ---- rouge-score's `lcs_ind(ref, can)` (full DP table + `_backtrack_norec`): positions in `ref` of the LCS
    // chosen by its backtrack (on a tie between left and up it moves up, i.e. along the reference). The table is
    // kept as bit rows (row i = reference prefix i), with checkpoints when it would be large. ---------------------
    // With `up_on_tie` false the tie goes the other way (the `rouge` package's `_recon_lcs`).
    void lcs_positions(const uint32_t* ref, std::size_t n, const uint32_t* can, std::size_t m,
                       std::vector<uint32_t>& positions, bool up_on_tie = true) {
        positions.clear();
        if (n == 0 || m == 0) return;
        std::size_t bw = (m + 63) / 64;
        build_masks(can, m, bw);
        backtrack_masks_ready(ref, n, can, m, bw, positions, up_on_tie);
        clear_masks(can, m);
    }

    // Largest DP table (in 64-bit words) kept whole by the Lsum backtrack; larger ones use checkpoints.
    void set_table_limit(std::size_t words) { table_limit_words_ = words; }

    // Match masks of `cols` column tokens: one bit row of `bw` words per distinct token.
    void build_masks(const uint32_t* cols_tokens, std::size_t cols, std::size_t bw) {
        std::size_t n_slots = 0;
        for (std::size_t j = 0; j < cols; ++j) {
            uint32_t t = cols_tokens[j];
            if (slot_of_[t] < 0) slot_of_[t] = static_cast<int32_t>(n_slots++);
        }
        masks_.assign(n_slots * bw, 0);
        for (std::size_t j = 0; j < cols; ++j) {
            std::size_t slot = static_cast<std::size_t>(slot_of_[cols_tokens[j]]);
            masks_[slot * bw + (j >> 6)] |= 1ull << (j & 63);
        }
    }
    void clear_masks(const uint32_t* cols_tokens, std::size_t cols) {
        for (std::size_t j = 0; j < cols; ++j) slot_of_[cols_tokens[j]] = -1;
    }
    const uint64_t* zero_mask(std::size_t bw) {
        if (zeros_.size() < bw) zeros_.assign(bw, 0);
        return zeros_.data();
    }

    // One row of the bit-parallel LCS: out = (v + (v & mask)) | (v & ~mask), multi-word with carry-in.
    static uint64_t advance_row(const uint64_t* v, uint64_t* out, const uint64_t* mask, std::size_t bw,
                                uint64_t carry) {
        for (std::size_t w = 0; w < bw; ++w) {
            uint64_t x = v[w];
            uint64_t u = x & mask[w];
            uint64_t s1 = x + u;
            uint64_t c1 = s1 < x;
            uint64_t s2 = s1 + carry;
            uint64_t c2 = s2 < s1;
            carry = c1 | c2;
            out[w] = s2 | (x - u);
        }
        return carry;
    }

    static int64_t count_ones(const uint64_t* v, std::size_t cols) {
        int64_t ones = 0;
        std::size_t full = cols >> 6;
        for (std::size_t w = 0; w < full; ++w) ones += popcount64(v[w]);
        if (cols & 63) ones += popcount64(v[full] & ((1ull << (cols & 63)) - 1));
        return ones;
    }

    // LCS(ref[:i], can[:j]) = number of zero bits among the first j bits of row i.
    static int64_t table_value(const uint64_t* row, std::size_t j) {
        return static_cast<int64_t>(j) - count_ones(row, j);
    }

    // Rows of the DP table for `ref` against masks of `can` (already built), then rouge-score's backtrack.
    void backtrack_masks_ready(const uint32_t* ref, std::size_t n, const uint32_t* can, std::size_t m, std::size_t bw,
                               std::vector<uint32_t>& positions, bool up_on_tie = true) {
        positions.clear();
        if ((n + 1) * bw <= table_limit_words_) {
            // Small table: keep every row (row 0 = no match yet = all ones).
            block_.resize((n + 1) * bw);
            std::fill(block_.begin(), block_.begin() + bw, ~0ull);
            for (std::size_t i = 1; i <= n; ++i)
                next_row(ref[i - 1], block_.data() + (i - 1) * bw, block_.data() + i * bw, bw);
            const uint64_t* rows = block_.data();
            backtrack(ref, n, can, m, positions, up_on_tie, [rows, bw](std::size_t i) { return rows + i * bw; });
            return;
        }
        // Large table: checkpoints every `step` rows and one recomputed block of rows at a time.
        std::size_t step = 1;
        while (step * step < n) ++step;
        std::size_t n_checkpoints = n / step + 1;
        checkpoints_.assign(n_checkpoints * bw, 0);
        std::fill(checkpoints_.begin(), checkpoints_.begin() + bw, ~0ull);
        block_.assign(step * bw, 0);
        row_.assign(bw, ~0ull);
        for (std::size_t i = 1; i <= n; ++i) {
            next_row(ref[i - 1], row_.data(), row_.data(), bw);
            if (i % step == 0) std::copy(row_.begin(), row_.end(), checkpoints_.begin() + (i / step) * bw);
        }
        std::size_t cached_block = SIZE_MAX;
        auto row = [&](std::size_t i) -> const uint64_t* {
            if (i % step == 0) return checkpoints_.data() + (i / step) * bw;
            std::size_t k = i / step;
            if (cached_block != k) {
                const uint64_t* prev = checkpoints_.data() + k * bw;
                std::size_t last = std::min(n, k * step + step - 1);
                for (std::size_t r = k * step + 1; r <= last; ++r) {
                    uint64_t* out = block_.data() + (r - k * step - 1) * bw;
                    next_row(ref[r - 1], prev, out, bw);
                    prev = out;
                }
                cached_block = k;
            }
            return block_.data() + (i - k * step - 1) * bw;
        };
        backtrack(ref, n, can, m, positions, up_on_tie, row);
    }

    // rouge-score's `_backtrack_norec` over a table given by its bit rows.
    template <class RowAt>
    static void backtrack(const uint32_t* ref, std::size_t n, const uint32_t* can, std::size_t m,
                          std::vector<uint32_t>& positions, bool up_on_tie, RowAt row) {
        std::size_t i = n, j = m;
        while (i > 0 && j > 0) {
            if (ref[i - 1] == can[j - 1]) {
                positions.push_back(static_cast<uint32_t>(i - 1));
                --i;
                --j;
            } else {
                int64_t left = table_value(row(i), j - 1), up = table_value(row(i - 1), j);
                if (up_on_tie ? left > up : !(up > left))
                    --j;
                else
                    --i;
            }
        }
        std::reverse(positions.begin(), positions.end());
    }

    void next_row(uint32_t token, const uint64_t* prev, uint64_t* out, std::size_t bw) {
        int32_t slot = slot_of_[token];
        if (slot < 0) {
            if (out != prev) std::copy(prev, prev + bw, out);
            return;
        }
        advance_row(prev, out, masks_.data() + static_cast<std::size_t>(slot) * bw, bw, 0);
    }

  private:
    std::size_t table_limit_words_ = std::size_t(1) << 22;  // 32 MiB
    std::vector<int32_t> slot_of_;
    std::vector<uint64_t> masks_, zeros_, row_, carries_, checkpoints_, block_;
};

// ---- ROUGE-Lsum: the union LCS over sentences with unigram clipping ------------------------------------------------
class SummaryLcs {
  public:
    explicit SummaryLcs(BitParallelLcs& lcs) : lcs_(lcs) {}

    void ensure_terms(std::size_t n_terms) {
        if (count_a_.size() < n_terms) {
            const std::size_t size = std::max<std::size_t>(n_terms, count_a_.size() * 2);
            count_a_.resize(size, 0);
            count_b_.resize(size, 0);
        }
    }

    // ---- ROUGE-Lsum: rouge-score's `_summary_level_lcs(ref_sent, can_sent)`. ------------------------------------
    Counts summary_level_lcs(const Tokens& hyp, const Tokens& ref) {
        Counts c{0, static_cast<int64_t>(hyp.ids.size()), static_cast<int64_t>(ref.ids.size())};
        if (c.hyp_total == 0 || c.ref_total == 0) return c;
        std::size_t hyp_nonempty = count_nonempty(hyp), ref_nonempty = count_nonempty(ref);
        if (hyp_nonempty == 1 && ref_nonempty == 1) {
            // One sentence on each side: every LCS token survives the clipping, so hits = LCS length.
            c.matches = lcs_.lcs_length(hyp.ids.data(), hyp.ids.size(), ref.ids.data(), ref.ids.size());
            return c;
        }
        for (uint32_t t : ref.ids) ++count_a_[t];
        for (uint32_t t : hyp.ids) ++count_b_[t];
        // A reference sentence whose every token that occurs in the prediction is already in the union can gain
        // nothing from further prediction sentences: skip it (`open_` counts its positions still outside the union).
        std::size_t n_ref_sentences = ref.sentences.size() - 1;
        open_.assign(n_ref_sentences, 0);
        for (std::size_t rs = 0; rs < n_ref_sentences; ++rs)
            for (uint32_t p = ref.sentences[rs]; p < ref.sentences[rs + 1]; ++p) open_[rs] += count_b_[ref.ids[p]] > 0;
        in_union_.assign(ref.ids.size(), 0);
        for (std::size_t cs = 0; cs + 1 < hyp.sentences.size(); ++cs) {
            uint32_t cb = hyp.sentences[cs], ce = hyp.sentences[cs + 1];
            if (cb == ce) continue;
            const uint32_t* can = hyp.ids.data() + cb;
            std::size_t m = ce - cb;
            std::size_t bw = (m + 63) / 64;
            lcs_.build_masks(can, m, bw);
            for (std::size_t rs = 0; rs < n_ref_sentences; ++rs) {
                uint32_t rb = ref.sentences[rs], re = ref.sentences[rs + 1];
                if (open_[rs] == 0) continue;
                lcs_.backtrack_masks_ready(ref.ids.data() + rb, re - rb, can, m, bw, positions_);
                for (uint32_t p : positions_) {
                    if (!in_union_[rb + p]) {
                        in_union_[rb + p] = 1;
                        --open_[rs];
                    }
                }
            }
            lcs_.clear_masks(can, m);
        }
        for (std::size_t p = 0; p < ref.ids.size(); ++p) {
            if (!in_union_[p]) continue;
            uint32_t t = ref.ids[p];
            if (count_b_[t] > 0 && count_a_[t] > 0) {
                ++c.matches;
                --count_b_[t];
                --count_a_[t];
            }
        }
        for (uint32_t t : ref.ids) count_a_[t] = 0;
        for (uint32_t t : hyp.ids) count_b_[t] = 0;
        return c;
    }

  private:
    static std::size_t count_nonempty(const Tokens& t) {
        std::size_t k = 0;
        for (std::size_t s = 0; s + 1 < t.sentences.size(); ++s) k += t.sentences[s + 1] > t.sentences[s];
        return k;
    }

    BitParallelLcs& lcs_;
    std::vector<uint32_t> count_a_, count_b_;
    std::vector<uint32_t> positions_;
    std::vector<uint8_t> in_union_;
    std::vector<uint32_t> open_;
};

}  // namespace refscore::rouge
