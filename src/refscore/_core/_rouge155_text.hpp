// ROUGE-1.5.5.pl's text handling on Python strings' own buffers (_text.hpp's TextBatch): sentence lines, the
// script's tokens, -s (SMART stopwords) and -m (WordNet exceptions, then the script's Porter stemmer), straight
// to the CSR token ids that _rouge155_kernel.hpp scores. Plain C++, no Python objects.
//
// The script works on bytes: it lowercases A-Z (tr/A-Z/a-z/), turns everything but [A-Za-z0-9-] into spaces,
// splits on "-" and whitespace, and keeps tokens starting with [a-z0-9$], so its tokens are exactly the runs of
// [a-z0-9] after ASCII lowercasing, and every byte >= 0x80 separates tokens. On code points the same holds for
// every code point >= 0x80: all its UTF-8 bytes are >= 0x80, and so is the byte that `surrogateescape` keeps as
// U+DC80..U+DCFF. Other lone surrogates have no UTF-8 form; the first one stops the reading (`bad_text`).
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "_hash_table.hpp"
#include "_rouge155_porter.hpp"
#include "_text.hpp"

namespace refscore::rouge155 {

// Strings without NUL characters -> dense ids in order of first insertion, on the one hash table
// (_hash_table.hpp). A word of at most 7 characters is its own key (its bytes, top byte 0), so finding it reads
// only its slot; a longer word's key is its digest with the top bit set, and the word itself is compared.
class StringIndex {
  public:
    StringIndex() {
        if (!table_.start(1 << 10)) throw std::bad_alloc();
    }

    // The id of `word`, or -1.
    int64_t find(const std::string& word) const {
        const size_t slot = slot_of(word, key_of(word));
        return table_.live(slot) ? static_cast<int64_t>(table_.value(slot)) : -1;
    }

    // The id of `word`, added when new. Throws std::bad_alloc.
    uint32_t intern(const std::string& word) {
        const uint64_t key = key_of(word);
        size_t slot = slot_of(word, key);
        if (table_.live(slot)) return table_.value(slot);
        if (!table_.grow_for_one_more([](uint64_t k) { return refscore::mix64(k); })) throw std::bad_alloc();
        slot = slot_of(word, key);
        const uint32_t id = static_cast<uint32_t>(words_.size());
        words_.push_back(word);
        table_.claim(slot, key, id);
        return id;
    }

    size_t size() const { return words_.size(); }

  private:
    static constexpr size_t kPackedChars = 7;
    static constexpr uint64_t kDigestBit = 1ull << 63;

    // The table key of `word`: equal keys mean equal words when word.size() <= kPackedChars.
    static uint64_t key_of(const std::string& word) {
        if (word.size() > kPackedChars) return refscore::sequence_digest(word.data(), word.size()) | kDigestBit;
        uint64_t key = 0;
        std::memcpy(&key, word.data(), word.size());
        return key;
    }

    // The slot holding `word`, or the free slot where it belongs.
    size_t slot_of(const std::string& word, uint64_t key) const {
        const bool packed = word.size() <= kPackedChars;
        return table_.probe(key, refscore::mix64(key),
                            [this, &word, packed](uint32_t id) { return packed || words_[id] == word; });
    }

    refscore::HashTable<uint32_t> table_;
    std::vector<std::string> words_;
};

// The script's -s and -m data, compiled once per process: the SMART stopwords and the WordNet-2.0 exception
// table (inflected form -> base form).
class ScriptRules {
  public:
    void add_stopword(const std::string& word) { stopwords_.intern(word); }
    void add_exception(const std::string& inflected, const std::string& base) {
        const uint32_t id = exceptions_.intern(inflected);
        if (id == bases_.size())
            bases_.push_back(base);
        else
            bases_[id] = base;
    }

    // What createNGram counts for the raw token `raw`: false when -s removes it; otherwise `out` is its -m form
    // (tokens longer than 3 characters: the WordNet base form, else the Porter stem) or the token itself.
    bool process(const std::string& raw, bool stemming, bool remove_stopwords, std::string& out) const {
        if (remove_stopwords && stopwords_.find(raw) >= 0) return false;
        if (!stemming || raw.size() <= 3) {
            out = raw;
            return true;
        }
        const int64_t exception = exceptions_.find(raw);
        out = exception >= 0 ? bases_[static_cast<size_t>(exception)] : porter::stem(raw);
        return true;
    }

