// Differential check of 13a's two scans: masked_13a_spans (_tokenize_13a_masks.hpp) against regexp_spans
// (_tokenize_kernel.hpp) on random texts, built with the sanitizers. Wherever the mask scan takes a text, both must
// give the same spans (start, length, hash). Texts run up to 2,200 code points; the alphabets are weighted toward
// the characters the masks tell apart (spaces of every width, isolated characters, '.', ',', '-', digits,
// Latin-1 and wider letters, markup). Not part of the test suite (tests/test_tokenize.py checks both scans against
// sacreBLEU itself); docs/architecture.md ("13a by masks") reports its runs.
//
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -I src/refscore/_core
//       fuzz/tokenize_13a_masks_diff.cpp -o /tmp/masks_diff        (one command line; from the repository root)
//   /tmp/masks_diff SEED [TEXTS]
//   (add -U__SSE2__ to the build for the portable paths that builds without SSE2 take)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "_tokenize_text.hpp"

using namespace refscore::tok;

static const uint32_t ALPHABET[] = {'a',    'b',    'Z',   '0',    '9',     '.',  ',',  '-',  ' ',    '\t',   '\r',
                                    0x0B,   0x1C,   0x1F,  0x85,   0xA0,    '\'', '(',  '$',  '/',    '@',    '`',
                                    '~',    '_',    0xE9,  0xDF,   0xFF,    0x00, 0x7F, 0x80, 0x1680, 0x2028, 0x3000,
                                    0x3001, 0x167F, 0x100, 0x6211, 0x1F600, '<',  '&',  '\n', ';'};
static const size_t ALPHABET_SIZE = sizeof(ALPHABET) / sizeof(ALPHABET[0]);
static const size_t ROLES_FIRST = 10; /* ALPHABET[0, ROLES_FIRST): letters, digits, '.', ',', '-', spaces */

int main(int argc, char** argv) {
    std::mt19937_64 random(argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1);
    const long texts = argc > 2 ? std::atol(argv[2]) : 3000000;
    std::vector<Span> masked(5000), scanned(5000);
    long taken = 0;
    for (long t = 0; t < texts; ++t) {
        const size_t length = random() % (t % 100 == 0 ? 2200 : 200); /* every 100th text: past the masks' limit */
        const int alphabet = (int)(random() % 4); /* 0: uniform; 1: letters and the roles; 2, 3: letters and all */
        Buffer text(length + 64 + TOKEN_READ_SLACK);
        for (size_t k = 0; k < length; ++k) {
            const uint64_t draw = random();
            text[k] = alphabet == 0   ? ALPHABET[draw % ALPHABET_SIZE]
                      : draw % 8 < 5  ? (uint32_t)('a' + draw % 3)
                      : alphabet == 1 ? ALPHABET[(draw >> 8) % ROLES_FIRST]
                                      : ALPHABET[(draw >> 8) % ALPHABET_SIZE];
        }
        text[length] = ' '; /* the sentinel tokenize_into writes */
        size_t count = 0;
        if (!masked_13a_spans<SegmentHash>(text.data(), 0, length, masked.data(), &count)) continue;
        ++taken;
        bool markup = false;
        const size_t expected = regexp_spans<SegmentHash, Role13a, true, true, true>(
            text.data(), 0, length, scanned.data(), Role13a(), &markup);
        if (markup || expected != count) {
            std::printf("text %ld (%zu code points): %zu spans by masks, %zu by the scan, markup %d\n", t, length,
                        count, expected, (int)markup);
            return 1;
        }
        for (size_t k = 0; k < count; ++k)
            if (masked[k].start != scanned[k].start || masked[k].length != scanned[k].length
                || masked[k].hash != scanned[k].hash) {
                std::printf("text %ld: span %zu differs\n", t, k);
                return 1;
            }
    }
    std::printf("%ld texts, %ld taken by the mask scan: the same spans\n", texts, taken);
    return 0;
}
