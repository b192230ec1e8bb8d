// chrF / chrF++ sufficient statistics (sacreBLEU 2.6's CHRF, NLTK's chrf_precision_recall_fscore_support): exact
// character and word n-gram counts over Unicode code points, and sacreBLEU's f-score, operation for operation.
//
// A segment's texts (hypothesis, then its references) are read from the strings' buffers (_text.hpp), lowercased
// when asked (str.lower), stripped of whitespace as the space mode says, and split into words with sacreBLEU's
// punctuation peeling for word n-grams. Character-only chrF of texts not lowercased reads each string's 1-, 2- or
// 4-byte buffer in place (no copy to code points first); a removed Latin-1 space takes an id no unit holds, so
// that keeping a character is a table load rather than a branch. N-grams are counted by *id chaining*: order-1 items
// (code points, or word tokens compared by content) get dense ids from an exact hash table; the order-n id at position
// i is the dense id of the exact 64-bit pair (id_{n-1}[i], unigram[i + n - 1]). Keys are compared exactly, so hash
// collisions only cost probes, never change counts. Where the keys are small, a direct-mapped table replaces the hash
// table: Latin-1 characters are their own slot, and an order whose (n-1)-gram ids times unigram ids fit kDirectSlots
// keys the pair by id_{n-1} * unigrams + unigram; ids are numbered in order of first appearance either way, so the
// counts are the same. Each order's ids are counted as they are made (the hypothesis first, then each
// reference, whose matches are counted as its occurrences come), and the counts are emptied by id range. The
// hypothesis' and the reference's counts of an id sit side by side (one load per reference n-gram). One `Scratch` per
// thread, reused for every segment it scores: results do not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "_direct_table.hpp"
#include "_hash_table.hpp"
#include "_text.hpp"

namespace refscore::chrf {

using refscore::DirectTable, refscore::HashTable, refscore::TextBatch;

// Which whitespace is removed before character n-grams are extracted.
enum SpaceMode : int {
    KEEP_SPACE = 0,           // sacreBLEU whitespace=True: every character counts
    REMOVE_PYTHON_SPACE = 1,  // sacreBLEU default: ''.join(line.split()), Python's str.isspace() set
    REMOVE_REGEX_SPACE = 2,   // NLTK: regex r"\s+" (`regex`'s Unicode White_Space: no U+001C..U+001F)
};

constexpr double kEps = 1e-16;
// Characters below this are their own slot of a direct-mapped table (Latin-1: most text's characters).
constexpr uint64_t kDirectCharacters = 256;
// Orders n >= 2: a direct-mapped table when distinct (n-1)-grams x units fit in this many 4-byte slots, else hashed.
constexpr uint64_t kDirectSlots = uint64_t(1) << 15;
static_assert(kDirectSlots <= uint64_t(DirectTable<uint32_t>::kIdMask) + 1, "n-gram ids must fit 32-bit entries");
// The hash table's first room (it grows as it fills: memory follows the distinct keys, not the positions).
constexpr int64_t kTableStartEntries = int64_t(1) << 16;

inline bool is_removed_space(uint32_t c, int space_mode) {
    if (space_mode == KEEP_SPACE) return false;
    if (space_mode == REMOVE_REGEX_SPACE && 28 <= c && c <= 31) return false;
    return refscore::is_space(c);
}

// Per space mode, 1 for a Latin-1 character that is kept (not a removed space): a load instead of a branch.
struct KeptCharacters {
    uint8_t kept[kDirectCharacters];
};
struct KeptLatin1 {
    KeptCharacters mode[3];
    KeptLatin1() {
        for (int m = 0; m < 3; ++m)
            for (uint32_t c = 0; c < kDirectCharacters; ++c) mode[m].kept[c] = !is_removed_space(c, m);
    }
};
static const KeptLatin1 KEPT_LATIN1;

// c in string.punctuation (sacreBLEU's CHRF._PUNCTS).
inline bool is_ascii_punctuation(uint32_t c) {
    return (33 <= c && c <= 47) || (58 <= c && c <= 64) || (91 <= c && c <= 96) || (123 <= c && c <= 126);
}

// A product followed by a sum, rounded as two separate IEEE operations (as Python computes it): the volatile
// store forbids fusing them into one FMA instruction, which would change the last bit.
inline double mul_add(double a, double b, double c) {
    volatile double product = a * b;
    return product + c;
}

// sacreBLEU's CHRF._compute_f_score (0-100) of [hyp, ref, match] per order, operation for operation, so that ties
// between references break identically.
inline double f_score(const int64_t* stats, int order, double factor, bool eps_smoothing) {
    double score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    int effective_order = 0;
    for (int i = 0; i < order; ++i) {
        const int64_t n_hyp = stats[3 * i], n_ref = stats[3 * i + 1], n_match = stats[3 * i + 2];
        const double prec = n_hyp > 0 ? static_cast<double>(n_match) / n_hyp : kEps;
        const double rec = n_ref > 0 ? static_cast<double>(n_match) / n_ref : kEps;
        const double denom = mul_add(factor, prec, rec);
        score += denom > 0 ? ((1 + factor) * prec * rec / denom) : kEps;
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            ++effective_order;
        }
    }
    if (eps_smoothing) return 100 * score / order;
    if (effective_order == 0) {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective_order;
        avg_rec /= effective_order;
    }
    if (avg_prec + avg_rec != 0) {
        score = (1 + factor) * avg_prec * avg_rec;
        score /= mul_add(factor, avg_prec, avg_rec);
        return 100 * score;
    }
    return 0.0;
}