  private:
    StringIndex stopwords_;
    StringIndex exceptions_;
    std::vector<std::string> bases_;
};

// CSR token ids of a batch of texts: units (sentences) one after another, texts one after another.
struct ScriptTokens {
    std::vector<uint32_t> ids;            // processed token ids in order of first appearance (stopwords removed)
    std::vector<int64_t> unit_lengths;    // tokens per unit
    std::vector<int64_t> units_per_text;  // units per text
    int64_t bad_text = -1;                // the first text holding a lone surrogate with no UTF-8 form, or -1
    int64_t bad_position = -1;            // that surrogate's index in the text
};

// Reads texts into ScriptTokens: raw tokens are interned once, and each new raw token is processed (-s, -m) once.
class ScriptReader {
  public:
    ScriptReader(const ScriptRules& rules, bool split_lines, bool stemming, bool remove_stopwords, ScriptTokens& out)
        : rules_(rules),
          split_lines_(split_lines),
          stemming_(stemming),
          remove_stopwords_(remove_stopwords),
          out_(out) {}

    // Text `t`: with `split_lines` every non-empty "\n"-separated line is a unit (an SPL sentence), otherwise
    // the whole text is one unit. Returns false (and sets bad_text/bad_position) at a lone surrogate.
    template <class Char>
    bool read(const Char* text, int64_t length, int64_t t) {
        int64_t units = 0, line_chars = 0;
        count_ = 0;
        for (int64_t i = 0; i < length; ++i) {
            const uint32_t c = text[i];
            if (c < 0x80) {
                if (c == '\n' && split_lines_) {
                    end_token();
                    if (line_chars > 0) end_unit(units);
                    line_chars = 0;
                    continue;
                }
                const char token_char = TOKEN_CHARS.lowered[c];
                if (token_char)
                    token_.push_back(token_char);
                else
                    end_token();
            } else {
                if (c >= 0xD800 && c <= 0xDFFF && (c < 0xDC80 || c > 0xDCFF)) {
                    out_.bad_text = t;
                    out_.bad_position = i;
                    return false;
                }
                end_token();
            }
            ++line_chars;
        }
        end_token();
        if (line_chars > 0 || !split_lines_) end_unit(units);
        out_.units_per_text.push_back(units);
        return true;
    }

  private:
    // [A-Za-z0-9] -> its lowercase, every other ASCII character -> 0 (a separator).
    struct TokenChars {
        char lowered[128];
        TokenChars() {
            for (int c = 0; c < 128; ++c) {
                const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
                lowered[c] = keep ? static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c) : 0;
            }
        }
    };
    static const TokenChars TOKEN_CHARS;

    void end_token() {
        if (token_.empty()) return;
        const int64_t id = processed_id();
        if (id >= 0) {
            out_.ids.push_back(static_cast<uint32_t>(id));
            ++count_;
        }
        token_.clear();
    }

    // The processed id of token_ (-1: a removed stopword); -s and -m run once per distinct raw token.
    int64_t processed_id() {
        const uint32_t raw = raw_.intern(token_);
        if (raw == processed_of_raw_.size()) {
            processed_of_raw_.push_back(rules_.process(token_, stemming_, remove_stopwords_, form_)
                                            ? static_cast<int64_t>(processed_.intern(form_))
                                            : -1);
        }
        return processed_of_raw_[raw];
    }

    void end_unit(int64_t& units) {
        out_.unit_lengths.push_back(count_);
        count_ = 0;
        ++units;
    }

    const ScriptRules& rules_;
    const bool split_lines_, stemming_, remove_stopwords_;
    ScriptTokens& out_;
    StringIndex raw_, processed_;
    std::vector<int64_t> processed_of_raw_;  // raw token id -> processed id, -1 for a removed stopword
    std::string token_, form_;
    int64_t count_ = 0;  // tokens of the current unit
};

inline const ScriptReader::TokenChars ScriptReader::TOKEN_CHARS;

// ROUGE-1.5.5's token ids of `n_texts` texts of `texts`, in one pass. Stops at the first lone surrogate that
// has no UTF-8 form (out.bad_text >= 0). Throws std::bad_alloc.
inline void read_script_texts(const refscore::TextBatch& texts, int64_t n_texts, bool split_lines,
                              const ScriptRules& rules, bool stemming, bool remove_stopwords, ScriptTokens& out) {
    ScriptReader reader(rules, split_lines, stemming, remove_stopwords, out);
    for (int64_t t = 0; t < n_texts; ++t) {
        const void* data = texts.data[t];
        const int64_t length = texts.lengths[t];
        bool ok;
        if (texts.kinds[t] == 1)
            ok = reader.read(static_cast<const uint8_t*>(data), length, t);
        else if (texts.kinds[t] == 2)
            ok = reader.read(static_cast<const uint16_t*>(data), length, t);
        else
            ok = reader.read(static_cast<const uint32_t*>(data), length, t);
        if (!ok) return;
    }
}

}  // namespace refscore::rouge155
