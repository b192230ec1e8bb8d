// TER edit distance with shifts (sacreBLEU 2.6's sacrebleu/metrics/lib_ter.py), and the Workspace that holds
// one thread's scratch memory for the whole TER kernel (_ter_kernel.hpp).
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
#include <vector>

#include "_hash_table.hpp"

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

}  // namespace refscore::ter
