/* Compiled sacreBLEU 2.6 tokenizers over code points, and token interning.
 *
 * Every tokenizer reproduces sacreBLEU's BLEU preprocessing of one segment,
 *     tokens = tokenizer(sent.rstrip()).split()
 * (lowercasing reproduces Python's str.lower, from generated tables). A text becomes token spans (start,
 * length, hash) in one scan: sacreBLEU's regular expressions only insert spaces, and which characters they
 * isolate follows from re.sub's scanning rule (see regexp_spans), so overlapping cases such as "a.,5" split
 * exactly as in sacreBLEU.
 *
 * Spans are then interned in one of two ways. For a whole call (encode_words), each thread interns in its own
 * table (ThreadStore) and merge_ids maps those ids to the call's ids serially in text order, which makes the
 * ids independent of the thread count. For n-gram statistics (SegmentEncoder), the texts of one segment are
 * interned in a small table of their own, cleared for the next segment: a few cache lines instead of a
 * corpus-wide vocabulary.
 */
#ifndef REFSCORE_TOKENIZE_IMPL_H
#define REFSCORE_TOKENIZE_IMPL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <new>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "_hash_table.hpp"
#include "_text.hpp"

namespace refscore_tok {

/* TOK_13A_UNSTRIPPED: 13a on the whole text, trailing whitespace included, as the copy of the tokenizer in Hugging
 * Face's bleu and google_bleu scripts (sacreBLEU strips it first; the tokens differ for e.g. "d-\n"). */
enum TokenizerKind { TOK_NONE = 0, TOK_CHAR = 1, TOK_13A = 2, TOK_ZH = 3, TOK_INTL = 4, TOK_13A_UNSTRIPPED = 5 };

typedef std::vector<uint32_t> Buffer;

/* Code points, str.isspace, str.rstrip and str.lower: the kernels' one reading of text (_text.hpp). */
using refscore::char_class;
using refscore::is_space;
using refscore::lowercase_into;
using refscore::read_code_points;
using refscore::rstrip_length;
using refscore::multiply_mix64;

static inline bool is_ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline void ensure_size(Buffer& buffer, size_t size) {
    if (buffer.size() < size) buffer.resize(size > 2 * buffer.size() ? size : 2 * buffer.size());
}

/* ---- interning ------------------------------------------------------------------------------------- */

static const uint64_t HASH_SEED = 0xcbf29ce484222325ULL;

static const uint64_t HASH_MULTIPLIER = 0x100000001b3ULL;

static inline uint64_t hash_finish(uint64_t hash, size_t length) {
    hash ^= (uint64_t)length * 0x9e3779b97f4a7c15ULL;
    hash ^= hash >> 32;
    hash *= 0xd6e8feb86659fd93ULL;
    return hash ^ (hash >> 32);
}

/* Characters a text buffer must have readable after its last code point for hash_token / same_token. */
static const size_t TOKEN_READ_SLACK = 12;

/* Four code points, of which only the first `count` (0..4) count: the others are zeroed by a lane mask. */
struct LaneMasks {
    alignas(16) uint32_t lanes[5][4];
    LaneMasks() {
        for (int count = 0; count <= 4; ++count)
            for (int lane = 0; lane < 4; ++lane) lanes[count][lane] = lane < count ? 0xFFFFFFFFu : 0u;
    }
};
static const LaneMasks LANE_MASKS;

#if defined(__SSE2__)
typedef __m128i Block;
static inline Block load_block(const uint32_t* text, size_t count) {
    return _mm_and_si128(_mm_loadu_si128((const __m128i*)text), _mm_load_si128((const __m128i*)LANE_MASKS.lanes[count]));
}
static inline Block xor_blocks(Block a, Block b) { return _mm_xor_si128(a, b); }
static inline Block or_blocks(Block a, Block b) { return _mm_or_si128(a, b); }
static inline uint64_t low_half(Block a) { return (uint64_t)_mm_cvtsi128_si64(a); }
static inline uint64_t high_half(Block a) { return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a)); }
static inline bool is_zero(Block a) {
    return _mm_movemask_epi8(_mm_cmpeq_epi32(a, _mm_setzero_si128())) == 0xFFFF;
}
#else
struct Block { uint64_t low, high; };
static inline Block load_block(const uint32_t* text, size_t count) {
    Block block;
    std::memcpy(&block, text, sizeof block);
    const uint64_t* mask = (const uint64_t*)LANE_MASKS.lanes[count];
    block.low &= mask[0];
    block.high &= mask[1];
    return block;
}
static inline Block xor_blocks(Block a, Block b) { return Block{a.low ^ b.low, a.high ^ b.high}; }
static inline Block or_blocks(Block a, Block b) { return Block{a.low | b.low, a.high | b.high}; }
static inline uint64_t low_half(Block a) { return a.low; }
static inline uint64_t high_half(Block a) { return a.high; }
static inline bool is_zero(Block a) { return (a.low | a.high) == 0; }
#endif

