/* Compiled sacreBLEU 2.6 tokenizers over code points, and the per-call token interner.
 *
 * Every tokenizer reproduces sacreBLEU's BLEU preprocessing of one segment,
 *     tokens = tokenizer(sent.rstrip()).split()
 * (lowercasing reproduces Python's str.lower, from generated tables). sacreBLEU's regular expressions are
 * applied as literal passes with Python re.sub's scanning rule (try at position i; after a match resume at
 * its end, else at i + 1), so overlapping cases such as "a.,5" split exactly as in sacreBLEU.
 *
 * Each thread interns the tokens it produces in its own table (ThreadStore); merge_ids then maps those local
 * ids to the call's ids serially in text order, which makes the ids independent of the thread count.
 */
#ifndef REFSCORE_TOKENIZE_IMPL_H
#define REFSCORE_TOKENIZE_IMPL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>
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
    /* ASCII: \t \n \v \f \r (9-13), \x1c-\x1f, ' ' */
    if (c <= 0x20) return (0x1F0003E00ULL >> c) & 1;
    if (c < 0x80) return false;
    return (char_class(c) & REFSCORE_CC_SPACE) != 0;
}

static inline bool is_ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline bool is_period_or_comma(uint32_t c) { return c == '.' || c == ','; }

/* The character class of sacreBLEU's first 13a regex: [\{-\~\[-\` -\&\(-\+\:-\@\/]. */
static inline bool is_13a_split_char(uint32_t c) {
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26)
        || (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

/* What the first TokenizerRegexp pass does with an ASCII character. */
enum RegexpRole : uint8_t { ROLE_COPY = 0, ROLE_SPLIT = 1, ROLE_PERIOD_OR_COMMA = 2, ROLE_DASH = 3 };

struct RegexpRoleTable {
    uint8_t role[128];
    RegexpRoleTable() {
        for (uint32_t c = 0; c < 128; ++c)
            role[c] = (c != ' ' && is_13a_split_char(c)) ? ROLE_SPLIT
                    : is_period_or_comma(c) ? ROLE_PERIOD_OR_COMMA : c == '-' ? ROLE_DASH : ROLE_COPY;
    }
};
static const RegexpRoleTable REGEXP_ROLES;
static const uint8_t* const REGEXP_ROLE = REGEXP_ROLES.role;

static inline void ensure_size(Buffer& buffer, size_t size) {
    if (buffer.size() < size) buffer.resize(size > 2 * buffer.size() ? size : 2 * buffer.size());
}

/* ---- interning ------------------------------------------------------------------------------------- */

static const uint64_t HASH_SEED = 0xcbf29ce484222325ULL;

static inline uint64_t hash_step(uint64_t hash, uint32_t c) { return (hash ^ c) * 0x100000001b3ULL; }

static inline uint64_t hash_finish(uint64_t hash, size_t length) {
    hash ^= (uint64_t)length * 0x9e3779b97f4a7c15ULL;
    hash ^= hash >> 32;
    hash *= 0xd6e8feb86659fd93ULL;
    return hash ^ (hash >> 32);
}

static inline uint64_t hash_token(const uint32_t* text, size_t length) {
    uint64_t hash = HASH_SEED;
    for (size_t k = 0; k < length; ++k) hash = hash_step(hash, text[k]);
    return hash_finish(hash, length);
}

static inline bool same_chars(const uint32_t* a, const uint32_t* b, size_t length) {
    for (size_t k = 0; k < length; ++k)
        if (a[k] != b[k]) return false;
    return true;
}

/* Open-addressing table from token characters to dense ids, in order of first interning. It keeps its own
 * copy of each distinct token. Equality is decided on the characters, so hash collisions never merge tokens. */
struct Interner {
    enum : uint32_t { EMPTY = 0xFFFFFFFFu };

    /* A slot holds everything a lookup needs, so a probe touches one cache line plus the characters. */
    struct Slot {
        uint64_t hash;
        int64_t start;              /* in chars */
        uint32_t id;                /* EMPTY: free slot */
        uint32_t length;
    };

    Buffer chars;                   /* the distinct tokens' characters, back to back */
    std::vector<int64_t> starts;    /* per id: start in chars */
    std::vector<uint32_t> lengths;  /* per id */
    std::vector<uint64_t> hashes;   /* per id */
    std::vector<Slot> slots;
    size_t mask;

    Interner() : slots(64, Slot{0, 0, (uint32_t)EMPTY, 0}), mask(63) {}

    size_t size() const { return lengths.size(); }
    const uint32_t* token(uint32_t id) const { return chars.data() + starts[id]; }

    inline uint32_t intern(const uint32_t* text, uint32_t length, uint64_t hash) {
        size_t index = (size_t)hash & mask;
        while (true) {
            const Slot& slot = slots[index];
            if (slot.id == EMPTY) break;
            if (slot.hash == hash && slot.length == length && same_chars(chars.data() + slot.start, text, length))
                return slot.id;
            index = (index + 1) & mask;
        }
        uint32_t id = (uint32_t)lengths.size();
        int64_t start = (int64_t)chars.size();
        slots[index] = Slot{hash, start, id, length};
        starts.push_back(start);
        chars.insert(chars.end(), text, text + length);
        lengths.push_back(length);
        hashes.push_back(hash);
        if (2 * lengths.size() > slots.size()) grow();
        return id;
    }

    void grow() {
        slots.assign(2 * slots.size(), Slot{0, 0, (uint32_t)EMPTY, 0});
        mask = slots.size() - 1;
        for (uint32_t id = 0; id < (uint32_t)lengths.size(); ++id) {
            size_t index = (size_t)hashes[id] & mask;
            while (slots[index].id != EMPTY) index = (index + 1) & mask;
            slots[index] = Slot{hashes[id], starts[id], id, lengths[id]};
        }
    }
};

/* ---- per-thread token store -------------------------------------------------------------------------- */

/* A thread's tokens as ids of its own interner (`local`); merge_ids maps them to the call's ids. */
struct alignas(64) ThreadStore {  /* own cache lines: no false sharing between threads */
    Interner local;
    std::vector<uint32_t> ids;      /* local ids of all tokens this thread produced */
    int64_t n_tokens = 0;
    Buffer scratch_a, scratch_b;
    std::vector<int64_t> marks;     /* scratch of regexp_passes */
    std::vector<uint64_t> pending;  /* scratch of emit_split: (start, length, hash) of a segment's tokens */
    bool failed = false;            /* an allocation failed (reported as MemoryError) */

    void reserve_tokens(size_t max_tokens) {
        size_t need = (size_t)n_tokens + max_tokens;
        if (ids.size() < need) ids.resize(need > 2 * ids.size() ? need : 2 * ids.size());
    }

    inline void push_token(const uint32_t* text, size_t length, uint64_t hash) {
        ids[n_tokens++] = local.intern(text, (uint32_t)length, hash);
    }
};

/* str.split(): maximal runs of non-space characters. The tokens are found and hashed first, then interned
 * with the table slot of a token a few places ahead prefetched, so that cache misses overlap. */
static inline void emit_split(const uint32_t* text, size_t length, ThreadStore& store) {
    const size_t max_tokens = length / 2 + 1;
    store.reserve_tokens(max_tokens);
    if (store.pending.size() < 3 * max_tokens) store.pending.resize(3 * max_tokens);
    uint64_t* pending = store.pending.data();
    size_t n_pending = 0;
    size_t i = 0;
    while (true) {
        while (i < length && is_space(text[i])) ++i;
        if (i == length) break;
        size_t start = i;
        uint64_t hash = HASH_SEED;
        do hash = hash_step(hash, text[i++]);
        while (i < length && !is_space(text[i]));
        pending[3 * n_pending] = start;
        pending[3 * n_pending + 1] = i - start;
        pending[3 * n_pending + 2] = hash_finish(hash, i - start);
        ++n_pending;
    }
    const size_t ahead = 4;
    for (size_t k = 0; k < n_pending; ++k) {
        if (k + ahead < n_pending)
            __builtin_prefetch(store.local.slots.data() + (pending[3 * (k + ahead) + 2] & store.local.mask));
        store.push_token(text + pending[3 * k], (size_t)pending[3 * k + 1], pending[3 * k + 2]);
    }
}

/* " ".join(line).split(): every non-space character is a token. */
static inline void emit_chars(const uint32_t* text, size_t length, ThreadStore& store) {
    store.reserve_tokens(length);
    for (size_t i = 0; i < length; ++i)
        if (!is_space(text[i])) store.push_token(text + i, 1, hash_token(text + i, 1));
}

/* ---- input ------------------------------------------------------------------------------------------ */

/* Copy a PEP 393 string buffer (1, 2 or 4 bytes per code point) into out[offset:] as code points. */
static inline size_t load_code_points(int kind, const void* data, size_t length, Buffer& out, size_t offset) {
    ensure_size(out, length + offset + 2);
    uint32_t* destination = out.data() + offset;
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

/* ---- lowercasing: Python's str.lower --------------------------------------------------------------- */

static inline bool is_case_ignorable(uint32_t c) { return (char_class(c) & REFSCORE_CC_CASE_IGNORABLE) != 0; }

/* Python's handle_capital_sigma: U+03A3 becomes final sigma when a cased letter precedes it and none follows
 * (case-ignorable characters skipped both ways), judged on the original text. */
static bool is_final_sigma(const uint32_t* text, size_t length, size_t i) {
    uint32_t c = 0;
    size_t j = i;
    while (j > 0 && is_case_ignorable(c = text[j - 1])) --j;
    if (j == 0 || !(char_class(c) & REFSCORE_CC_CASED)) return false;
    size_t k = i + 1;
    while (k < length && is_case_ignorable(text[k])) ++k;
    return k == length || !(char_class(text[k]) & REFSCORE_CC_CASED);
}

/* text.lower() into `out` (room for 2 * length); returns the new length. */
static size_t lowercase_into(const uint32_t* text, size_t length, uint32_t* out) {
    size_t n = 0;
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = text[i];
        if (c < 0x80) { out[n++] = (c >= 'A' && c <= 'Z') ? c + 32 : c; continue; }
        if (!(char_class(c) & REFSCORE_CC_LOWER_CHANGES)) { out[n++] = c; continue; }
        if (c == REFSCORE_CAPITAL_SIGMA) { out[n++] = is_final_sigma(text, length, i) ? 0x3C2 : 0x3C3; continue; }
        size_t low = 0, high = REFSCORE_LOWER_COUNT;   /* c is in refscore_lower_from */
        while (high - low > 1) {
            size_t middle = (low + high) / 2;
            if (refscore_lower_from[middle] <= c) low = middle; else high = middle;
        }
        out[n++] = refscore_lower_first[low];
        if (refscore_lower_second[low]) out[n++] = refscore_lower_second[low];
    }
    return n;
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

/* ---- the regular-expression passes -------------------------------------------------------------------- */

static inline size_t copy_span(const uint32_t* source, size_t from, size_t to, uint32_t* destination, size_t n) {
    if (to > from) std::memcpy(destination + n, source + from, (to - from) * sizeof(uint32_t));
    return n + (to > from ? to - from : 0);
}

/* One re.sub pass of a pattern that matches one or two characters, run over the marked positions only.
 * `mark` lists, in increasing order, the positions of every character that can play the marked role in a
 * match; a match is sought exactly where re.sub would try one (from the end of the previous match on), the
 * spans between matches are copied, and each mark is moved to its character's position in the output: a
 * character copied with a span lands at n + (j - done) (n: output length so far, done: input consumed so far),
 * which also holds for the unmarked character of a match. Returns the output length. */

/* (A)(B) -> '\1 \2 ', B being the marked character. */
template <class IsA, class IsB>
static size_t pass_pair_mark_second(const uint32_t* s, size_t length, uint32_t* d, int64_t* mark, int64_t n_marks,
                                    IsA is_a, IsB is_b) {
    size_t n = 0;
    int64_t done = 0;
    for (int64_t k = 0; k < n_marks; ++k) {
        int64_t j = mark[k];
        if (is_b(s[j]) && j - 1 >= done && is_a(s[j - 1])) {
            n = copy_span(s, (size_t)done, (size_t)(j - 1), d, n);
            d[n++] = s[j - 1]; d[n++] = ' ';
            mark[k] = (int64_t)n;
            d[n++] = s[j]; d[n++] = ' ';
            done = j + 1;
        } else mark[k] = (int64_t)n + (j - done);
    }
    return copy_span(s, (size_t)done, length, d, n);
}

/* (A)(B) -> ' \1 \2', A being the marked character. */
template <class IsA, class IsB>
static size_t pass_pair_mark_first(const uint32_t* s, size_t length, uint32_t* d, int64_t* mark, int64_t n_marks,
                                   IsA is_a, IsB is_b) {
    size_t n = 0;
    int64_t done = 0;
    for (int64_t k = 0; k < n_marks; ++k) {
        int64_t j = mark[k];
        if (is_a(s[j]) && j >= done && (size_t)j + 1 < length && is_b(s[j + 1])) {
            n = copy_span(s, (size_t)done, (size_t)j, d, n);
            d[n++] = ' ';
            mark[k] = (int64_t)n;
            d[n++] = s[j]; d[n++] = ' '; d[n++] = s[j + 1];
            done = j + 2;
        } else mark[k] = (int64_t)n + (j - done);
    }
    return copy_span(s, (size_t)done, length, d, n);
}

/* (A) -> ' \1 ', A being the marked character. */
template <class IsA>
static size_t pass_single(const uint32_t* s, size_t length, uint32_t* d, int64_t* mark, int64_t n_marks, IsA is_a) {
    size_t n = 0;
    int64_t done = 0;
    for (int64_t k = 0; k < n_marks; ++k) {
        int64_t j = mark[k];
        if (is_a(s[j])) {
            n = copy_span(s, (size_t)done, (size_t)j, d, n);
            d[n++] = ' ';
            mark[k] = (int64_t)n;
            d[n++] = s[j]; d[n++] = ' ';
            done = j + 1;
        } else mark[k] = (int64_t)n + (j - done);
    }
    return copy_span(s, (size_t)done, length, d, n);
}

/* Run `pass` from `*source` into `*target` (grown to `growth` times the text), then swap the two roles. */
template <class Pass>
static size_t run_pass(Buffer*& source, Buffer*& target, size_t length, size_t growth, Pass pass) {
    ensure_size(*target, growth * length + 2);
    length = pass(source->data(), length, target->data());
    std::swap(source, target);
    return length;
}

static inline bool is_not_ascii_digit(uint32_t c) { return !is_ascii_digit(c); }
static inline bool is_dash(uint32_t c) { return c == '-'; }
static inline bool is_punct(uint32_t c) { return (char_class(c) & REFSCORE_CC_PUNCT) != 0; }
static inline bool is_symbol(uint32_t c) { return (char_class(c) & REFSCORE_CC_SYMBOL) != 0; }
static inline bool is_not_number(uint32_t c) { return !(char_class(c) & REFSCORE_CC_NUMBER); }

/* TokenizerRegexp, the common part of 13a and zh:
 *   ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 '
 *   ([^0-9])([\.,])                -> '\1 \2 '
 *   ([\.,])([^0-9])                -> ' \1 \2'
 *   ([0-9])(-)                     -> '\1 \2 '
 * `in` holds the text; returns the result's length, in `in` again (`out` is scratch).
 * The first pass keeps a space as one space instead of three (runs of spaces match the later patterns the
 * same way whatever their length, and the final split removes them) and marks the '.', ',' and '-'. */
static size_t regexp_passes(Buffer& in, size_t length, Buffer& out, std::vector<int64_t>& marks) {
    ensure_size(out, 3 * length + 2);
    marks.clear();
    const uint32_t* s = in.data();
    uint32_t* d = out.data();
    size_t n = 0;
    bool has_period_or_comma = false, has_dash = false;
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = s[i];
        uint8_t role = c < 0x80 ? REGEXP_ROLE[c] : 0;
        if (role == 0) { d[n++] = c; continue; }
        if (role == ROLE_SPLIT) { d[n++] = ' '; d[n++] = c; d[n++] = ' '; continue; }
        marks.push_back((int64_t)n);
        has_period_or_comma |= role == ROLE_PERIOD_OR_COMMA;
        has_dash |= role == ROLE_DASH;
        d[n++] = c;
    }
    length = n;
    int64_t* mark = marks.data();
    const int64_t n_marks = (int64_t)marks.size();
    Buffer* source = &out;
    Buffer* target = &in;
    if (has_period_or_comma) {
        length = run_pass(source, target, length, 2, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_pair_mark_second(from, size, to, mark, n_marks, is_not_ascii_digit, is_period_or_comma);
        });
        length = run_pass(source, target, length, 2, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_pair_mark_first(from, size, to, mark, n_marks, is_period_or_comma, is_not_ascii_digit);
        });
    }
    if (has_dash) {
        length = run_pass(source, target, length, 2, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_pair_mark_second(from, size, to, mark, n_marks, is_ascii_digit, is_dash);
        });
    }
    if (source != &in) in.swap(out);
    return length;
}

