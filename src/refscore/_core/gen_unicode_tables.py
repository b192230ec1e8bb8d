"""Generate ``_unicode_tables.h``: the per-code-point character classes the compiled tokenizers use.

The tokenizers must split text exactly where sacreBLEU 2.6 does, so every class is taken from the very
implementation sacreBLEU relies on, in the Python that runs this script:

- ``SPACE``: Python's ``str.isspace`` (the whitespace of ``str.split()`` / ``str.rstrip()``);
- ``NUMBER``, ``PUNCT``, ``SYMBOL``: ``\\p{N}``, ``\\p{P}``, ``\\p{S}`` of the third-party ``regex`` module, which
  sacreBLEU's ``intl`` tokenizer uses (its own Unicode tables, not :mod:`unicodedata`'s);
- ``CASED``, ``CASE_IGNORABLE``, ``LOWER_CHANGES`` and the ``refscore_lower_*`` arrays: what Python's
  ``str.lower`` does (sacreBLEU lowercases with it): the full lowercase mapping of each code point, and the
  properties its Final_Sigma rule consults (a capital sigma becomes 'ς' after a cased letter, case-ignorable
  characters skipped, unless a cased letter follows). Python does not expose those properties, so they are
  read off ``str.lower`` itself (see :func:`sigma_properties`);
- ``ZH_CHAR``: sacreBLEU's ``TokenizerZh._is_chinese_char``, reproduced by comparing with the same string literals
  (``'\\u20000'`` is the two characters U+2000 '0'), hence its documented quirk: U+2001..U+2A6D count as Chinese
  and CJK Extension B (U+20000..) does not.

The table is two-level: ``refscore_cc_stage1[cp >> 8]`` selects a 256-entry block of ``refscore_cc_stage2``.
Regenerate (and commit the header) after upgrading ``regex`` or the reference Python::

    python src/refscore/_core/gen_unicode_tables.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import regex

SPACE, NUMBER, PUNCT, SYMBOL, ZH_CHAR, CASED, CASE_IGNORABLE, LOWER_CHANGES = 1, 2, 4, 8, 16, 32, 64, 128
CAPITAL_SIGMA = 0x3A3
MAX_CODE_POINT = 0x10FFFF
BLOCK_BITS = 8

# Verbatim from sacrebleu/tokenizers/tokenizer_zh.py (2.6.0), including the "UTF-16" entries that are
# two-character strings.
SACREBLEU_ZH_RANGES = [
    (u'\u3400', u'\u4db5'), (u'\u4e00', u'\u9fa5'), (u'\u9fa6', u'\u9fbb'), (u'\uf900', u'\ufa2d'),
    (u'\ufa30', u'\ufa6a'), (u'\ufa70', u'\ufad9'), (u'\u20000', u'\u2a6d6'), (u'\u2f800', u'\u2fa1d'),
    (u'\uff00', u'\uffef'), (u'\u2e80', u'\u2eff'), (u'\u3000', u'\u303f'), (u'\u31c0', u'\u31ef'),
    (u'\u2f00', u'\u2fdf'), (u'\u2ff0', u'\u2fff'), (u'\u3100', u'\u312f'), (u'\u31a0', u'\u31bf'),
    (u'\ufe10', u'\ufe1f'), (u'\ufe30', u'\ufe4f'), (u'\u2600', u'\u26ff'), (u'\u2700', u'\u27bf'),
    (u'\u3200', u'\u32ff'), (u'\u3300', u'\u33ff'),
]

HEADER = Path(__file__).with_name("_unicode_tables.h")


def is_sacrebleu_chinese_char(char: str) -> bool:
    return any(start <= char <= end for start, end in SACREBLEU_ZH_RANGES)


def sigma_properties(char: str) -> tuple[bool, bool]:
    """(case-ignorable, cased) as far as Python's Final_Sigma rule can tell them apart.

    ``"A" + c + "Σ"`` ends in 'ς' when c is case-ignorable (skipped, 'A' is cased) or cased; ``c + "Σ"`` ends
    in 'ς' only when c is cased and not case-ignorable. The rule never asks whether a case-ignorable character
    is cased, so ``cased`` is reported for the others only.
    """
    after_cased = ("A" + char + "\u03a3").lower().endswith("\u03c2")
    alone = (char + "\u03a3").lower().endswith("\u03c2")
    return after_cased and not alone, alone


def lowercase_mappings() -> list[tuple[int, str]]:
    """(code point, its str.lower()) for every code point that lowercasing changes, in order."""
    return [(code_point, chr(code_point).lower()) for code_point in range(MAX_CODE_POINT + 1)
            if chr(code_point).lower() != chr(code_point)]


def char_classes() -> bytearray:
    """One byte of class flags per code point 0..U+10FFFF."""
    number, punct, symbol = (regex.compile(p) for p in (r"\p{N}", r"\p{P}", r"\p{S}"))
    classes = bytearray(MAX_CODE_POINT + 1)
    for code_point in range(MAX_CODE_POINT + 1):
        char = chr(code_point)
        flags = 0
        if char.isspace():
            flags |= SPACE
        if number.match(char):
            flags |= NUMBER
        if punct.match(char):
            flags |= PUNCT
        if symbol.match(char):
            flags |= SYMBOL
        if is_sacrebleu_chinese_char(char):
            flags |= ZH_CHAR
        case_ignorable, cased = sigma_properties(char)
        if case_ignorable:
            flags |= CASE_IGNORABLE
        if cased:
            flags |= CASED
        if char.lower() != char:
            flags |= LOWER_CHANGES
        classes[code_point] = flags
    return classes


def two_level(classes: bytearray) -> tuple[list[int], list[bytes]]:
    block_size = 1 << BLOCK_BITS
    blocks: dict[bytes, int] = {}
    stage1 = []
    for start in range(0, len(classes), block_size):
        block = bytes(classes[start:start + block_size])
        stage1.append(blocks.setdefault(block, len(blocks)))
    return stage1, list(blocks)


def render(stage1: list[int], blocks: list[bytes], lowered: list[tuple[int, str]]) -> str:
    def rows(values, per_row: int) -> str:
        values = list(values)
        return ",\n".join("    " + ", ".join(str(v) for v in values[i:i + per_row])
                          for i in range(0, len(values), per_row))

    stage2 = b"".join(blocks)
    if max(len(lower) for _, lower in lowered) > 2:
        raise SystemExit("a lowercase mapping longer than two characters: extend refscore_lower_second")
    index_type = "uint8_t" if len(blocks) <= 256 else "uint16_t"
    return f"""\
