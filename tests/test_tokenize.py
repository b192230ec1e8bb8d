"""The compiled tokenizers against sacreBLEU 2.6's, token for token, and the id contract of ``encode_words``."""
from __future__ import annotations

import doctest
import unicodedata
from contextlib import contextmanager

import numpy as np
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from conftest import read_segments, shared_data_path
from refscore._core import _tokenize
from refscore._core._tokenize import (
    TOKENIZERS,
    UNICODE_TABLE_VERSIONS,
    _char_classes,
    encode_words,
    encode_words_with_vocab,
)
from refscore.errors import InputError, InputTypeError

SACREBLEU = {name: _get_tokenizer(name)() for name in TOKENIZERS}

SPACE, NUMBER, PUNCT, SYMBOL, ZH_CHAR, CASED, CASE_IGNORABLE, LOWER_CHANGES = 1, 2, 4, 8, 16, 32, 64, 128
ALL_CODE_POINTS = np.arange(0x110000, dtype=np.uint32)


@contextmanager
def every_thread_busy():
    """Let small test batches use every requested thread (normally small batches run on one thread)."""
    saved = _tokenize._CHARS_PER_THREAD
    _tokenize._CHARS_PER_THREAD = 1
    try:
        yield
    finally:
        _tokenize._CHARS_PER_THREAD = saved


def sacrebleu_tokens(text: str, tokenizer: str, lowercase: bool) -> list[str]:
    """sacreBLEU's BLEU preprocessing of one segment (``BLEU._preprocess_segment``), re-split."""
    if lowercase:
        text = text.lower()
    return SACREBLEU[tokenizer](text.rstrip()).split()


def refscore_tokens(texts: list[str], tokenizer: str, lowercase: bool, num_threads: int = 1) -> list[list[str]]:
    ids, offsets, vocab = encode_words_with_vocab(texts, tokenizer, lowercase, num_threads)
    assert ids.dtype == np.uint32 and offsets.dtype == np.int64 and len(offsets) == len(texts) + 1
    return [[vocab[k] for k in ids[offsets[i]:offsets[i + 1]]] for i in range(len(texts))]


def assert_same_as_sacrebleu(texts: list[str], tokenizer: str, lowercase: bool = False) -> None:
    ours = refscore_tokens(texts, tokenizer, lowercase)
    for index, text in enumerate(texts):
        expected = sacrebleu_tokens(text, tokenizer, lowercase)
        assert ours[index] == expected, f"{tokenizer} lowercase={lowercase} segment {index}: {text!r}"


# ---- property tests ------------------------------------------------------------------------------------

WHITESPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
PIECES = [
    "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "&amp;quot;", "<skipped>", "<skip", "-\n", "\n", "3.14", "1,000",
    "2020.", "2020-01", "e-mail", "don't", "...", ".,", ",5", "a.", "İ", "ẞ", "Σ", "ΑΣ ", "e\u0301", "\u0308",
    "我爱你", "。", "，", "、", "「", "」", "\uff01", "\uff10", "\u2014", "\u2026", "\u201c", "\u201d", "\u2000",
    "\u2001", "\u2a6d", "\u2a6e", "\u2f80", "\u2f81", "\u2fa1", "\U00020000", "\U0002a6d6", "\U0001f600",
    "²", "½", "١٢", "€", "$", "→", "\u00ad", "\ufeff", "\ud800", "한국어", "カタカナ", "ｶﾀｶﾅ",
]
SEGMENT = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.sampled_from(WHITESPACE),
        st.characters(codec="ascii"),
        st.characters(categories=("P", "S", "N", "Mn", "Lo", "Zs")),
        st.characters(min_codepoint=0x2000, max_codepoint=0x33FF),
        st.characters(),
    ),
    max_size=30,
).map("".join)
BATCH = st.lists(SEGMENT, min_size=0, max_size=6)


