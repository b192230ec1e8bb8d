"""The one hand-off of text to the kernels (``_strings.pxd`` / ``_text.hpp``): the kernels read Python strings' own
buffers and do ``str.rstrip`` and ``str.lower`` themselves, which must equal Python's methods for every code point
(final sigma, 'İ' -> 2 code points and every other special case included)."""
from __future__ import annotations

import re
import sys
import unicodedata
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import tokenize as rouge_score_tokenize

import refscore
from refscore._core import _tokenize
from refscore._core._chrf import SPACE_PYTHON, chrf_statistics
from refscore._core._tokenize import UNICODE_TABLE_VERSIONS, _prepared_text
from refscore.errors import RefscoreWarning
from refscore.metrics.rouge.tokenize import tokenize as rouge_tokens

TABLES_MATCH = unicodedata.unidata_version == UNICODE_TABLE_VERSIONS["unicodedata"]
needs_tables = pytest.mark.skipif(not TABLES_MATCH, reason=(
    f"the kernels' Unicode tables are {UNICODE_TABLE_VERSIONS['unicodedata']}, this Python's "
    f"{unicodedata.unidata_version}: lowercasing is left to str.lower here"))

EVERY_CODE_POINT = [chr(code_point) for code_point in range(sys.maxunicode + 1)]
SPECIAL = ["", " ", "İ", "Σ", "ΑΣ", "ΑΣ ", "ΑΣ.", "ΑΣ\u0301", "ΑΣ\u0301Β", "Σa", "a.Σ", "ß", "ﬃ", "ǅ", "İ\u0307",
           "ΑΣ\u3000", "x \t\n\x1c\x1f\x85\xa0\u2028", "\x1c", "😀𝔸", "\ud800A"]
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=40)
#: The non-ASCII code points whose lowercase holds an ASCII letter or digit ('İ' -> 'i̇', the Kelvin sign -> 'k'):
#: rouge-score's tokenizer keeps only ASCII [a-z0-9] runs, so these are where the ROUGE kernel's lowercasing shows.
LOWERCASE_TO_ASCII = [c for c in EVERY_CODE_POINT if not c.isascii() and re.search("[a-z0-9]", c.lower())]
#: Texts of each storage width of Python strings (1, 2 and 4 bytes per code point) with those code points.
ROUGE_TEXTS = ["ÀB Çd", "x\u212aY\u212a \u0130stanbul \u212a9", "\u0130\U0001d538 \u212a\U0001f600a", *SPECIAL,
               *(f"{c}x {c} a{c}" for c in LOWERCASE_TO_ASCII)]


def rouge_view(hyps: list[str], refs: list[str]) -> tuple[list[list[str]], list[list[float]]]:
    """What the ROUGE metric computes from the texts (the kernel lowercases them): rouge-score's tokens of each
    text and the ROUGE statistics of the pairs."""
    metric = refscore.ROUGE(types=("rouge1", "rougeL", "rougeLsum"))
    with warnings.catch_warnings():   # the warning that rouge-score's tokenizer drops most of these texts
        warnings.simplefilter("ignore", RefscoreWarning)
        statistics = metric.statistics(hyps, [[ref] for ref in refs])
    return [rouge_tokens(text) for text in hyps + refs], statistics.data.tolist()


def expected(text: str, rstrip: bool, lowercase: bool) -> str:
    text = text.rstrip() if rstrip else text
    return text.lower() if lowercase else text


@needs_tables
def test_lowercase_of_every_code_point_equals_str_lower() -> None:
    together = "".join(EVERY_CODE_POINT)   # each one in the context of its neighbours
    apart = " ".join(EVERY_CODE_POINT)     # each one alone
    for text in (together, apart):
        assert _prepared_text(text, False, True) == text.lower()


@needs_tables
@pytest.mark.parametrize("text", SPECIAL)
@pytest.mark.parametrize("rstrip", [False, True])
@pytest.mark.parametrize("lowercase", [False, True])
def test_special_cases_equal_python(text: str, rstrip: bool, lowercase: bool) -> None:
    assert _prepared_text(text, rstrip, lowercase) == expected(text, rstrip, lowercase)


@needs_tables
@settings(max_examples=400, deadline=None)
@given(text=ANY_TEXT, rstrip=st.booleans(), lowercase=st.booleans())
def test_random_text_equals_python(text: str, rstrip: bool, lowercase: bool) -> None:
    assert _prepared_text(text, rstrip, lowercase) == expected(text, rstrip, lowercase)


def test_rouge_tokens_of_every_code_point_equal_rouge_scores() -> None:
    """The ROUGE kernel reads the strings' buffers and lowercases them itself: its tokens are rouge-score's."""
    for text in ("".join(EVERY_CODE_POINT), " ".join(EVERY_CODE_POINT), *ROUGE_TEXTS):
        assert rouge_tokens(text) == rouge_score_tokenize.tokenize(text, None), text[:40]


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=0xFF), max_size=60))
def test_rouge_tokens_of_one_byte_texts_equal_rouge_scores(text: str) -> None:
    """One-byte strings: an all-ASCII one is read as its own UTF-8 (lowercased within ASCII), one with a Latin-1
    letter through the code-point path; both give rouge-score's tokens."""
    for candidate in (text, text.encode("ascii", "ignore").decode("ascii")):
        assert rouge_tokens(candidate) == rouge_score_tokenize.tokenize(candidate, None)


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(ANY_TEXT, min_size=1, max_size=4), data=st.data())
def test_python_lowercasing_fallback_gives_the_same_statistics(hyps: list[str], data: st.DataObject) -> None:
    """On a Python whose Unicode version differs from the tables', str.lower runs before the kernels instead."""
    refs = data.draw(st.lists(ANY_TEXT, min_size=len(hyps), max_size=len(hyps)))
    offsets = np.arange(len(hyps) + 1, dtype=np.int64)
    in_kernel = chrf_statistics(hyps, refs, offsets, 3, 2, 4.0, False, SPACE_PYTHON, lowercase=True)
    ter_in_kernel = refscore.TER().statistics(hyps, [[ref] for ref in refs]).data
    rouge_hyps, rouge_refs = hyps + ROUGE_TEXTS, refs + ROUGE_TEXTS[::-1]
    rouge_in_kernel = rouge_view(rouge_hyps, rouge_refs)
    saved = _tokenize._LOWERCASE_IN_KERNEL
    _tokenize._LOWERCASE_IN_KERNEL = False
    try:
        in_python = chrf_statistics(hyps, refs, offsets, 3, 2, 4.0, False, SPACE_PYTHON, lowercase=True)
        ter_in_python = refscore.TER().statistics(hyps, [[ref] for ref in refs]).data
        rouge_in_python = rouge_view(rouge_hyps, rouge_refs)
    finally:
        _tokenize._LOWERCASE_IN_KERNEL = saved
    assert in_kernel.tolist() == in_python.tolist()
    assert ter_in_kernel.tolist() == ter_in_python.tolist()
    rouge_lowered = rouge_view([h.lower() for h in rouge_hyps], [r.lower() for r in rouge_refs])
    assert rouge_in_kernel == rouge_in_python == rouge_lowered
    lowered = chrf_statistics([h.lower() for h in hyps], [r.lower() for r in refs], offsets, 3, 2, 4.0, False,
                              SPACE_PYTHON)
    assert in_kernel.tolist() == lowered.tolist()
