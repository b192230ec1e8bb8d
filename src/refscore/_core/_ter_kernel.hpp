// TER kernel: sacreBLEU 2.6's Tercom tokenizer (on code points) and edit distance with shifts.
//
// A line-by-line port of sacrebleu/tokenizers/tokenizer_ter.py and sacrebleu/metrics/lib_ter.py with the same
// limits (shift size 10, shift distance 50, beam width 25, 1000 shift candidates per hypothesis/reference pair),
// the same beam band around the length-ratio diagonal, the same operation preference (match/substitution, then
// deletion, then insertion) and the same ranking of shift candidates (gain, length, earliest hypothesis start,
// earliest target). Two exact speed-ups replace sacreBLEU's row cache:
//   * a shifted hypothesis reuses the edit-distance rows of the unshifted one up to its first changed word
//     (rows depend only on the words before them, and every shift keeps the hypothesis length, so the beam band
//     of each row is unchanged), and
//   * a candidate is abandoned once the minimum of a row (a lower bound of its final distance) shows that it can
//     neither gain an edit nor tie the best candidate so far; it still counts towards the 1000-candidate cap.
// Everything here is plain C++ called without the GIL; one Workspace per thread holds all scratch memory, sized
// by the longest hypothesis/reference pair it has seen (references are processed one at a time).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "_hash_table.hpp"
#include "_text.hpp"

