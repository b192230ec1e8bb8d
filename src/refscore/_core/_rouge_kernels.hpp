// ROUGE kernels of refscore (rouge-score 0.1.2 semantics): tokenization to integer term ids (rouge-score's
// default tokenizer, optional Porter stemming with a per-thread cache), n-gram overlap,
// LCS length (bit-parallel, memory linear in the shorter text) and rouge-score's summary-level union LCS
// (ROUGE-Lsum) with its exact backtrack tie-breaking and unigram clipping.
//
// One job per class: TermTokenizer (text -> term ids), BitParallelLcs (LCS length and backtrack), NgramOverlap
// (ROUGE-N), SummaryLcs (ROUGE-Lsum); a Worker composes them and scores whole segments (a prediction against each
// of its references), one Worker per thread. Term ids are private to a worker, which is enough because tokens are
// only ever compared within one segment. Results do not depend on which worker scores a segment, hence not on the
// thread count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "_hash_table.hpp"
#include "_rouge_porter.hpp"
#include "_text.hpp"

namespace refscore::rouge {

// Type codes: n >= 1 is ROUGE-N, 0 is ROUGE-L (whole text), -1 is ROUGE-Lsum (summary level).
constexpr int TYPE_L = 0;
constexpr int TYPE_LSUM = -1;
constexpr uint32_t DROPPED = 0xFFFFFFFFu;

struct Config {
  bool stem = false;
  bool lowercase = true;  // str.lower in the kernel (false: the binding lowercased in Python)
  const int64_t* types = nullptr;
  int64_t n_types = 0;
};

// A term's key and probe start in StringTable: the shared sequence digest, mixed (FNV-1a's low bits are weak).
inline uint64_t hash_bytes(const char* p, std::size_t n) {
  return refscore::mix64(refscore::sequence_digest(reinterpret_cast<const unsigned char*>(p), n));
}

// Append code point `c` as UTF-8 (surrogates as three bytes, as Python's "surrogatepass").
inline void append_utf8(uint32_t c, std::string& out) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// A map from byte strings (views into memory that outlives the map) to uint32 values, on the shared table
// (_hash_table.hpp) keyed by the strings' hash_bytes digest. Keys of up to 16 bytes are also copied into the
// entry, so most lookups compare without touching the (far away) key bytes.
class StringTable {
 public:
  StringTable() {
    if (!table_.start(512)) throw std::bad_alloc();
  }

  // Returns the value of the key, or inserts `value` and returns it.
  uint32_t find_or_insert(const char* p, uint32_t len, uint64_t h, uint32_t value, bool* inserted) {
    std::size_t i = table_.probe(h, h, Same{p, len});
    if (table_.live(i)) {
      *inserted = false;
      return table_.value(i).value;
    }
    if (!table_.grow_for_one_more([](uint64_t key) { return key; })) throw std::bad_alloc();
    i = table_.probe(h, h, Same{p, len});
    Entry entry{p, len, value, {}};
    if (len <= kInline) std::memcpy(entry.inline_key, p, len);
    table_.claim(i, h, entry);
    *inserted = true;
    return value;
  }

  const uint32_t* find(const char* p, uint32_t len, uint64_t h) const {
    const std::size_t i = table_.probe(h, h, Same{p, len});
    return table_.live(i) ? &table_.value(i).value : nullptr;
  }

  void set(const char* p, uint32_t len, uint64_t h, uint32_t value) {
    bool inserted;
    find_or_insert(p, len, h, value, &inserted);
  }

 private:
  static constexpr uint32_t kInline = 16;
  struct Entry {
    const char* p;
    uint32_t len;
    uint32_t value;
    char inline_key[kInline];
  };
  struct Same {
    const char* p;
    uint32_t len;
    bool operator()(const Entry& e) const {
      return e.len == len && refscore::same_items(len <= kInline ? e.inline_key : e.p, p, len);
    }
  };
  refscore::HashTable<Entry> table_;
};

// A tokenized text: term ids and the token index where each line (sentence) starts; `sentences` ends with the
// token count, so line k holds tokens [sentences[k], sentences[k + 1]).
struct Tokens {
  std::vector<uint32_t> ids;
  std::vector<uint32_t> sentences;
  void clear() {
    ids.clear();
    sentences.clear();
  }
};

struct Counts {
  int64_t matches = 0, hyp_total = 0, ref_total = 0;
  double fmeasure() const {
    double p = static_cast<double>(matches) / static_cast<double>(hyp_total > 1 ? hyp_total : 1);
    double r = static_cast<double>(matches) / static_cast<double>(ref_total > 1 ? ref_total : 1);
    if (p + r > 0) return 2.0 * p * r / (p + r);  // same operation order as rouge-score's scoring.fmeasure
    return 0.0;
  }
};

// Portable SWAR popcount (the generic x86-64 target has no popcnt instruction; libgcc's fallback is slower).
inline int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}


