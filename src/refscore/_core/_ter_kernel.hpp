// TER kernel: sacreBLEU 2.6's Tercom tokenizer (sacrebleu/tokenizers/tokenizer_ter.py, on code points) and
// the segment entry points, which tokenize a segment and score it with the edit distance with shifts of
// _ter_distance.hpp. Everything here is plain C++ called without the GIL, one Workspace per thread.
#pragma once

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "_hash_table.hpp"
#include "_ter_distance.hpp"
#include "_text.hpp"

namespace refscore::ter {

// ---------------------------------------------------------------------------------------------------------------
// Tercom tokenizer (TercomTokenizer.__call__, on the prepared text)
// ---------------------------------------------------------------------------------------------------------------

using refscore::is_space;  // str.isspace(), i.e. what str.split() splits on

inline bool is_digit(uint32_t c) { return c >= '0' && c <= '9'; }

// [{-~[-` -&(-+:-@/] of _normalize_general_and_western
inline bool is_western_punct(uint32_t c) {
    return (c >= 0x20 && c <= 0x26) || (c >= 0x28 && c <= 0x2b) || c == 0x2f || (c >= 0x3a && c <= 0x40)
           || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

inline bool is_asian_punct(uint32_t c) {  // ASIAN_PUNCT
    return c == 0x3001 || c == 0x3002 || (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301f)
           || (c >= 0xff61 && c <= 0xff65) || c == 0x30fb;
}

inline bool is_full_width_punct(uint32_t c) {  // FULL_WIDTH_PUNCT
    return c == 0xff0e || c == 0xff0c || c == 0xff1f || c == 0xff1a || c == 0xff1b || c == 0xff01 || c == 0xff02
           || c == 0xff08 || c == 0xff09;
}

// the single-character classes that _normalize_asian pads with spaces (the Hiragana/Katakana rules of
// _normalize_asian are anchored at the start of a string that _normalize_general_and_western always begins with
// a space, so they never match)
inline bool is_asian_split(uint32_t c) {
    return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x31c0 && c <= 0x31ef)
           || (c >= 0x2e80 && c <= 0x2eff) || (c >= 0x3300 && c <= 0x33ff) || (c >= 0xf900 && c <= 0xfaff)
           || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0x3200 && c <= 0x3f22) || is_asian_punct(c)
           || is_full_width_punct(c);
}

inline bool is_basic_punct(uint32_t c) {  // [\.,\?:;!\"\(\)] of _remove_punct
    return c == '.' || c == ',' || c == '?' || c == ':' || c == ';' || c == '!' || c == '"' || c == '(' || c == ')';
}

// re.sub(literal, replacement, text) for a literal that cannot overlap itself
inline void replace_literal(const std::vector<uint32_t>& in, std::vector<uint32_t>& out, const char* pattern,
                            const char* replacement) {
    out.clear();
    const size_t m = std::char_traits<char>::length(pattern);
    const size_t n = in.size();
    size_t i = 0;
    while (i < n) {
        bool hit = i + m <= n;
        for (size_t k = 0; hit && k < m; ++k) hit = in[i + k] == static_cast<unsigned char>(pattern[k]);
        if (hit) {
            for (const char* r = replacement; *r; ++r) out.push_back(static_cast<unsigned char>(*r));
            i += m;
        } else {
            out.push_back(in[i]);
            ++i;
        }
    }
}

// re.sub(r"(A)(B)", replacement built from the two characters) scanning left to right without overlap
template <typename First, typename Second, typename Emit>
inline void replace_pairs(const std::vector<uint32_t>& in, std::vector<uint32_t>& out, First first, Second second,
                          Emit emit) {
    out.clear();
    const size_t n = in.size();
    size_t i = 0;
    while (i < n) {
        if (i + 1 < n && first(in[i]) && second(in[i + 1])) {
            emit(out, in[i], in[i + 1]);
            i += 2;
        } else {
            out.push_back(in[i]);
            ++i;
        }
    }
}