/* A token's hash: its code points read four at a time (two 64-bit halves, each multiplied by its own
 * constant, so the products are independent). The last (up to) eight code points are read as two masked blocks,
 * without branches: up to TOKEN_READ_SLACK characters past the token are read and do not count. */
static inline uint64_t hash_token(const uint32_t* text, size_t length) {
    uint64_t hash = HASH_SEED;
    size_t k = 0;
    for (; k + 8 < length; k += 4) {
        const Block block = load_block(text + k, 4);
        hash = (hash ^ (low_half(block) * 0x9e3779b97f4a7c15ULL) ^ high_half(block)) * HASH_MULTIPLIER;
    }
    const size_t rest = length - k;   /* 0..8; min/max compile to conditional moves */
    const Block first = load_block(text + k, std::min<size_t>(rest, 4));
    const Block second = load_block(text + k + 4, std::max<size_t>(rest, 4) - 4);
    hash ^= low_half(first) * 0x9e3779b97f4a7c15ULL;
    hash ^= high_half(first) * 0xc2b2ae3d27d4eb4fULL;
    hash ^= low_half(second) * 0x165667b19e3779f9ULL;
    hash ^= high_half(second) * 0xd6e8feb86659fd93ULL;
    return hash_finish(hash, length);
}

/* How spans are hashed. A call's vocabulary (encode_words) interns every distinct token of a corpus in one table,
 * so it needs the full hash of the characters. A short segment's table (SegmentEncoder) holds a few dozen
 * tokens, and there a hash of the first and last characters and the length spreads them well enough: tokens that
 * share it only cost a probe and a character comparison (equality is always decided on the characters). Long
 * segments use the full hash, so that many distinct tokens of one shape (say, numbers) never make interning
 * quadratic: with at most SHORT_SEGMENT_CHARS characters, distinct tokens sharing a SegmentHash are at most a few
 * hundred. */
static const int64_t SHORT_SEGMENT_CHARS = 2048;

struct CharactersHash {
    static inline uint64_t of(const uint32_t* text, size_t length) { return hash_token(text, length); }
};
struct SegmentHash {
    static inline uint64_t of(const uint32_t* text, size_t length) {
        return multiply_mix64((uint64_t)text[0] | ((uint64_t)text[length - 1] << 21) | ((uint64_t)length << 42));
    }
};

static inline bool same_chars(const uint32_t* a, const uint32_t* b, size_t length) {
    for (size_t k = 0; k < length; ++k)
        if (a[k] != b[k]) return false;
    return true;
}

/* same_chars for tokens that both have TOKEN_READ_SLACK readable characters after them: the usual token of up
 * to eight characters is compared as two masked blocks, without a loop. */