// The settings of one batch.
struct Settings {
    int char_order = 6;
    int word_order = 0;
    double factor = 4.0;  // beta squared
    bool eps_smoothing = false;
    int space_mode = REMOVE_PYTHON_SPACE;
    bool lowercase = false;
};

// One thread's working memory, reused for every segment it scores.
class Scratch {
  public:
    // [hyp, ref, match] per character order then per word order (3 * (char_order + word_order) int64) of the
    // reference of `segment` with the best sentence chrF (the first wins ties). Texts: hypothesis `segment` of
    // `hypotheses`, references [ref_begin, ref_end) of `references`. Throws std::bad_alloc.
    void segment_statistics(const Settings& settings, const TextBatch& hypotheses, int64_t segment,
                            const TextBatch& references, int64_t ref_begin, int64_t ref_end, int64_t* out) {
        const int n_refs = static_cast<int>(ref_end - ref_begin);
        const int n_columns = 3 * (settings.char_order + settings.word_order);
        ref_stats_.assign(static_cast<size_t>(n_refs) * n_columns, 0);
        if (settings.word_order == 0 && !settings.lowercase) {
            // characters only, as they are: read from the strings' own buffers (no copy to code points first)
            direct_char_units(hypotheses, segment, references, ref_begin, ref_end, settings.space_mode);
            count_orders(n_refs, settings.char_order, 0, n_columns);
        } else {
            const refscore::TextPreparation preparation{false, settings.lowercase};
            raw_.clear();
            raw_start_.assign(1, 0);
            refscore::append_text(hypotheses, segment, preparation, raw_, lowered_);
            raw_start_.push_back(static_cast<int64_t>(raw_.size()));
            for (int64_t r = ref_begin; r < ref_end; ++r) {
                refscore::append_text(references, r, preparation, raw_, lowered_);
                raw_start_.push_back(static_cast<int64_t>(raw_.size()));
            }
            if (settings.char_order > 0) {
                start_char_units(raw_.size(), n_refs + 1, settings.space_mode);
                for (int j = 0; j <= n_refs; ++j)
                    append_char_units(raw_.data() + raw_start_[j],
                                      static_cast<size_t>(raw_start_[j + 1] - raw_start_[j]), j);
                finish_char_units(n_refs + 1);
                count_orders(n_refs, settings.char_order, 0, n_columns);
            }
            if (settings.word_order > 0) {
                word_units(n_refs + 1);
                count_orders(n_refs, settings.word_order, 3 * settings.char_order, n_columns);
            }
        }
        int best = 0;
        double best_f = -1.0;
        for (int j = 0; j < n_refs; ++j) {
            const double f =
                f_score(&ref_stats_[static_cast<size_t>(j) * n_columns], settings.char_order + settings.word_order,
                        settings.factor, settings.eps_smoothing);
            if (f > best_f) {
                best_f = f;
                best = j;
            }
        }
        for (int k = 0; k < n_columns; ++k) out[k] = ref_stats_[static_cast<size_t>(best) * n_columns + k];
    }

  private:
    // Empty the table, room for min(n_items, kTableStartEntries) keys (it grows as it fills); ids restart from 0.
    void table_reset(int64_t n_items) {
        if (!table_.start(static_cast<size_t>(std::min(n_items, kTableStartEntries)))) throw std::bad_alloc();
        next_id_ = 0;
    }

