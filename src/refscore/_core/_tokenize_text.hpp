// A text's tokens, as sacreBLEU's tokenizers cut them: the entry point of the tokenizers (tokenize_into), which
// loads the text as code points and picks the scan: _tokenize_13a_masks.hpp's masks under 13a,
// _tokenize_kernel.hpp's per-character scans otherwise. Callers: _tokenize_vocabulary.hpp (a call's vocabulary) and
// _tokenize_segments.hpp (per-segment ids for the n-gram kernels).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "_tokenize_13a_masks.hpp"
#include "_tokenize_kernel.hpp"

namespace refscore::tok {

/* ---- the tokenizers ------------------------------------------------------------------------------------ */

/* Load one text at text[offset ...] (lowercased first when `lowercase`) and write its tokens, as sacreBLEU's
 * `tokenizer(line.rstrip()).split()` (TOK_13A_UNSTRIPPED: `tokenizer(line).split()`), to spans[n_spans ...] (grown as
 * needed); span starts index `text`. Returns the new number of spans. `scratch` holds the text before lowercasing.
 * Throws std::bad_alloc. */
template <class Hash>
static size_t tokenize_into(int tokenizer, bool lowercase, int kind, const void* data, size_t length, Buffer& text,
                            size_t offset, Buffer& scratch, std::vector<Span>& spans, size_t n_spans) {
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
    s[end] = ' '; /* the sentinel regexp_spans' word runs stop at (within the read slack) */
    if (spans.size() < n_spans + (end - offset) + 1) spans.resize(std::max(2 * spans.size(), n_spans + n + 1));
    Span* out = spans.data() + n_spans;
    switch (tokenizer) {
        case TOK_NONE:
            return n_spans + split_spans<Hash>(s, offset, end, out);
        case TOK_CHAR:
            return n_spans + char_spans<Hash>(s, offset, end, out);
        case TOK_13A:
        case TOK_13A_UNSTRIPPED: {
            /* 13a's clean-up only changes texts with '<', '&' or '\n', which are isolated or spaces: the scan
             * notices them, and only then is the text cleaned and scanned again */
            size_t masked = 0; /* by masks, unless the text needs the scan below */
            if (masked_13a_spans<Hash>(s, offset, end - offset, out, &masked)) return n_spans + masked;
            bool markup = false;
            const size_t count = regexp_spans<Hash, Role13a, true, true, true>(s, offset, end, out, Role13a(), &markup);
            if (!markup) return n_spans + count;
            end = offset + clean_13a(s + offset, end - offset);
            s[end] = ' ';
            return n_spans + regexp_spans<Hash, Role13a, true, true, false>(s, offset, end, out, Role13a());
        }
        case TOK_ZH: { /* TokenizerZh strips the line: the text starts at its first non-space */
            size_t first = offset;
            while (first < end && is_space(s[first])) ++first;
            return n_spans + regexp_spans<Hash, RoleZh, false, true, false>(s, first, end, out, RoleZh());
        }
        default:
            return n_spans + regexp_spans<Hash, RoleIntl, false, false, false>(s, offset, end, out, RoleIntl());
    }
}

}  // namespace refscore::tok