static inline bool same_token(const uint32_t* a, const uint32_t* b, size_t length) {
    if (length > 8) return same_chars(a, b, length);
    const size_t low = std::min<size_t>(length, 4), high = std::max<size_t>(length, 4) - 4;
    return is_zero(or_blocks(xor_blocks(load_block(a, low), load_block(b, low)),
                             xor_blocks(load_block(a + 4, high), load_block(b + 4, high))));
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

    inline void prefetch(uint64_t hash) const { __builtin_prefetch(slots.data() + (hash & mask)); }

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

/* ---- input ------------------------------------------------------------------------------------------ */

/* Copy a PEP 393 string buffer (1, 2 or 4 bytes per code point) into out[offset:] as code points. */
static inline void load_code_points(int kind, const void* data, size_t length, Buffer& out, size_t offset) {
    ensure_size(out, length + offset + TOKEN_READ_SLACK);
    read_code_points(kind, data, length, out.data() + offset);
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

/* Tokenizer13a's clean-up before its regular expressions; returns the new length. */
static size_t clean_13a(uint32_t* text, size_t length) {
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
    return length;
}

/* ---- token spans ----------------------------------------------------------------------------------------- */

/* One token: `length` code points of a text buffer from `start`, and their hash. */
struct Span {
    size_t start;
    size_t length;
    uint64_t hash;
};

/* Writes the tokens of one text left to right into a span array (room for one per character): characters
 * join the open token, separators close it. All state is local, so it lives in registers. */
template <class Hash>
class SpanWriter {
  public:
    SpanWriter(const uint32_t* text, Span* out) : text_(text), out_(out), next_(out) {}

    inline void extend(size_t i) {
        if (!open_) { open_ = true; start_ = i; }
    }
    inline void close(size_t end) {
        if (open_) { *next_++ = Span{start_, end - start_, Hash::of(text_ + start_, end - start_)}; open_ = false; }
    }
    /* text[i] is a token of its own. */
    inline void isolate(size_t i) {
        close(i);
        *next_++ = Span{i, 1, Hash::of(text_ + i, 1)};
    }
    inline size_t count() const { return (size_t)(next_ - out_); }

  private:
    const uint32_t* text_;
    Span* out_;
    Span* next_;
    bool open_ = false;
    size_t start_ = 0;
};

/* str.split(): maximal runs of non-space characters of text[first, n). */
template <class Hash>
static size_t split_spans(const uint32_t* text, size_t first, size_t n, Span* out) {
    SpanWriter<Hash> writer(text, out);
    size_t i = first;
    while (true) {
        while (i < n && is_space(text[i])) ++i;
        if (i == n) break;
        writer.extend(i++);
        while (i < n && !is_space(text[i])) ++i;
        writer.close(i);
    }
    return writer.count();
}

/* " ".join(line).split(): every non-space character is a token. */
template <class Hash>
static size_t char_spans(const uint32_t* text, size_t first, size_t n, Span* out) {
    SpanWriter<Hash> writer(text, out);
    for (size_t i = first; i < n; ++i)
        if (!is_space(text[i])) writer.isolate(i);
    return writer.count();
}

/* ---- the regular-expression tokenizers, as one scan ---------------------------------------------------- */

/* What a character does under a tokenizer's regular expressions:
 *   ROLE_ISOLATE  always a token of its own: 13a's ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 ', zh's Chinese
 *                 characters as well, intl's (\p{S}) -> ' \1 ';
 *   ROLE_PUNCT    the separable punctuation: [\.,] (13a, zh), \p{P} (intl);
 *   ROLE_DIGIT    what blocks separating it: [0-9] (13a, zh), \p{N} (intl);
 *   ROLE_DASH     '-' (13a, zh): a token of its own after [0-9] (([0-9])(-) -> '\1 \2 ');
 *   ROLE_SPACE    str.split's separators. */
enum Role : uint8_t { ROLE_OTHER = 0, ROLE_DIGIT, ROLE_SPACE, ROLE_ISOLATE, ROLE_PUNCT, ROLE_DASH };

static inline bool is_13a_split_char(uint32_t c) {
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26)
        || (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

static inline uint8_t intl_role_of_class(uint8_t k) {
    return (k & REFSCORE_CC_SPACE) ? ROLE_SPACE : (k & REFSCORE_CC_PUNCT) ? ROLE_PUNCT
         : (k & REFSCORE_CC_SYMBOL) ? ROLE_ISOLATE : (k & REFSCORE_CC_NUMBER) ? ROLE_DIGIT : ROLE_OTHER;
}

/* Every space of str.isspace above U+00FF lies in [U+1680, U+3000] (U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000; tests/test_tokenize.py checks each code point). */
static const uint32_t FIRST_WIDE_SPACE = 0x1680, LAST_WIDE_SPACE = 0x3000;

struct AsciiRoles {
    uint8_t regexp[128];  /* 13a and zh */
    uint8_t intl[128];
    uint8_t latin1_13a[257];  /* 13a's roles of U+0000-U+00FF; [256]: any wider character outside the spaces' range */
    AsciiRoles() {
        for (uint32_t c = 0; c < 128; ++c) {
            regexp[c] = is_space(c) ? ROLE_SPACE : is_13a_split_char(c) ? ROLE_ISOLATE
                      : (c == '.' || c == ',') ? ROLE_PUNCT : c == '-' ? ROLE_DASH
                      : is_ascii_digit(c) ? ROLE_DIGIT : ROLE_OTHER;
            intl[c] = intl_role_of_class(char_class(c));
        }
        for (uint32_t c = 0; c < 256; ++c) latin1_13a[c] = c < 128 ? regexp[c] : is_space(c) ? ROLE_SPACE : ROLE_OTHER;
        latin1_13a[256] = ROLE_OTHER;
    }
};
static const AsciiRoles ASCII_ROLES;

/* The end of the run of word characters (roles ROLE_OTHER and ROLE_DIGIT) that starts at s[i]; the run stops at
 * a space at the latest (the sentinel s[n]). Generic form, one character at a time. */
template <class RoleOf>
inline size_t word_run_end(const uint32_t* s, size_t i, RoleOf role_of) {
    while (role_of(s[i]) <= ROLE_DIGIT) ++i;
    return i;
}

struct Role13a {
    /* One table lookup (the index clamped without a branch); the test for wide spaces is almost never true. */
    inline uint8_t operator()(uint32_t c) const {
        const uint8_t role = ASCII_ROLES.latin1_13a[std::min<uint32_t>(c, 256)];
        if (c - FIRST_WIDE_SPACE <= LAST_WIDE_SPACE - FIRST_WIDE_SPACE) return is_space(c) ? ROLE_SPACE : ROLE_OTHER;
        return role;
    }
};

#if defined(__SSE2__)
/* 13a's word runs eight characters at a time: a mask of the characters that are word characters for certain
 * (ASCII letters and digits, code points above Latin-1 outside the wide-space range) finds the run's end without
 * a branch per character; any other character (a Latin-1 letter, say) is looked up in the table. Reads up to 7
 * characters past the sentinel, within TOKEN_READ_SLACK. */
static inline int certain_13a_word_mask(const uint32_t* s) {
    const __m128i lower_a = _mm_set1_epi32('a' - 1), lower_z = _mm_set1_epi32('z' + 1), case_bit = _mm_set1_epi32(0x20);
    const __m128i digit_0 = _mm_set1_epi32('0' - 1), digit_9 = _mm_set1_epi32('9' + 1);
    const __m128i latin1_end = _mm_set1_epi32(0xFF);
    const __m128i wide_first = _mm_set1_epi32((int)FIRST_WIDE_SPACE), wide_last = _mm_set1_epi32((int)LAST_WIDE_SPACE);
    int mask = 0;
    for (int half = 0; half < 2; ++half) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 4 * half));
        const __m128i folded = _mm_or_si128(c, case_bit);
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi32(folded, lower_a), _mm_cmplt_epi32(folded, lower_z));
        const __m128i digit = _mm_and_si128(_mm_cmpgt_epi32(c, digit_0), _mm_cmplt_epi32(c, digit_9));
        const __m128i wide = _mm_or_si128(_mm_cmplt_epi32(c, wide_first), _mm_cmpgt_epi32(c, wide_last));
        const __m128i high = _mm_and_si128(_mm_cmpgt_epi32(c, latin1_end), wide);
        mask |= _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(_mm_or_si128(letter, digit), high))) << (4 * half);
    }
    return mask;
}

