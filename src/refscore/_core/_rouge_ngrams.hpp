// ROUGE-N (rouge-score 0.1.2 semantics): the clipped n-gram overlap of two texts' term ids (NgramOverlap).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "_rouge_tokenizer.hpp"

namespace refscore::rouge {

// ---- ROUGE-N: clipped n-gram overlap -----------------------------------------------------------------------------
class NgramOverlap {
  public:
    void ensure_terms(std::size_t n_terms) {
        if (count_a_.size() < n_terms) count_a_.resize(std::max<std::size_t>(n_terms, count_a_.size() * 2), 0);
    }

    // ---- ROUGE-N overlap: sum over target n-grams of min(count in target, count in prediction). --------------
    Counts ngram_overlap(const std::vector<uint32_t>& hyp, const std::vector<uint32_t>& ref, std::size_t n) {
        Counts c;
        c.hyp_total = hyp.size() >= n ? static_cast<int64_t>(hyp.size() - n + 1) : 0;
        c.ref_total = ref.size() >= n ? static_cast<int64_t>(ref.size() - n + 1) : 0;
        if (c.hyp_total == 0 || c.ref_total == 0) return c;
        if (n == 1) {
            for (uint32_t t : hyp) ++count_a_[t];
            for (uint32_t t : ref) {
                if (count_a_[t] > 0) {
                    ++c.matches;
                    --count_a_[t];
                }
            }
            for (uint32_t t : hyp) count_a_[t] = 0;
            return c;
        }
        if (n == 2) {
            keys_a_.resize(c.hyp_total);
            keys_b_.resize(c.ref_total);
            for (int64_t i = 0; i < c.hyp_total; ++i) keys_a_[i] = (uint64_t(hyp[i]) << 32) | hyp[i + 1];
            for (int64_t i = 0; i < c.ref_total; ++i) keys_b_[i] = (uint64_t(ref[i]) << 32) | ref[i + 1];
            std::sort(keys_a_.begin(), keys_a_.end());
            std::sort(keys_b_.begin(), keys_b_.end());
            c.matches = merge_count(
                keys_a_, keys_b_, [](uint64_t x, uint64_t y) { return x < y; },
                [](uint64_t x, uint64_t y) { return x == y; });
            return c;
        }
        // n >= 3: sort n-gram start positions lexicographically by their ids.
        const uint32_t* hp = hyp.data();
        const uint32_t* rp = ref.data();
        pos_a_.resize(c.hyp_total);
        pos_b_.resize(c.ref_total);
        for (int64_t i = 0; i < c.hyp_total; ++i) pos_a_[i] = static_cast<uint32_t>(i);
        for (int64_t i = 0; i < c.ref_total; ++i) pos_b_[i] = static_cast<uint32_t>(i);
        auto less_in = [n](const uint32_t* base) {
            return [base, n](uint32_t x, uint32_t y) {
                return std::lexicographical_compare(base + x, base + x + n, base + y, base + y + n);
            };
        };
        std::sort(pos_a_.begin(), pos_a_.end(), less_in(hp));
        std::sort(pos_b_.begin(), pos_b_.end(), less_in(rp));
        std::size_t i = 0, j = 0;
        while (i < pos_a_.size() && j < pos_b_.size()) {
            int cmp = compare_ngrams(hp + pos_a_[i], rp + pos_b_[j], n);
            if (cmp < 0) {
                ++i;
            } else if (cmp > 0) {
                ++j;
            } else {
                std::size_t i2 = i + 1, j2 = j + 1;
                while (i2 < pos_a_.size() && compare_ngrams(hp + pos_a_[i2], hp + pos_a_[i], n) == 0) ++i2;
                while (j2 < pos_b_.size() && compare_ngrams(rp + pos_b_[j2], rp + pos_b_[j], n) == 0) ++j2;
                c.matches += static_cast<int64_t>(std::min(i2 - i, j2 - j));
                i = i2;
                j = j2;
            }
        }
        return c;
    }

  private:
    static int compare_ngrams(const uint32_t* x, const uint32_t* y, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) {
            if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
        }
        return 0;
    }

    template <class Less, class Equal>
    static int64_t merge_count(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, Less less, Equal equal) {
        int64_t matches = 0;
        std::size_t i = 0, j = 0;
        while (i < a.size() && j < b.size()) {
            if (less(a[i], b[j])) {
                ++i;
            } else if (less(b[j], a[i])) {
                ++j;
            } else {
                std::size_t i2 = i + 1, j2 = j + 1;
                while (i2 < a.size() && equal(a[i2], a[i])) ++i2;
                while (j2 < b.size() && equal(b[j2], b[j])) ++j2;
                matches += static_cast<int64_t>(std::min(i2 - i, j2 - j));
                i = i2;
                j = j2;
            }
        }
        return matches;
    }

    std::vector<uint32_t> count_a_;
    std::vector<uint64_t> keys_a_, keys_b_;
    std::vector<uint32_t> pos_a_, pos_b_;
};

}  // namespace refscore::rouge