@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@settings(max_examples=150, deadline=None)
@given(texts=BATCH, lowercase=st.booleans())
def test_random_unicode_matches_sacrebleu(tokenizer, texts, lowercase):
    assert_same_as_sacrebleu(texts, tokenizer, lowercase)


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(SEGMENT, min_size=1, max_size=40), tokenizer=st.sampled_from(TOKENIZERS))
def test_ids_are_interned_per_call_and_thread_independent(texts, tokenizer):
    ids, offsets, vocab = encode_words_with_vocab(texts, tokenizer)
    assert len(set(vocab)) == len(vocab)
    assert sorted(set(ids.tolist())) == list(range(len(vocab)))
    first_seen = list(dict.fromkeys(ids.tolist()))
    assert first_seen == list(range(len(vocab))), "ids are numbered in order of first appearance"
    for threads in (2, 3):
        with every_thread_busy():
            other_ids, other_offsets = encode_words(texts, tokenizer, num_threads=threads)
        np.testing.assert_array_equal(other_ids, ids)
        np.testing.assert_array_equal(other_offsets, offsets)


# ---- golden examples (anchors.md §2.1.1 and §5, produced by sacreBLEU) -----------------------------------

@pytest.mark.parametrize(("tokenizer", "text", "expected"), [
    ("13a", "Don't stop-now, it's 3.14 or 1,000. E-mail: a@b.com (ok) 2020-01",
     "Don't stop-now , it's 3.14 or 1,000 . E-mail : a @ b . com ( ok ) 2020 - 01"),
    ("intl", "Don't stop-now, it's 3.14 or 1,000. E-mail: “quoted” in 2020.",
     "Don ' t stop - now , it ' s 3.14 or 1,000 . E - mail : “ quoted ” in 2020."),
    ("zh", "He said “hello”—ok… x²→y 我爱你", "He said “ hello ” — ok … x² → y 我 爱 你"),
    ("char", "a b 我", "a b 我"),
    ("none", "  a\u3000b\xa0 ", "a b"),
])
def test_golden_examples(tokenizer, text, expected):
    assert refscore_tokens([text], tokenizer, False) == [expected.split()]


def test_13a_word_runs_across_eight_character_blocks():
    """13a's word runs are scanned eight characters at a time: runs of every length around the block size, made of
    ASCII letters and digits, Latin-1 letters, Latin-1 and wide spaces and the characters just outside each range
    the scan tests."""
    pieces = ["a", "z", "A", "Z", "0", "9", "`", "{", "@", "[", "/", ":", ".", ",", "-", " ", "\t", "é", "ÿ",
              "\xa0", "\x85", "\x80", "Ā", "č", "\u167f", "\u1680", "\u2000", "\u200b", "\u3000", "\u3001"]
    generator = np.random.default_rng(0)
    texts = ["".join(generator.choice(pieces, size=length)) for length in range(1, 26) for _ in range(40)]
    texts += ["x" * n for n in range(1, 26)] + ["Straße" * 3, "příliš žluťoučký kůň", "abcdefgh ijklmnop q1234567"]
    assert_same_as_sacrebleu(texts, "13a")
    assert_same_as_sacrebleu(texts, "13a", lowercase=True)


#: Pieces of text that 13a's mask scan (_tokenize_13a_masks.hpp) treats differently: every role, '.' and ',' between
#: digits, a dash after a digit, runs of '.' and ',' and markup (both left to the per-character scan), Latin-1 and
#: wide spaces, letters, control characters.
MASK_PIECES = [".", ",", "-", "0", "9", " ", "\t", "\r", "\x0b", "\x1c", "\x1f", "\x85", "\xa0", "'", "a", "Z", "é",
                 "ß", "ÿ", "\x00", "\x7f", "\x80", "(", "$", "/", "@", "`", "~", "_", "3.5", "1,000", "9-", "-9", "9.", ".9",
                 "9,", ",9", "x.", ".x", "\u1680", "\u2028", "\u3000", "\u3001", "\u167f", "Ā", "我", "\U0001f600",
                 "...", ".,", "<", "&", "\n", "&amp;", "<skipped>", "-\n", "word", "x" * 20]
MASK_TEXT = st.lists(st.one_of(st.sampled_from(MASK_PIECES), st.characters(max_codepoint=0xFF)),
                       max_size=120).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts=st.lists(MASK_TEXT, min_size=1, max_size=6), lowercase=st.booleans())
def test_13a_masks_match_sacrebleu(texts, lowercase):
    """13a cuts texts by 64-character masks: texts of a few blocks made of every role the masks distinguish, mostly
    Latin-1, stripped (13a) and unstripped (Hugging Face's copy)."""
    assert_same_as_sacrebleu(texts, "13a", lowercase)
    expected = [SACREBLEU["13a"](text.lower() if lowercase else text).split() for text in texts]
    assert refscore_tokens(texts, "13a-unstripped", lowercase) == expected


