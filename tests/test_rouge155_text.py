"""ROUGE-1.5.5 text reading: the compiled reader (str handed over as it is; tokens, -s, -m) + the -l/-b rules
against a plain-Python reading of the script's readText / readText_LCS / createNGram on the texts' UTF-8 bytes,
on hypothesis-generated multi-line text."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refscore.errors import InputError
from refscore.metrics.rouge.rouge155_text import encode_texts, perl_split, read_text, read_text_units, smart_stopwords
from rouge155_perl_oracle import morph_stem, tokenize_sentence

WORDS = ["the", "cat", "Cats", "running", "ran", "of", "a", "geese", "U.S.", "state-of-the-art", "3.14", "über",
         "$5", "--", "it's", "", " ", "\t", "\r", "naïve", "agreement", "hopping"]
texts = st.lists(st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join), max_size=5).map("\n".join)


def reference_tokens(text: bytes, stemming: bool, remove_stopwords: bool) -> list[bytes]:
    out = []
    for token in tokenize_sentence(text):
        if remove_stopwords and token in smart_stopwords():
            continue
        if stemming and len(token) > 3:
            token = morph_stem(token.decode()).encode()
        out.append(token)
    return out


def test_perl_split_keeps_a_leading_empty_field():
    assert perl_split(b" a  b ") == [b"", b"a", b"b"]
    assert perl_split(b"   ") == [] and perl_split(b"") == []


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, min_size=1, max_size=4), st.booleans(), st.booleans(),
       st.sampled_from([(0, 0), (3, 0), (7, 0), (0, 10), (0, 25)]))
def test_encoded_texts_equal_the_script_reading(docs, stemming, remove_stopwords, limits):
    word_limit, byte_limit = limits
    encoded = encode_texts(docs, stemming=stemming, remove_stopwords=remove_stopwords, word_limit=word_limit,
                           byte_limit=byte_limit)
    vocabulary: dict[bytes, int] = {}  # ids are compared through the token strings, whatever the numbering
    inverse: dict[int, bytes] = {}
    for t, text in enumerate(docs):
        lines = [line for line in text.encode().lower().split(b"\n") if line]
        expected_units = [reference_tokens(u, stemming, remove_stopwords)
                          for u in read_text_units(lines, word_limit, byte_limit)]
        expected_flat = reference_tokens(read_text(lines, word_limit, byte_limit), stemming, remove_stopwords)
        first, last = encoded.text_units[t], encoded.text_units[t + 1]
        got_units = [encoded.unit_tokens[encoded.unit_offsets[u]:encoded.unit_offsets[u + 1]].tolist()
                     for u in range(first, last)]
        got_flat = encoded.flat_tokens[encoded.flat_offsets[t]:encoded.flat_offsets[t + 1]].tolist()
        assert [len(u) for u in got_units] == [len(u) for u in expected_units]
        assert len(got_flat) == len(expected_flat)
        for got, expected in zip([i for u in got_units for i in u] + got_flat,
                                 [w for u in expected_units for w in u] + expected_flat):
            assert inverse.setdefault(got, expected) == expected  # one id <-> one processed token
            assert vocabulary.setdefault(expected, got) == got


# Characters whose handling on code points must equal the script's on their UTF-8 bytes: bytes kept by
# surrogateescape, 2- and 4-byte-kind strings, and letters whose Unicode lowercase is ASCII ('K' Kelvin sign ->
# 'k', 'İ' -> 'i̇') while every one of their bytes is >= 0x80 for the script.
EXOTIC = ["\udc80", "\udce9", "\udcff", "\u212a", "\u0130", "\u017f", "Ā", "中", "😀", "\x85", "\u2028", "é", "\xa0"]
exotic_texts = st.lists(st.lists(st.sampled_from(WORDS + EXOTIC), max_size=8).map("".join), max_size=4).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(exotic_texts, min_size=1, max_size=4), st.booleans(), st.booleans(),
       st.sampled_from([(0, 0), (5, 0), (0, 9)]))
def test_text_handed_over_as_str_reads_as_the_script_reads_its_bytes(docs, stemming, remove_stopwords, limits):
    word_limit, byte_limit = limits
    encoded = encode_texts(docs, stemming=stemming, remove_stopwords=remove_stopwords, word_limit=word_limit,
                           byte_limit=byte_limit)
    expected_units: list[list[bytes]] = []
    expected_flat: list[list[bytes]] = []
    for text in docs:
        lines = [line for line in text.encode("utf-8", "surrogateescape").split(b"\n") if line]
        expected_units += [reference_tokens(unit, stemming, remove_stopwords)
                           for unit in read_text_units(lines, word_limit, byte_limit)]
        expected_flat.append(reference_tokens(read_text(lines, word_limit, byte_limit), stemming, remove_stopwords))
    units = [encoded.unit_tokens[encoded.unit_offsets[u]:encoded.unit_offsets[u + 1]].tolist()
             for u in range(len(encoded.unit_offsets) - 1)]
    flat = [encoded.flat_tokens[encoded.flat_offsets[t]:encoded.flat_offsets[t + 1]].tolist()
            for t in range(len(docs))]
    assert [len(u) for u in units] == [len(u) for u in expected_units]
    assert [len(f) for f in flat] == [len(f) for f in expected_flat]
    pairs = list(zip([i for u in units + flat for i in u], [t for u in expected_units + expected_flat for t in u]))
    assert len(set(pairs)) == len({i for i, _ in pairs}) == len({t for _, t in pairs})  # one id <-> one token
    if not (word_limit or byte_limit):  # ids number the tokens in order of first appearance
        first_seen = list(dict.fromkeys(t for u in expected_units for t in u))
        assert [i for u in units for i in u] == [first_seen.index(t) for u in expected_units for t in u]


def test_lone_surrogates_without_utf8_form_are_named_with_their_position():
    for limits in ({}, {"byte_limit": 30}):
        with pytest.raises(InputError, match=r"text 1 contains the lone surrogate '\\ud800' at character 4, "):
            encode_texts(["a", "ok\udcff \ud800 \udfff"], stemming=False, remove_stopwords=False, **limits)
    kept = encode_texts(["caf\udcc3\udca9s"], stemming=False, remove_stopwords=False)  # surrogateescape bytes
    assert kept.flat_tokens.tolist() == [0, 1]  # "caf", "s": the bytes separate tokens, as in the script
