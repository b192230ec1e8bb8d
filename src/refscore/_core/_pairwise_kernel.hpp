// Pairwise n-gram matches: for every item, the clipped n-gram matches of every candidate against every reference
// (or against every other candidate), from counts made once per text.
//
// Input is a call's texts already cut into units (code points for chrF, word ids for BLEU/GLEU: the binding's
// caller makes them with the metric's own preprocessing), one or two *streams* per text (chrF++: characters and
// words), each with its maximum n-gram order. Per item the kernel gives every n-gram of its texts a dense id by
// *id chaining* (as _chrf_kernel.hpp: the order-n id at position p is the dense id of the exact 64-bit pair
// (id_{n-1}[p], unit[p + n - 1]); order 1 is the unit itself), counts each text's distinct n-grams once, and
// keeps the references' counts as postings (per n-gram: the references holding it, with their counts). A
// candidate's matches against all references are then one pass over its distinct n-grams and their postings:
// match(c, r, order) = sum over shared n-grams of min(count in c, count in r), which is sacreBLEU's clipped match
// count. Keys are compared exactly, so hash collisions cost probes, never counts.
//
// Symmetric items (references = the candidates, as in MBR) compute each unordered pair once (min is symmetric)
// and the diagonal as a text's own n-gram count. Phase one builds every item's counts (a parallel loop over
// items), phase two fills every candidate's row (a parallel loop over all items' rows); every row writes only
// its own cells, so results never depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "_hash_table.hpp"

namespace refscore::pairwise {

using refscore::HashTable;

// One stream of units of every text of a call: text t is units[offsets[t]:offsets[t + 1]].
struct Stream {
    const uint32_t* units = nullptr;
    const int64_t* offsets = nullptr;
    int max_order = 0;
};

// The items of a call. Item k's candidates are the call's texts cand_texts[cand_offsets[k]:cand_offsets[k + 1]],
// its references ref_texts[ref_offsets[k]:ref_offsets[k + 1]] (ignored when `symmetric`: the candidates then
// stand for the references too). Item k's matches go to out[out_offsets[k]:...], as [candidate][reference][order]
// int32 (orders: every order of the first stream, then of the second).
struct Items {
    const int64_t* cand_texts = nullptr;
    const int64_t* cand_offsets = nullptr;
    const int64_t* ref_texts = nullptr;
    const int64_t* ref_offsets = nullptr;
    const int64_t* out_offsets = nullptr;
    int64_t n_items = 0;
    bool symmetric = false;
};

// A candidate's distinct n-gram of one order: its dense id, its count, and (symmetric items) the position of
// this candidate's own entry in the n-gram's postings.
struct Gram {
    uint32_t id;
    uint32_t count;
    uint32_t own_posting;
};

// One reference holding an n-gram, with its count.
struct Posting {
    uint32_t reference;
    uint32_t count;
};

// One order of one item: each candidate's distinct n-grams, and each n-gram's postings.
struct OrderCounts {
    std::vector<int64_t> cand_start;  // candidate i's grams are grams[cand_start[i]:cand_start[i + 1]]
    std::vector<Gram> grams;
    std::vector<int64_t> post_start;  // n-gram g's postings are postings[post_start[g]:post_start[g + 1]]
    std::vector<Posting> postings;
    std::vector<uint32_t> own_total;  // symmetric items: each candidate's number of n-grams of this order
};

struct ItemCounts {
    std::vector<OrderCounts> orders;
};

// One thread's working memory for counting items, reused item after item.
class Counter {
  public:
    // The counts of item k, every order of every stream. Throws std::bad_alloc.
    void count_item(const Stream* streams, int n_streams, const Items& items, int64_t k, ItemCounts& result) {
        const int64_t* cands = items.cand_texts + items.cand_offsets[k];
        const int64_t n_cands = items.cand_offsets[k + 1] - items.cand_offsets[k];
        const int64_t* refs = items.symmetric ? cands : items.ref_texts + items.ref_offsets[k];
        const int64_t n_refs = items.symmetric ? n_cands : items.ref_offsets[k + 1] - items.ref_offsets[k];
        result.orders.clear();
        for (int s = 0; s < n_streams; ++s) {
            const Stream& stream = streams[s];
            gather(stream, cands, n_cands, refs, n_refs, items.symmetric);
            for (int n = 1; n <= stream.max_order; ++n) {
                chain(n);
                result.orders.emplace_back();
                order_counts(n, n_cands, n_refs, items.symmetric, result.orders.back());
            }
        }
    }