def test_13a_every_latin1_character_in_every_neighbourhood():
    """The mask scan reads 16 Latin-1 characters at a time through byte ranges (the per-character table's roles
    written out): every character from U+0000 to U+00FF between letters, digits, spaces, '.' and '-', alone and in a
    run of 16, where the ranges decide."""
    texts = []
    for code in range(256):
        c = chr(code)
        for left, right in [("a", "b"), ("1", "2"), (" ", " "), (".", "."), ("-", "9"), ("9", "-"), ("", "")]:
            texts.append("x" * 15 + left + c + right + "y" * 15)
            texts.append("z" * 16 + left + c + right + c * 16)
    assert_same_as_sacrebleu(texts, "13a")


def test_13a_masks_across_64_character_blocks():
    """A token, a number's '.' or ',' and a dash after a digit on either side of a 64-character boundary; texts of
    exactly one and two blocks, the longest text the masks take (2,048 characters) and one more."""
    texts = []
    for boundary in (64, 128, 2048):
        for tail in ["bc d", "3.5", ".5", "5.", "-5", "5-", ",0 x", " a", "a-b", "(x)", "\xa0y", "1.2.3"]:
            for shift in range(1, 4):
                texts.append("w" * (boundary - shift) + tail)
                texts.append("1" * (boundary - shift) + tail)
                texts.append("a " * ((boundary - shift) // 2) + tail)
    texts += ["z" * 64, "z" * 128, "y " * 32, "9" * 2048, "9 " * 1024, "9" * 2049, "a." * 1024, "a.b " * 513]
    assert_same_as_sacrebleu(texts, "13a")
    assert_same_as_sacrebleu(texts, "13a", lowercase=True)


def test_13a_unescapes_in_sacrebleu_order_and_drops_skipped():
    text = "a &amp;quot; &amp;lt; &apos; <skipped>b c-\nd e-\n"
    assert refscore_tokens([text], "13a", False) == [["a", "&", "quot", ";", "<", "&", "apos", ";", "b", "cd", "e-"]]
    assert_same_as_sacrebleu([text, "<skip<skipped>ped>", "-<skipped>\nx", "&&quot;quot;"], "13a")


TRAILING = st.lists(st.sampled_from(["d", "-", "-\n", "\n", " ", "\t", "\r", "\x85", "\u2028", "<skipped>", "<skip",
                                     "ped>", "&amp;", "lt;", "3", ".", "é", "É"]), max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.one_of(TRAILING, SEGMENT), min_size=1, max_size=8), lowercase=st.booleans())
def test_13a_unstripped_is_13a_without_the_strip_of_trailing_whitespace(texts, lowercase):
    """The tokenizer of Hugging Face's bleu/google_bleu scripts: sacreBLEU's Tokenizer13a on the whole text."""
    expected = [SACREBLEU["13a"](text.lower() if lowercase else text).split() for text in texts]
    assert refscore_tokens(texts, "13a-unstripped", lowercase) == expected
    assert refscore_tokens(["a b c d-\n", "d-<skipped>\n"], "13a-unstripped", False) == [["a", "b", "c", "d"], ["d"]]
    assert refscore_tokens(["a b c d-\n"], "13a", False) == [["a", "b", "c", "d-"]]


def test_regex_passes_resume_after_each_match_like_re_sub():
    # "a.,5": the ',' is consumed by the first period/comma match, so it stays attached to the 5.
    assert refscore_tokens(["a.,5"], "13a", False) == [["a", ".", ",5"]]
    assert_same_as_sacrebleu(["a.,5", ".5", " .5", "5.-5", "x,,y", "1-2-3", "..a..", ",,,,"], "13a")
    assert_same_as_sacrebleu([".5", " .5", "a.,5 “x”", "\u3000.5"], "zh")


def test_lowercase_uses_full_unicode_case_mapping():
    texts = ["İstanbul ΣΟΦΟΣ ẞ ǅ", "ΑΣ. Σ", "AΣ'", "Σ'A", "ʰΣ", "AʰΣ"]
    assert_same_as_sacrebleu(texts, "13a", lowercase=True)
    assert_same_as_sacrebleu(texts, "none", lowercase=True)
    assert refscore_tokens(["İ"], "none", True) == [["i\u0307"]]


def test_lowercase_of_every_code_point_equals_str_lower():
    text = " ".join(map(chr, range(0x110000)))
    assert refscore_tokens([text], "none", True) == [text.lower().split()]


def test_lowercase_fallback_to_str_lower_gives_the_same_ids(monkeypatch):
    texts = ["İstanbul ΣΟΦΟΣ", "ΑΣ. Σ", "Ünïcödé ẞ"]
    in_kernel = encode_words(texts, "13a", lowercase=True)
    monkeypatch.setattr(_tokenize, "_LOWERCASE_IN_KERNEL", False)
    fallback = encode_words(texts, "13a", lowercase=True)
    for ours, theirs in zip(in_kernel, fallback):
        np.testing.assert_array_equal(ours, theirs)
    with pytest.raises(InputTypeError, match=r"texts\[1\] is NoneType"):
        encode_words(["a", None], lowercase=True)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="AaΣσΑ'.:\u0301\u00ad\u02b0\u0345 -İ1", max_size=12))
