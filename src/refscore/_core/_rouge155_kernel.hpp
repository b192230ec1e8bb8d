// ROUGE-1.5.5 kernels on integer token ids: n-gram hits, skip-bigrams (ROUGE-S/SU), summary-level union LCS
// (ROUGE-L) and weighted LCS (ROUGE-W), with the exact counting rules of ROUGE-1.5.5.pl.
//
// Everything here is plain C++ without Python objects; _rouge155.pyx calls `score_document` for every
// document inside one `prange`, each thread with its own `Scratch`. No function throws on valid input. The
// script's text handling (tokens, -s, -m) that produces the token ids is _rouge155_text.hpp.
// The LCS backtrack (PathMarker) is _rouge155_lcs.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "_rouge155_lcs.hpp"

namespace refscore::rouge155 {

//: the key of a unigram in the skip-bigram table (token ids are < 0xFFFFFFFF)
static const uint64_t UNIGRAM_SLOT = 0xFFFFFFFFull;

enum Kind { KIND_NGRAM = 0, KIND_LCS = 1, KIND_WLCS = 2, KIND_SKIP = 3 };

// ROUGE-1.5.5 rounds every score with sprintf("%7.5f") and keeps working with the rounded number.
inline double round5(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.5f", value);
    return std::strtod(buffer, nullptr);
}

// ------------------------------------------------------------------------------------------------------------
// Counting helpers
// ------------------------------------------------------------------------------------------------------------

// Sum over keys of min(count in a, count in b); both vectors sorted.
inline int64_t clipped_overlap(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    int64_t hits = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i] < b[j]) {
            ++i;
        } else if (b[j] < a[i]) {
            ++j;
        } else {
            const uint64_t key = a[i];
            int64_t count_a = 0, count_b = 0;
            while (i < a.size() && a[i] == key) {
                ++i;
                ++count_a;
            }
            while (j < b.size() && b[j] == key) {
                ++j;
                ++count_b;
            }
            hits += count_a < count_b ? count_a : count_b;
        }
    }
    return hits;
}

// Skip-bigram keys of createSkipBigram: pairs (t_i, t_j) with i < j <= i + skip + 1 (skip < 0: any j > i);
// with `unigrams`, t_i for i = 0 .. len-2 (ROUGE-1.5.5 never counts the last token's unigram; `last_unigram`
// adds it, for flavors that count every unigram).
inline void skip_bigram_keys(Seq s, int64_t skip, bool unigrams, std::vector<uint64_t>& out,
                             bool last_unigram = false) {
    out.clear();
    if (unigrams && last_unigram && s.len > 0) out.push_back(((uint64_t)s.data[s.len - 1] << 32) | UNIGRAM_SLOT);
    for (int64_t i = 0; i + 1 < s.len; ++i) {
        const uint64_t head = (uint64_t)s.data[i] << 32;
        if (unigrams) out.push_back(head | UNIGRAM_SLOT);
        int64_t last = s.len - 1;
        if (skip >= 0 && i + skip + 1 < last) last = i + skip + 1;
        for (int64_t j = i + 1; j <= last; ++j) out.push_back(head | (uint64_t)s.data[j]);
    }
    std::sort(out.begin(), out.end());
}

// Cells of the largest dense skip-bigram count matrix (documents with more distinct tokens use sorted keys).
static const int64_t DENSE_SKIP_CELLS = (int64_t)1 << 22;

template <typename Visit>
inline void for_each_skip_cell(const uint32_t* t, int64_t len, int64_t skip, bool unigrams, int64_t width,
                               Visit&& visit) {
    for (int64_t i = 0; i + 1 < len; ++i) {
        const int64_t row = (int64_t)t[i] * width;
        if (unigrams) visit(row + width - 1);
        int64_t last = len - 1;
        if (skip >= 0 && i + skip + 1 < last) last = i + skip + 1;
        for (int64_t j = i + 1; j <= last; ++j) visit(row + (int64_t)t[j]);
    }
}