namespace refscore::ter {

constexpr int64_t kInfinity = 10000000000000000LL;  // sacreBLEU's _INT_INFINITY = int(1e16)
constexpr int64_t kMaxShiftSize = 10;
constexpr int64_t kMaxShiftDist = 50;
constexpr int64_t kBeamWidth = 25;
constexpr int64_t kMaxShiftCandidates = 1000;

enum Op : uint8_t { kNop = 0, kSub = 1, kIns = 2, kDel = 3, kUndef = 4 };

enum Flags : int { kNormalized = 1, kNoPunct = 2, kAsianSupport = 4 };

// Status codes returned per segment.
constexpr int kOk = 0;
constexpr int kTraceError = 1;  // sacreBLEU raises "unknown operation 'x'" in the same situation

struct Workspace {
    // banded edit-distance matrix of the current hypothesis (rows 0..n_h), with operations for the trace
    std::vector<int64_t> cost;
    std::vector<uint8_t> op;
    std::vector<int64_t> row_lo, row_hi, row_start;
    // rolling rows for candidate scoring
    std::vector<int64_t> prev_row, cur_row;
    // alignment of the current hypothesis
    std::vector<int64_t> trace, align, hyp_err, ref_err;
    std::vector<int64_t> hyp, shifted, best_shifted;
    // tokenizer scratch
    std::vector<uint32_t> text_a, text_b, joined;
    std::vector<int64_t> word_begin, word_end;
    std::vector<uint32_t> seg_chars;
    std::vector<int64_t> seg_word_begin, seg_word_end, seg_offsets, seg_ids;
    std::vector<uint32_t> loaded, lowered;  // one text as code points (prepared), and lowercasing's scratch
    refscore::HashTable<int64_t> vocab;     // word digest -> id (the word's first index in seg_word_begin)
    std::vector<int64_t> vocab_word;        // per id: a word with its characters
};

// ---------------------------------------------------------------------------------------------------------------
// Edit distance (BeamEditDistance._edit_distance)
// ---------------------------------------------------------------------------------------------------------------

struct Beam {
    double length_ratio;
    int64_t width;
};

inline Beam make_beam(int64_t n_hyp, int64_t n_ref) {
    Beam beam;
    beam.length_ratio = n_hyp > 0 ? static_cast<double>(n_ref) / static_cast<double>(n_hyp) : 1.0;
    if (static_cast<double>(kBeamWidth) < beam.length_ratio / 2) {
        beam.width = static_cast<int64_t>(std::ceil(beam.length_ratio / 2 + static_cast<double>(kBeamWidth)));
    } else {
        beam.width = kBeamWidth;
    }
    return beam;
}

// Columns [lo, hi) that row i (1-based hypothesis position) computes.
inline void row_band(const Beam& beam, int64_t i, int64_t n_hyp, int64_t n_ref, int64_t* lo, int64_t* hi) {
    const int64_t pseudo_diag = static_cast<int64_t>(std::floor(static_cast<double>(i) * beam.length_ratio));
    *lo = std::max<int64_t>(0, pseudo_diag - beam.width);
    *hi = std::min<int64_t>(n_ref + 1, pseudo_diag + beam.width);
    if (i == n_hyp) *hi = n_ref + 1;
}

inline int64_t stored_cost(const Workspace& ws, int64_t i, int64_t j) {
    if (j < ws.row_lo[i] || j >= ws.row_hi[i]) return kInfinity;
    return ws.cost[ws.row_start[i] + j - ws.row_lo[i]];
}

// Fill the banded matrix (costs and operations) of `words` (length n_hyp) against `ref`; returns the distance.
inline int64_t full_edit_distance(Workspace& ws, const int64_t* words, int64_t n_hyp, const int64_t* ref,
                                  int64_t n_ref) {
    const Beam beam = make_beam(n_hyp, n_ref);
    ws.row_lo.assign(n_hyp + 1, 0);
    ws.row_hi.assign(n_hyp + 1, 0);
    ws.row_start.assign(n_hyp + 1, 0);
    int64_t total = n_ref + 1;
    ws.row_hi[0] = n_ref + 1;
    for (int64_t i = 1; i <= n_hyp; ++i) {
        row_band(beam, i, n_hyp, n_ref, &ws.row_lo[i], &ws.row_hi[i]);
        ws.row_start[i] = total;
        total += std::max<int64_t>(0, ws.row_hi[i] - ws.row_lo[i]);
    }
    ws.cost.resize(total);
    ws.op.resize(total);
    for (int64_t j = 0; j <= n_ref; ++j) {  // initial row: j insertions
        ws.cost[j] = j;
        ws.op[j] = kIns;
    }
    for (int64_t i = 1; i <= n_hyp; ++i) {
        const int64_t lo = ws.row_lo[i], hi = ws.row_hi[i], base = ws.row_start[i];
        const int64_t word = words[i - 1];
        for (int64_t j = lo; j < hi; ++j) {
            int64_t best;
            uint8_t best_op;
            if (j == 0) {
                best = stored_cost(ws, i - 1, 0) + 1;
                best_op = kDel;
            } else {
                best = kInfinity;
                best_op = kUndef;
                const bool match = word == ref[j - 1];
                const int64_t diag = stored_cost(ws, i - 1, j - 1) + (match ? 0 : 1);
                if (best > diag) {
                    best = diag;
                    best_op = match ? kNop : kSub;
                }
                const int64_t up = stored_cost(ws, i - 1, j) + 1;
                if (best > up) {
                    best = up;
                    best_op = kDel;
                }
                const int64_t left = (j - 1 >= lo ? ws.cost[base + j - 1 - lo] : kInfinity) + 1;
                if (best > left) {
                    best = left;
                    best_op = kIns;
                }
            }
            ws.cost[base + j - lo] = best;
            ws.op[base + j - lo] = best_op;
        }
    }
    return stored_cost(ws, n_hyp, n_ref);
}

// Distance of `words`, which equal the matrix's hypothesis in their first `prefix` positions, or -1 as soon as it
// is certain to exceed `limit`.
inline int64_t candidate_edit_distance(Workspace& ws, const int64_t* words, int64_t n_hyp, const int64_t* ref,
                                       int64_t n_ref, int64_t prefix, int64_t limit) {
    const Beam beam = make_beam(n_hyp, n_ref);
    if (prefix >= n_hyp) {
        const int64_t d = stored_cost(ws, n_hyp, n_ref);
        return d > limit ? -1 : d;
    }
    // previous row = stored row `prefix` (full width copy into the rolling buffer)
    ws.prev_row.assign(n_ref + 1, kInfinity);
    ws.cur_row.assign(n_ref + 1, kInfinity);
    int64_t prev_lo = ws.row_lo[prefix], prev_hi = ws.row_hi[prefix];
    for (int64_t j = prev_lo; j < prev_hi; ++j) ws.prev_row[j] = ws.cost[ws.row_start[prefix] + j - prev_lo];
    for (int64_t i = prefix + 1; i <= n_hyp; ++i) {
        int64_t lo, hi;
        row_band(beam, i, n_hyp, n_ref, &lo, &hi);
        const int64_t word = words[i - 1];
        int64_t row_min = kInfinity;
        for (int64_t j = lo; j < hi; ++j) {
            int64_t best;
            if (j == 0) {
                best = ws.prev_row[0] + 1;
            } else {
                best = kInfinity;
                const int64_t diag = ws.prev_row[j - 1] + (word == ref[j - 1] ? 0 : 1);
                if (best > diag) best = diag;
                const int64_t up = ws.prev_row[j] + 1;
                if (best > up) best = up;
                const int64_t left = (j - 1 >= lo ? ws.cur_row[j - 1] : kInfinity) + 1;
                if (best > left) best = left;
            }
            ws.cur_row[j] = best;
            if (best < row_min) row_min = best;
        }
        if (row_min > limit) return -1;
        // clear the previous band so that cells outside the next band read as infinity
        for (int64_t j = prev_lo; j < prev_hi; ++j) ws.prev_row[j] = kInfinity;
        std::swap(ws.prev_row, ws.cur_row);
        prev_lo = lo;
        prev_hi = hi;
    }
    const int64_t d = ws.prev_row[n_ref];
    return d > limit ? -1 : d;
}

// Backtrack the stored matrix, flip the trace and build sacreBLEU's (align, ref_err, hyp_err).
inline int alignment(Workspace& ws, int64_t n_hyp, int64_t n_ref) {
    ws.trace.clear();
    int64_t i = n_hyp, j = n_ref;
    while (i > 0 || j > 0) {
        uint8_t op = kUndef;
        if (j >= ws.row_lo[i] && j < ws.row_hi[i]) op = ws.op[ws.row_start[i] + j - ws.row_lo[i]];
        ws.trace.push_back(op);
        if (op == kSub || op == kNop) {
            --i;
            --j;
        } else if (op == kIns) {
            --j;
        } else if (op == kDel) {
            --i;
        } else
            return kTraceError;
    }
    std::reverse(ws.trace.begin(), ws.trace.end());
    ws.align.assign(n_ref, 0);
    ws.hyp_err.clear();
    ws.ref_err.clear();
    int64_t pos_hyp = -1, pos_ref = -1;
    for (int64_t op : ws.trace) {
        // the trace rewrites the hypothesis into the reference; flipped (insertion <-> deletion) it rewrites the
        // reference into the hypothesis, which is what the alignment is read from
        if (op == kNop || op == kSub) {
            ++pos_hyp;
            ++pos_ref;
            ws.align[pos_ref] = pos_hyp;
            ws.hyp_err.push_back(op == kSub);
            ws.ref_err.push_back(op == kSub);
        } else if (op == kDel) {  // flipped: insertion
            ++pos_hyp;
            ws.hyp_err.push_back(1);
        } else {  // kIns, flipped: deletion
            ++pos_ref;
            ws.align[pos_ref] = pos_hyp;
            ws.ref_err.push_back(1);
        }
    }
    return kOk;
}

// _perform_shift, with Python's slice clamping.
inline void perform_shift(const std::vector<int64_t>& words, int64_t start, int64_t length, int64_t target,
                          std::vector<int64_t>& out) {
    const int64_t n = static_cast<int64_t>(words.size());
    auto clamp = [n](int64_t k) { return std::min<int64_t>(std::max<int64_t>(k, 0), n); };
    out.clear();
    auto append = [&](int64_t a, int64_t b) {
        a = clamp(a);
        b = clamp(b);
        for (int64_t k = a; k < b; ++k) out.push_back(words[k]);
    };
    if (target < start) {
        append(0, target);
        append(start, start + length);
        append(target, start);
        append(start + length, n);
    } else if (target > start + length) {
        append(0, start);
        append(start + length, target);
        append(start, start + length);
        append(target, n);
    } else {
        append(0, start);
        append(start + length, length + target);
        append(start, start + length);
        append(length + target, n);
    }
}

struct Candidate {
    bool found = false;
    int64_t gain = 0, length = 0, start = 0, target = 0;

