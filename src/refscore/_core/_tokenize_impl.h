/* Compiled sacreBLEU 2.6 tokenizers over code points, and the per-call token interner.
 *
 * Every tokenizer reproduces sacreBLEU's BLEU preprocessing of one segment,
 *     tokens = tokenizer(sent.rstrip()).split()
 * (lowercasing is done by Python's str.lower before this code runs). sacreBLEU's regular expressions are
 * applied as literal passes with Python re.sub's scanning rule (try at position i; after a match resume at
 * its end, else at i + 1), so overlapping cases such as "a.,5" split exactly as in sacreBLEU.
 *
 * Tokens are appended to per-thread stores (ThreadStore); Interner then assigns ids serially in text order,
 * which makes the ids independent of the thread count.
 */
#ifndef REFSCORE_TOKENIZE_IMPL_H
#define REFSCORE_TOKENIZE_IMPL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "_unicode_tables.h"

namespace refscore_tok {

enum TokenizerKind { TOK_NONE = 0, TOK_CHAR = 1, TOK_13A = 2, TOK_ZH = 3, TOK_INTL = 4 };

typedef std::vector<uint32_t> Buffer;

static inline uint8_t char_class(uint32_t c) {
    if (c > REFSCORE_CC_MAX_CODE_POINT) return 0;
    return refscore_cc_stage2[((size_t)refscore_cc_stage1[c >> REFSCORE_CC_BLOCK_BITS] << REFSCORE_CC_BLOCK_BITS)
                              | (c & ((1u << REFSCORE_CC_BLOCK_BITS) - 1))];
}

/* Python's str.isspace (the separators of str.split / str.rstrip / str.strip). */
static inline bool is_space(uint32_t c) {
    if (c < 0x80) return c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    return (char_class(c) & REFSCORE_CC_SPACE) != 0;
}

static inline bool is_ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline bool is_period_or_comma(uint32_t c) { return c == '.' || c == ','; }

/* The character class of sacreBLEU's first 13a regex: [\{-\~\[-\` -\&\(-\+\:-\@\/]. */
static inline bool is_13a_split_char(uint32_t c) {
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26)
        || (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

static inline void ensure_size(Buffer& buffer, size_t size) {
    if (buffer.size() < size) buffer.resize(size > 2 * buffer.size() ? size : 2 * buffer.size());
}

/* ---- token store ------------------------------------------------------------------------------------ */

struct ThreadStore {
    Buffer chars;                   /* characters of all tokens this thread produced, back to back */
    std::vector<int64_t> starts;    /* per token: start in chars */
    std::vector<uint32_t> lengths;  /* per token: length */
    std::vector<uint64_t> hashes;   /* per token: hash of its characters */
    int64_t n_chars = 0;
    int64_t n_tokens = 0;
    Buffer scratch_a, scratch_b;
    bool failed = false;            /* an allocation failed (reported as MemoryError) */

    void reserve_for(size_t max_chars, size_t max_tokens) {
        size_t need_chars = (size_t)n_chars + max_chars;
        if (chars.size() < need_chars) chars.resize(need_chars > 2 * chars.size() ? need_chars : 2 * chars.size());
        size_t need_tokens = (size_t)n_tokens + max_tokens;
        if (starts.size() < need_tokens) {
            size_t grown = need_tokens > 2 * starts.size() ? need_tokens : 2 * starts.size();
            starts.resize(grown);
            lengths.resize(grown);
            hashes.resize(grown);
        }
    }

    inline void push_token(const uint32_t* text, size_t length) {
        uint32_t* destination = chars.data() + n_chars;
        uint64_t hash = 0xcbf29ce484222325ULL ^ (uint64_t)length;
        for (size_t k = 0; k < length; ++k) {
            destination[k] = text[k];
            hash = (hash ^ text[k]) * 0x100000001b3ULL;
        }
        hash ^= hash >> 32;
        hash *= 0xd6e8feb86659fd93ULL;
        hash ^= hash >> 32;
        starts[n_tokens] = n_chars;
        lengths[n_tokens] = (uint32_t)length;
        hashes[n_tokens] = hash;
        n_chars += (int64_t)length;
        n_tokens += 1;
    }
};

/* str.split(): maximal runs of non-space characters. */
static inline void emit_split(const uint32_t* text, size_t length, ThreadStore& store) {
    store.reserve_for(length, length / 2 + 1);
    size_t i = 0;
    while (i < length) {
        while (i < length && is_space(text[i])) ++i;
        size_t start = i;
        while (i < length && !is_space(text[i])) ++i;
        if (i > start) store.push_token(text + start, i - start);
    }
}

/* " ".join(line).split(): every non-space character is a token. */
static inline void emit_chars(const uint32_t* text, size_t length, ThreadStore& store) {
    store.reserve_for(length, length);
    for (size_t i = 0; i < length; ++i)
        if (!is_space(text[i])) store.push_token(text + i, 1);
}

/* ---- input ------------------------------------------------------------------------------------------ */

/* Copy a PEP 393 string buffer (1, 2 or 4 bytes per code point) into `out` as code points. */
static inline size_t load_code_points(int kind, const void* data, size_t length, Buffer& out) {
    ensure_size(out, length + 2);
    uint32_t* destination = out.data();
    if (kind == 1) {
        const uint8_t* source = (const uint8_t*)data;
        for (size_t i = 0; i < length; ++i) destination[i] = source[i];
    } else if (kind == 2) {
        const uint16_t* source = (const uint16_t*)data;
        for (size_t i = 0; i < length; ++i) destination[i] = source[i];
    } else {
        std::memcpy(destination, data, length * sizeof(uint32_t));
    }
    return length;
}

static inline size_t rstrip_length(const uint32_t* text, size_t length) {
    while (length > 0 && is_space(text[length - 1])) --length;
    return length;
}

/* ---- literal string replacements of the 13a tokenizer (in place: the result is never longer) ---------- */

/* line.replace(pattern, replacement) with a replacement of zero or one character: one left-to-right scan,
 * non-overlapping matches, no rescanning of the output (Python's semantics). */
static size_t replace_in_place(uint32_t* text, size_t length, const char* pattern, size_t pattern_length,
                               int32_t replacement /* -1: delete */) {
    const uint32_t first = (uint32_t)(unsigned char)pattern[0];
    size_t read = 0, write = 0;
    while (read < length) {
        if (text[read] == first && read + pattern_length <= length) {
            size_t k = 1;
            while (k < pattern_length && text[read + k] == (uint32_t)(unsigned char)pattern[k]) ++k;
            if (k == pattern_length) {
                if (replacement >= 0) text[write++] = (uint32_t)replacement;
                read += pattern_length;
                continue;
            }
        }
        text[write++] = text[read++];
    }
    return write;
}

static inline bool contains(const uint32_t* text, size_t length, uint32_t c) {
    for (size_t i = 0; i < length; ++i)
        if (text[i] == c) return true;
    return false;
}

/* ---- the regular-expression passes -------------------------------------------------------------------- */

/* TokenizerRegexp, the common part of 13a and zh:
 *   ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 '
 *   ([^0-9])([\.,])                -> '\1 \2 '
 *   ([\.,])([^0-9])                -> ' \1 \2'
 *   ([0-9])(-)                     -> '\1 \2 '
 * `in` holds the text; returns the result's length, in `in` again (`out` is scratch). */
static size_t regexp_passes(Buffer& in, size_t length, Buffer& out) {
    ensure_size(out, 3 * length + 2);
    uint32_t* s = in.data();
    uint32_t* d = out.data();
    size_t n = 0;
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = s[i];
        if (is_13a_split_char(c)) { d[n++] = ' '; d[n++] = c; d[n++] = ' '; }
        else d[n++] = c;
    }
    length = n;

    ensure_size(in, 2 * length + 2);
    s = out.data();
    d = in.data();
    n = 0;
    for (size_t i = 0; i < length;) {
        if (i + 1 < length && !is_ascii_digit(s[i]) && is_period_or_comma(s[i + 1])) {
            d[n++] = s[i]; d[n++] = ' '; d[n++] = s[i + 1]; d[n++] = ' ';
            i += 2;
        } else d[n++] = s[i++];
    }
    length = n;

    ensure_size(out, 2 * length + 2);
    s = in.data();
    d = out.data();
    n = 0;
    for (size_t i = 0; i < length;) {
        if (i + 1 < length && is_period_or_comma(s[i]) && !is_ascii_digit(s[i + 1])) {
            d[n++] = ' '; d[n++] = s[i]; d[n++] = ' '; d[n++] = s[i + 1];
            i += 2;
        } else d[n++] = s[i++];
    }
    length = n;

    ensure_size(in, 2 * length + 2);
    s = out.data();
    d = in.data();
    n = 0;
    for (size_t i = 0; i < length;) {
        if (i + 1 < length && is_ascii_digit(s[i]) && s[i + 1] == '-') {
            d[n++] = s[i]; d[n++] = ' '; d[n++] = '-'; d[n++] = ' ';
            i += 2;
        } else d[n++] = s[i++];
    }
    return n;
}

/* TokenizerV14International (regex module classes):
 *   (\P{N})(\p{P}) -> '\1 \2 '
 *   (\p{P})(\P{N}) -> ' \1 \2'
 *   (\p{S})        -> ' \1 '
 * `in` holds the text; returns the result's length, in `in` again. */
static size_t intl_passes(Buffer& in, size_t length, Buffer& out) {
    ensure_size(out, 2 * length + 2);
    uint32_t* s = in.data();
    uint32_t* d = out.data();
    size_t n = 0;
    for (size_t i = 0; i < length;) {
        if (i + 1 < length && !(char_class(s[i]) & REFSCORE_CC_NUMBER) && (char_class(s[i + 1]) & REFSCORE_CC_PUNCT)) {
            d[n++] = s[i]; d[n++] = ' '; d[n++] = s[i + 1]; d[n++] = ' ';
            i += 2;
        } else d[n++] = s[i++];
    }
    length = n;

    ensure_size(in, 2 * length + 2);
    s = out.data();
    d = in.data();
    n = 0;
    for (size_t i = 0; i < length;) {
        if (i + 1 < length && (char_class(s[i]) & REFSCORE_CC_PUNCT) && !(char_class(s[i + 1]) & REFSCORE_CC_NUMBER)) {
            d[n++] = ' '; d[n++] = s[i]; d[n++] = ' '; d[n++] = s[i + 1];
            i += 2;
        } else d[n++] = s[i++];
    }
    length = n;

    ensure_size(out, 3 * length + 2);
    s = in.data();
    d = out.data();
    n = 0;
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = s[i];
        if (char_class(c) & REFSCORE_CC_SYMBOL) { d[n++] = ' '; d[n++] = c; d[n++] = ' '; }
        else d[n++] = c;
    }
    in.swap(out);
    return n;
}