    // The next id to a key not in the table; `index` is the free slot `probe` found for it.
    uint32_t claim_new(size_t index, uint64_t key) {
        const size_t capacity = table_.capacity();
        if (!table_.grow_for_one_more([](uint64_t k) { return refscore::mix64(k); })) throw std::bad_alloc();
        // grown: every slot moved, the key's free slot too
        if (table_.capacity() != capacity)
            index = table_.probe(key, refscore::mix64(key), [](uint32_t) { return false; });
        return table_.claim(index, key, next_id_++);
    }

    // The dense id of an exact 64-bit key, assigning the next id to a new key.
    uint32_t key_id(uint64_t key) {
        const size_t index = table_.probe(key, refscore::mix64(key));
        if (table_.live(index)) return table_.value(index);
        return claim_new(index, key);
    }

    bool same_token(uint32_t id, int64_t pos, int64_t length) const {
        const int64_t other = token_pos_[id];
        if (token_len_[id] != length) return false;
        for (int64_t k = 0; k < length; ++k)
            if (raw_[other + k] != raw_[pos + k]) return false;
        return true;
    }

    // The dense id of the word raw[pos:pos + length], compared by content (the digest only picks the slot).
    uint32_t token_id(int64_t pos, int64_t length) {
        const uint64_t digest = refscore::sequence_digest(raw_.data() + pos, static_cast<size_t>(length));
        const size_t index =
            table_.probe(digest, refscore::mix64(digest), [&](uint32_t id) { return same_token(id, pos, length); });
        if (table_.live(index)) return table_.value(index);
        token_pos_.push_back(pos);
        token_len_.push_back(length);
        return claim_new(index, digest);
    }

    // Order-1 character ids (whitespace removed per `space_mode`), one run per string: `start_char_units` for
    // `n_chars` characters in `n_strings` strings, `append_char_units` string by string, `finish_char_units`.
    void start_char_units(size_t n_chars, int n_strings, int space_mode) {
        table_reset(static_cast<int64_t>(n_chars));
        char_table_.start(kDirectCharacters);
        units_.resize(n_chars);
        unit_start_.resize(n_strings + 1);
        unit_count_ = 0;
        space_mode_ = space_mode;
        kept_ = &KEPT_LATIN1.mode[space_mode];
    }

    // A Latin-1 character takes its id without a branch, even a removed space (its id is then not kept: an id
    // no unit holds changes no count); wider ones are hashed (one id sequence for both).
    template <class Char>
    void append_char_units(const Char* text, size_t length, int string) {
        unit_start_[string] = unit_count_;
        uint32_t* units = units_.data();
        int64_t count = unit_count_;
        auto direct = char_table_.ids(next_id_);
        for (size_t p = 0; p < length; ++p) {
            const uint32_t c = text[p];
            if (sizeof(Char) == 1 || c < kDirectCharacters) {
                units[count] = direct.id(c);
                count += kept_->kept[c];
            } else if (!is_removed_space(c, space_mode_)) {
                next_id_ = direct.next;
                units[count++] = key_id(c);
                direct.next = next_id_;
            }
        }
        next_id_ = direct.next;
        unit_count_ = count;
    }

    void finish_char_units(int n_strings) {
        unit_start_[n_strings] = unit_count_;
        units_.resize(unit_count_);
    }

    // The character units of a segment's texts straight from their buffers (1, 2 or 4 bytes per code point).
    void direct_char_units(const TextBatch& hypotheses, int64_t segment, const TextBatch& references, int64_t ref_begin,
                           int64_t ref_end, int space_mode) {
        size_t n_chars = static_cast<size_t>(hypotheses.lengths[segment]);
        for (int64_t r = ref_begin; r < ref_end; ++r) n_chars += static_cast<size_t>(references.lengths[r]);
        const int n_strings = static_cast<int>(ref_end - ref_begin) + 1;
        start_char_units(n_chars, n_strings, space_mode);
        for (int j = 0; j < n_strings; ++j) {
            const TextBatch& batch = j == 0 ? hypotheses : references;
            const int64_t t = j == 0 ? segment : ref_begin + j - 1;
            const size_t length = static_cast<size_t>(batch.lengths[t]);
            if (batch.kinds[t] == 1)
                append_char_units(static_cast<const uint8_t*>(batch.data[t]), length, j);
            else if (batch.kinds[t] == 2)
                append_char_units(static_cast<const uint16_t*>(batch.data[t]), length, j);
            else
                append_char_units(static_cast<const uint32_t*>(batch.data[t]), length, j);
        }
        finish_char_units(n_strings);
    }