// ---- tokenization: text -> term ids ------------------------------------------------------------------------------
// rouge-score's default tokenizer, with optional Porter stemming (cached per raw token). Term ids
// are dense, in order of first appearance, private to one tokenizer.
class TermTokenizer {
 public:
  explicit TermTokenizer(const Config* config) : cfg_(config) {}

  // ---- tokenization -----------------------------------------------------------------------------------------
  // Tokenizes bytes [begin, end) (UTF-8, already lowercased) into `out`; returns the number of tokens.
  int64_t tokenize(const unsigned char* begin, const unsigned char* end, Tokens& out) {
    out.clear();
    out.sentences.push_back(0);
    const unsigned char* p = begin;
    while (p < end) {
      unsigned char c = *p;
      if (is_ascii_alnum(c)) {
        const unsigned char* start = p;
        while (p < end && is_ascii_alnum(*p)) ++p;
        emit(reinterpret_cast<const char*>(start), static_cast<uint32_t>(p - start), out);
        continue;
      }
      if (c == '\n') out.sentences.push_back(static_cast<uint32_t>(out.ids.size()));
      ++p;
    }
    out.sentences.push_back(static_cast<uint32_t>(out.ids.size()));
    return static_cast<int64_t>(out.ids.size());
  }

  // Tokenizes text `t` of `texts` (lowercased when the config says so) into `out`; returns the number of tokens.
  int64_t tokenize_text(const refscore::TextBatch& texts, int64_t t, Tokens& out) {
    const std::string& text = load_text(texts, t);
    const unsigned char* begin = reinterpret_cast<const unsigned char*>(text.data());
    return tokenize(begin, begin + text.size(), out);
  }

  const std::string_view& term_string(uint32_t id) const { return term_strings_[id]; }

  uint32_t n_terms() const { return n_terms_; }

