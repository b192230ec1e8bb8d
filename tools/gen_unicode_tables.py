"""Generate every Unicode table of refscore, from the Python that runs it, which must be Python 3.11 (Unicode 14.0.0).

The tables are committed and the build reads them as they are (meson runs no generator: a build needs neither the
``regex`` module nor a particular Python). ``python3.11 tools/gen_unicode_tables.py --check`` says whether the
committed files are what this script writes; tests/test_unicode_tables.py runs that check.

**1. ``src/refscore/_core/_unicode_tables.h``**: the per-code-point character classes of the compiled tokenizers.
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
The header records both versions; on a Python with another Unicode version the kernel leaves lowercasing to
``str.lower`` (see ``_tokenize.pyx``). Regenerate after upgrading ``regex``.

**2. ``src/refscore/text/_unicode_words.py``**: the frozen character classes of ROUGE's
``tokenizer="unicode"``. The classes come from the Unicode Character Database of the Python that runs this script
(``unicodedata``), which must be :data:`PINNED_VERSION`; the generated module is committed, so the tokenizer is the
same on every Python, whatever its own ``unicodedata`` version. Classes, by General Category of Unicode 14.0.0:

- ``WORD``: letters (``L*``: Lu, Ll, Lt, Lm, Lo) and numbers (``N*``: Nd, Nl, No) outside the ranges below;
- ``SINGLE``: letters and numbers in :data:`SINGLE_RANGES` (CJK ideographs, kana, halfwidth katakana): each is a
  token of its own, as characters are the usual unit of Chinese and Japanese ROUGE;
- ``MARK``: marks (``M*``: Mn, Mc, Me) and the two Join_Control characters U+200C ZWNJ / U+200D ZWJ (they sit
  inside Persian and Indic words): they extend the token before them and never start one;
- everything else separates: spaces, punctuation (U+30FB ``・`` is Po), symbols, controls, format characters other
  than ZWNJ/ZWJ, private use, surrogates, and code points unassigned in 14.0.0 (U+2EBF0, CJK Extension I of 15.1).

Moving the pinned version changes that tokenizer, so its signature names the version.

    python3.11 tools/gen_unicode_tables.py           # write both tables
    python3.11 tools/gen_unicode_tables.py --check   # exit 1 when a committed table differs
"""
from __future__ import annotations

import argparse
import bisect
import sys
import unicodedata
from pathlib import Path
from typing import Callable

import regex

ROOT = Path(__file__).resolve().parent.parent
PINNED_VERSION = "14.0.0"
GENERATOR = "tools/gen_unicode_tables.py"

# ---- 1. the compiled tokenizers' classes (_unicode_tables.h) ------------------------------------------------

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


def sacrebleu_chinese_chars(chars: list[str]) -> set[int]:
    """Code points that sacreBLEU's ``_is_chinese_char`` accepts: ``start <= char <= end`` for a range, compared as
    strings (single characters sort by code point, so each range is the interval found by bisecting ``chars``)."""
    accepted: set[int] = set()
    for start, end in SACREBLEU_ZH_RANGES:
        accepted.update(range(bisect.bisect_left(chars, start), bisect.bisect_right(chars, end)))
    return accepted


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



def lowercase_mappings() -> list[tuple[int, str]]:
    """(code point, its str.lower()) for every code point that lowercasing changes, in order."""
    return [(code_point, chr(code_point).lower()) for code_point in range(MAX_CODE_POINT + 1)
            if chr(code_point).lower() != chr(code_point)]


def char_classes() -> bytearray:
    """One byte of class flags per code point 0..U+10FFFF."""
    chars = [chr(code_point) for code_point in range(MAX_CODE_POINT + 1)]
    classes = bytearray(MAX_CODE_POINT + 1)
    # each pattern matches one code point, so finditer over all of them is a match per code point
    everything = "".join(chars)
    for flag, pattern in ((NUMBER, r"\p{N}"), (PUNCT, r"\p{P}"), (SYMBOL, r"\p{S}")):
        for found in regex.finditer(pattern, everything):
            classes[found.start()] |= flag
    for code_point in sacrebleu_chinese_chars(chars):
        classes[code_point] |= ZH_CHAR
    for code_point, char in enumerate(chars):
        flags = classes[code_point]
        if char.isspace():
            flags |= SPACE
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