    // sacreBLEU's tuple order: highest gain, then longest, then earliest start, then earliest target
    bool beaten_by(int64_t g, int64_t len, int64_t s, int64_t t) const {
        if (!found) return true;
        if (g != gain) return g > gain;
        if (len != length) return len > length;
        if (s != start) return s < start;
        return t < target;
    }
};

// translation_edit_rate(words_hyp, words_ref): number of edits (shifts + edit distance).
inline int translation_edit_rate(Workspace& ws, const int64_t* hyp_words, int64_t n_hyp, const int64_t* ref,
                                 int64_t n_ref, int64_t* edits) {
    if (n_ref == 0) {
        *edits = n_hyp;
        return kOk;
    }
    ws.hyp.assign(hyp_words, hyp_words + n_hyp);
    int64_t shifts = 0, checked = 0;
    int64_t pre_score = 0;
    while (true) {
        // _shift(): edit distance and alignment of the current hypothesis
        pre_score = full_edit_distance(ws, ws.hyp.data(), n_hyp, ref, n_ref);
        const int status = alignment(ws, n_hyp, n_ref);
        if (status != kOk) return status;
        Candidate best;
        bool capped = false;
        for (int64_t start_h = 0; start_h < n_hyp && !capped; ++start_h) {
            const int64_t r_lo = std::max<int64_t>(0, start_h - kMaxShiftDist);
            const int64_t r_hi = std::min<int64_t>(n_ref, start_h + kMaxShiftDist + 1);
            for (int64_t start_r = r_lo; start_r < r_hi && !capped; ++start_r) {
                int64_t length = 0;
                while (length < kMaxShiftSize && ws.hyp[start_h + length] == ref[start_r + length]) {
                    ++length;
                    bool skip = true;
                    for (int64_t k = start_h; k < start_h + length; ++k) skip = skip && ws.hyp_err[k] == 0;
                    if (!skip) {
                        skip = true;
                        for (int64_t k = start_r; k < start_r + length; ++k) skip = skip && ws.ref_err[k] == 0;
                    }
                    if (!skip) {
                        const int64_t a = ws.align[start_r];
                        skip = start_h <= a && a < start_h + length;
                    }
                    if (!skip) {
                        int64_t prev_idx = -1;
                        for (int64_t offset = -1; offset < length; ++offset) {
                            const int64_t idx = start_r + offset == -1 ? 0 : ws.align[start_r + offset] + 1;
                            if (idx == prev_idx) continue;
                            prev_idx = idx;
                            perform_shift(ws.hyp, start_h, length, idx, ws.shifted);
                            ++checked;
                            // only a gain >= 1 can be applied; a tie with the best gain may still win on order
                            const int64_t needed = best.found ? std::max<int64_t>(1, best.gain) : 1;
                            int64_t prefix = 0;
                            while (prefix < n_hyp && ws.shifted[prefix] == ws.hyp[prefix]) ++prefix;
                            const int64_t dist = candidate_edit_distance(ws, ws.shifted.data(), n_hyp, ref, n_ref,
                                                                         prefix, pre_score - needed);
                            if (dist < 0) continue;
                            const int64_t gain = pre_score - dist;
                            if (best.beaten_by(gain, length, start_h, idx)) {
                                best.found = true;
                                best.gain = gain;
                                best.length = length;
                                best.start = start_h;
                                best.target = idx;
                                ws.best_shifted = ws.shifted;
                            }
                        }
                        if (checked >= kMaxShiftCandidates) capped = true;
                    }
                    if (capped || n_hyp == start_h + length || n_ref == start_r + length) break;
                }
            }
        }
        if (checked >= kMaxShiftCandidates) break;
        if (!best.found || best.gain <= 0) break;
        ++shifts;
        ws.hyp.swap(ws.best_shifted);
    }
    *edits = shifts + pre_score;
    return kOk;
}

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