 private:
  // Text `t` as lowercased UTF-8 (the tokenizer's input), kept while the worker lives: term strings point into it.
  const std::string& load_text(const refscore::TextBatch& texts, int64_t t) {
    const std::size_t length = static_cast<std::size_t>(texts.lengths[t]);
    if (texts.kinds[t] == 1) {  // an ASCII text is its own UTF-8, and str.lower maps it within ASCII
      const unsigned char* source = static_cast<const unsigned char*>(texts.data[t]);
      unsigned char high_bits = 0;
      for (std::size_t i = 0; i < length; ++i) high_bits |= source[i];
      if (high_bits < 0x80) {
        texts_.emplace_back(reinterpret_cast<const char*>(source), length);
        std::string& text = texts_.back();
        if (cfg_->lowercase)
          for (char& c : text) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c + 32 : c);
        return text;
      }
    }
    if (code_points_.size() < length) code_points_.resize(length);
    refscore::read_code_points(texts.kinds[t], texts.data[t], length, code_points_.data());
    texts_.emplace_back();
    std::string& text = texts_.back();
    text.reserve(length);
    const auto append = [&text](uint32_t c) { append_utf8(c, text); };
    if (cfg_->lowercase) refscore::for_each_lowercase(code_points_.data(), length, append);
    else for (std::size_t i = 0; i < length; ++i) append(code_points_[i]);
    return text;
  }

  static bool is_ascii_alnum(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

  // Maps a raw token to its term id (after optional stemming of tokens longer than 3 characters).
  void emit(const char* p, uint32_t len, Tokens& out) {
    uint64_t h = hash_bytes(p, len);
    if (!cfg_->stem) {
      bool inserted;
      uint32_t id = raw_to_term_.find_or_insert(p, len, h, n_terms_, &inserted);
      if (inserted) {
        term_strings_.emplace_back(p, len);
        ++n_terms_;
      }
      out.ids.push_back(id);
      return;
    }
    const uint32_t* known = raw_to_term_.find(p, len, h);
    uint32_t id;
    if (known != nullptr) {
      id = *known;
    } else {
      std::string_view term(p, len);
      if (len > 3) {
        stems_.push_back(stemmer_.stem(term));
        term = std::string_view(stems_.back());
      }
      if (term.empty()) {
        id = DROPPED;  // rouge-score drops tokens that are not [a-z0-9]+ after stemming
      } else {
        bool inserted;
        uint64_t th = hash_bytes(term.data(), term.size());
        id = term_to_id_.find_or_insert(term.data(), static_cast<uint32_t>(term.size()), th, n_terms_, &inserted);
        if (inserted) {
          term_strings_.push_back(term);
          ++n_terms_;
        }
      }
      raw_to_term_.set(p, len, h, id);
    }
    if (id != DROPPED) out.ids.push_back(id);
  }

  const Config* cfg_;
  PorterStemmer stemmer_;
  StringTable raw_to_term_;
  StringTable term_to_id_;
  std::deque<std::string> stems_;
  std::deque<std::string> texts_;  // the texts read so far (term strings are views into them)
  std::vector<uint32_t> code_points_;  // the text being read
  std::vector<std::string_view> term_strings_;
  uint32_t n_terms_ = 0;
};

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
        if (carry) carries_[i >> 6] |= (1ull << (i & 63));
        else carries_[i >> 6] &= ~(1ull << (i & 63));
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
  void backtrack_masks_ready(const uint32_t* ref, std::size_t n, const uint32_t* can, std::size_t m,
                             std::size_t bw, std::vector<uint32_t>& positions, bool up_on_tie = true) {
    positions.clear();
    if ((n + 1) * bw <= table_limit_words_) {
      // Small table: keep every row (row 0 = no match yet = all ones).
      block_.resize((n + 1) * bw);
      std::fill(block_.begin(), block_.begin() + bw, ~0ull);
      for (std::size_t i = 1; i <= n; ++i) next_row(ref[i - 1], block_.data() + (i - 1) * bw, block_.data() + i * bw, bw);
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
        if (up_on_tie ? left > up : !(up > left)) --j;
        else --i;
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
      c.matches = merge_count(keys_a_, keys_b_, [](uint64_t x, uint64_t y) { return x < y; },
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
  static int64_t merge_count(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, Less less,
                             Equal equal) {
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

// ---- one thread's scorer of whole segments -----------------------------------------------------------------------
class Worker {
 public:
  explicit Worker(const Config* config) : cfg_(config), tokenizer_(config), lsum_(lcs_) {}
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  int64_t tokenize_text(const refscore::TextBatch& texts, int64_t t, Tokens& out) {
    return tokenizer_.tokenize_text(texts, t, out);
  }
  const std::string_view& term_string(uint32_t id) const { return tokenizer_.term_string(id); }

  // ---- scoring ----------------------------------------------------------------------------------------------
  // Scores one segment: prediction text `hyp` of `texts`, references [ref_begin, ref_end). Writes, per type, the
  // counts of the best reference (highest F, the first on ties, as rouge-score's score_multi) to
  // out_counts[3 * t ...] and its index to out_best[t]. Returns 0, or 1 when memory ran out.
  int score_segment(const refscore::TextBatch& texts, int64_t hyp, int64_t ref_begin, int64_t ref_end,
                    int64_t* out_counts, int64_t* out_best) noexcept {
    try {
      tokenizer_.tokenize_text(texts, hyp, hyp_);
      int64_t n_refs = ref_end - ref_begin;
      if (static_cast<int64_t>(refs_.size()) < n_refs) refs_.resize(n_refs);
      for (int64_t k = 0; k < n_refs; ++k) {
        tokenizer_.tokenize_text(texts, ref_begin + k, refs_[k]);
      }
      ensure_terms();
      score_tokens(hyp_, hyp_, refs_, refs_, n_refs, out_counts, out_best);
      return 0;
    } catch (const std::bad_alloc&) {
      return 1;
    }
  }

  // Pre-tokenized input (dense term ids < the count given to reserve_terms). Text k: whole-text ids
  // ids[tok_off[k], tok_off[k + 1]) (ROUGE-N, ROUGE-L); sentence view for ROUGE-Lsum: sent_ids[sent_tok_off[k],
  // sent_tok_off[k + 1]) cut at bounds[bound_off[k], bound_off[k + 1]) (token indices relative to the text, the
  // first 0 and the last the token count).
  int score_segment_ids(const uint32_t* ids, const int64_t* tok_off, const uint32_t* sent_ids,
                        const int64_t* sent_tok_off, const int64_t* bounds, const int64_t* bound_off, int64_t hyp,
                        int64_t ref_begin, int64_t ref_end, int64_t* out_counts, int64_t* out_best) noexcept {
    try {
      int64_t n_refs = ref_end - ref_begin;
      if (static_cast<int64_t>(refs_.size()) < n_refs) refs_.resize(n_refs);
      if (static_cast<int64_t>(ref_sents_.size()) < n_refs) ref_sents_.resize(n_refs);
      fill(ids, tok_off, hyp, hyp_);
      fill_sentences(sent_ids, sent_tok_off, bounds, bound_off, hyp, hyp_sents_);
      for (int64_t k = 0; k < n_refs; ++k) {
        fill(ids, tok_off, ref_begin + k, refs_[k]);
        fill_sentences(sent_ids, sent_tok_off, bounds, bound_off, ref_begin + k, ref_sents_[k]);
      }
      score_tokens(hyp_, hyp_sents_, refs_, ref_sents_, n_refs, out_counts, out_best);
      return 0;
    } catch (const std::bad_alloc&) {
      return 1;
    }
  }

  // Per type, the counts of the reference with the highest F (the first on ties, as rouge-score's score_multi).
  void score_tokens(const Tokens& hyp, const Tokens& hyp_sents, const std::vector<Tokens>& refs,
                    const std::vector<Tokens>& ref_sents, int64_t n_refs, int64_t* out_counts, int64_t* out_best) {
    for (int64_t t = 0; t < cfg_->n_types; ++t) {
      int64_t type = cfg_->types[t];
      Counts best;
      double best_f = -1.0;
      int64_t best_k = 0;
      for (int64_t k = 0; k < n_refs; ++k) {
        Counts c = type == TYPE_LSUM ? lsum_.summary_level_lcs(hyp_sents, ref_sents[k]) : score_pair(type, hyp, refs[k]);
        double f = c.fmeasure();
        if (f > best_f) {
          best_f = f;
          best = c;
          best_k = k;
        }
      }
      out_counts[3 * t] = best.matches;
      out_counts[3 * t + 1] = best.hyp_total;
      out_counts[3 * t + 2] = best.ref_total;
      out_best[t] = best_k;
    }
  }

  Counts score_pair(int64_t type, const Tokens& hyp, const Tokens& ref) {
    if (type == TYPE_L) {
      Counts c{0, static_cast<int64_t>(hyp.ids.size()), static_cast<int64_t>(ref.ids.size())};
      c.matches = lcs_.lcs_length(hyp.ids.data(), hyp.ids.size(), ref.ids.data(), ref.ids.size());
      return c;
    }
    if (type == TYPE_LSUM) return lsum_.summary_level_lcs(hyp, ref);
    return overlap_.ngram_overlap(hyp.ids, ref.ids, static_cast<std::size_t>(type));
  }

  int64_t lcs_length(const uint32_t* a, std::size_t n, const uint32_t* b, std::size_t m) {
    ensure_terms();
    return lcs_.lcs_length(a, n, b, m);
  }
  void lcs_positions(const uint32_t* ref, std::size_t n, const uint32_t* can, std::size_t m,
                     std::vector<uint32_t>& positions, bool up_on_tie = true) {
    ensure_terms();
    lcs_.lcs_positions(ref, n, can, m, positions, up_on_tie);
  }
  void set_table_limit(std::size_t words) { lcs_.set_table_limit(words); }

  // Registers external term ids 0..n_terms-1 (for kernels called on raw id arrays).
  void reserve_terms(uint32_t n_terms) {
    if (n_terms > reserved_terms_) reserved_terms_ = n_terms;
    ensure_terms();
  }

 private:
  // Size every per-term array for the terms met or reserved so far.
  void ensure_terms() {
    const std::size_t n_terms = std::max(reserved_terms_, tokenizer_.n_terms());
    lcs_.ensure_terms(n_terms);
    overlap_.ensure_terms(n_terms);
    lsum_.ensure_terms(n_terms);
  }

  static void fill(const uint32_t* ids, const int64_t* off, int64_t k, Tokens& out) {
    out.clear();
    out.ids.assign(ids + off[k], ids + off[k + 1]);
    out.sentences.push_back(0);
    out.sentences.push_back(static_cast<uint32_t>(out.ids.size()));
  }
  static void fill_sentences(const uint32_t* ids, const int64_t* off, const int64_t* bounds, const int64_t* bound_off,
                             int64_t k, Tokens& out) {
    out.clear();
    out.ids.assign(ids + off[k], ids + off[k + 1]);
    for (int64_t b = bound_off[k]; b < bound_off[k + 1]; ++b) out.sentences.push_back(static_cast<uint32_t>(bounds[b]));
  }

  const Config* cfg_;
  TermTokenizer tokenizer_;
  BitParallelLcs lcs_;
  NgramOverlap overlap_;
  SummaryLcs lsum_;
  uint32_t reserved_terms_ = 0;
  Tokens hyp_, hyp_sents_;
  std::vector<Tokens> refs_, ref_sents_;
};

}  // namespace refscore::rouge
