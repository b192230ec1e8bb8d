// sacreBLEU's 13a tokenizer, 64 characters at a time.
//
// regexp_spans (_tokenize_kernel.hpp) decides per character, and the end of each word is a branch that no
// predictor can learn (word lengths vary). Here the characters' roles become bit masks, the rules of 13a's
// regular expressions become operations on those masks, and the tokens are read off two masks (their first and
// their last characters) with one loop iteration per token. The spans are exactly regexp_spans' for
// <Role13a, WRAP, DASH_RULE>; a text this file does not take is left to regexp_spans:
//   - markup ('<', '&', '\n': 13a's clean-up may change the text, see clean_13a),
//   - a run of two or more of '.' and ',' (re.sub's alternating matches, see regexp_spans),
//   - more than MASKED_13A_MAX_CHARS characters (the masks live on the stack).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "_tokenize_kernel.hpp"

namespace refscore::tok {

static const size_t MASKED_13A_MAX_CHARS = 2048;

/* A character's roles under 13a, one bit each (from ASCII_ROLES.latin1_13a, the per-character scan's table, so that
 * both read one definition); BYTE_MARKUP marks what 13a's clean-up looks for. */
enum RoleBit : int { BIT_SPACE = 0, BIT_ISOLATE, BIT_PUNCT, BIT_DASH, BIT_DIGIT, BIT_MARKUP };
enum ByteRole : uint8_t {
    BYTE_SPACE = 1 << BIT_SPACE,
    BYTE_ISOLATE = 1 << BIT_ISOLATE,
    BYTE_PUNCT = 1 << BIT_PUNCT,
    BYTE_DASH = 1 << BIT_DASH,
    BYTE_DIGIT = 1 << BIT_DIGIT,
    BYTE_MARKUP = 1 << BIT_MARKUP,
};

struct ByteRoles13a {
    uint8_t of[256];
    ByteRoles13a() {
        for (uint32_t c = 0; c < 256; ++c) {
            const uint8_t role = ASCII_ROLES.latin1_13a[c];
            of[c] = (uint8_t)((role == ROLE_SPACE ? BYTE_SPACE : 0) | (role == ROLE_ISOLATE ? BYTE_ISOLATE : 0)
                              | (role == ROLE_PUNCT ? BYTE_PUNCT : 0) | (role == ROLE_DASH ? BYTE_DASH : 0)
                              | (role == ROLE_DIGIT ? BYTE_DIGIT : 0)
                              | (c == '<' || c == '&' || c == '\n' ? BYTE_MARKUP : 0));
        }
    }
};
/* defined after ASCII_ROLES in every translation unit (this header includes _tokenize_kernel.hpp), so built after it */
static const ByteRoles13a BYTE_ROLES_13A;

/* Role13a's roles of code point c as bits: above Latin-1 only the wide spaces are not word characters. */
static inline uint8_t role_bits_13a(uint32_t c) {
    if (c < 256) return BYTE_ROLES_13A.of[c];
    return c - FIRST_WIDE_SPACE <= LAST_WIDE_SPACE - FIRST_WIDE_SPACE && is_space(c) ? BYTE_SPACE : 0;
}

#if defined(__SSE2__)
static inline __m128i bytes_equal(__m128i x, int c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8((char)c)); }
/* lo <= x <= hi, bytes as unsigned */
static inline __m128i bytes_between(__m128i x, int lo, int hi) {
    const __m128i above = _mm_subs_epu8(_mm_sub_epi8(x, _mm_set1_epi8((char)lo)), _mm_set1_epi8((char)(hi - lo)));
    return _mm_cmpeq_epi8(above, _mm_setzero_si128());
}
static inline __m128i role_bit(__m128i is, int bit) { return _mm_and_si128(is, _mm_set1_epi8((char)bit)); }

/* role_bits_13a of 16 Latin-1 characters given as bytes: the table's roles written as byte ranges (13a's isolated
 * characters and str.isspace below U+0100; tests/test_tokenize.py checks every Latin-1 character against sacreBLEU). */
static inline __m128i latin1_role_bits_13a(__m128i x) {
    const __m128i space = _mm_or_si128(_mm_or_si128(bytes_between(x, 0x09, 0x0D), bytes_between(x, 0x1C, 0x20)),
                                       _mm_or_si128(bytes_equal(x, 0x85), bytes_equal(x, 0xA0)));
    const __m128i isolate = _mm_or_si128(
        _mm_or_si128(_mm_or_si128(bytes_between(x, 0x21, 0x26), bytes_between(x, 0x28, 0x2B)), bytes_equal(x, 0x2F)),
        _mm_or_si128(bytes_between(x, 0x3A, 0x40),
                     _mm_or_si128(bytes_between(x, 0x5B, 0x60), bytes_between(x, 0x7B, 0x7E))));
    const __m128i punct = _mm_or_si128(bytes_equal(x, '.'), bytes_equal(x, ','));
    const __m128i markup = _mm_or_si128(_mm_or_si128(bytes_equal(x, '<'), bytes_equal(x, '&')), bytes_equal(x, '\n'));
    return _mm_or_si128(
        _mm_or_si128(_mm_or_si128(role_bit(space, BYTE_SPACE), role_bit(isolate, BYTE_ISOLATE)),
                     _mm_or_si128(role_bit(punct, BYTE_PUNCT), role_bit(bytes_equal(x, '-'), BYTE_DASH))),
        _mm_or_si128(role_bit(bytes_between(x, '0', '9'), BYTE_DIGIT), role_bit(markup, BYTE_MARKUP)));
}

