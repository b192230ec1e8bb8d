// Compiled sacreBLEU 2.6 tokenizers over code points: a text in, its tokens out as spans (start, length, hash).
//
// Every tokenizer reproduces sacreBLEU's BLEU preprocessing of one segment,
//     tokens = tokenizer(sent.rstrip()).split()
// (lowercasing reproduces Python's str.lower, from generated tables). A text becomes token spans in one scan:
// sacreBLEU's regular expressions only insert spaces, and which characters they isolate follows from re.sub's
// scanning rule (see regexp_spans), so overlapping cases such as "a.,5" split exactly as in sacreBLEU.
//
// _tokenize_text.hpp's tokenize_into loads a text and picks its scan (this file's, or _tokenize_13a_masks.hpp's masks
// under 13a). The spans are then interned in one of two ways: for a whole call in a vocabulary
// (_tokenize_vocabulary.hpp, bound by _tokenize.pyx), or per segment for n-gram statistics (_tokenize_segments.hpp,
// used by _ngrams_kernel.hpp). Both intern in _hash_table.hpp's tables; the tokens' hashes are _tokenize_hash.hpp's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "_text.hpp"
#include "_tokenize_hash.hpp"

namespace refscore::tok {

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

static inline bool is_ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline void ensure_size(Buffer& buffer, size_t size) {
    if (buffer.size() < size) buffer.resize(size > 2 * buffer.size() ? size : 2 * buffer.size());
}

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
        if (!open_) {
            open_ = true;
            start_ = i;
        }
    }
    inline void close(size_t end) {
        if (open_) {
            *next_++ = Span{start_, end - start_, Hash::of(text_ + start_, end - start_)};
            open_ = false;
        }
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
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) || (c >= 0x28 && c <= 0x2B)
           || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

static inline uint8_t intl_role_of_class(uint8_t k) {
    return (k & REFSCORE_CC_SPACE)    ? ROLE_SPACE
           : (k & REFSCORE_CC_PUNCT)  ? ROLE_PUNCT
           : (k & REFSCORE_CC_SYMBOL) ? ROLE_ISOLATE
           : (k & REFSCORE_CC_NUMBER) ? ROLE_DIGIT
                                      : ROLE_OTHER;
}

/* Every space of str.isspace above U+00FF lies in [U+1680, U+3000] (U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000; tests/test_tokenize.py checks each code point). */
static const uint32_t FIRST_WIDE_SPACE = 0x1680, LAST_WIDE_SPACE = 0x3000;

struct AsciiRoles {
    uint8_t regexp[128]; /* 13a and zh */
    uint8_t intl[128];
    uint8_t latin1_13a[257]; /* 13a's roles of U+0000-U+00FF; [256]: any wider character outside the spaces' range */
    AsciiRoles() {
        for (uint32_t c = 0; c < 128; ++c) {
            regexp[c] = is_space(c)              ? ROLE_SPACE
                        : is_13a_split_char(c)   ? ROLE_ISOLATE
                        : (c == '.' || c == ',') ? ROLE_PUNCT
                        : c == '-'               ? ROLE_DASH
                        : is_ascii_digit(c)      ? ROLE_DIGIT
                                                 : ROLE_OTHER;
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
        ++i; /* a word character outside the mask */
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
        if (role <= ROLE_DIGIT) { /* a run of word characters joins (or opens) the token */
            writer.extend(i++);
            i = word_run_end(s, i, role_of); /* s[n] is a space */
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
            if (DASH_RULE && i > first && is_ascii_digit(s[i - 1]))
                writer.isolate(i);
            else
                writer.extend(i);
            ++i;
            continue;
        }
        size_t e = i + 1;
        while (e < n && role_of(s[e]) == ROLE_PUNCT) ++e;
        const bool first_matched = (WRAP || i > first) && !(i > first && role_of(s[i - 1]) == ROLE_DIGIT);
        const bool last_matched = ((e - 1 - i) & 1) ? !first_matched : first_matched; /* by pass (2) */
        for (size_t j = i; j + 1 < e; ++j) writer.isolate(j);
        const bool has_next = WRAP || e < n || last_matched;
        const bool next_is_digit = !last_matched && e < n && role_of(s[e]) == ROLE_DIGIT;
        if (last_matched || (has_next && !next_is_digit))
            writer.isolate(e - 1);
        else
            writer.extend(e - 1);
        i = e;
    }
    writer.close(n);
    if (FIND_MARKUP) *markup = markup_seen;
    return writer.count();
}

}  // namespace refscore::tok
