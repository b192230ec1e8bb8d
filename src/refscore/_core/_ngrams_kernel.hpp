// Exact n-gram statistics over integer token ids: BLEU (clipped matches) and Google-BLEU (best reference).
//
// Input layout, shared by both kernels: the token ids of every text of a batch in one uint32 array, text t being
// ids[offsets[t]:offsets[t + 1]]. Texts 0 .. n-1 are the hypotheses, texts n + j the flattened references;
// segment i owns references ref_offsets[i] .. ref_offsets[i + 1].
//
// How n-grams are made exact: every segment gets a fresh table (_hash_table.hpp; one per thread, reused). The
// key of an n-gram is (slot of its (n-1)-gram prefix << 32) | last token, the key of a unigram uses the prefix
// 2**32-1. A slot index identifies one distinct prefix within the segment, so two n-grams share a key exactly when
// they are equal: no hash collision can change a count (colliding hashes only cost a probe). The references are
// inserted first; the hypothesis only looks n-grams up, and stops extending a start position at the first n-gram
// that is not in the table (no longer n-gram from there can be).
//
//
// Text input (`text_batch`, tokenizing the texts in the same parallel loop) is _ngrams_text.hpp.
//
// One parallel loop per batch (OpenMP, dynamic schedule); each segment writes its own output row, so results do not
// depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "_hash_table.hpp"
#include "_threads.hpp"