/* TokenizerV14International (regex module classes):
 *   (\P{N})(\p{P}) -> '\1 \2 '
 *   (\p{P})(\P{N}) -> ' \1 \2'
 *   (\p{S})        -> ' \1 '
 * `in` holds the text; returns the result's length, in `in` again (`out` is scratch). Punctuation and symbols
 * are marked. */
static size_t intl_passes(Buffer& in, size_t length, Buffer& out, std::vector<int64_t>& marks) {
    marks.clear();
    bool has_punct = false, has_symbol = false;
    for (size_t i = 0; i < length; ++i) {
        uint8_t k = char_class(in[i]) & (REFSCORE_CC_PUNCT | REFSCORE_CC_SYMBOL);
        if (k) {
            marks.push_back((int64_t)i);
            has_punct |= (k & REFSCORE_CC_PUNCT) != 0;
            has_symbol |= (k & REFSCORE_CC_SYMBOL) != 0;
        }
    }
    int64_t* mark = marks.data();
    const int64_t n_marks = (int64_t)marks.size();
    Buffer* source = &in;
    Buffer* target = &out;
    if (has_punct) {
        length = run_pass(source, target, length, 2, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_pair_mark_second(from, size, to, mark, n_marks, is_not_number, is_punct);
        });
        length = run_pass(source, target, length, 2, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_pair_mark_first(from, size, to, mark, n_marks, is_punct, is_not_number);
        });
    }
    if (has_symbol) {
        length = run_pass(source, target, length, 3, [&](const uint32_t* from, size_t size, uint32_t* to) {
            return pass_single(from, size, to, mark, n_marks, is_symbol);
        });
    }
    if (source != &in) in.swap(out);
    return length;
}