def test_lowercase_final_sigma_rule(text):
    assert refscore_tokens([text], "none", True) == [text.lower().split()]


# ---- character classes (the generated table) -------------------------------------------------------------

def _matches(pattern: str) -> np.ndarray:
    text = "".join(map(chr, range(0x110000)))
    found = np.zeros(0x110000, dtype=bool)
    found[[match.start() for match in regex.finditer(pattern, text)]] = True
    return found


def test_class_table_matches_python_and_regex():
    classes = _char_classes(ALL_CODE_POINTS)
    is_space = np.array([chr(c).isspace() for c in range(0x110000)])
    np.testing.assert_array_equal((classes & SPACE) != 0, is_space)
    # sacreBLEU's intl output follows the installed regex module; the table is that of the generator's regex.
    compared = np.ones(0x110000, dtype=bool)
    if regex.__version__ != UNICODE_TABLE_VERSIONS["regex"]:
        compared = np.array([unicodedata.category(chr(c)) != "Cn" for c in range(0x110000)])
    for flag, pattern in ((NUMBER, r"\p{N}"), (PUNCT, r"\p{P}"), (SYMBOL, r"\p{S}")):
        np.testing.assert_array_equal(((classes & flag) != 0)[compared], _matches(pattern)[compared])
    assert _char_classes(np.array([0x110000, 0xFFFFFFFF], dtype=np.uint32)).tolist() == [0, 0]


def test_every_space_separates_tokens_like_sacrebleu():
    # 13a looks U+0000-U+00FF up in a table and tests wider characters for spaces only within U+1680-U+3000
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    assert all(c <= 0xFF or 0x1680 <= c <= 0x3000 for c in spaces)
    texts = [f"a{chr(c)}b{chr(c)}-.{chr(c)}" for c in spaces] + [f"a{chr(c)}b" for c in range(0x100, 0x3100)]
    for tokenizer in TOKENIZERS:
        assert_same_as_sacrebleu(texts, tokenizer, False)


@pytest.mark.skipif(unicodedata.unidata_version != UNICODE_TABLE_VERSIONS["unicodedata"],
                    reason="this Python's Unicode version differs from the tables'; str.lower is used instead")
def test_lowercase_table_matches_str_lower():
    classes = _char_classes(ALL_CODE_POINTS)
    lower_changes = np.array([chr(c).lower() != chr(c) for c in range(0x110000)])
    np.testing.assert_array_equal((classes & LOWER_CHANGES) != 0, lower_changes)


def test_zh_table_reproduces_sacrebleu_range_quirk():
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__
    code_points = np.arange(0x30000, dtype=np.uint32)
    expected = np.array([is_chinese(chr(c)) for c in range(0x30000)])
    np.testing.assert_array_equal((_char_classes(code_points) & ZH_CHAR) != 0, expected)
    assert expected[0x2014] and not expected[0x20000] and not expected[0x2000] and expected[0x2A6D]