namespace refscore::ngrams {

enum Kind : int { KIND_BLEU = 0, KIND_GLEU = 1 };
enum Status : int { STATUS_OK = 0, STATUS_NO_MEMORY = -1, STATUS_TOO_LARGE = -2 };

constexpr uint32_t NO_PREFIX = 0xFFFFFFFFu;
constexpr uint64_t NO_LIMIT = 1ULL << 32;  // above every uint32 token id: all may match
constexpr int32_t NO_OWNER = -1;
constexpr int32_t HYPOTHESIS = -2;
// Largest table a segment may need (slot indices must stay below NO_PREFIX; 2**30 slots = 24 GiB).
constexpr int64_t TABLE_SLOTS_LIMIT = int64_t(1) << 30;
constexpr int64_t MIN_TABLE_SLOTS = 16;
// Bit 31 marks a bigram key's prefix as a token id (dense unigrams); slot indices stay below 2**30.
constexpr uint32_t TOKEN_PREFIX = 0x80000000u;
// Segments per run at most (longer runs are split: the reference is counted again for each piece), so that
// threads share the work of a reference scored many times.
constexpr int64_t RUN_LIMIT = 1024;

// The occurrence counts of one n-gram (a table slot's, or a dense unigram counter's).
struct Count {
    int32_t ref_max;  // BLEU: max count over the references; GLEU: count in the hypothesis
    int32_t current;  // occurrences in the text being walked (valid while owner == that text)
    int32_t owner;    // which text `current` belongs to
};
constexpr Count kNewCount{0, 0, NO_OWNER};

using Table = refscore::HashTable<Count>;
constexpr size_t kSlotBytes = sizeof(Table::Slot);

// One thread's scratch: the n-gram table and (text kernels) dense unigram counters, grown on demand.
struct alignas(64) Scratch {
    Table table;
    std::vector<Count> unigrams;
};

// Number of n-grams of orders min_n..max_n (NLTK everygrams for min_n > 1) in a text of `length` tokens.
inline int64_t count_ngrams_between(int64_t length, int64_t min_n, int64_t max_n) {
    int64_t total = 0;
    for (int64_t n = min_n; n <= max_n; ++n) {
        if (length - n + 1 <= 0) break;
        total += length - n + 1;
    }
    return total;
}
inline int64_t count_ngrams(int64_t length, int64_t max_n) { return count_ngrams_between(length, 1, max_n); }

// Power of two >= 2 * entries (load factor <= 1/2): the table size `Table::start(entries)` allocates.
inline int64_t table_size(int64_t entries) {
    int64_t size = MIN_TABLE_SLOTS;
    while (size < 2 * entries) size <<= 1;
    return size;
}

// The slot of `key`, inserted (zero counts) when new.
inline uint32_t find_or_insert(Table& table, uint64_t key) {
    const size_t index = table.probe(key, refscore::multiply_mix64(key));
    if (!table.live(index)) table.claim(index, key, kNewCount);
    return static_cast<uint32_t>(index);
}

// The slot of `key`, or -1.
inline int64_t find(const Table& table, uint64_t key) {
    const size_t index = table.probe(key, refscore::multiply_mix64(key));
    return table.live(index) ? static_cast<int64_t>(index) : -1;
}

// One more occurrence in text `owner`: track_max keeps `ref_max` = the maximum count over owners (BLEU's
// multi-reference clipping); otherwise `ref_max` counts every occurrence (one text).
inline void add_reference_occurrence(Count& count, int32_t owner, bool track_max) {
    if (track_max) {
        if (count.owner != owner) {
            count.owner = owner;
            count.current = 0;
        }
        count.current += 1;
        if (count.current > count.ref_max) count.ref_max = count.current;
    } else {
        count.ref_max += 1;
    }
}

// One more occurrence in text `owner`; whether it is a clipped match (at most `ref_max` of them).
inline bool add_clipped_occurrence(Count& count, int32_t owner) {
    if (count.owner != owner) {
        count.owner = owner;
        count.current = 0;
    }
    count.current += 1;
    return count.current <= count.ref_max;
}

// Insert the n-grams tokens[0:n + 1] for n = first .. stop - 1 (`prefix`: the key prefix of tokens[0:first]),
// counting them for `owner`; stops at a token >= `limit`.
inline void insert_ngrams(const uint32_t* tokens, int64_t first, int64_t stop, uint32_t prefix, int32_t owner,
                          Table& table, bool track_max, uint64_t limit) {
    for (int64_t n = first; n < stop; ++n) {
        if (tokens[n] >= limit) break;
        const uint32_t index = find_or_insert(table, (static_cast<uint64_t>(prefix) << 32) | tokens[n]);
        add_reference_occurrence(table.value(index), owner, track_max);
        prefix = index;
    }
}

// Look the n-grams tokens[0:n + 1] (n = first .. stop - 1) up, counting them for `owner`; a clipped match of order
// n + 1 >= min_n adds one to counts[n * stride]. Stops at the first n-gram not in the table (no longer one can be)
// or at a token >= `limit`.
inline void match_ngrams(const uint32_t* tokens, int64_t first, int64_t stop, uint32_t prefix, int64_t min_n,
                         int32_t owner, Table& table, int64_t* counts, int64_t stride, uint64_t limit) {
    for (int64_t n = first; n < stop; ++n) {
        if (tokens[n] >= limit) break;
        const int64_t found = find(table, (static_cast<uint64_t>(prefix) << 32) | tokens[n]);
        if (found < 0) break;
        if (add_clipped_occurrence(table.value(static_cast<size_t>(found)), owner) && n + 1 >= min_n)
            counts[n * stride] += 1;
        prefix = static_cast<uint32_t>(found);
    }
}

// Insert every n-gram (orders 1..max_n) of one text (see add_reference_occurrence for `track_max`: BLEU's
// multi-reference clipping table, or GLEU's hypothesis table). A start position stops at the first token >= `limit`:
// the other side has no such token, so no n-gram with it can ever match.
inline void count_text(const uint32_t* tokens, int64_t length, int64_t max_n, int32_t owner, Table& table,
                       bool track_max, uint64_t limit) {
    for (int64_t start = 0; start < length; ++start)
        insert_ngrams(tokens + start, 0, std::min(length - start, max_n), NO_PREFIX, owner, table, track_max, limit);
}

// Look up every n-gram (orders 1..max_n) of one text in a table made by count_text, counting occurrences under
// `owner`; an occurrence up to the table's `ref_max` is a clipped match, added to counts[(n - 1) * stride] for
// orders n >= min_n (stride 1: one count per order; stride 0: one total).
inline void count_clipped(const uint32_t* tokens, int64_t length, int64_t min_n, int64_t max_n, int32_t owner,
                          Table& table, int64_t* counts, int64_t stride, uint64_t limit) {
    for (int64_t start = 0; start < length; ++start)
        match_ngrams(tokens + start, 0, std::min(length - start, max_n), NO_PREFIX, min_n, owner, table, counts, stride,
                     limit);
}

// A BLEU row without its matches: [hyp_len, ref_len, 0.., total_1..N].
inline void begin_row(int64_t* row, int64_t max_order, int64_t hyp_len, int64_t ref_len) {
    std::fill(row, row + 2 + 2 * max_order, int64_t(0));
    row[0] = hyp_len;
    row[1] = ref_len;
    for (int64_t n = 0; n < max_order; ++n)
        if (hyp_len - n > 0) row[2 + max_order + n] = hyp_len - n;
}

// A segment's BLEU row without its matches: [hyp_len, closest ref_len, 0.., total_1..N] (the shortest reference's
// length instead with `shortest`: tensorflow/nmt's rule, HF evaluate's bleu); returns the number of reference
// n-grams (what its table must hold).
inline int64_t start_row(const int64_t* offsets, int64_t hyp_text, int64_t ref_first, int64_t ref_last,
                         int64_t max_order, int64_t* row, bool shortest = false) {
    int64_t entries = 0, best_diff = -1, best_len = 0;
    const int64_t hyp_len = offsets[hyp_text + 1] - offsets[hyp_text];
    for (int64_t r = ref_first; r < ref_last; ++r) {
        const int64_t length = offsets[r + 1] - offsets[r];
        entries += count_ngrams(length, max_order);
        // closest reference length, ties to the shorter (sacreBLEU's _get_closest_ref_len)
        const int64_t diff = shortest ? length : (hyp_len >= length ? hyp_len - length : length - hyp_len);
        if (best_diff == -1 || diff < best_diff || (diff == best_diff && length < best_len)) {
            best_diff = diff;
            best_len = length;
        }
    }
    begin_row(row, max_order, hyp_len, best_len);
    return entries;
}

// row = [hyp_len, closest ref_len, match_1..N, total_1..N] of one segment. Every hypothesis token is < `hyp_limit`
// (segment-local ids: the hypothesis' tokens are numbered first).
inline int bleu_segment(const uint32_t* ids, const int64_t* offsets, int64_t hyp_text, int64_t ref_first,
                        int64_t ref_last, int64_t max_order, Scratch& scratch, int64_t* row, uint64_t hyp_limit,
                        bool shortest = false) {
    const int64_t entries = start_row(offsets, hyp_text, ref_first, ref_last, max_order, row, shortest);
    const int64_t hyp_len = row[0];
    if (hyp_len == 0 || entries == 0) return STATUS_OK;
    if (!scratch.table.start(static_cast<size_t>(entries))) return STATUS_NO_MEMORY;
    // with one reference, its count is the maximum: plain counting skips the per-owner bookkeeping
    for (int64_t r = ref_first; r < ref_last; ++r)
        count_text(ids + offsets[r], offsets[r + 1] - offsets[r], max_order, static_cast<int32_t>(r - ref_first),
                   scratch.table, ref_last - ref_first > 1, hyp_limit);
    count_clipped(ids + offsets[hyp_text], hyp_len, 1, max_order, HYPOTHESIS, scratch.table, row + 2, 1, NO_LIMIT);
    return STATUS_OK;
}

// Empty dense unigram counters for token ids 0 .. vocabulary-1 (nullptr when memory runs out).
inline Count* start_unigrams(Scratch& scratch, int64_t vocabulary) {
    try {
        if (static_cast<int64_t>(scratch.unigrams.size()) < vocabulary) scratch.unigrams.resize(vocabulary);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
    std::fill(scratch.unigrams.begin(), scratch.unigrams.begin() + vocabulary, kNewCount);
    return scratch.unigrams.data();
}

// Count one reference's n-grams for `owner` (see add_reference_occurrence for `track_max`): unigrams in the dense
// per-id counters, longer n-grams in the table, a bigram keyed by its first token's id (marked by TOKEN_PREFIX).
// A start position stops at a token >= `limit` (the hypothesis has none).
inline void count_reference(const uint32_t* tokens, int64_t length, int64_t max_order, int32_t owner, bool track_max,
                            uint64_t limit, Count* unigrams, Table& table) {
    for (int64_t start = 0; start < length; ++start) {
        const uint32_t token = tokens[start];
        if (token >= limit) continue;
        add_reference_occurrence(unigrams[token], owner, track_max);
        insert_ngrams(tokens + start, 1, std::min(length - start, max_order), TOKEN_PREFIX | token, owner, table,
                      track_max, limit);
    }
}

// Add a hypothesis' clipped matches of orders 1..max_order to matches[0 .. max_order), against references counted
// by count_reference: occurrences (under `owner`) up to the references' maximum match. A token >= `limit`, or one
// in no reference, starts no match.
inline void match_hypothesis(const uint32_t* tokens, int64_t length, int64_t max_order, int32_t owner, uint64_t limit,
                             Count* unigrams, Table& table, int64_t* matches) {
    for (int64_t start = 0; start < length; ++start) {
        const uint32_t token = tokens[start];
        if (token >= limit || unigrams[token].ref_max == 0) continue;
        if (add_clipped_occurrence(unigrams[token], owner)) matches[0] += 1;
        match_ngrams(tokens + start, 1, std::min(length - start, max_order), TOKEN_PREFIX | token, 1, owner, table,
                     matches, 1, limit);
    }
}

// bleu_segment for segment-local ids whose hypothesis tokens are 0 .. vocabulary-1 (text 0 is the hypothesis,
// texts 1..n_refs its references). Unigrams are counted in dense per-id arrays instead of the table, and a bigram's
// key takes its first token's id (marked by TOKEN_PREFIX) as prefix: one table probe per token fewer on both
// sides. Same row as bleu_segment.
inline int bleu_text_segment(const uint32_t* ids, const int64_t* offsets, int64_t n_refs, int64_t max_order,
                             Scratch& scratch, int64_t* row, uint32_t vocabulary, bool shortest = false) {
    const int64_t entries = start_row(offsets, 0, 1, 1 + n_refs, max_order, row, shortest);
    const int64_t hyp_len = row[0];
    if (hyp_len == 0 || entries == 0) return STATUS_OK;
    if (!scratch.table.start(static_cast<size_t>(entries))) return STATUS_NO_MEMORY;
    Count* unigrams = start_unigrams(scratch, vocabulary);
    if (unigrams == nullptr) return STATUS_NO_MEMORY;
    // references: unigrams counted per id (the maximum over references), longer n-grams inserted in the table;
    // a start position stops at a token absent from the hypothesis (id >= vocabulary)
    for (int64_t r = 1; r < 1 + n_refs; ++r)
        count_reference(ids + offsets[r], offsets[r + 1] - offsets[r], max_order, static_cast<int32_t>(r - 1),
                        n_refs > 1, vocabulary, unigrams, scratch.table);
    match_hypothesis(ids, hyp_len, max_order, HYPOTHESIS, vocabulary, unigrams, scratch.table, row + 2);
    return STATUS_OK;
}

// row = [n_match, n_all] of the reference with the best tp / max(tpfp, tpfn) (NLTK corpus_gleu).
inline int gleu_segment(const uint32_t* ids, const int64_t* offsets, int64_t hyp_text, int64_t ref_first,
                        int64_t ref_last, int64_t min_len, int64_t max_len, Scratch& scratch, int64_t* row,
                        uint64_t hyp_limit) {
    const int64_t hyp_len = offsets[hyp_text + 1] - offsets[hyp_text];
    bool have_best = false;
    double best_ratio = 0.0;
    row[0] = 0;
    row[1] = 0;
    const int64_t tpfp = count_ngrams_between(hyp_len, min_len, max_len);
    if (!scratch.table.start(static_cast<size_t>(count_ngrams(hyp_len, max_len)))) return STATUS_NO_MEMORY;
    count_text(ids + offsets[hyp_text], hyp_len, max_len, 0, scratch.table, false, NO_LIMIT);
    for (int64_t r = ref_first; r < ref_last; ++r) {
        const int64_t length = offsets[r + 1] - offsets[r];
        const int64_t tpfn = count_ngrams_between(length, min_len, max_len);
        int64_t tp = 0;
        if (hyp_len > 0)
            count_clipped(ids + offsets[r], length, min_len, max_len, static_cast<int32_t>(r - ref_first),
                          scratch.table, &tp, 0, hyp_limit);
        const int64_t n_all = tpfp > tpfn ? tpfp : tpfn;
        if (n_all > 0) {
            // NLTK: max(candidates, key=tp / n_all): the first maximum wins; same IEEE division as Python's.
            const double ratio = static_cast<double>(tp) / static_cast<double>(n_all);
            if (!have_best || ratio > best_ratio) {
                have_best = true;
                best_ratio = ratio;
                row[0] = tp;
                row[1] = n_all;
            }
        }
    }
    return STATUS_OK;
}

// The largest per-segment table of a batch (references' n-grams for BLEU, the hypothesis' for GLEU).
inline int64_t max_table_size(const int64_t* offsets, const int64_t* ref_offsets, int64_t n_segments, int64_t max_n,
                              bool from_references) {
    int64_t largest = 0;
    for (int64_t i = 0; i < n_segments; ++i) {
        int64_t entries = 0;
        if (from_references) {
            for (int64_t r = n_segments + ref_offsets[i]; r < n_segments + ref_offsets[i + 1]; ++r)
                entries += count_ngrams(offsets[r + 1] - offsets[r], max_n);
        } else {
            entries = count_ngrams(offsets[i + 1] - offsets[i], max_n);
        }
        largest = std::max(largest, entries);
    }
    return table_size(largest);
}

// Rows of width `width` for every segment of a batch given as token ids (BLEU: orders 1..high; GLEU: low..high).
// Returns the number of segments that ran out of memory.
inline int64_t ids_batch(Kind kind, const uint32_t* ids, const int64_t* offsets, const int64_t* ref_offsets,
                         int64_t n_segments, int64_t width, int64_t low, int64_t high, int threads, int64_t* out) {
    int64_t failures = 0;
    std::vector<Scratch> scratch(static_cast<size_t>(threads));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) reduction(+ : failures)
    for (int64_t i = 0; i < n_segments; ++i) {
        Scratch& mine = scratch[static_cast<size_t>(refscore::thread_id())];
        const int64_t first = n_segments + ref_offsets[i], last = n_segments + ref_offsets[i + 1];
        const int status = kind == KIND_BLEU
                               ? bleu_segment(ids, offsets, i, first, last, high, mine, out + i * width, NO_LIMIT)
                               : gleu_segment(ids, offsets, i, first, last, low, high, mine, out + i * width, NO_LIMIT);
        if (status != STATUS_OK) ++failures;
    }
    return failures;
}

}  // namespace refscore::ngrams