def render_header(stage1: list[int], blocks: list[bytes], lowered: list[tuple[int, str]]) -> str:
    def rows(values, per_row: int) -> str:
        values = list(values)
        return ",\n".join("    " + ", ".join(str(v) for v in values[i:i + per_row])
                          for i in range(0, len(values), per_row))

    stage2 = b"".join(blocks)
    if max(len(lower) for _, lower in lowered) > 2:
        raise SystemExit("a lowercase mapping longer than two characters: extend refscore_lower_second")
    index_type = "uint8_t" if len(blocks) <= 256 else "uint16_t"
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"""\
/* Generated by {GENERATOR} -- do not edit.
 * Python {python} (unicodedata {unicodedata.unidata_version}), regex {regex.__version__}.
 * Character classes of the compiled tokenizers; see {GENERATOR} for their sources. */
#ifndef REFSCORE_UNICODE_TABLES_H
#define REFSCORE_UNICODE_TABLES_H
#include <stdint.h>

#define REFSCORE_TABLES_UNIDATA_VERSION "{unicodedata.unidata_version}"
#define REFSCORE_TABLES_REGEX_VERSION "{regex.__version__}"

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



def tokenizer_header() -> str:
    stage1, blocks = two_level(char_classes())
    return render_header(stage1, blocks, lowercase_mappings())


# ---- 2. ROUGE's tokenizer="unicode" (_unicode_words.py) --------------------------------------------------------

SEPARATOR, WORD, SINGLE, MARK = 0, 1, 2, 3
SINGLE_RANGES = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
                 (0xFF66, 0xFF9D), (0x20000, 0x3134F))
JOIN_CONTROLS = (0x200C, 0x200D)


def character_class(cp: int) -> int:
    """The class of one code point under the running Python's ``unicodedata``."""
    category = unicodedata.category(chr(cp))
    if category[0] == "M" or cp in JOIN_CONTROLS:
        return MARK
    if category[0] in "LN":
        return SINGLE if any(lo <= cp <= hi for lo, hi in SINGLE_RANGES) else WORD
    return SEPARATOR


def class_ranges() -> dict[int, list[tuple[int, int]]]:
    """Inclusive code point ranges of each non-separator class."""
    ranges: dict[int, list[tuple[int, int]]] = {WORD: [], SINGLE: [], MARK: []}
    start, current = 0, character_class(0)
    for cp in range(1, 0x110000 + 1):
        cls = character_class(cp) if cp <= 0x10FFFF else -1
        if cls != current:
            if current != SEPARATOR:
                ranges[current].append((start, cp - 1))
            start, current = cp, cls
    return ranges


def render_rouge_words(ranges: dict[int, list[tuple[int, int]]]) -> str:
    def table(name: str, cls: int) -> str:
        items = [f"(0x{lo:04X}, 0x{hi:04X})," for lo, hi in ranges[cls]]
        body = "".join("    " + " ".join(items[k:k + 5]) + "\n" for k in range(0, len(items), 5))
        return f"{name}: tuple[tuple[int, int], ...] = (\n{body})\n"
    return (f'"""Generated by {GENERATOR} from the Unicode Character Database {PINNED_VERSION}\n'
            f'(Python\'s unicodedata); do not edit. Inclusive code point ranges of the classes of ROUGE\'s\n'
            f'tokenizer="unicode" (see {GENERATOR})."""\n\n'
            f'UNICODE_VERSION = "{PINNED_VERSION}"\n'
            + table("WORD_RANGES", WORD) + table("SINGLE_RANGES", SINGLE) + table("MARK_RANGES", MARK))



def rouge_words_module() -> str:
    return render_rouge_words(class_ranges())


# ---- both -------------------------------------------------------------------------------------------------------

#: Every generated table: its path in the repository and what writes it.
TABLES: dict[str, Callable[[], str]] = {
    "src/refscore/_core/_unicode_tables.h": tokenizer_header,
    "src/refscore/text/_unicode_words.py": rouge_words_module,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a committed table differs from what would be written")
    args = parser.parse_args(argv)
    if unicodedata.unidata_version != PINNED_VERSION:
        sys.exit(f"gen_unicode_tables.py: error: run it with a Python whose unicodedata is {PINNED_VERSION} "
                 f"(Python 3.11), not {unicodedata.unidata_version}")
    stale = []
    for relative, generate in TABLES.items():
        path, text = ROOT / relative, generate()
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(relative)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {relative}")
    if stale:
        print(f"not what {GENERATOR} writes: {', '.join(stale)}; run python3.11 {GENERATOR}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