template <>
inline size_t word_run_end<Role13a>(const uint32_t* s, size_t i, Role13a role_of) {
    while (true) {
        const int certain = certain_13a_word_mask(s + i);
        if (certain == 0xFF) {
            i += 8;
            continue;
        }
        i += (size_t)__builtin_ctz(~certain);
        if (role_of(s[i]) > ROLE_DIGIT) return i;
        ++i;   /* a word character outside the mask */
    }
}
#endif
struct RoleZh {
    inline uint8_t operator()(uint32_t c) const {
        if (c < 0x80) return ASCII_ROLES.regexp[c];
        uint8_t k = char_class(c);
        return (k & REFSCORE_CC_SPACE) ? ROLE_SPACE : (k & REFSCORE_CC_ZH_CHAR) ? ROLE_ISOLATE : ROLE_OTHER;
    }
};
struct RoleIntl {
    inline uint8_t operator()(uint32_t c) const {
        return c < 0x80 ? ASCII_ROLES.intl[c] : intl_role_of_class(char_class(c));
    }
};

/* The tokens of sacreBLEU's regular-expression passes followed by str.split(), over s[first, n), in one scan.
 *
 * The passes only ever insert spaces, so the tokens are the runs of non-space characters between inserted
 * spaces. Which characters the passes isolate follows from re.sub's scanning rule (non-overlapping matches,
 * left to right) applied to
 *     (1) isolating characters -> ' \1 '      (13a and zh first; intl last, which changes nothing below)
 *     (2) ([^digit])([punct]) -> '\1 \2 '
 *     (3) ([punct])([^digit]) -> ' \1 \2'
 *     (4) ([0-9])(-)          -> '\1 \2 '     (13a, zh)
 * For a maximal run of punctuation s..e-1: pass (2) matches at s when a non-digit precedes it (13a's wrapping
 * space counts; at the start of an unwrapped text nothing does), and then at every other character of the run
 * (a match consumes its punctuation, which cannot be the \1 of the next one). So within a run of two or more,
 * every pair of neighbours is separated after pass (2); pass (3) therefore matches at every character but the
 * last, and at the last when what follows it (an inserted space, 13a's wrapping space, or the next character)
 * exists and is not a digit. A punctuation character matched by (2) or (3) is a token of its own; otherwise it
 * stays joined to its neighbours. Pass (4) isolates a '-' right after an ASCII digit (nothing can separate the
 * two before it). WRAP: 13a's ' ' + line + ' '. */
