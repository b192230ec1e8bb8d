// Words of texts for the Levenshtein kernel, read from the strings' PEP 393 buffers: jiwer 4's default transform
// (RemoveMultipleSpaces `\s\s+` -> " ", Strip, split at " ") or str.split() (torchmetrics), with str.isspace as
// Python's (`\s` of `re` and str.strip use the same predicate). The words of a pair become local ids for
// _levenshtein.hpp: the reference's words 0..k-1 in order of first occurrence, a hypothesis word that is no
// reference word gets k (only equality between the two sides matters to the alignment). Words are compared by
// their code points (a hash finds the candidates), never by the hash alone.
#pragma once

#include <cstdint>
#include <vector>

#include "_levenshtein.hpp"
#include "_text.hpp"

namespace refscore::levenshtein {

enum WordSplit : int { kSplitJiwer = 0, kSplitWhitespace = 1 };

struct Span {
    int64_t start, length;
};

struct TextView {
    int kind;
    const void* data;
    int64_t length;
    uint32_t at(int64_t i) const { return code_point(kind, data, i); }
};

// The word spans of `text` under `mode`, appended to `out`.
inline void split_words(const TextView& text, int mode, std::vector<Span>& out) {
    int64_t begin = 0, end = text.length;
    while (begin < end && is_space(text.at(begin))) ++begin;
    while (end > begin && is_space(text.at(end - 1))) --end;
    int64_t word = -1;
    int64_t i = begin;
    while (i < end) {
        const uint32_t c = text.at(i);
        if (!is_space(c)) {
            if (word < 0) word = i;
            ++i;
            continue;
        }
        int64_t j = i + 1;
        while (j < end && is_space(text.at(j))) ++j;
        // jiwer: one whitespace character that is not a space stays inside its word ("a\tb" is one word)
        if (mode == kSplitJiwer && j - i == 1 && c != 0x20) {
            i = j;
            continue;
        }
        if (word >= 0) out.push_back({word, i - word});
        word = -1;
        i = j;
    }
    if (word >= 0) out.push_back({word, end - word});
}

class WordInterner {
  public:
    std::vector<Span> ref_words, hyp_words;

    // Split both texts and fill ws.a / ws.b with the words' local ids.
    void intern(Workspace& ws, const TextView& ref, const TextView& hyp, int mode) {
        ref_words.clear();
        hyp_words.clear();
        split_words(ref, mode, ref_words);
        split_words(hyp, mode, hyp_words);
        size_t capacity = 16;
        while (capacity < 2 * ref_words.size() + 2) capacity <<= 1;
        if (hashes_.size() < capacity) {
            hashes_.assign(capacity, 0);
            ids_.assign(capacity, -1);
        }
        const size_t mask = capacity - 1;
        ws.a.resize(ref_words.size());
        ws.b.resize(hyp_words.size());
        uint32_t next = 0;
        representative_.clear();
        for (size_t w = 0; w < ref_words.size(); ++w) ws.a[w] = find(ref, ref_words[w], mask, true, next);
        for (size_t w = 0; w < hyp_words.size(); ++w) ws.b[w] = find(hyp, hyp_words[w], mask, false, next);
        for (size_t slot : touched_) ids_[slot] = -1;
        touched_.clear();
        ws.alphabet = next + 1;
        ref_ = nullptr;
    }

  private:
    static uint64_t hash(const TextView& text, const Span& span) {
        uint64_t h = UINT64_C(1469598103934665603);
        for (int64_t i = 0; i < span.length; ++i) {
            h ^= text.at(span.start + i);
            h *= UINT64_C(1099511628211);
        }
        return h ^ static_cast<uint64_t>(span.length);
    }
    bool same(const TextView& text, const Span& span, const Span& other) const {
        if (span.length != other.length) return false;
        for (int64_t i = 0; i < span.length; ++i)
            if (text.at(span.start + i) != ref_->at(other.start + i)) return false;
        return true;
    }
    uint32_t find(const TextView& text, const Span& span, size_t mask, bool add, uint32_t& next) {
        if (add) ref_ = &text;
        const uint64_t h = hash(text, span);
        size_t slot = h & mask;
        while (ids_[slot] != -1) {
            if (hashes_[slot] == h && same(text, span, representative_[static_cast<size_t>(ids_[slot])]))
                return static_cast<uint32_t>(ids_[slot]);
            slot = (slot + 1) & mask;
        }
        if (!add) return next;   // no reference word: the one id that matches nothing
        hashes_[slot] = h;
        ids_[slot] = static_cast<int64_t>(next);
        touched_.push_back(slot);
        representative_.push_back(span);
        return next++;
    }

    const TextView* ref_ = nullptr;
    std::vector<uint64_t> hashes_;
    std::vector<int64_t> ids_;
    std::vector<size_t> touched_;
    std::vector<Span> representative_;
};

// Counts (and opcodes when `chunks`) of one pair of texts over words; `lengths` gets the two word counts.
inline Counts align_text_words(Workspace& ws, WordInterner& interner, int kind1, const void* d1, int64_t n1,
                               int kind2, const void* d2, int64_t n2, int mode, std::vector<Chunk>* chunks,
                               int64_t* lengths) {
    interner.intern(ws, TextView{kind1, d1, n1}, TextView{kind2, d2, n2}, mode);
    lengths[0] = static_cast<int64_t>(ws.a.size());
    lengths[1] = static_cast<int64_t>(ws.b.size());
    return align_pair(ws, chunks);
}

}  // namespace refscore::levenshtein
