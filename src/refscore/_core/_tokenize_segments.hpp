// Segment-local token ids for the n-gram kernels (_ngrams_kernel.hpp): the texts of one segment interned in a small
// table of their own, cleared for the next segment (a few cache lines instead of a corpus-wide vocabulary), texts
// repeated within a call tokenized once per thread, and one reference's vocabulary for the hypotheses scored
// against it. Every table is _hash_table.hpp's HashTable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "_hash_table.hpp"
#include "_tokenize_text.hpp"

namespace refscore::tok {

/* ---- texts repeated within a call ---------------------------------------------------------------------- */

/* A hash of a PEP 393 buffer's bytes (`length` code points of `kind` bytes each), sixteen bytes at a time in two
 * independent lanes (a multiply's latency, not its throughput, bounds one lane). */
static inline uint64_t text_content_hash(int kind, const void* data, int64_t length) {
    const unsigned char* bytes = (const unsigned char*)data;
    const size_t size = (size_t)length * (size_t)kind;
    uint64_t first = multiply_mix64(size ^ ((uint64_t)kind << 56)), second = 0x243F6A8885A308D3ULL;
    size_t k = 0;
    for (; k + 16 <= size; k += 16) {
        uint64_t words[2];
        std::memcpy(words, bytes + k, 16);
        first = multiply_mix64(first ^ words[0]);
        second = multiply_mix64(second ^ words[1]);
    }
    uint64_t rest[2] = {0, 0};
    std::memcpy(rest, bytes + k, size - k);
    return multiply_mix64(multiply_mix64(first ^ rest[0]) ^ second ^ rest[1]);
}

/* Occupied slots a text's lookup may pass before it gives up (the text is then treated as met once): at load
 * factor 1/2 natural text needs one or two, so only input with colliding hashes (crafted for a known hash key)
 * reaches it, and it keeps such input from making the search quadratic. */
static const size_t REPEAT_MAX_PROBES = 256;

/* Number the texts met several times in a call (equal strings: a reference list repeated for each system
 * scored, or systems that produced the same output): group[t] is -1 for a text met once, else a number shared
 * by the texts equal to it, 0 .. (return value) - 1 in order of first appearance. Texts are equal when they
 * have the same buffer, or the same kind, length and bytes (a hash only picks the candidates). Throws
 * std::bad_alloc. */
static int64_t repeated_text_groups(const void* const* data, const int* kinds, const int64_t* lengths, int64_t n,
                                    int64_t* group) {
    /* the texts' buffers are scattered over memory, and so are the table's slots: both are fetched a few
     * texts ahead, so that their cache misses overlap */
    const int64_t ahead = 8;
    std::vector<uint64_t> hashes((size_t)n);
    for (int64_t t = 0; t < n; ++t) {
        if (t + ahead < n) __builtin_prefetch(data[t + ahead]);
        hashes[(size_t)t] = text_content_hash(kinds[t], data[t], lengths[t]);
    }
    /* the first text with the contents of the slot's key: its group (group[first]) stays -1 while met once */
    refscore::HashTable<int64_t> table;
    if (!table.start((size_t)n)) throw std::bad_alloc();
    int64_t groups = 0;
    for (int64_t t = 0; t < n; ++t) {
        if (t + ahead < n) table.prefetch(hashes[(size_t)(t + ahead)]);
        const uint64_t hash = hashes[(size_t)t];
        group[t] = -1;
        const auto same_text = [&](int64_t first) {
            return kinds[first] == kinds[t] && lengths[first] == lengths[t]
                   && (data[first] == data[t]
                       || std::memcmp(data[first], data[t], (size_t)lengths[t] * (size_t)kinds[t]) == 0);
        };
        const size_t index = table.probe_at_most(hash, hash, same_text, REPEAT_MAX_PROBES);
        if (index == table.kGaveUp) continue; /* left ungrouped: repeats are only a shortcut */
        if (!table.live(index)) {
            table.claim(index, hash, t);
            continue;
        }
        const int64_t first = table.value(index);
        if (group[first] < 0) group[first] = groups++;
        group[t] = group[first];
    }
    return groups;
}

/* One thread's tokens of the repeated texts it has met (see repeated_text_groups): the code points its tokens
 * are read from (lowercased and cleaned as the tokenizer left them) and the tokens' positions in them. A
 * SegmentEncoder tokenizes a repeated text once per thread and copies it afterwards. At most MAX_CHARS code
 * points are kept; texts met later are tokenized each time. */
struct RepeatedTextCache {
    struct Entry {
        size_t chars_from, chars_count, tokens_from, tokens_count;
    };
    static const size_t MAX_CHARS = (size_t)1 << 24;

    std::vector<int64_t> entry_of_group; /* -1 while the group's text is not cached */
    std::vector<Entry> entries;
    Buffer chars;
    std::vector<uint32_t> tokens; /* start (relative to the entry's chars) and length of each token */