template <class Hash, class RoleOf, bool WRAP, bool DASH_RULE, bool FIND_MARKUP>
static size_t regexp_spans(const uint32_t* s, size_t first, size_t n, Span* out, RoleOf role_of,
                           bool* markup = nullptr) {
    SpanWriter<Hash> writer(s, out);
    size_t i = first;
    bool markup_seen = false;
    while (i < n) {
        uint8_t role = role_of(s[i]);
        if (role <= ROLE_DIGIT) {   /* a run of word characters joins (or opens) the token */
            writer.extend(i++);
            i = word_run_end(s, i, role_of);   /* s[n] is a space */
            if (i == n) break;
            role = role_of(s[i]);
        }
        if (role == ROLE_SPACE) {
            if (FIND_MARKUP) markup_seen |= s[i] == '\n';
            writer.close(i++);
            continue;
        }
        if (role == ROLE_ISOLATE) {
            if (FIND_MARKUP) markup_seen |= (s[i] == '<') | (s[i] == '&');
            writer.isolate(i++);
            continue;
        }
        if (role == ROLE_DASH) {
            if (DASH_RULE && i > first && is_ascii_digit(s[i - 1])) writer.isolate(i);
            else writer.extend(i);
            ++i;
            continue;
        }
        size_t e = i + 1;
        while (e < n && role_of(s[e]) == ROLE_PUNCT) ++e;
        const bool first_matched = (WRAP || i > first) && !(i > first && role_of(s[i - 1]) == ROLE_DIGIT);
        const bool last_matched = ((e - 1 - i) & 1) ? !first_matched : first_matched;  /* by pass (2) */
        for (size_t j = i; j + 1 < e; ++j) writer.isolate(j);
        const bool has_next = WRAP || e < n || last_matched;
        const bool next_is_digit = !last_matched && e < n && role_of(s[e]) == ROLE_DIGIT;
        if (last_matched || (has_next && !next_is_digit)) writer.isolate(e - 1);
        else writer.extend(e - 1);
        i = e;
    }
    writer.close(n);
    if (FIND_MARKUP) *markup = markup_seen;
    return writer.count();
}