inline void normalize_general_and_western(std::vector<uint32_t>& a, std::vector<uint32_t>& b) {
    replace_literal(a, b, "\n-", "");
    for (auto& c : b)
        if (c == '\n') c = ' ';
    replace_literal(b, a, "&quot;", "\"");
    replace_literal(a, b, "&amp;", "&");
    replace_literal(b, a, "&lt;", "<");
    replace_literal(a, b, "&gt;", ">");
    a.clear();
    a.push_back(' ');
    for (uint32_t c : b) {
        if (is_western_punct(c)) {
            a.push_back(' ');
            a.push_back(c);
            a.push_back(' ');
        } else
            a.push_back(c);
    }
    a.push_back(' ');
    replace_literal(a, b, "'s ", " 's ");
    // "'s$" cannot match: the text ends with the space added above
    auto not_digit = [](uint32_t c) { return !is_digit(c); };
    auto period_comma = [](uint32_t c) { return c == '.' || c == ','; };
    replace_pairs(b, a, not_digit, period_comma, [](std::vector<uint32_t>& o, uint32_t x, uint32_t y) {
        o.push_back(x);
        o.push_back(' ');
        o.push_back(y);
        o.push_back(' ');
    });
    replace_pairs(a, b, period_comma, not_digit, [](std::vector<uint32_t>& o, uint32_t x, uint32_t y) {
        o.push_back(' ');
        o.push_back(x);
        o.push_back(' ');
        o.push_back(y);
    });
    replace_pairs(
        b, a, is_digit, [](uint32_t c) { return c == '-'; },
        [](std::vector<uint32_t>& o, uint32_t x, uint32_t y) {
            o.push_back(x);
            o.push_back(' ');
            o.push_back(y);
            o.push_back(' ');
        });
}

// Tokenize text[0:n] (already lowercased unless case-sensitive) into word spans of ws.text_a.
inline void tokenize(Workspace& ws, const uint32_t* text, int64_t n, int flags) {
    std::vector<uint32_t>& a = ws.text_a;
    std::vector<uint32_t>& b = ws.text_b;
    a.assign(text, text + n);
    if (n > 0) {
        if (flags & kNormalized) {
            normalize_general_and_western(a, b);
            if (flags & kAsianSupport) {
                b.clear();
                for (uint32_t c : a) {
                    if (is_asian_split(c)) {
                        b.push_back(' ');
                        b.push_back(c);
                        b.push_back(' ');
                    } else
                        b.push_back(c);
                }
                a.swap(b);
            }
        }
        if (flags & kNoPunct) {
            b.clear();
            const bool asian = flags & kAsianSupport;
            for (uint32_t c : a) {
                if (is_basic_punct(c) || (asian && (is_asian_punct(c) || is_full_width_punct(c)))) continue;
                b.push_back(c);
            }
            a.swap(b);
        }
    }
    ws.word_begin.clear();
    ws.word_end.clear();
    const int64_t m = static_cast<int64_t>(a.size());
    int64_t k = 0;
    while (k < m) {
        while (k < m && is_space(a[k])) ++k;
        if (k >= m) break;
        const int64_t begin = k;
        while (k < m && !is_space(a[k])) ++k;
        ws.word_begin.push_back(begin);
        ws.word_end.push_back(k);
    }
}

