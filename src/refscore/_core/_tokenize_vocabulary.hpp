// A call's vocabulary (encode_words, bound by _tokenize.pyx): every thread tokenizes its segments and interns the
// tokens in a table of its own (ThreadStore); merge_ids then maps those ids to the call's ids serially in text
// order, which makes the ids independent of the thread count. The tables are _hash_table.hpp's Interner.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "_hash_table.hpp"
#include "_tokenize_text.hpp"

namespace refscore::tok {

/* Token characters to dense ids, in order of first interning (a thread's, or the call's). */
using Interner = refscore::Interner<uint32_t>;

/* ---- per-thread token store of a whole call ------------------------------------------------------------ */

/* A thread's tokens as ids of its own interner (`local`); merge_ids maps them to the call's ids. */
struct alignas(64) ThreadStore { /* own cache lines: no false sharing between threads */
    Interner local;
    std::vector<uint32_t> ids; /* local ids of all tokens this thread produced */
    int64_t n_tokens = 0;
    Buffer text, scratch;
    std::vector<Span> spans;
    bool failed = false; /* an allocation failed (reported as MemoryError) */
};

/* Tokenize one segment (lowercased first when `lowercase`); its tokens are appended to `store`, interned with
 * the table slot of a token a few places ahead prefetched so that cache misses overlap. Returns the number of
 * tokens (or 0 with store.failed set when memory ran out). */
static int64_t tokenize_segment(int tokenizer, bool lowercase, int kind, const void* data, int64_t length,
                                ThreadStore& store) noexcept {
    try {
        const size_t count = tokenize_into<CharactersHash>(tokenizer, lowercase, kind, data, (size_t)length, store.text,
                                                           0, store.scratch, store.spans, 0);
        if (store.ids.size() < (size_t)store.n_tokens + count)
            store.ids.resize(std::max(2 * store.ids.size(), (size_t)store.n_tokens + count));
        const Span* spans = store.spans.data();
        const uint32_t* text = store.text.data();
        uint32_t* out = store.ids.data() + store.n_tokens;
        const size_t ahead = 4;
        for (size_t k = 0; k < count; ++k) {
            if (k + ahead < count) store.local.prefetch(spans[k + ahead].hash);
            out[k] = store.local.intern(text + spans[k].start, (uint32_t)spans[k].length, spans[k].hash);
        }
        store.n_tokens += (int64_t)count;
        return (int64_t)count;
    } catch (...) {
        store.failed = true;
        return 0;
    }
}

/* ---- merging ----------------------------------------------------------------------------------------- */

/* Map every thread's local ids to the call's ids, segment by segment in input order, so the ids (numbered in
 * order of first appearance) never depend on the thread count. Segment i's tokens are tokens
 * first[i] .. first[i] + count - 1 of stores[thread_of[i]]; writes ids[offsets[i] .. offsets[i + 1]).
 * Returns false when memory ran out. */
static bool merge_ids(ThreadStore* stores, int n_threads, Interner& vocabulary, int64_t n_segments,
                      const int32_t* thread_of, const int64_t* first, const int64_t* offsets, uint32_t* ids) noexcept {
    try {
        if (n_threads == 1) {
            /* one thread met the segments in input order: its ids already are the call's ids */
            if (offsets[n_segments] > 0)
                std::memcpy(ids, stores[0].ids.data(), (size_t)offsets[n_segments] * sizeof(uint32_t));
            vocabulary = std::move(stores[0].local);
            return true;
        }
        const uint32_t unmapped = 0xFFFFFFFFu; /* a local id not yet met in text order */
        std::vector<std::vector<uint32_t>> to_global((size_t)n_threads);
        for (int t = 0; t < n_threads; ++t) to_global[t].assign(stores[t].local.size(), unmapped);
        for (int64_t i = 0; i < n_segments; ++i) {
            const ThreadStore& store = stores[thread_of[i]];
            uint32_t* mapping = to_global[thread_of[i]].data();
            const uint32_t* local_ids = store.ids.data() + first[i];
            for (int64_t out = offsets[i]; out < offsets[i + 1]; ++out) {
                uint32_t local_id = *local_ids++;
                uint32_t id = mapping[local_id];
                if (id == unmapped) {
                    id = vocabulary.intern(store.local.items(local_id), store.local.length(local_id),
                                           store.local.digest(local_id));
                    mapping[local_id] = id;
                }
                ids[out] = id;
            }
        }
    } catch (...) {
        return false;
    }
    return true;
}

}  // namespace refscore::tok