/* Generated by gen_unicode_tables.py -- do not edit.
 * Python {sys.version.split()[0]} (unicodedata {__import__('unicodedata').unidata_version}), regex {regex.__version__}.
 * Character classes of the compiled tokenizers; see gen_unicode_tables.py for their sources. */
#ifndef REFSCORE_UNICODE_TABLES_H
#define REFSCORE_UNICODE_TABLES_H
#include <stdint.h>

#define REFSCORE_CC_SPACE {SPACE}
#define REFSCORE_CC_NUMBER {NUMBER}
#define REFSCORE_CC_PUNCT {PUNCT}
#define REFSCORE_CC_SYMBOL {SYMBOL}
#define REFSCORE_CC_ZH_CHAR {ZH_CHAR}
#define REFSCORE_CC_CASED {CASED}
#define REFSCORE_CC_CASE_IGNORABLE {CASE_IGNORABLE}
#define REFSCORE_CC_LOWER_CHANGES {LOWER_CHANGES}
#define REFSCORE_CAPITAL_SIGMA {CAPITAL_SIGMA:#x}
#define REFSCORE_LOWER_COUNT {len(lowered)}
#define REFSCORE_CC_BLOCK_BITS {BLOCK_BITS}
#define REFSCORE_CC_MAX_CODE_POINT {MAX_CODE_POINT:#x}

static const {index_type} refscore_cc_stage1[{len(stage1)}] = {{
{rows(stage1, 24)}
}};

static const uint8_t refscore_cc_stage2[{len(stage2)}] = {{
{rows(stage2, 32)}
}};

/* str.lower of the code points it changes (sorted): first character, and the second one or 0. */
static const uint32_t refscore_lower_from[{len(lowered)}] = {{
{rows((code_point for code_point, _ in lowered), 12)}
}};

static const uint32_t refscore_lower_first[{len(lowered)}] = {{
{rows((ord(lower[0]) for _, lower in lowered), 12)}
}};

static const uint32_t refscore_lower_second[{len(lowered)}] = {{
{rows((ord(lower[1]) if len(lower) > 1 else 0 for _, lower in lowered), 12)}
}};

#endif
"""


def main() -> None:
    stage1, blocks = two_level(char_classes())
    HEADER.write_text(render(stage1, blocks, lowercase_mappings()), encoding="ascii")
    print(f"wrote {HEADER} ({len(blocks)} blocks of {1 << BLOCK_BITS})")


if __name__ == "__main__":
    main()