    // Order-1 word ids: str.split() then sacreBLEU's _remove_punctuation (one ASCII punctuation character peeled
    // off the end, else off the start, of every word longer than one character).
    void word_units(int n_strings) {
        table_reset(static_cast<int64_t>(raw_.size()));
        token_pos_.clear();
        token_len_.clear();
        units_.clear();
        unit_start_.clear();
        for (int j = 0; j < n_strings; ++j) {
            unit_start_.push_back(static_cast<int64_t>(units_.size()));
            int64_t p = raw_start_[j];
            const int64_t end = raw_start_[j + 1];
            while (p < end) {
                if (refscore::is_space(raw_[p])) {
                    ++p;
                    continue;
                }
                const int64_t start = p;
                while (p < end && !refscore::is_space(raw_[p])) ++p;
                const int64_t length = p - start;
                if (length == 1) {
                    units_.push_back(token_id(start, 1));
                } else if (is_ascii_punctuation(raw_[p - 1])) {
                    units_.push_back(token_id(start, length - 1));
                    units_.push_back(token_id(p - 1, 1));
                } else if (is_ascii_punctuation(raw_[start])) {
                    units_.push_back(token_id(start, 1));
                    units_.push_back(token_id(start + 1, length - 1));
                } else {
                    units_.push_back(token_id(start, length));
                }
            }
        }
        unit_start_.push_back(static_cast<int64_t>(units_.size()));
    }

    // [hyp, ref, match] per order 1..max_order for every reference, from the order-1 ids in `units_`.
    // sacreBLEU's rule: the hypothesis count is 0 for an order where the reference has no n-gram.
    void count_orders(int n_refs, int max_order, int first_column, int n_columns) {
        const int64_t total = static_cast<int64_t>(units_.size());
        ids_.resize(units_.size());
        // distinct order-1 items: the ids of units_ are below n_units (a removed space may hold an id too)
        const uint64_t n_units = total > 0 ? 1 + *std::max_element(units_.begin(), units_.end()) : 0;
        const size_t n_counts = static_cast<size_t>(std::max<uint64_t>(total, n_units)) + 1;
        if (counts_.size() < n_counts) counts_.resize(n_counts, GramCounts{0, 0});
        uint64_t n_previous = n_units;  // distinct (n-1)-grams: ids below n_previous
        for (int n = 1; n <= max_order; ++n) {
            // the order-n id of (id_{n-1}, unit): a slot of its own in the direct-mapped table when all such pairs
            // fit, else an exact hash key; both number new n-grams in order of first appearance
            const bool direct = n > 1 && n_previous * n_units <= kDirectSlots;
            if (n == 1) {
                count_order<UNITS>(n_refs, n, n_units, first_column, n_columns);
                n_previous = n_units;
                continue;
            }
            if (direct)
                gram_table_.start(static_cast<size_t>(n_previous * n_units));
            else
                table_reset(total);
            next_id_ = 0;
            if (direct)
                count_order<DIRECT>(n_refs, n, n_units, first_column, n_columns);
            else
                count_order<HASHED>(n_refs, n, n_units, first_column, n_columns);
            n_previous = next_id_;
        }
    }

    // How count_order numbers the n-grams of its order: order 1 is the unit itself; higher orders chain.
    enum Numbering { UNITS, DIRECT, HASHED };