    void reset(int64_t groups) { entry_of_group.assign((size_t)groups, -1); }
};

/* ---- per-segment encoding (segment-local ids) ------------------------------------------------------------ */

/* A distinct token of a segment in a table keyed by its hash: where its first occurrence lies in the segment's
 * (or the reference's) code points, and its id. A probe reads all of it from the slot, then the characters. */
struct TokenEntry {
    uint32_t start;
    uint32_t length;
    uint32_t id;
};

/* Whether `entry`'s token (in `entry_chars`) is the token `length` code points at `chars`; both have
 * TOKEN_READ_SLACK readable code points after them. */
static inline bool same_entry(const TokenEntry& entry, const uint32_t* entry_chars, const uint32_t* chars,
                              size_t length) {
    return entry.length == length && same_token(entry_chars + entry.start, chars, length);
}

/* The texts of one segment (a hypothesis and its references) as ids interned within the segment: equal
 * tokens of the segment get equal ids, which is all n-gram matching needs. The texts stay in one buffer, so
 * the table refers to their characters without copying them; it is sized for the segment's tokens before
 * interning and emptied in O(1) (_hash_table.hpp's stamps). Reused from segment to segment. */
struct alignas(64) SegmentEncoder {
    Buffer text, scratch;
    size_t text_length = 0;
    std::vector<Span> spans;
    size_t n_spans = 0;
    std::vector<int64_t> offsets; /* text t of the segment is ids[offsets[t] .. offsets[t + 1]) */
    std::vector<uint32_t> ids;
    refscore::HashTable<TokenEntry> table;
    uint32_t first_text_vocabulary = 0; /* distinct tokens of the first text (set by finish) */

    bool short_segment = true; /* hash with SegmentHash (else CharactersHash) */

    /* Start a segment whose texts have `characters` code points in all. */
    void begin(int64_t characters) {
        short_segment = characters <= SHORT_SEGMENT_CHARS;
        text_length = 0;
        n_spans = 0;
        offsets.assign(1, 0);
    }

    /* Append one text's tokens; false when memory ran out or the segment exceeds 2**32 characters. */
    bool add_text(int tokenizer, bool lowercase, int kind, const void* data, int64_t length) noexcept {
        try {
            n_spans = short_segment ? tokenize_into<SegmentHash>(tokenizer, lowercase, kind, data, (size_t)length, text,
                                                                 text_length, scratch, spans, n_spans)
                                    : tokenize_into<CharactersHash>(tokenizer, lowercase, kind, data, (size_t)length,
                                                                    text, text_length, scratch, spans, n_spans);
            text_length += (lowercase ? 2 : 1) * (size_t)length;
            if (text_length > 0xFFFFFFFFu) return false;
            offsets.push_back((int64_t)n_spans);
            return true;
        } catch (...) {
            return false;
        }
    }

    /* The number of tokens of the segment's first text. */
    size_t first_text_tokens() const { return offsets.size() > 1 ? (size_t)offsets[1] : n_spans; }

    /* How many code points from `chars_from` on tokens tokens_from .. tokens_to - 1 reach into. */
    size_t chars_used(size_t tokens_from, size_t tokens_to, size_t chars_from) const {
        size_t used = 0;
        for (size_t k = tokens_from; k < tokens_to; ++k)
            used = std::max(used, spans[k].start + spans[k].length - chars_from);
        return used;
    }

    /* add_text for a text of repeat group `group` (-1: none): the first time on this thread it is tokenized
     * and kept in `cache`, later its code points and tokens are copied from there (the same tokens). */
    bool add_repeated_text(RepeatedTextCache& cache, int64_t group, int tokenizer, bool lowercase, int kind,
                           const void* data, int64_t length) noexcept {
        const int64_t entry = group < 0 ? -1 : cache.entry_of_group[(size_t)group];
        if (entry >= 0) return copy_text(cache, cache.entries[(size_t)entry]);
        const size_t chars_from = text_length, tokens_from = n_spans;
        if (!add_text(tokenizer, lowercase, kind, data, length)) return false;
        if (group < 0 || cache.chars.size() >= RepeatedTextCache::MAX_CHARS) return true;
        try {
            const size_t used = chars_used(tokens_from, n_spans, chars_from);
            RepeatedTextCache::Entry kept{cache.chars.size(), used, cache.tokens.size() / 2, n_spans - tokens_from};
            cache.chars.insert(cache.chars.end(), text.begin() + (std::ptrdiff_t)chars_from,
                               text.begin() + (std::ptrdiff_t)(chars_from + used));
            for (size_t k = tokens_from; k < n_spans; ++k) {
                cache.tokens.push_back((uint32_t)(spans[k].start - chars_from));
                cache.tokens.push_back((uint32_t)spans[k].length);
            }
            cache.entry_of_group[(size_t)group] = (int64_t)cache.entries.size();
            cache.entries.push_back(kept);
        } catch (...) { /* not kept: the text was tokenized all the same */
        }
        return true;
    }

