// ROUGE tokenization (rouge-score 0.1.2 semantics): text -> term ids with rouge-score's default tokenizer,
// optional Porter stemming with a per-thread cache (TermTokenizer), and the types the ROUGE kernels share:
// Config (one call's settings), Tokens (a tokenized text), Counts (one score's match counts).
#pragma once

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
        if (cfg_->lowercase)
            refscore::for_each_lowercase(code_points_.data(), length, append);
        else
            for (std::size_t i = 0; i < length; ++i) append(code_points_[i]);
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
                id = term_to_id_.find_or_insert(term.data(), static_cast<uint32_t>(term.size()), th, n_terms_,
                                                &inserted);
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
    std::deque<std::string> texts_;      // the texts read so far (term strings are views into them)
    std::vector<uint32_t> code_points_;  // the text being read
    std::vector<std::string_view> term_strings_;
    uint32_t n_terms_ = 0;
};

}  // namespace refscore::rouge