    // One order n: each string's order-n ids (into ids_, from the order-(n-1) ids there), counted as they are
    // made: the hypothesis' counts first, then each reference's count and its matches (an occurrence matches
    // while the reference's running count has not passed the hypothesis'). The counts are emptied by id range
    // afterwards (ids are dense), not occurrence by occurrence.
    template <Numbering numbering>
    void count_order(int n_refs, int n, uint64_t n_units, int first_column, int n_columns) {
        GramCounts* const counts = counts_.data();
        uint32_t* const order_ids = ids_.data();
        // the n-gram at p ends at units[p + tail] (not at a pointer units + n - 1: null + offset when all are empty)
        const uint32_t* const units = units_.data();
        const int64_t tail = n - 1;
        const int64_t* const unit_start = unit_start_.data();
        auto direct = gram_table_.ids(0);
        // the order-n id of the n-gram at p
        auto gram_id = [&](int64_t p) -> uint32_t {
            if (numbering == UNITS) return units[p];
            if (numbering == DIRECT) return direct.id(static_cast<size_t>(order_ids[p] * n_units + units[p + tail]));
            return key_id((static_cast<uint64_t>(order_ids[p]) << 32) | units[p + tail]);
        };
        const int64_t hyp_begin = unit_start[0];
        const int64_t hyp_grams = std::max<int64_t>(unit_start[1] - hyp_begin - n + 1, 0);
        for (int64_t p = hyp_begin, end = hyp_begin + hyp_grams; p < end; ++p) {
            const uint32_t id = gram_id(p);
            order_ids[p] = id;
            counts[id].hyp += 1;
        }
        const int column = first_column + 3 * (n - 1);
        for (int j = 1; j <= n_refs; ++j) {
            const int64_t begin = unit_start[j];
            const int64_t n_grams = std::max<int64_t>(unit_start[j + 1] - begin - n + 1, 0);
            int64_t match = 0;
            for (int64_t p = begin, end = begin + n_grams; p < end; ++p) {
                const uint32_t id = gram_id(p);
                order_ids[p] = id;
                GramCounts& count = counts[id];  // both counts in one load
                count.ref += 1;
                match += count.ref <= count.hyp;
            }
            if (numbering == DIRECT) next_id_ = direct.next;
            const uint64_t n_ids = numbering == UNITS ? n_units : next_id_;
            if (j < n_refs)
                for (uint64_t id = 0; id < n_ids; ++id) counts[id].ref = 0;
            int64_t* stats = &ref_stats_[static_cast<size_t>(j - 1) * n_columns + column];
            stats[0] = n_grams > 0 ? hyp_grams : 0;
            stats[1] = n_grams;
            stats[2] = match;
        }
        if (numbering == DIRECT) next_id_ = direct.next;
        const uint64_t n_ids = numbering == UNITS ? n_units : next_id_;
        std::fill(counts, counts + n_ids, GramCounts{0, 0});
    }

    std::vector<uint32_t> raw_;       // code points of the segment's strings (hypothesis, then references)
    std::vector<int64_t> raw_start_;  // string j is raw_[raw_start_[j]:raw_start_[j + 1]]
    std::vector<uint32_t> lowered_;   // working memory of lowercasing
    std::vector<uint32_t> units_;     // order-1 ids (characters or word tokens) of every string, concatenated
    std::vector<int64_t> unit_start_;
    std::vector<uint32_t> ids_;  // ids of the current order, aligned with `units_`
    // per id: occurrences in the hypothesis and in the reference being compared, side by side (one cache line)
    struct GramCounts {
        int64_t hyp;
        int64_t ref;
    };
    std::vector<GramCounts> counts_;
    std::vector<int64_t> ref_stats_;  // per reference: [hyp, ref, match] per order
    std::vector<int64_t> token_pos_;  // per word id: where its first occurrence starts in `raw_`, and its length
    std::vector<int64_t> token_len_;
    HashTable<uint32_t> table_;  // exact 64-bit keys (or word digests) -> dense ids
    uint32_t next_id_ = 0;
    DirectTable<uint64_t> char_table_;      // Latin-1 characters -> dense ids (shared with the hashed ones)
    DirectTable<uint32_t> gram_table_;      // (id_{n-1}, unit) pairs -> dense order-n ids
    int64_t unit_count_ = 0;                // units appended so far (append_char_units)
    int space_mode_ = REMOVE_PYTHON_SPACE;  // of the characters being appended
    const KeptCharacters* kept_ = nullptr;  // its Latin-1 characters that are kept
};

// Statistics of every segment of a batch into out[segment * n_columns ...]: segment i's references are
// [ref_offsets[i], ref_offsets[i + 1]) of `references` (at least one each). One parallel loop over segments,
// a Scratch per thread. Returns the number of segments that ran out of memory (their rows are left as zeros).
inline int64_t batch_statistics(const Settings& settings, const TextBatch& hypotheses, const TextBatch& references,
                                const int64_t* ref_offsets, int64_t n_segments, int threads, int64_t* out) {
    const int64_t n_columns = 3 * (settings.char_order + settings.word_order);
    int64_t failures = 0;
#pragma omp parallel num_threads(threads) reduction(+ : failures)
    {
        Scratch scratch;
#pragma omp for schedule(dynamic)
        for (int64_t segment = 0; segment < n_segments; ++segment) {
            try {
                scratch.segment_statistics(settings, hypotheses, segment, references, ref_offsets[segment],
                                           ref_offsets[segment + 1], out + segment * n_columns);
            } catch (const std::bad_alloc&) {
                ++failures;
            }
        }
    }
    return failures;
}

}  // namespace refscore::chrf