  private:
    // The units of the item's texts, back to back: candidates, then (unless symmetric) references.
    void gather(const Stream& stream, const int64_t* cands, int64_t n_cands, const int64_t* refs, int64_t n_refs,
                bool symmetric) {
        units_.clear();
        text_start_.assign(1, 0);
        const int64_t n_texts = symmetric ? n_cands : n_cands + n_refs;
        for (int64_t t = 0; t < n_texts; ++t) {
            const int64_t text = t < n_cands ? cands[t] : refs[t - n_cands];
            units_.insert(units_.end(), stream.units + stream.offsets[text], stream.units + stream.offsets[text + 1]);
            text_start_.push_back(static_cast<int64_t>(units_.size()));
        }
        ids_.resize(units_.size());
    }

    // ids_[p] becomes the dense id of the order-n n-gram starting at p (order 1: the unit), for every p where
    // one starts; ids of order n - 1 are read before they are overwritten (p ascending).
    void chain(int n) {
        if (!table_.start(units_.size())) throw std::bad_alloc();
        next_id_ = 0;
        const size_t n_texts = text_start_.size() - 1;
        for (size_t t = 0; t < n_texts; ++t) {
            const int64_t end = text_start_[t + 1] - n + 1;
            for (int64_t p = text_start_[t]; p < end; ++p) {
                const uint64_t key = n == 1 ? units_[p] : (static_cast<uint64_t>(ids_[p]) << 32) | units_[p + n - 1];
                const size_t slot = table_.probe(key, refscore::mix64(key));
                ids_[p] = table_.live(slot) ? table_.value(slot) : table_.claim(slot, key, next_id_++);
            }
        }
    }

    // The distinct n-grams of text t (order n) with their counts, appended to `grams`.
    void distinct_grams(int64_t t, int n, std::vector<Gram>& grams) {
        const int64_t end = text_start_[t + 1] - n + 1;
        touched_.clear();
        for (int64_t p = text_start_[t]; p < end; ++p)
            if (tally_[ids_[p]]++ == 0) touched_.push_back(ids_[p]);
        for (const uint32_t id : touched_) {
            grams.push_back(Gram{id, tally_[id], 0});
            tally_[id] = 0;
        }
    }

    void order_counts(int n, int64_t n_cands, int64_t n_refs, bool symmetric, OrderCounts& out) {
        if (tally_.size() < next_id_) tally_.resize(next_id_, 0);  // all zero between texts
        out.cand_start.reserve(static_cast<size_t>(n_cands) + 1);
        out.cand_start.assign(1, 0);
        out.grams.reserve(static_cast<size_t>(text_start_[n_cands]));  // at most one distinct n-gram a position
        for (int64_t i = 0; i < n_cands; ++i) {
            distinct_grams(i, n, out.grams);
            out.cand_start.push_back(static_cast<int64_t>(out.grams.size()));
        }
        // The references' distinct n-grams (symmetric: the candidates' own).
        std::vector<Gram>& ref_grams = symmetric ? out.grams : ref_grams_;
        std::vector<int64_t>& ref_start = symmetric ? out.cand_start : ref_start_;
        if (!symmetric) {
            ref_grams_.clear();
            ref_start_.assign(1, 0);
            for (int64_t r = 0; r < n_refs; ++r) {
                distinct_grams(n_cands + r, n, ref_grams_);
                ref_start_.push_back(static_cast<int64_t>(ref_grams_.size()));
            }
        }
        // Postings by counting sort over n-gram ids, filled in reference order.
        out.post_start.assign(static_cast<size_t>(next_id_) + 1, 0);
        for (const Gram& gram : ref_grams) ++out.post_start[gram.id + 1];
        for (uint32_t g = 0; g < next_id_; ++g) out.post_start[g + 1] += out.post_start[g];
        out.postings.resize(ref_grams.size());
        cursor_.assign(out.post_start.begin(), out.post_start.end() - 1);
        for (int64_t r = 0; r < n_refs; ++r) {
            for (int64_t e = ref_start[r]; e < ref_start[r + 1]; ++e) {
                Gram& gram = ref_grams[e];
                const int64_t at = cursor_[gram.id]++;
                out.postings[at] = Posting{static_cast<uint32_t>(r), gram.count};
                gram.own_posting = static_cast<uint32_t>(at);
            }
        }
        if (symmetric) {
            out.own_total.assign(n_cands, 0);
            for (int64_t i = 0; i < n_cands; ++i) {
                const int64_t grams = text_start_[i + 1] - text_start_[i] - n + 1;
                out.own_total[i] = grams > 0 ? static_cast<uint32_t>(grams) : 0;
            }
        }
    }

