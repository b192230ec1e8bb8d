// Exact n-gram statistics (_ngrams_kernel.hpp) of texts given as strings.
//
// Text input (`text_batch`): each segment is tokenized (sacreBLEU's tokenizers, _tokenize_kernel.hpp) and its
// tokens interned in a small per-segment table (_tokenize_segments.hpp) right before its n-grams are counted, in
// the same parallel loop, so no corpus-wide vocabulary or id array is ever built. Their ids are numbered from the
// hypothesis' tokens on, so BLEU counts unigrams in dense per-id arrays and keys bigrams by their first token's id
// (bleu_text_segment): one table probe per token fewer. Texts met several times in a call (equal strings) are
// tokenized once per thread, and BLEU segments whose lone reference is such a text are scored as runs against one
// count of it (shared_reference_runs).
//
// One parallel loop per batch (OpenMP, dynamic schedule); each segment writes its own output row, so results do not
// depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "_ngrams_kernel.hpp"
#include "_text.hpp"
#include "_threads.hpp"
#include "_tokenize_segments.hpp"

namespace refscore::ngrams {

using refscore::tok::ReferenceVocabulary;
using refscore::tok::RepeatedTextCache;
using refscore::tok::SegmentEncoder;

// The texts of a text batch and how to read them: texts 0 .. n_segments-1 are the hypotheses, then the references;
// `groups` numbers the texts met several times in the call (repeated_text_groups), -1 for the others.
struct TextInput {
    refscore::TextBatch texts;
    const int64_t* groups;
    int64_t n_segments;
    const int64_t* ref_offsets;
    int tokenizer;
    bool lowercase;
    bool shortest_ref = false;  // BLEU: the shortest reference's length instead of the closest (see start_row)
};

// One thread's tokenizer state and n-gram scratch.
struct alignas(64) TextWorker {
    SegmentEncoder encoder;
    RepeatedTextCache cache;
    ReferenceVocabulary vocabulary;
    Scratch scratch;
};

inline bool add_text(TextWorker& worker, const TextInput& input, int64_t t) {
    return worker.encoder.add_repeated_text(worker.cache, input.groups[t], input.tokenizer, input.lowercase,
                                            input.texts.kinds[t], input.texts.data[t], input.texts.lengths[t]);
}

// Tokenize one segment (hypothesis, then its references) into segment-local ids and count its n-grams. A text met
// several times in the call is tokenized once per thread (the worker's cache).
inline int text_segment(Kind kind, TextWorker& worker, const TextInput& input, int64_t segment, int64_t low,
                        int64_t high, int64_t* row) {
    const int64_t ref_first = input.n_segments + input.ref_offsets[segment];
    const int64_t ref_last = input.n_segments + input.ref_offsets[segment + 1];
    int64_t characters = input.texts.lengths[segment];
    for (int64_t t = ref_first; t < ref_last; ++t) characters += input.texts.lengths[t];
    SegmentEncoder& encoder = worker.encoder;
    encoder.begin(characters);
    if (!add_text(worker, input, segment)) return STATUS_NO_MEMORY;
    for (int64_t t = ref_first; t < ref_last; ++t)
        if (!add_text(worker, input, t)) return STATUS_NO_MEMORY;
    if (!encoder.finish()) return STATUS_NO_MEMORY;
    const int64_t n_refs = ref_last - ref_first;
    const int64_t* offsets = encoder.offsets.data();
    const uint32_t* ids = encoder.ids.data();
    int64_t entries = 0;
    if (kind == KIND_BLEU) {
        for (int64_t t = 1; t < 1 + n_refs; ++t) entries += count_ngrams(offsets[t + 1] - offsets[t], high);
    } else {
        entries = count_ngrams(offsets[1], high);
    }
    if (table_size(entries) > TABLE_SLOTS_LIMIT) return STATUS_TOO_LARGE;
    // ids are numbered in order of first appearance, the hypothesis first: a reference token >= the number of
    // distinct hypothesis tokens does not occur in the hypothesis
    const uint64_t hyp_limit = encoder.first_text_vocabulary;
    if (kind == KIND_BLEU) {
        if (hyp_limit < TOKEN_PREFIX)
            return bleu_text_segment(ids, offsets, n_refs, high, worker.scratch, row, static_cast<uint32_t>(hyp_limit),
                                     input.shortest_ref);
        return bleu_segment(ids, offsets, 0, 1, 1 + n_refs, high, worker.scratch, row, hyp_limit, input.shortest_ref);
    }
    return gleu_segment(ids, offsets, 0, 1, 1 + n_refs, low, high, worker.scratch, row, hyp_limit);
}

// ---- references scored against several hypotheses ----------------------------------------------------------------
//
// When one reference is the lone reference of several short BLEU segments of a call (one reference list scored for
// several systems), those segments are scored one after the other as a run (see shared_reference_runs): the
// reference is tokenized, interned and counted once, its distinct tokens numbered in order of first appearance
// (ReferenceVocabulary), its unigrams in dense counters and its longer n-grams in the thread's table, exactly as
// bleu_text_segment counts them. Each hypothesis is tokenized and its tokens looked up in that vocabulary (a token
// the reference lacks matches nothing), then its n-grams are looked up as always, under an owner number of its own,
// so that no occurrence count of an earlier hypothesis leaks in. Rows are written per segment, so the order of work
// never shows in the results.

// The order of work: run r is the segments order[runs[r] .. runs[r + 1]); shared[r] says they are short
// one-reference BLEU segments sharing their reference (in input order, the run placed where the first of them is),
// else the run is one segment. Returns the number of runs. Throws std::bad_alloc.
inline int64_t shared_reference_runs(Kind kind, const TextInput& input, int64_t n_groups, std::vector<int64_t>& order,
                                     std::vector<int64_t>& runs, std::vector<char>& shared) {
    const int64_t n_segments = input.n_segments;
    const int64_t* lengths = input.texts.lengths;
    std::vector<int64_t> key(static_cast<size_t>(n_segments), -1), members(static_cast<size_t>(n_groups), 0);
    if (kind == KIND_BLEU) {
        for (int64_t i = 0; i < n_segments; ++i) {
            const int64_t t = n_segments + input.ref_offsets[i];
            if (input.ref_offsets[i + 1] - input.ref_offsets[i] == 1 && input.groups[t] >= 0
                && lengths[t] <= refscore::tok::SHORT_SEGMENT_CHARS
                && lengths[i] <= refscore::tok::SHORT_SEGMENT_CHARS) {
                key[i] = input.groups[t];
                members[input.groups[t]] += 1;
            }
        }
    }
    std::vector<int64_t> place(static_cast<size_t>(n_groups), -1);
    order.resize(static_cast<size_t>(n_segments));
    runs.assign(1, 0);
    shared.clear();
    int64_t position = 0;
    for (int64_t i = 0; i < n_segments; ++i) {
        const int64_t group = key[i];
        if (group >= 0 && members[group] >= 2) {
            if (place[group] < 0) {
                int64_t start = position;
                place[group] = start;
                position += members[group];
                while (start < position) {
                    const int64_t stop = std::min(start + RUN_LIMIT, position);
                    runs.push_back(stop);
                    shared.push_back(1);
                    start = stop;
                }
            }
            order[place[group]] = i;
            place[group] += 1;
        } else {
            order[position] = i;
            position += 1;
            runs.push_back(position);
            shared.push_back(0);
        }
    }
    return static_cast<int64_t>(shared.size());
}

// Score the `count` segments segments[..] whose lone reference is text `ref_text` into their rows of `out`.
inline int shared_reference_run(TextWorker& worker, const TextInput& input, const int64_t* segments, int64_t count,
                                int64_t ref_text, int64_t max_order, int64_t* out, int64_t width) {
    SegmentEncoder& encoder = worker.encoder;
    encoder.begin(input.texts.lengths[ref_text]);
    if (!(add_text(worker, input, ref_text) && encoder.finish())) return STATUS_NO_MEMORY;
    if (!worker.vocabulary.assign(encoder)) return STATUS_NO_MEMORY;
    const int64_t length = encoder.offsets[1];
    const uint32_t words = encoder.first_text_vocabulary;
    if (!worker.scratch.table.start(static_cast<size_t>(count_ngrams(length, max_order) - length)))
        return STATUS_NO_MEMORY;
    Count* unigrams = start_unigrams(worker.scratch, words);
    if (unigrams == nullptr && words > 0) return STATUS_NO_MEMORY;
    count_reference(encoder.ids.data(), length, max_order, 0, false, NO_LIMIT, unigrams, worker.scratch.table);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t segment = segments[k];
        encoder.begin(input.texts.lengths[segment]);
        if (!(add_text(worker, input, segment) && worker.vocabulary.lookup(encoder))) return STATUS_NO_MEMORY;
        const int64_t hyp_len = encoder.offsets[1];
        int64_t* row = out + segment * width;
        begin_row(row, max_order, hyp_len, length);
        // a fresh owner per hypothesis: the counters' `current` restarts for it; tokens >= words are not in the
        // reference
        match_hypothesis(encoder.ids.data(), hyp_len, max_order, static_cast<int32_t>(k), words, unigrams,
                         worker.scratch.table, row + 2);
    }
    return STATUS_OK;
}

