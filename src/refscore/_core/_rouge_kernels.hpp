// ROUGE kernels of refscore (rouge-score 0.1.2 semantics): tokenization to integer term ids (rouge-score's
// default tokenizer, optional Porter stemming with a per-thread cache), n-gram overlap,
// LCS length (bit-parallel, memory linear in the shorter text) and rouge-score's summary-level union LCS
// (ROUGE-Lsum) with its exact backtrack tie-breaking and unigram clipping.
//
// One job per class: TermTokenizer (text -> term ids, _rouge_tokenizer.hpp), BitParallelLcs (LCS length and
// backtrack) and SummaryLcs (ROUGE-Lsum, both _rouge_lcs.hpp), NgramOverlap (ROUGE-N, _rouge_ngrams.hpp); a Worker
// (here) composes them and scores whole segments (a prediction against each of its references), one Worker per
// thread. Term ids are private to a worker, which is enough because tokens are
// only ever compared within one segment. Results do not depend on which worker scores a segment, hence not on the
// thread count.
#pragma once

#include <cstdint>
#include <new>
#include <string_view>
#include <vector>

#include "_rouge_lcs.hpp"
#include "_rouge_ngrams.hpp"
#include "_rouge_tokenizer.hpp"
#include "_text.hpp"

namespace refscore::rouge {

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
                Counts c = type == TYPE_LSUM ? lsum_.summary_level_lcs(hyp_sents, ref_sents[k])
                                             : score_pair(type, hyp, refs[k]);
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
        for (int64_t b = bound_off[k]; b < bound_off[k + 1]; ++b)
            out.sentences.push_back(static_cast<uint32_t>(bounds[b]));
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