# ---- real data -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("pair", "tokenizer", "files"), [
    ("en-zh", "zh", ["ref.txt", "ref2.txt", "sys/HuaweiTSC.txt", "sys/Online-W.txt"]),
    ("en-zh", "char", ["ref.txt"]),
    ("en-ja", "char", ["ref.txt", "sys/Online-W.txt", "sys/NT5.txt"]),
    ("en-ja", "zh", ["ref.txt"]),
    ("en-de", "13a", ["ref.txt", "ref2.txt", "sys/Online-W.txt"]),
    ("en-de", "intl", ["ref.txt", "sys/Online-W.txt"]),
])
def test_wmt22_matches_sacrebleu(pair, tokenizer, files):
    lines = [line for name in files for line in read_segments(shared_data_path("wmt22", pair, name))]
    assert_same_as_sacrebleu(lines, tokenizer)
    if tokenizer in ("13a", "zh"):
        assert_same_as_sacrebleu(lines[:500], tokenizer, lowercase=True)


def test_docstring_examples():
    assert doctest.testmod(_tokenize).failed == 0


# ---- the ids contract and input checks -------------------------------------------------------------------

def test_equal_tokens_get_equal_ids_across_texts():
    ids, offsets, vocab = encode_words_with_vocab(["the cat , the", "", "cat the"], "none")
    assert vocab == ["the", "cat", ","]
    assert ids.tolist() == [0, 1, 2, 0, 1, 0]
    assert offsets.tolist() == [0, 4, 4, 6]


def test_empty_inputs():
    ids, offsets = encode_words([])
    assert ids.dtype == np.uint32 and ids.size == 0 and offsets.tolist() == [0]
    for tokenizer in TOKENIZERS:
        ids, offsets, vocab = encode_words_with_vocab(["", " \n\t", "\u3000"], tokenizer)
        assert ids.size == 0 and offsets.tolist() == [0, 0, 0, 0] and vocab == []


def test_long_segment_and_many_threads():
    text = ("Ein Satz, mit 3.5 Zahlen & Zeichen: “ok”—我爱你 " * 5000).strip()
    for tokenizer in TOKENIZERS:
        single = encode_words([text, text[:1000]] * 3, tokenizer, num_threads=1)
        with every_thread_busy():
            multi = encode_words([text, text[:1000]] * 3, tokenizer, num_threads=4)
        np.testing.assert_array_equal(single[0], multi[0])
        np.testing.assert_array_equal(single[1], multi[1])
    assert_same_as_sacrebleu([text], "13a")


def test_accepts_tuples_and_string_subclasses():
    class Line(str):
        pass

    assert refscore_tokens(list((Line("a b"), "c")), "none", False) == [["a", "b"], ["c"]]
    ids, offsets = encode_words(("a b", "b"), "none")
    assert ids.tolist() == [0, 1, 1]


def test_unknown_and_unsupported_tokenizers():
    with pytest.raises(InputError, match=r"tokenizer='13b'.*13a, intl, zh, char, none"):
        encode_words(["a"], tokenizer="13b")
    for name in ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200"):
        with pytest.raises(InputError, match="not supported"):
            encode_words(["a"], tokenizer=name)
    with pytest.raises(InputError, match="not a known tokenizer"):
        encode_words(["a"], tokenizer=None)


def test_bad_texts():
    with pytest.raises(InputTypeError, match=r"texts\[1\] is NoneType.*empty string"):
        encode_words(["a", None])
    with pytest.raises(InputTypeError, match=r"texts\[0\] is bytes"):
        encode_words([b"a"])
    with pytest.raises(InputTypeError, match="list of str, got str"):
        encode_words("a b")
    with pytest.raises(ValueError, match="num_threads"):
        encode_words(["a"], num_threads=0)


def test_token_ids_outside_uint32_keep_equal_ids_equal_and_distinct_ids_distinct():
    from refscore.metrics.word_batch import _token_id_layout

    ids, offsets = _token_id_layout([np.array([7, -99, 7], dtype=np.int64), np.array([-99]),
                                     np.array([], dtype=np.int64), np.array([2**40])])
    assert ids.dtype == np.uint32 and offsets.dtype == np.int64
    assert offsets.tolist() == [0, 3, 4, 4, 5]
    values = ids.tolist()
    assert values[0] == values[2] and values[1] == values[3] and len({values[0], values[1], values[4]}) == 3
    small, _ = _token_id_layout([np.array([3, 5, 3])])
    assert small.tolist() == [3, 5, 3]  # within uint32 the ids are used as they are