    /* Intern every token of the segment into `ids` (numbered in order of first appearance, so the first text's
     * tokens get ids 0 .. first_text_vocabulary - 1); false when memory ran out. */
    bool finish() noexcept {
        try {
            if (!table.start(n_spans)) return false;
            ids.resize(n_spans);
        } catch (...) {
            return false;
        }
        const uint32_t* chars = text.data();
        uint32_t next_id = 0;
        auto intern = [&](size_t from, size_t to) {
            for (size_t k = from; k < to; ++k) {
                const Span& span = spans[k];
                const size_t index = table.probe(span.hash, span.hash, [&](const TokenEntry& entry) {
                    return same_entry(entry, chars, chars + span.start, span.length);
                });
                if (table.live(index)) {
                    ids[k] = table.value(index).id;
                } else {
                    table.claim(index, span.hash, TokenEntry{(uint32_t)span.start, (uint32_t)span.length, next_id});
                    ids[k] = next_id++;
                }
            }
        };
        const size_t first_text_end = first_text_tokens();
        intern(0, first_text_end);
        first_text_vocabulary = next_id;
        intern(first_text_end, n_spans);
        return true;
    }

  private:
    /* Append a cached text's code points and tokens (their hashes computed as add_text would). */
    bool copy_text(const RepeatedTextCache& cache, const RepeatedTextCache::Entry& entry) noexcept {
        try {
            ensure_size(text, text_length + entry.chars_count + TOKEN_READ_SLACK);
            if (entry.chars_count)
                std::memcpy(text.data() + text_length, cache.chars.data() + entry.chars_from,
                            entry.chars_count * sizeof(uint32_t));
            if (spans.size() < n_spans + entry.tokens_count + 1)
                spans.resize(std::max(2 * spans.size(), n_spans + entry.tokens_count + 1));
            const uint32_t* token = cache.tokens.data() + 2 * entry.tokens_from;
            const uint32_t* chars = text.data();
            Span* out = spans.data() + n_spans;
            for (size_t k = 0; k < entry.tokens_count; ++k, token += 2) {
                const size_t start = text_length + token[0], length = token[1];
                out[k] = Span{
                    start, length,
                    short_segment ? SegmentHash::of(chars + start, length) : CharactersHash::of(chars + start, length)};
            }
            n_spans += entry.tokens_count;
            text_length += entry.chars_count;
            if (text_length > 0xFFFFFFFFu) return false;
            offsets.push_back((int64_t)n_spans);
            return true;
        } catch (...) {
            return false;
        }
    }
};

/* ---- a reference scored against several hypotheses ---------------------------------------------------- */

/* The distinct tokens of one reference, numbered 0 .. size - 1 in order of first appearance, and a table from a
 * token's characters to that number: the hypotheses scored against the reference are looked up in it instead of
 * the reference being tokenized and interned again with each of them (the BLEU text kernel's runs). */
struct ReferenceVocabulary {
    enum : uint32_t { ABSENT = 0xFFFFFFFFu }; /* the id of a hypothesis token that is not in the reference */

    Buffer chars; /* the reference's code points, as its tokenizer left them */
    refscore::HashTable<TokenEntry> table;
    bool short_segment = true; /* hashed with SegmentHash (else CharactersHash) */

    /* Take the distinct tokens of `encoder`'s only text (after finish(), which numbered them in order of first
     * appearance); false when memory ran out. */
    bool assign(const SegmentEncoder& encoder) noexcept {
        const size_t n = encoder.first_text_tokens();
        try {
            const size_t used = encoder.chars_used(0, n, 0);
            chars.assign(encoder.text.begin(), encoder.text.begin() + (std::ptrdiff_t)used);
            chars.resize(used + TOKEN_READ_SLACK, 0u); /* what same_token may read past a token */
            if (!table.start(encoder.first_text_vocabulary)) return false;
        } catch (...) {
            return false;
        }
        short_segment = encoder.short_segment;
        uint32_t next_id = 0;
        for (size_t k = 0; k < n; ++k) {
            if (encoder.ids[k] != next_id) continue; /* not the token's first occurrence */
            const Span& span = encoder.spans[k];
            /* the tokens are distinct: the first free slot is the token's */
            const size_t index = table.probe(span.hash, span.hash, [](const TokenEntry&) { return false; });
            table.claim(index, span.hash, TokenEntry{(uint32_t)span.start, (uint32_t)span.length, next_id++});
        }
        return true;
    }

    /* Write the ids of the tokens of `encoder`'s first text (tokenized, not finished) to encoder.ids, ABSENT for
     * a token the reference lacks; false when memory ran out or the texts were hashed differently. */
    bool lookup(SegmentEncoder& encoder) const noexcept {
        if (short_segment != encoder.short_segment) return false;
        const size_t n = encoder.first_text_tokens();
        try {
            encoder.ids.resize(n);
        } catch (...) {
            return false;
        }
        const uint32_t* text = encoder.text.data();
        for (size_t k = 0; k < n; ++k) {
            const Span& span = encoder.spans[k];
            const size_t index = table.probe(span.hash, span.hash, [&](const TokenEntry& entry) {
                return same_entry(entry, chars.data(), text + span.start, span.length);
            });
            encoder.ids[k] = table.live(index) ? table.value(index).id : (uint32_t)ABSENT;
        }
        return true;
    }
};

}  // namespace refscore::tok