/* ---- the tokenizers ------------------------------------------------------------------------------------ */

/* Tokenizer13a: XML-ish clean-up, then ' ' + line + ' ' through TokenizerRegexp. The text was loaded at
 * offset 1 of scratch_a, leaving room for the leading space. */
static void tokenize_13a(ThreadStore& store, size_t length) {
    Buffer& a = store.scratch_a;
    uint32_t* text = a.data() + 1;
    length = rstrip_length(text, length);
    bool has_less_than = false, has_newline = false, has_ampersand = false;
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = text[i];
        has_less_than |= c == '<';
        has_newline |= c == '\n';
        has_ampersand |= c == '&';
    }
    if (has_less_than) length = replace_in_place(text, length, "<skipped>", 9, -1);
    if (has_newline) {
        length = replace_in_place(text, length, "-\n", 2, -1);
        for (size_t i = 0; i < length; ++i)
            if (text[i] == '\n') text[i] = ' ';
    }
    if (has_ampersand) {
        length = replace_in_place(text, length, "&quot;", 6, '"');
        length = replace_in_place(text, length, "&amp;", 5, '&');
        length = replace_in_place(text, length, "&lt;", 4, '<');
        length = replace_in_place(text, length, "&gt;", 4, '>');
    }
    a[0] = ' ';
    a[length + 1] = ' ';
    length = regexp_passes(a, length + 2, store.scratch_b, store.marks);
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
    n = regexp_passes(a, n, b, store.marks);
    emit_split(a.data(), n, store);
}