/* ---- the tokenizers ------------------------------------------------------------------------------------ */

/* Load one text at text[offset ...] (lowercased first when `lowercase`) and write its tokens, as sacreBLEU's
 * `tokenizer(line.rstrip()).split()` (TOK_13A_UNSTRIPPED: `tokenizer(line).split()`), to spans[n_spans ...] (grown as needed); span starts index `text`.
 * Returns the new number of spans. `scratch` holds the text before lowercasing. Throws std::bad_alloc. */
template <class Hash>
static size_t tokenize_into(int tokenizer, bool lowercase, int kind, const void* data, size_t length,
                            Buffer& text, size_t offset, Buffer& scratch, std::vector<Span>& spans,
                            size_t n_spans) {
    size_t n = length;
    if (lowercase) {
        load_code_points(kind, data, length, scratch, 0);
        ensure_size(text, offset + 2 * length + TOKEN_READ_SLACK);
        n = lowercase_into(scratch.data(), length, text.data() + offset);
    } else {
        load_code_points(kind, data, length, text, offset);
    }
    uint32_t* s = text.data();
    size_t end = offset + (tokenizer == TOK_13A_UNSTRIPPED ? n : rstrip_length(s + offset, n));
    s[end] = ' ';   /* the sentinel regexp_spans' word runs stop at (within the read slack) */
    if (spans.size() < n_spans + (end - offset) + 1) spans.resize(std::max(2 * spans.size(), n_spans + n + 1));
    Span* out = spans.data() + n_spans;
    switch (tokenizer) {
        case TOK_NONE: return n_spans + split_spans<Hash>(s, offset, end, out);
        case TOK_CHAR: return n_spans + char_spans<Hash>(s, offset, end, out);
        case TOK_13A:
        case TOK_13A_UNSTRIPPED: {
            /* 13a's clean-up only changes texts with '<', '&' or '\n', which are isolated or spaces: the scan
             * notices them, and only then is the text cleaned and scanned again */
            bool markup = false;
            const size_t count = regexp_spans<Hash, Role13a, true, true, true>(s, offset, end, out, Role13a(),
                                                                                &markup);
            if (!markup) return n_spans + count;
            end = offset + clean_13a(s + offset, end - offset);
            s[end] = ' ';
            return n_spans + regexp_spans<Hash, Role13a, true, true, false>(s, offset, end, out, Role13a());
        }
        case TOK_ZH: {  /* TokenizerZh strips the line: the text starts at its first non-space */
            size_t first = offset;
            while (first < end && is_space(s[first])) ++first;
            return n_spans + regexp_spans<Hash, RoleZh, false, true, false>(s, first, end, out, RoleZh());
        }
        default: return n_spans + regexp_spans<Hash, RoleIntl, false, false, false>(s, offset, end, out, RoleIntl());
    }
}

/* ---- per-thread token store of a whole call ------------------------------------------------------------ */

/* A thread's tokens as ids of its own interner (`local`); merge_ids maps them to the call's ids. */
struct alignas(64) ThreadStore {  /* own cache lines: no false sharing between threads */
    Interner local;
    std::vector<uint32_t> ids;      /* local ids of all tokens this thread produced */
    int64_t n_tokens = 0;
    Buffer text, scratch;
    std::vector<Span> spans;
    bool failed = false;            /* an allocation failed (reported as MemoryError) */
};