    std::vector<uint32_t> units_;      // the item's texts' units, back to back
    std::vector<int64_t> text_start_;  // text t is units_[text_start_[t]:text_start_[t + 1]]
    std::vector<uint32_t> ids_;        // dense n-gram ids of the current order, aligned with units_
    std::vector<uint32_t> tally_;      // per n-gram id: its count in the text being counted
    std::vector<uint32_t> touched_;    // the ids counted in that text, in order of first occurrence
    std::vector<Gram> ref_grams_;      // the references' distinct n-grams (non-symmetric items)
    std::vector<int64_t> ref_start_;
    std::vector<int64_t> cursor_;  // where the next posting of each n-gram goes
    HashTable<uint32_t> table_;    // exact 64-bit keys -> dense ids
    uint32_t next_id_ = 0;
};

// Candidate i's matches against every reference of an item (symmetric: against references i.. only, mirrored
// into column i), into the item's block `out`. `row` is per-thread working memory.
inline void fill_row(const ItemCounts& counts, int64_t i, int64_t n_cands, int64_t n_refs, bool symmetric, int32_t* out,
                     std::vector<int32_t>& row) {
    const int n_orders = static_cast<int>(counts.orders.size());
    row.assign(static_cast<size_t>(n_refs) * n_orders, 0);
    for (int o = 0; o < n_orders; ++o) {
        const OrderCounts& order = counts.orders[o];
        for (int64_t e = order.cand_start[i]; e < order.cand_start[i + 1]; ++e) {
            const Gram gram = order.grams[e];
            const int64_t begin = symmetric ? gram.own_posting + 1 : order.post_start[gram.id];
            const Posting* posting = order.postings.data() + begin;
            const Posting* end = order.postings.data() + order.post_start[gram.id + 1];
            for (; posting < end; ++posting)
                row[static_cast<size_t>(posting->reference) * n_orders + o] +=
                    static_cast<int32_t>(std::min(gram.count, posting->count));
        }
        if (symmetric) row[static_cast<size_t>(i) * n_orders + o] = static_cast<int32_t>(order.own_total[i]);
    }
    const int64_t first = symmetric ? i : 0;
    for (int64_t r = first; r < n_refs; ++r) {
        for (int o = 0; o < n_orders; ++o) {
            const int32_t value = row[static_cast<size_t>(r) * n_orders + o];
            out[(i * n_refs + r) * n_orders + o] = value;
            if (symmetric) out[(r * n_refs + i) * n_orders + o] = value;
        }
    }
}

// Every item's matches into `out` (see Items). Returns the number of items that ran out of memory (their
// blocks are left as they were); 0 on success.
inline int64_t pairwise_matches(const Stream* streams, int n_streams, const Items& items, int threads, int32_t* out) {
    std::vector<ItemCounts> counts;
    std::vector<int64_t> row_start(items.n_items + 1, 0);
    try {
        counts.resize(items.n_items);
    } catch (const std::bad_alloc&) {
        return items.n_items;
    }
    for (int64_t k = 0; k < items.n_items; ++k)
        row_start[k + 1] = row_start[k] + items.cand_offsets[k + 1] - items.cand_offsets[k];
    std::vector<char> failed(items.n_items, 0);
#pragma omp parallel num_threads(threads)
    {
        Counter counter;
#pragma omp for schedule(dynamic)
        for (int64_t k = 0; k < items.n_items; ++k) {
            try {
                counter.count_item(streams, n_streams, items, k, counts[k]);
            } catch (const std::bad_alloc&) {
                failed[k] = 1;
            }
        }
    }
    const int64_t n_rows = row_start[items.n_items];
#pragma omp parallel num_threads(threads)
    {
        std::vector<int32_t> row;
#pragma omp for schedule(dynamic, 4)
        for (int64_t task = 0; task < n_rows; ++task) {
            const int64_t k = std::upper_bound(row_start.begin(), row_start.end(), task) - row_start.begin() - 1;
            char item_failed;
#pragma omp atomic read
            item_failed = failed[k];
            if (item_failed) continue;
            const int64_t n_cands = items.cand_offsets[k + 1] - items.cand_offsets[k];
            const int64_t n_refs = items.symmetric ? n_cands : items.ref_offsets[k + 1] - items.ref_offsets[k];
            try {
                fill_row(counts[k], task - row_start[k], n_cands, n_refs, items.symmetric, out + items.out_offsets[k],
                         row);
            } catch (const std::bad_alloc&) {
#pragma omp atomic write
                failed[k] = 1;
            }
        }
    }
    int64_t failures = 0;
    for (const char f : failed) failures += f;
    return failures;
}

}  // namespace refscore::pairwise
