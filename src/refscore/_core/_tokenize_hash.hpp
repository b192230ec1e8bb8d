// How the tokenizers' tokens are hashed and compared: a token is a run of code points in a text buffer that keeps
// TOKEN_READ_SLACK readable code points after its last one, so short tokens are read as masked 16-byte blocks
// without branches. Two hashes: the full hash of the characters (a call's vocabulary, long segments) and a cheap
// shape hash for the small table of a short segment (_tokenize_segments.hpp). Equality is always decided on the
// characters.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "_hash_table.hpp"

namespace refscore::tok {

using refscore::multiply_mix64;

/* The offset and the block multipliers are keyed (refscore::hash_key(), docs/reliability.md): tokens crafted to
 * collide under one key do not collide under another. */
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
    return _mm_and_si128(_mm_loadu_si128((const __m128i*)text),
                         _mm_load_si128((const __m128i*)LANE_MASKS.lanes[count]));
}
static inline Block xor_blocks(Block a, Block b) { return _mm_xor_si128(a, b); }
static inline Block or_blocks(Block a, Block b) { return _mm_or_si128(a, b); }
static inline uint64_t low_half(Block a) { return (uint64_t)_mm_cvtsi128_si64(a); }
static inline uint64_t high_half(Block a) { return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a)); }
static inline bool is_zero(Block a) { return _mm_movemask_epi8(_mm_cmpeq_epi32(a, _mm_setzero_si128())) == 0xFFFF; }
#else
struct Block {
    uint64_t low, high;
};
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
    const refscore::HashKey& key = refscore::hash_key();
    uint64_t hash = HASH_SEED ^ key.seed;
    size_t k = 0;
    for (; k + 8 < length; k += 4) {
        const Block block = load_block(text + k, 4);
        hash = (hash ^ (low_half(block) * key.multipliers[0]) ^ high_half(block)) * HASH_MULTIPLIER;
    }
    const size_t rest = length - k; /* 0..8; min/max compile to conditional moves */
    const Block first = load_block(text + k, std::min<size_t>(rest, 4));
    const Block second = load_block(text + k + 4, std::max<size_t>(rest, 4) - 4);
    hash ^= low_half(first) * key.multipliers[0];
    hash ^= high_half(first) * key.multipliers[1];
    hash ^= low_half(second) * key.multipliers[2];
    hash ^= high_half(second) * key.multipliers[3];
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

/* refscore::same_items for tokens that both have TOKEN_READ_SLACK readable characters after them: the usual
 * token of up to eight characters is compared as two masked blocks, without a loop. */
static inline bool same_token(const uint32_t* a, const uint32_t* b, size_t length) {
    if (length > 8) return refscore::same_items(a, b, length);
    const size_t low = std::min<size_t>(length, 4), high = std::max<size_t>(length, 4) - 4;
    return is_zero(or_blocks(xor_blocks(load_block(a, low), load_block(b, low)),
                             xor_blocks(load_block(a + 4, high), load_block(b + 4, high))));
}

}  // namespace refscore::tok