/* ---- the tokenizers ------------------------------------------------------------------------------------ */

/* Tokenizer13a: XML-ish clean-up, then ' ' + line + ' ' through TokenizerRegexp. */
static void tokenize_13a(ThreadStore& store, size_t length) {
    Buffer& a = store.scratch_a;
    uint32_t* text = a.data();
    length = rstrip_length(text, length);
    length = replace_in_place(text, length, "<skipped>", 9, -1);
    length = replace_in_place(text, length, "-\n", 2, -1);
    for (size_t i = 0; i < length; ++i)
        if (text[i] == '\n') text[i] = ' ';
    if (contains(text, length, '&')) {
        length = replace_in_place(text, length, "&quot;", 6, '"');
        length = replace_in_place(text, length, "&amp;", 5, '&');
        length = replace_in_place(text, length, "&lt;", 4, '<');
        length = replace_in_place(text, length, "&gt;", 4, '>');
    }
    /* pad with one space on each side */
    std::memmove(text + 1, text, length * sizeof(uint32_t));
    text[0] = ' ';
    text[length + 1] = ' ';
    length += 2;
    length = regexp_passes(a, length, store.scratch_b);
    emit_split(a.data(), length, store);
}

/* TokenizerZh: strip, surround sacreBLEU's "Chinese" characters with spaces, then TokenizerRegexp. */
static void tokenize_zh(ThreadStore& store, size_t length) {
    Buffer& a = store.scratch_a;
    Buffer& b = store.scratch_b;
    length = rstrip_length(a.data(), length);
    size_t start = 0;
    while (start < length && is_space(a[start])) ++start;
    ensure_size(b, 3 * (length - start) + 2);
    const uint32_t* s = a.data();
    uint32_t* d = b.data();
    size_t n = 0;
    for (size_t i = start; i < length; ++i) {
        uint32_t c = s[i];
        if (char_class(c) & REFSCORE_CC_ZH_CHAR) { d[n++] = ' '; d[n++] = c; d[n++] = ' '; }
        else d[n++] = c;
    }
    a.swap(b);
    n = regexp_passes(a, n, b);
    emit_split(a.data(), n, store);
}