// Tokenize the segment's hypothesis and references [ref_begin, ref_end) of `texts` (right-stripped, and lowercased
// unless case-sensitive, by `preparation`) into ws.seg_chars and give every word an id of a vocabulary local to the
// segment; ws.seg_ids holds the ids of all texts, text k at [ws.seg_offsets[k], ws.seg_offsets[k + 1]) (k = 0 is
// the hypothesis).
inline void segment_to_ids(Workspace& ws, const refscore::TextBatch& texts, refscore::TextPreparation preparation,
                           int64_t hyp_index, int64_t ref_begin, int64_t ref_end, int flags) {
    ws.seg_chars.clear();
    ws.seg_word_begin.clear();
    ws.seg_word_end.clear();
    ws.seg_offsets.assign(1, 0);
    for (int64_t k = -1; k < ref_end - ref_begin; ++k) {
        const int64_t t = k < 0 ? hyp_index : ref_begin + k;
        ws.loaded.clear();
        refscore::append_text(texts, t, preparation, ws.loaded, ws.lowered);
        tokenize(ws, ws.loaded.data(), static_cast<int64_t>(ws.loaded.size()), flags);
        if (k >= 0 && flags != 0) {
            // sacreBLEU's TER preprocesses references twice (Metric._cache_references, then
            // TER._extract_reference_info), so a reference is the tokenization of its first tokenization joined by
            // spaces (lowercasing is idempotent and needs no second pass; without options the pass changes nothing)
            ws.joined.clear();
            for (size_t w = 0; w < ws.word_begin.size(); ++w) {
                if (w > 0) ws.joined.push_back(' ');
                ws.joined.insert(ws.joined.end(), ws.text_a.begin() + ws.word_begin[w],
                                 ws.text_a.begin() + ws.word_end[w]);
            }
            tokenize(ws, ws.joined.data(), static_cast<int64_t>(ws.joined.size()), flags);
        }
        const int64_t shift = static_cast<int64_t>(ws.seg_chars.size());
        ws.seg_chars.insert(ws.seg_chars.end(), ws.text_a.begin(), ws.text_a.end());
        for (size_t w = 0; w < ws.word_begin.size(); ++w) {
            ws.seg_word_begin.push_back(shift + ws.word_begin[w]);
            ws.seg_word_end.push_back(shift + ws.word_end[w]);
        }
        ws.seg_offsets.push_back(static_cast<int64_t>(ws.seg_word_begin.size()));
    }
    // ids in order of first appearance; words are compared by their characters (the digest only picks the slot)
    const size_t n_words = ws.seg_word_begin.size();
    if (!ws.vocab.start(n_words)) throw std::bad_alloc();
    ws.vocab_word.clear();
    ws.seg_ids.clear();
    const uint32_t* chars = ws.seg_chars.data();
    for (size_t w = 0; w < n_words; ++w) {
        const int64_t begin = ws.seg_word_begin[w], length = ws.seg_word_end[w] - begin;
        const uint64_t digest = refscore::sequence_digest(chars + begin, static_cast<size_t>(length));
        const size_t slot = ws.vocab.probe(digest, refscore::mix64(digest), [&](int64_t id) {
            const int64_t other = ws.seg_word_begin[ws.vocab_word[id]];
            if (ws.seg_word_end[ws.vocab_word[id]] - other != length) return false;
            for (int64_t c = 0; c < length; ++c)
                if (chars[other + c] != chars[begin + c]) return false;
            return true;
        });
        if (!ws.vocab.live(slot)) {
            ws.vocab.claim(slot, digest, static_cast<int64_t>(ws.vocab_word.size()));
            ws.vocab_word.push_back(static_cast<int64_t>(w));
        }
        ws.seg_ids.push_back(ws.vocab.value(slot));
    }
}

// One segment given as text: hypothesis `hyp_index` and references [ref_begin, ref_end) of `texts`, prepared as
// sacreBLEU does (text.rstrip(), then .lower() unless case-sensitive). Writes the edits of the hypothesis against each
// reference and each reference's length in words. References are scored one at a time.
inline int text_segment(Workspace* ws, const refscore::TextBatch& texts, refscore::TextPreparation preparation,
                        int64_t hyp_index, int64_t ref_begin, int64_t ref_end, int flags, int64_t* ref_edits,
                        int64_t* ref_lengths) {
    segment_to_ids(*ws, texts, preparation, hyp_index, ref_begin, ref_end, flags);
    const int64_t* ids = ws->seg_ids.data();
    const int64_t n_hyp = ws->seg_offsets[1];
    for (int64_t k = 0; k < ref_end - ref_begin; ++k) {
        const int64_t n_ref = ws->seg_offsets[k + 2] - ws->seg_offsets[k + 1];
        ref_lengths[k] = n_ref;
        const int status = translation_edit_rate(*ws, ids, n_hyp, ids + ws->seg_offsets[k + 1], n_ref, &ref_edits[k]);
        if (status != kOk) return status;
    }
    return kOk;
}

// One segment given as token ids (tokenization skipped).
inline int ids_segment(Workspace* ws, const int64_t* ids, const int64_t* offsets, int64_t hyp_index, int64_t ref_begin,
                       int64_t ref_end, int64_t* ref_edits, int64_t* ref_lengths) {
    const int64_t* hyp = ids + offsets[hyp_index];
    const int64_t n_hyp = offsets[hyp_index + 1] - offsets[hyp_index];
    for (int64_t r = ref_begin; r < ref_end; ++r) {
        const int64_t n_ref = offsets[r + 1] - offsets[r];
        const int status = translation_edit_rate(*ws, hyp, n_hyp, ids + offsets[r], n_ref, &ref_edits[r - ref_begin]);
        ref_lengths[r - ref_begin] = n_ref;
        if (status != kOk) return status;
    }
    return kOk;
}

}  // namespace refscore::ter
