// The one way text reaches the kernels: Python strings' own PEP 393 buffers (1, 2 or 4 bytes per code point),
// pointed at once per batch by `point_at_strings` (_strings.pxd), read here as code points, with Python's
// str.isspace, str.rstrip and str.lower (full case mapping, final sigma included) done in the kernel from the
// generated tables of _unicode_tables.h. The binding falls back to str.lower in Python when the running Python's
// Unicode version differs from the tables' (see `kernel_case` in _tokenize.pyx).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "_unicode_tables.h"

namespace refscore {

// The texts of one batch: text t is `lengths[t]` code points of kind `kinds[t]` (1, 2 or 4 bytes) at `data[t]`.
struct TextBatch {
    const void* const* data = nullptr;
    const int* kinds = nullptr;
    const int64_t* lengths = nullptr;
};

// The buffers of a list of Python strings, filled once per batch by `point_at_strings` (_strings.pxd); the list
// keeps the strings alive while a kernel reads them.
struct StringBuffers {
    std::vector<const void*> data;
    std::vector<int> kinds;
    std::vector<int64_t> lengths;
    int64_t total_chars = 0;
    TextBatch batch() const {
        TextBatch texts;
        texts.data = data.data();
        texts.kinds = kinds.data();
        texts.lengths = lengths.data();
        return texts;
    }
};

inline uint8_t char_class(uint32_t c) {
    if (c > REFSCORE_CC_MAX_CODE_POINT) return 0;
    return refscore_cc_stage2[((size_t)refscore_cc_stage1[c >> REFSCORE_CC_BLOCK_BITS] << REFSCORE_CC_BLOCK_BITS)
                              | (c & ((1u << REFSCORE_CC_BLOCK_BITS) - 1))];
}

// ASCII whitespace of str.isspace: \t \n \v \f \r (9-13), \x1c-\x1f, ' '.
struct AsciiSpaces {
    bool space[128];
    AsciiSpaces() {
        for (uint32_t c = 0; c < 128; ++c) space[c] = c <= 0x20 && ((0x1F0003E00ULL >> c) & 1);
    }
};
static const AsciiSpaces ASCII_SPACES;

// Python's str.isspace (the separators of str.split / str.rstrip / str.strip); a table lookup for ASCII, so that
// scanning text has no data-dependent branch but the token boundaries.
inline bool is_space(uint32_t c) {
    if (c < 0x80) return ASCII_SPACES.space[c];
    return (char_class(c) & REFSCORE_CC_SPACE) != 0;
}

// Copy code points to destination[0, length) (a widening copy the compiler vectorises).
template <class Char>
inline void copy_code_points(const Char* __restrict__ source, size_t length, uint32_t* __restrict__ destination) {
    for (size_t i = 0; i < length; ++i) destination[i] = source[i];
}

// Copy a PEP 393 buffer of `length` code points to `destination` (room for `length`).
inline void read_code_points(int kind, const void* data, size_t length, uint32_t* destination) {
    if (kind == 1)
        copy_code_points(static_cast<const uint8_t*>(data), length, destination);
    else if (kind == 2)
        copy_code_points(static_cast<const uint16_t*>(data), length, destination);
    else if (length > 0)
        std::memcpy(destination, data, length * sizeof(uint32_t));
}

inline bool is_case_ignorable(uint32_t c) { return (char_class(c) & REFSCORE_CC_CASE_IGNORABLE) != 0; }

// Python's handle_capital_sigma: U+03A3 becomes final sigma when a cased letter precedes it and none follows
// (case-ignorable characters skipped both ways), judged on the original text.
inline bool is_final_sigma(const uint32_t* text, size_t length, size_t i) {
    uint32_t c = 0;
    size_t j = i;
    while (j > 0 && is_case_ignorable(c = text[j - 1])) --j;
    if (j == 0 || !(char_class(c) & REFSCORE_CC_CASED)) return false;
    size_t k = i + 1;
    while (k < length && is_case_ignorable(text[k])) ++k;
    return k == length || !(char_class(text[k]) & REFSCORE_CC_CASED);
}

// Python's str.lower of text[0, length): calls emit(c) for each code point of the result, in order.
template <class Emit>
inline void for_each_lowercase(const uint32_t* text, size_t length, Emit&& emit) {
    for (size_t i = 0; i < length; ++i) {
        uint32_t c = text[i];
        if (c < 0x80) {
            emit((c >= 'A' && c <= 'Z') ? c + 32 : c);
            continue;
        }
        if (!(char_class(c) & REFSCORE_CC_LOWER_CHANGES)) {
            emit(c);
            continue;
        }
        if (c == REFSCORE_CAPITAL_SIGMA) {
            emit(is_final_sigma(text, length, i) ? 0x3C2u : 0x3C3u);
            continue;
        }
        size_t low = 0, high = REFSCORE_LOWER_COUNT;  // c is in refscore_lower_from
        while (high - low > 1) {
            size_t middle = (low + high) / 2;
            if (refscore_lower_from[middle] <= c)
                low = middle;
            else
                high = middle;
        }
        emit(refscore_lower_first[low]);
        if (refscore_lower_second[low]) emit(refscore_lower_second[low]);
    }
}

// text.lower() into `out` (room for 2 * length: no code point lowercases to more than two); returns its length.
inline size_t lowercase_into(const uint32_t* text, size_t length, uint32_t* out) {
    size_t n = 0;
    for_each_lowercase(text, length, [&](uint32_t c) { out[n++] = c; });
    return n;
}

// len(text.rstrip()).
inline size_t rstrip_length(const uint32_t* text, size_t length) {
    while (length > 0 && is_space(text[length - 1])) --length;
    return length;
}

// What a kernel does to a text before its own processing, in Python's order: text.rstrip() then .lower().
struct TextPreparation {
    bool rstrip = false;
    bool lowercase = false;
};

// Append text `t` of `batch`, prepared, to `out` as code points (`scratch`: working memory for lowercasing).
// Returns the number of code points appended. Throws std::bad_alloc.
inline size_t append_text(const TextBatch& batch, int64_t t, TextPreparation preparation, std::vector<uint32_t>& out,
                          std::vector<uint32_t>& scratch) {
    const size_t length = static_cast<size_t>(batch.lengths[t]);
    const size_t start = out.size();
    if (!preparation.lowercase) {
        out.resize(start + length);
        read_code_points(batch.kinds[t], batch.data[t], length, out.data() + start);
        if (preparation.rstrip) out.resize(start + rstrip_length(out.data() + start, length));
        return out.size() - start;
    }
    if (scratch.size() < length) scratch.resize(length);
    read_code_points(batch.kinds[t], batch.data[t], length, scratch.data());
    const size_t kept = preparation.rstrip ? rstrip_length(scratch.data(), length) : length;
    out.resize(start + 2 * kept);
    out.resize(start + lowercase_into(scratch.data(), kept, out.data() + start));
    return out.size() - start;
}

}  // namespace refscore