static void tokenize_intl(ThreadStore& store, size_t length) {
    Buffer& a = store.scratch_a;
    length = rstrip_length(a.data(), length);
    length = intl_passes(a, length, store.scratch_b);
    emit_split(a.data(), length, store);
}

/* Tokenize one segment; its tokens are appended to `store`. Returns the number of tokens (or 0 with
 * store.failed set when memory ran out). */
static int64_t tokenize_segment(int tokenizer, int kind, const void* data, int64_t length,
                                ThreadStore& store) noexcept {
    int64_t tokens_before = store.n_tokens;
    try {
        size_t n = load_code_points(kind, data, (size_t)length, store.scratch_a);
        switch (tokenizer) {
            case TOK_NONE: emit_split(store.scratch_a.data(), n, store); break;
            case TOK_CHAR: emit_chars(store.scratch_a.data(), rstrip_length(store.scratch_a.data(), n), store); break;
            case TOK_13A: tokenize_13a(store, n); break;
            case TOK_ZH: tokenize_zh(store, n); break;
            default: tokenize_intl(store, n); break;
        }
    } catch (...) {
        store.failed = true;
        store.n_tokens = tokens_before;
        return 0;
    }
    return store.n_tokens - tokens_before;
}

/* ---- interning --------------------------------------------------------------------------------------- */