// Failures of a text batch, by kind.
struct TextFailures {
    int64_t no_memory = 0;
    int64_t too_large = 0;
};

// Rows of width `width` for every segment of a text batch (BLEU: orders 1..high; GLEU: low..high), tokenized by
// `input.tokenizer` in the same parallel loop. Throws std::bad_alloc (before the loop only).
inline TextFailures text_batch(Kind kind, const TextInput& input, int64_t n_groups, int64_t width, int64_t low,
                               int64_t high, int threads, int64_t* out) {
    std::vector<TextWorker> workers(static_cast<size_t>(threads));
    for (TextWorker& worker : workers) worker.cache.reset(n_groups);
    std::vector<int64_t> order, runs;
    std::vector<char> shared;
    const int64_t n_runs = shared_reference_runs(kind, input, n_groups, order, runs, shared);
    int64_t no_memory = 0, too_large = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 8) reduction(+ : no_memory, too_large)
    for (int64_t run = 0; run < n_runs; ++run) {
        TextWorker& worker = workers[static_cast<size_t>(refscore::thread_id())];
        const int64_t first = order[runs[run]];
        int status;
        try {
            status = shared[run] ? shared_reference_run(worker, input, &order[runs[run]], runs[run + 1] - runs[run],
                                                        input.n_segments + input.ref_offsets[first], high, out, width)
                                 : text_segment(kind, worker, input, first, low, high, out + first * width);
        } catch (const std::bad_alloc&) {
            status = STATUS_NO_MEMORY;
        }
        if (status == STATUS_NO_MEMORY)
            ++no_memory;
        else if (status == STATUS_TOO_LARGE)
            ++too_large;
    }
    TextFailures failures;
    failures.no_memory = no_memory;
    failures.too_large = too_large;
    return failures;
}

}  // namespace refscore::ngrams
