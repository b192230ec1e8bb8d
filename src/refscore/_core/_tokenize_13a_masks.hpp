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
enum ByteRole : uint8_t {
    BYTE_SPACE = 1 << 0,
    BYTE_ISOLATE = 1 << 1,
    BYTE_PUNCT = 1 << 2,
    BYTE_DASH = 1 << 3,
    BYTE_DIGIT = 1 << 4,
    BYTE_MARKUP = 1 << 5,
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

/* Bit k of the result: whether roles[k] has role bit BIT (k = 0..63). */
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
    uint64_t space[capacity], isolate[capacity], punct[capacity], dash[capacity], digit[capacity];
    alignas(16) uint8_t roles[64];
    uint8_t seen = 0;
    for (size_t b = 0; b < blocks; ++b) {
        const size_t from = 64 * b, size = std::min<size_t>(64, n - from);
        for (size_t k = 0; k < size; ++k) {
            roles[k] = role_bits_13a(chars[from + k]);
            seen |= roles[k];
        }
        std::fill(roles + size, roles + 64, (uint8_t)BYTE_SPACE); /* past the end: what ends a token */
        space[b] = role_mask<0>(roles);
        isolate[b] = role_mask<1>(roles);
        punct[b] = role_mask<2>(roles);
        dash[b] = role_mask<3>(roles);
        digit[b] = role_mask<4>(roles);
    }
    if (seen & BYTE_MARKUP) return false;
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