/* When chars[0, 16) are all below U+0100: their role bits to roles[0, 16), and true. */
static inline bool latin1_roles_16(const uint32_t* chars, uint8_t* roles) {
    const __m128i* lanes = reinterpret_cast<const __m128i*>(chars);
    /* signed saturation keeps every code point above 0xFF above it */
    const __m128i low = _mm_packs_epi32(_mm_loadu_si128(lanes), _mm_loadu_si128(lanes + 1));
    const __m128i high = _mm_packs_epi32(_mm_loadu_si128(lanes + 2), _mm_loadu_si128(lanes + 3));
    const __m128i latin1_end = _mm_set1_epi16(0xFF);
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpgt_epi16(low, latin1_end), _mm_cmpgt_epi16(high, latin1_end))))
        return false;
    _mm_store_si128(reinterpret_cast<__m128i*>(roles), latin1_role_bits_13a(_mm_packus_epi16(low, high)));
    return true;
}
#endif

/* The role bits of chars[0, size) to roles[0, 64), spaces past `size` (what ends a token); size <= 64. */
static inline void roles_13a(const uint32_t* chars, size_t size, uint8_t* roles) {
    for (size_t part = 0; part < 64; part += 16) {
#if defined(__SSE2__)
        if (part + 16 <= size && latin1_roles_16(chars + part, roles + part)) continue;
#endif
        const size_t stop = std::min<size_t>(part + 16, std::max<size_t>(size, part));
        for (size_t k = part; k < stop; ++k) roles[k] = role_bits_13a(chars[k]);
        for (size_t k = stop; k < part + 16; ++k) roles[k] = BYTE_SPACE;
    }
}

/* Bit k of the result: whether roles[k] has role bit BIT (a RoleBit; k = 0..63). */
template <int BIT>
static inline uint64_t role_mask(const uint8_t* roles) {
    uint64_t mask = 0;
#if defined(__SSE2__)
    for (int part = 0; part < 4; ++part) {
        const __m128i lanes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(roles + 16 * part));
        /* bit BIT of each byte to its top bit (a 16-bit shift moves no bit across a byte's top) */
        mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lanes, 7 - BIT)) << (16 * part);
    }
#else
    for (int k = 0; k < 64; ++k) mask |= (uint64_t)((roles[k] >> BIT) & 1) << k;
#endif
    return mask;
}

/* The 13a tokens of text[offset, offset + n) (already stripped as the caller's tokenizer wants) as spans of `text`
 * into out[0 ..]; sets *count. Returns false, having written nothing that counts, for a text regexp_spans must take
 * (see the top of this file). */
template <class Hash>
static bool masked_13a_spans(const uint32_t* text, size_t offset, size_t n, Span* out, size_t* count) {
    if (n > MASKED_13A_MAX_CHARS) return false;
    const size_t blocks = (n + 63) / 64;
    const size_t capacity = MASKED_13A_MAX_CHARS / 64 + 1;
    const uint32_t* chars = text + offset;
    uint64_t space[capacity], isolate[capacity], punct[capacity], dash[capacity], digit[capacity], markup = 0;
    alignas(16) uint8_t roles[64];
    for (size_t b = 0; b < blocks; ++b) {
        roles_13a(chars + 64 * b, std::min<size_t>(64, n - 64 * b), roles);
        markup |= role_mask<BIT_MARKUP>(roles);
        space[b] = role_mask<BIT_SPACE>(roles);
        isolate[b] = role_mask<BIT_ISOLATE>(roles);
        punct[b] = role_mask<BIT_PUNCT>(roles);
        dash[b] = role_mask<BIT_DASH>(roles);
        digit[b] = role_mask<BIT_DIGIT>(roles);
    }
    if (markup) return false;
    /* single[b]: characters that are a token of their own; word[b]: characters that join their neighbours */
    uint64_t single[capacity], word[capacity];
    uint64_t digit_before = 0, punct_before = 0; /* the previous block's last character */
    for (size_t b = 0; b < blocks; ++b) {
        const uint64_t after_digit = (digit[b] << 1) | digit_before;
        const uint64_t before_digit = (digit[b] >> 1) | (b + 1 < blocks ? digit[b + 1] << 63 : 0);
        if (punct[b] & ((punct[b] << 1) | punct_before)) return false; /* a run of '.' and ',' */
        /* ([0-9])(-) isolates a dash after a digit; a lone '.' or ',' joins its neighbours only between two digits
         * (passes (2) and (3) of regexp_spans) */
        single[b] = isolate[b] | (dash[b] & after_digit) | (punct[b] & ~(after_digit & before_digit));
        word[b] = ~(space[b] | single[b]);
        digit_before = digit[b] >> 63;
        punct_before = punct[b] >> 63;
    }
    word[blocks] = 0;
    /* token k starts at the k-th bit of `starts` and ends at the k-th bit of `ends` (one token may span blocks) */
    Span* next = out;
    size_t start = 0;
    bool open = false;
    uint64_t word_before = 0;
    for (size_t b = 0; b < blocks; ++b) {
        const uint64_t words = word[b];
        uint64_t starts = (words & ~((words << 1) | word_before)) | single[b];
        uint64_t ends = (words & ~((words >> 1) | (word[b + 1] << 63))) | single[b];
        word_before = words >> 63;
        const size_t base = offset + 64 * b;
        while (ends) {
            if (!open) {
                start = base + (size_t)__builtin_ctzll(starts);
                starts &= starts - 1;
            }
            open = false;
            const size_t end = base + (size_t)__builtin_ctzll(ends) + 1;
            ends &= ends - 1;
            *next++ = Span{start, end - start, Hash::of(text + start, end - start)};
        }
        if (starts) {
            start = base + (size_t)__builtin_ctzll(starts);
            open = true;
        }
    }
    *count = (size_t)(next - out);
    return true;
}

}  // namespace refscore::tok