/* Tokenize one segment (lowercased first when `lowercase`); its tokens are appended to `store`, interned with
 * the table slot of a token a few places ahead prefetched so that cache misses overlap. Returns the number of
 * tokens (or 0 with store.failed set when memory ran out). */
static int64_t tokenize_segment(int tokenizer, bool lowercase, int kind, const void* data, int64_t length,
                                ThreadStore& store) noexcept {
    try {
        const size_t count = tokenize_into<CharactersHash>(tokenizer, lowercase, kind, data, (size_t)length,
                                                           store.text, 0, store.scratch, store.spans, 0);
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
 * factor 1/2 natural text needs one or two, so only crafted input with colliding hashes (the hash is not keyed)
 * reaches it, and it keeps such input from making the search quadratic. */
static const int REPEAT_MAX_PROBES = 256;

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
    /* first: the first text with these contents (-1: free slot); group: their group, -1 while met once */
    struct Slot { int64_t first; int64_t group; };
    size_t size = 16;
    while (size < 2 * (size_t)n) size <<= 1;
    std::vector<Slot> table(size, Slot{-1, -1});
    const size_t mask = size - 1;
    int64_t groups = 0;
    for (int64_t t = 0; t < n; ++t) {
        if (t + ahead < n) __builtin_prefetch(&table[(size_t)hashes[(size_t)(t + ahead)] & mask]);
        const uint64_t hash = hashes[(size_t)t];
        size_t index = (size_t)hash & mask;
        int probes = 0;
        group[t] = -1;
        while (true) {
            Slot& slot = table[index];
            if (slot.first < 0) {
                slot = Slot{t, -1};
                break;
            }
            const int64_t first = slot.first;
            if (hashes[(size_t)first] == hash && kinds[first] == kinds[t] && lengths[first] == lengths[t]
                    && (data[first] == data[t]
                        || std::memcmp(data[first], data[t], (size_t)lengths[t] * (size_t)kinds[t]) == 0)) {
                if (slot.group < 0) group[first] = slot.group = groups++;
                group[t] = slot.group;
                break;
            }
            index = (index + 1) & mask;
            if (++probes == REPEAT_MAX_PROBES) break;   /* left ungrouped: repeats are only a shortcut */
        }
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

    std::vector<int64_t> entry_of_group;   /* -1 while the group's text is not cached */
    std::vector<Entry> entries;
    Buffer chars;
    std::vector<uint32_t> tokens;          /* start (relative to the entry's chars) and length of each token */

    void reset(int64_t groups) { entry_of_group.assign((size_t)groups, -1); }
};

/* ---- per-segment encoding (segment-local ids) ------------------------------------------------------------ */

/* The texts of one segment (a hypothesis and its references) as ids interned within the segment: equal
 * tokens of the segment get equal ids, which is all n-gram matching needs. The texts stay in one buffer, so
 * the table refers to their characters without copying them; it is sized for the segment's tokens before
 * interning and emptied by a new stamp. Reused from segment to segment. */
struct alignas(64) SegmentEncoder {
    struct Slot {
        uint64_t hash;
        uint32_t start;   /* of the token's first occurrence in `text` */
        uint32_t length;
        uint32_t id;
        uint32_t stamp;   /* in use when equal to `stamp` */
    };

    Buffer text, scratch;
    size_t text_length = 0;
    std::vector<Span> spans;
    size_t n_spans = 0;
    std::vector<int64_t> offsets;   /* text t of the segment is ids[offsets[t] .. offsets[t + 1]) */
    std::vector<uint32_t> ids;
    std::vector<Slot> slots;
    uint32_t stamp = 0;
    uint32_t first_text_vocabulary = 0;   /* distinct tokens of the first text (set by finish) */

    bool short_segment = true;   /* hash with SegmentHash (else CharactersHash) */

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
            n_spans = short_segment
                ? tokenize_into<SegmentHash>(tokenizer, lowercase, kind, data, (size_t)length, text, text_length,
                                             scratch, spans, n_spans)
                : tokenize_into<CharactersHash>(tokenizer, lowercase, kind, data, (size_t)length, text, text_length,
                                                scratch, spans, n_spans);
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
        } catch (...) {   /* not kept: the text was tokenized all the same */
        }
        return true;
    }

    /* Intern every token of the segment into `ids` (numbered in order of first appearance, so the first text's
     * tokens get ids 0 .. first_text_vocabulary - 1); false when memory ran out. */
    bool finish() noexcept {
        size_t size = 64;
        while (size < 2 * n_spans) size <<= 1;
        try {
            if (slots.size() < size || ++stamp == 0) {
                slots.assign(std::max(size, slots.size()), Slot{0, 0, 0, 0, 0});
                stamp = 1;
            }
            ids.resize(n_spans);
        } catch (...) {
            return false;
        }
        const size_t mask = size - 1;
        const uint32_t* chars = text.data();
        Slot* table = slots.data();
        uint32_t next_id = 0;
        auto intern = [&](size_t from, size_t to) {
            for (size_t k = from; k < to; ++k) {
                const Span& span = spans[k];
                size_t index = (size_t)span.hash & mask;
                while (true) {
                    Slot& slot = table[index];
                    if (slot.stamp != stamp) {
                        slot = Slot{span.hash, (uint32_t)span.start, (uint32_t)span.length, next_id, stamp};
                        ids[k] = next_id++;
                        break;
                    }
                    if (slot.hash == span.hash && slot.length == span.length
                            && same_token(chars + slot.start, chars + span.start, span.length)) {
                        ids[k] = slot.id;
                        break;
                    }
                    index = (index + 1) & mask;
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
                out[k] = Span{start, length, short_segment ? SegmentHash::of(chars + start, length)
                                                           : CharactersHash::of(chars + start, length)};
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
    enum : uint32_t { ABSENT = 0xFFFFFFFFu };   /* the id of a hypothesis token that is not in the reference */
    struct Slot {
        uint64_t hash;
        uint32_t start;    /* in chars */
        uint32_t length;
        uint32_t id;       /* ABSENT: free slot */
    };

    Buffer chars;                 /* the reference's code points, as its tokenizer left them */
    std::vector<Slot> slots;
    size_t mask = 0;
    bool short_segment = true;    /* hashed with SegmentHash (else CharactersHash) */

    /* Take the distinct tokens of `encoder`'s only text (after finish(), which numbered them in order of first
     * appearance); false when memory ran out. */
    bool assign(const SegmentEncoder& encoder) noexcept {
        const size_t n = encoder.first_text_tokens();
        size_t size = 16;
        while (size < 2 * (size_t)encoder.first_text_vocabulary) size <<= 1;
        try {
            const size_t used = encoder.chars_used(0, n, 0);
            chars.assign(encoder.text.begin(), encoder.text.begin() + (std::ptrdiff_t)used);
            chars.resize(used + TOKEN_READ_SLACK, 0u);   /* what same_token may read past a token */
            slots.assign(size, Slot{0, 0, 0, (uint32_t)ABSENT});
        } catch (...) {
            return false;
        }
        mask = size - 1;
        short_segment = encoder.short_segment;
        uint32_t next_id = 0;
        for (size_t k = 0; k < n; ++k) {
            if (encoder.ids[k] != next_id) continue;   /* not the token's first occurrence */
            const Span& span = encoder.spans[k];
            size_t index = (size_t)span.hash & mask;
            while (slots[index].id != ABSENT) index = (index + 1) & mask;
            slots[index] = Slot{span.hash, (uint32_t)span.start, (uint32_t)span.length, next_id++};
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
            size_t index = (size_t)span.hash & mask;
            while (true) {
                const Slot& slot = slots[index];
                if (slot.id == ABSENT || (slot.hash == span.hash && slot.length == span.length
                                          && same_token(chars.data() + slot.start, text + span.start, span.length))) {
                    encoder.ids[k] = slot.id;
                    break;
                }
                index = (index + 1) & mask;
            }
        }
        return true;
    }
};

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