struct Scratch {
    PathMarker marker;
    std::vector<std::vector<uint32_t>> local;      // flat texts of the document in local (dense) ids
    std::vector<int32_t> peer_cells, model_cells;  // dense skip-bigram counts, kept all-zero between uses
    std::vector<std::vector<uint64_t>> keys;       // sorted n-gram / skip-bigram keys per text of the document
    std::vector<std::vector<std::vector<uint64_t>>> levels;  // n-gram keys per order and text
    std::vector<uint64_t> merged;
    std::vector<uint32_t> vocabulary;  // the document's distinct token ids (for clipping counts)
    std::vector<int64_t> peer_unigrams, tmp_peer_unigrams, model_unigrams;
    std::vector<uint8_t> hit_mask;
    std::vector<double> fpow;
};

// n-gram keys of orders 1..max_n for every text in `texts`: `levels[k-1][t]` holds one key per n-gram of order k
// of text t (unsorted). Orders below max_n are densified (ids of distinct n-grams) so that the next order's key
// (previous id << 32 | next token) always fits in 64 bits; equal keys <=> equal n-grams at every order.
inline void build_ngram_levels(const std::vector<Seq>& texts, int64_t max_n, Scratch& s) {
    const size_t count = texts.size();
    if ((int64_t)s.levels.size() < max_n) s.levels.resize((size_t)max_n);
    for (int64_t k = 1; k <= max_n; ++k) {
        std::vector<std::vector<uint64_t>>& level = s.levels[(size_t)(k - 1)];
        if (level.size() < count) level.resize(count);
        for (size_t t = 0; t < count; ++t) {
            std::vector<uint64_t>& key = level[t];
            const int64_t grams = texts[t].len - k + 1;
            key.clear();
            for (int64_t i = 0; i < grams; ++i) {
                const uint64_t prefix = k == 1 ? 0 : s.levels[(size_t)(k - 2)][t][(size_t)i] << 32;
                key.push_back(prefix | (uint64_t)texts[t].data[i + k - 1]);
            }
        }
        if (k > 1 && k < max_n) {  // densify so that the next order's keys fit in 64 bits
            s.merged.clear();
            for (size_t t = 0; t < count; ++t) s.merged.insert(s.merged.end(), level[t].begin(), level[t].end());
            std::sort(s.merged.begin(), s.merged.end());
            s.merged.erase(std::unique(s.merged.begin(), s.merged.end()), s.merged.end());
            for (size_t t = 0; t < count; ++t) {
                for (uint64_t& v : level[t]) {
                    v = (uint64_t)(std::lower_bound(s.merged.begin(), s.merged.end(), v) - s.merged.begin());
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// One document: a peer (system summary) against its models (references), all requested ROUGE types.
// ------------------------------------------------------------------------------------------------------------
struct Corpus {
    const uint32_t* flat_tokens;   // readText tokens (n-grams, skip-bigrams, clipping counts)
    const int64_t* flat_offsets;   // per text
    const uint32_t* unit_tokens;   // readText_LCS tokens (sentence units for L and W)
    const int64_t* unit_offsets;   // per unit
    const int64_t* text_units;     // per text: range of its units
    const int64_t* peer_text;      // per document
    const int64_t* model_offsets;  // per document: range in model_texts
    const int64_t* model_texts;
    // requested types
    int64_t n_types;
    const int64_t* kinds;
    const int64_t* int_params;     // n for N, skip distance for S
    const double* weights;         // weight for W
    const int64_t* unigram_flags;  // S: add unigrams (SU)
    bool best_model;               // -f B
    double alpha;
};

inline Seq flat_text(const Corpus& c, int64_t text) {
    return Seq{c.flat_tokens + c.flat_offsets[text], c.flat_offsets[text + 1] - c.flat_offsets[text]};
}

inline Seq unit(const Corpus& c, int64_t u) {
    return Seq{c.unit_tokens + c.unit_offsets[u], c.unit_offsets[u + 1] - c.unit_offsets[u]};
}

inline int64_t local_id(const std::vector<uint32_t>& vocabulary, uint32_t token) {
    return (int64_t)(std::lower_bound(vocabulary.begin(), vocabulary.end(), token) - vocabulary.begin());
}

// Union-LCS (or WLCS) hits of one model against the peer, with ROUGE-1.5.5's unigram clipping.
// Returns the hit count (LCS) or the weighted hit (WLCS); `base` gets sum of model unit lengths (LCS) or
// sum of their weights (WLCS).
inline double union_lcs_hits(const Corpus& c, int64_t model_text, int64_t peer_text, bool weighted, Scratch& s,
                             double& base) {
    double hit = 0.0;
    base = 0.0;
    for (int64_t u = c.text_units[model_text]; u < c.text_units[model_text + 1]; ++u) {
        const Seq model = unit(c, u);
        s.hit_mask.assign((size_t)model.len, 0);
        base += weighted ? s.fpow[(size_t)model.len] : (double)model.len;
        for (int64_t v = c.text_units[peer_text]; v < c.text_units[peer_text + 1]; ++v) {
            s.marker.mark(model, unit(c, v), s.hit_mask.data());
        }
        int64_t run = 0;
        for (int64_t j = 0; j < model.len; ++j) {
            if (!s.hit_mask[(size_t)j]) continue;
            const int64_t id = local_id(s.vocabulary, model.data[j]);
            if (s.model_unigrams[(size_t)id] > 0 && s.tmp_peer_unigrams[(size_t)id] > 0) {
                if (weighted) {
                    ++run;
                    if ((j + 1 < model.len && !s.hit_mask[(size_t)(j + 1)]) || j + 1 == model.len) {
                        hit += s.fpow[(size_t)run];
                        run = 0;
                    }
                } else {
                    hit += 1.0;
                }
                --s.model_unigrams[(size_t)id];
                --s.tmp_peer_unigrams[(size_t)id];
            }
        }
    }
    return hit;
}

inline void count_unigrams(const std::vector<uint32_t>& vocabulary, Seq text, std::vector<int64_t>& counts) {
    counts.assign(vocabulary.size(), 0);
    for (int64_t i = 0; i < text.len; ++i) ++counts[(size_t)local_id(vocabulary, text.data[i])];
}

inline void ensure_pow_table(Scratch& s, double weight, int64_t up_to) {
    s.fpow.resize((size_t)(up_to + 2));
    for (int64_t k = 0; k <= up_to + 1; ++k) s.fpow[(size_t)k] = std::pow((double)k, weight);
}

inline void finish(double total_count, double total_hit, double total_count_peer, double alpha, bool weighted,
                   double weight, double* out) {
    double recall = 0.0, precision = 0.0, f = 0.0;
    if (total_count != 0.0) {
        const double ratio = total_hit / total_count;
        recall = round5(weighted ? std::pow(ratio, 1.0 / weight) : ratio);
    }
    if (total_count_peer != 0.0) {
        const double ratio = total_hit / total_count_peer;
        precision = round5(weighted ? std::pow(ratio, 1.0 / weight) : ratio);
    }
    if ((1.0 - alpha) * precision + alpha * recall > 0.0) {
        f = round5((precision * recall) / ((1.0 - alpha) * precision + alpha * recall));
    }
    out[0] = total_count;
    out[1] = total_hit;
    out[2] = recall;
    out[3] = total_count_peer;
    out[4] = precision;
    out[5] = f;
}

// The -f B selection score of computeNGramScore / computeSkipBigramScore: the rounded recall of one model.
inline double rounded_recall(double hit, double model_count) {
    return model_count != 0.0 ? round5(hit / model_count) : 0.0;
}

// -f A sums hits and counts over models; -f B keeps the model with the best `score` (the first one on ties).
inline void accumulate(bool best_model, double score, double hit, double model_count, double peer_count, double& best,
                       double& total_hit, double& total_count, double& total_count_peer) {
    if (best_model) {
        if (score > best) {
            best = score;
            total_hit = hit;
            total_count = model_count;
            total_count_peer = peer_count;
        }
    } else {
        total_hit += hit;
        total_count += model_count;
        total_count_peer += peer_count;
    }
}

// out: n_types x 6 values [model count, hits, R, peer count, P, F] (ROUGE-1.5.5's @results order).
inline void score_document(const Corpus& c, int64_t doc, Scratch& s, double* out) {
    const int64_t peer = c.peer_text[doc];
    const int64_t first_model = c.model_offsets[doc], end_model = c.model_offsets[doc + 1];
    const int64_t n_models = end_model - first_model;

    // flat texts: peer first, then the models
    std::vector<Seq> texts;
    texts.reserve((size_t)(n_models + 1));
    texts.push_back(flat_text(c, peer));
    for (int64_t m = first_model; m < end_model; ++m) texts.push_back(flat_text(c, c.model_texts[m]));

    bool needs_lcs = false, needs_skip = false;
    int64_t longest_unit = 0;
    for (int64_t t = 0; t < c.n_types; ++t) {
        needs_lcs |= c.kinds[t] == KIND_LCS || c.kinds[t] == KIND_WLCS;
        needs_skip |= c.kinds[t] == KIND_SKIP;
    }
    if (needs_lcs || needs_skip) {
        s.vocabulary.clear();
        for (const Seq& text : texts) s.vocabulary.insert(s.vocabulary.end(), text.data, text.data + text.len);
    }
    if (needs_lcs) {
        std::vector<int64_t> unit_texts{peer};
        for (int64_t m = first_model; m < end_model; ++m) unit_texts.push_back(c.model_texts[m]);
        for (int64_t text : unit_texts) {
            for (int64_t u = c.text_units[text]; u < c.text_units[text + 1]; ++u) {
                const Seq seq = unit(c, u);
                s.vocabulary.insert(s.vocabulary.end(), seq.data, seq.data + seq.len);
                if (seq.len > longest_unit) longest_unit = seq.len;
            }
        }
    }
    if (needs_lcs || needs_skip) {
        std::sort(s.vocabulary.begin(), s.vocabulary.end());
        s.vocabulary.erase(std::unique(s.vocabulary.begin(), s.vocabulary.end()), s.vocabulary.end());
    }
    if (needs_lcs) count_unigrams(s.vocabulary, texts[0], s.peer_unigrams);
    const int64_t width = (int64_t)s.vocabulary.size() + 1;
    const bool dense_skip = needs_skip && width * (width - 1) <= DENSE_SKIP_CELLS;
    if (dense_skip) {
        if (s.local.size() < texts.size()) s.local.resize(texts.size());
        for (size_t i = 0; i < texts.size(); ++i) {
            s.local[i].resize((size_t)texts[i].len);
            for (int64_t j = 0; j < texts[i].len; ++j)
                s.local[i][(size_t)j] = (uint32_t)local_id(s.vocabulary, texts[i].data[j]);
        }
        const size_t cells = (size_t)(width * (width - 1));
        if (s.peer_cells.size() < cells) {
            s.peer_cells.resize(cells, 0);
            s.model_cells.resize(cells, 0);
        }
    }

    int64_t max_order = 0;
    for (int64_t t = 0; t < c.n_types; ++t) {
        if (c.kinds[t] == KIND_NGRAM && c.int_params[t] > max_order) max_order = c.int_params[t];
    }
    if (max_order > 0) build_ngram_levels(texts, max_order, s);

    for (int64_t t = 0; t < c.n_types; ++t) {
        const int64_t kind = c.kinds[t];
        const bool weighted = kind == KIND_WLCS;
        const double weight = c.weights[t];
        double total_count = 0.0, total_hit = 0.0, total_count_peer = 0.0, best = -1.0;
        double peer_count = 0.0;
        if (kind == KIND_SKIP && dense_skip) {
            const int64_t skip = c.int_params[t];
            const bool unigrams = c.unigram_flags[t] != 0;
            int32_t* peer_cells = s.peer_cells.data();
            int32_t* model_cells = s.model_cells.data();
            const std::vector<uint32_t>& peer_local = s.local[0];
            int64_t peer_pairs = 0;
            for_each_skip_cell(peer_local.data(), (int64_t)peer_local.size(), skip, unigrams, width, [&](int64_t cell) {
                ++peer_cells[cell];
                ++peer_pairs;
            });
            for (int64_t m = 0; m < n_models; ++m) {
                const std::vector<uint32_t>& model_local = s.local[(size_t)(m + 1)];
                int64_t model_pairs = 0, hits = 0;
                for_each_skip_cell(model_local.data(), (int64_t)model_local.size(), skip, unigrams, width,
                                   [&](int64_t cell) {
                                       ++model_cells[cell];
                                       ++model_pairs;
                                   });
                for_each_skip_cell(model_local.data(), (int64_t)model_local.size(), skip, unigrams, width,
                                   [&](int64_t cell) {
                                       const int32_t count = model_cells[cell];
                                       if (count) {
                                           hits += count < peer_cells[cell] ? count : peer_cells[cell];
                                           model_cells[cell] = 0;
                                       }
                                   });
                const double score = c.best_model ? rounded_recall((double)hits, (double)model_pairs) : 0.0;
                accumulate(c.best_model, score, (double)hits, (double)model_pairs, (double)peer_pairs, best, total_hit,
                           total_count, total_count_peer);
            }
            for_each_skip_cell(peer_local.data(), (int64_t)peer_local.size(), skip, unigrams, width,
                               [&](int64_t cell) { peer_cells[cell] = 0; });
        } else if (kind == KIND_NGRAM || kind == KIND_SKIP) {
            if (s.keys.size() < texts.size()) s.keys.resize(texts.size());
            if (kind == KIND_NGRAM) {
                const std::vector<std::vector<uint64_t>>& level = s.levels[(size_t)(c.int_params[t] - 1)];
                for (size_t i = 0; i < texts.size(); ++i) {
                    s.keys[i] = level[i];
                    std::sort(s.keys[i].begin(), s.keys[i].end());
                }
            } else {
                for (size_t i = 0; i < texts.size(); ++i) {
                    skip_bigram_keys(texts[i], c.int_params[t], c.unigram_flags[t] != 0, s.keys[i]);
                }
            }
            peer_count = (double)s.keys[0].size();
            for (int64_t m = 0; m < n_models; ++m) {
                const std::vector<uint64_t>& model_keys = s.keys[(size_t)(m + 1)];
                const double hit = (double)clipped_overlap(s.keys[0], model_keys);
                const double model_count = (double)model_keys.size();
                const double score = c.best_model ? rounded_recall(hit, model_count) : 0.0;
                accumulate(c.best_model, score, hit, model_count, peer_count, best, total_hit, total_count,
                           total_count_peer);
            }
        } else {
            if (weighted) ensure_pow_table(s, weight, std::max(longest_unit, texts[0].len));
            s.marker.weighted = weighted;
            s.marker.fpow = weighted ? s.fpow.data() : nullptr;
            const double peer_tokens = (double)texts[0].len;
            for (int64_t m = 0; m < n_models; ++m) {
                const int64_t model_text = c.model_texts[first_model + m];
                s.tmp_peer_unigrams = s.peer_unigrams;
                count_unigrams(s.vocabulary, texts[(size_t)(m + 1)], s.model_unigrams);
                double base = 0.0;
                const double hit = union_lcs_hits(c, model_text, peer, weighted, s, base);
                double score = 0.0;
                if (base > 0.0) score = weighted ? std::pow(hit / base, 1.0 / weight) : hit / base;
                const double model_count = weighted ? std::pow(base, weight) : base;
                const double peer_total = weighted ? std::pow(peer_tokens, weight) : peer_tokens;
                accumulate(c.best_model, score, hit, model_count, peer_total, best, total_hit, total_count,
                           total_count_peer);
            }
        }
        finish(total_count, total_hit, total_count_peer, c.alpha, weighted, weight, out + t * 6);
    }
}

}  // namespace refscore::rouge155