/* Open-addressing table from token characters to dense ids, in order of first appearance. Equality is
 * decided on the characters, so hash collisions never merge tokens. */
struct Interner {
    std::vector<uint64_t> slot_hashes;
    std::vector<uint32_t> slot_ids;        /* UINT32_MAX: empty */
    std::vector<const uint32_t*> vocab_chars;
    std::vector<uint32_t> vocab_lengths;
    size_t mask = 0;

    enum : uint32_t { EMPTY = 0xFFFFFFFFu };

    void init(size_t expected) {
        size_t capacity = 1024;
        while (capacity < 2 * expected) capacity <<= 1;
        slot_hashes.assign(capacity, 0);
        slot_ids.assign(capacity, (uint32_t)EMPTY);
        mask = capacity - 1;
    }

    void grow() {
        std::vector<uint64_t> old_hashes;
        std::vector<uint32_t> old_ids;
        old_hashes.swap(slot_hashes);
        old_ids.swap(slot_ids);
        size_t capacity = 2 * old_ids.size();
        slot_hashes.assign(capacity, 0);
        slot_ids.assign(capacity, (uint32_t)EMPTY);
        mask = capacity - 1;
        for (size_t k = 0; k < old_ids.size(); ++k) {
            if (old_ids[k] == EMPTY) continue;
            size_t slot = (size_t)old_hashes[k] & mask;
            while (slot_ids[slot] != EMPTY) slot = (slot + 1) & mask;
            slot_hashes[slot] = old_hashes[k];
            slot_ids[slot] = old_ids[k];
        }
    }

    inline uint32_t intern(const uint32_t* chars, uint32_t length, uint64_t hash) {
        size_t slot = (size_t)hash & mask;
        while (true) {
            uint32_t id = slot_ids[slot];
            if (id == EMPTY) break;
            if (slot_hashes[slot] == hash && vocab_lengths[id] == length
                && std::memcmp(vocab_chars[id], chars, (size_t)length * sizeof(uint32_t)) == 0)
                return id;
            slot = (slot + 1) & mask;
        }
        uint32_t id = (uint32_t)vocab_lengths.size();
        slot_hashes[slot] = hash;
        slot_ids[slot] = id;
        vocab_chars.push_back(chars);
        vocab_lengths.push_back(length);
        if (2 * vocab_lengths.size() > slot_ids.size()) grow();
        return id;
    }
};

/* Assign ids to all tokens, segment by segment in input order (so ids never depend on the thread count).
 * Segment i's tokens are tokens first[i] .. first[i] + count[i] - 1 of stores[thread_of[i]].
 * Writes ids[offsets[i] .. offsets[i + 1]). Returns false when memory ran out. */
static bool intern_all(ThreadStore* stores, Interner& interner, int64_t n_segments, const int32_t* thread_of,
                       const int64_t* first, const int64_t* offsets, uint32_t* ids) noexcept {
    try {
        for (int64_t i = 0; i < n_segments; ++i) {
            const ThreadStore& store = stores[thread_of[i]];
            int64_t token = first[i];
            for (int64_t out = offsets[i]; out < offsets[i + 1]; ++out, ++token)
                ids[out] = interner.intern(store.chars.data() + store.starts[token], store.lengths[token],
                                           store.hashes[token]);
        }
    } catch (...) {
        return false;
    }
    return true;
}

}  // namespace refscore_tok

#endif