static void tokenize_intl(ThreadStore& store, size_t length) {
    Buffer& a = store.scratch_a;
    length = rstrip_length(a.data(), length);
    length = intl_passes(a, length, store.scratch_b, store.marks);
    emit_split(a.data(), length, store);
}

/* Tokenize one segment (lowercased first when `lowercase`); its tokens are appended to `store`. Returns the
 * number of tokens (or 0 with store.failed set when memory ran out). */
static int64_t tokenize_segment(int tokenizer, bool lowercase, int kind, const void* data, int64_t length,
                                ThreadStore& store) noexcept {
    int64_t tokens_before = store.n_tokens;
    try {
        size_t offset = tokenizer == TOK_13A ? 1 : 0;   /* room for 13a's leading space */
        size_t n;
        if (lowercase) {
            load_code_points(kind, data, (size_t)length, store.scratch_b, 0);
            ensure_size(store.scratch_a, 2 * (size_t)length + offset + 2);
            n = lowercase_into(store.scratch_b.data(), (size_t)length, store.scratch_a.data() + offset);
        } else {
            n = load_code_points(kind, data, (size_t)length, store.scratch_a, offset);
        }
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

/* ---- merging ----------------------------------------------------------------------------------------- */

/* Map every thread's local ids to the call's ids, segment by segment in input order, so the ids (numbered in
 * order of first appearance) never depend on the thread count. Segment i's tokens are tokens
 * first[i] .. first[i] + count - 1 of stores[thread_of[i]]; writes ids[offsets[i] .. offsets[i + 1]).
 * Returns false when memory ran out. */
static bool merge_ids(ThreadStore* stores, int n_threads, Interner& vocabulary, int64_t n_segments,
                      const int32_t* thread_of, const int64_t* first, const int64_t* offsets,
                      uint32_t* ids) noexcept {
    try {
        if (n_threads == 1) {
            /* one thread met the segments in input order: its ids already are the call's ids */
            if (offsets[n_segments] > 0)
                std::memcpy(ids, stores[0].ids.data(), (size_t)offsets[n_segments] * sizeof(uint32_t));
            vocabulary = std::move(stores[0].local);
            return true;
        }
        std::vector<std::vector<uint32_t> > to_global((size_t)n_threads);
        for (int t = 0; t < n_threads; ++t) to_global[t].assign(stores[t].local.size(), (uint32_t)Interner::EMPTY);
        for (int64_t i = 0; i < n_segments; ++i) {
            const ThreadStore& store = stores[thread_of[i]];
            uint32_t* mapping = to_global[thread_of[i]].data();
            const uint32_t* local_ids = store.ids.data() + first[i];
            for (int64_t out = offsets[i]; out < offsets[i + 1]; ++out) {
                uint32_t local_id = *local_ids++;
                uint32_t id = mapping[local_id];
                if (id == Interner::EMPTY) {
                    id = vocabulary.intern(store.local.token(local_id), store.local.lengths[local_id],
                                           store.local.hashes[local_id]);
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

}  // namespace refscore_tok

#endif
