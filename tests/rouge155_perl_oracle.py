"""Test oracles: ROUGE-1.5.5.pl's token filter, Porter stemmer and ``MorphStem`` transcribed line by line into
Python, to check the compiled tokenizer and stemmer (``refscore._core._rouge155``) and the ``-m`` token
processing against.

>>> porter_stem("relational"), porter_stem("generalizations"), morph_stem("geese")
('relat', 'gener', 'goose')
>>> tokenize_sentence(b"U.S. state-of-the-art, 3.14 -- Caf\\xc3\\xa9")
[b'u', b's', b'state', b'of', b'the', b'art', b'3', b'14', b'caf']
"""
from __future__ import annotations

import re

from refscore.metrics.rouge.rouge155_text import wordnet_exceptions

# A transcription of the Perl stemmer inside ROUGE-1.5.5.pl
# (Martin Porter's Perl release 1, with Chin-Yew Lin's 2004 change to step 4: "-ement" words do not try
# "-ment" and "-ent".) Same regular expressions, same order.
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")
_STEP1A_SSES_IES = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_STEP1B_EED = re.compile("eed$")
_STEP1B_ED_ING = re.compile("(ed|ing)$")
_STEP1B_AT_BL_IZ = re.compile("(at|bl|iz)$")
_STEP1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_STEP1C_Y = re.compile("y$")
_STEP2_LIST = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
               "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
               "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
               "iviti": "ive", "biliti": "ble", "logi": "log"}
_STEP2 = re.compile("(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|"
                    "fulness|ousness|aliti|iviti|biliti|logi)$")
_STEP3_LIST = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP3 = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4 = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_STEP4_MENT = re.compile("ment$")
_STEP4_ENT = re.compile("ent$")
_STEP4_ION = re.compile("(s|t)(ion)$")
_STEP5_E = re.compile("e$")
_STEP5_LL = re.compile("ll$")


def porter_stem(word: str) -> str:
    """ROUGE-1.5.5's Porter stemmer (``stem`` in the Perl script), for a lowercase word.

    >>> [porter_stem(w) for w in ("caresses", "ponies", "hopping", "yelling", "agreement")]
    ['caress', 'poni', 'hop', 'yell', 'agreem']
    """
    if len(word) < 3:
        return word
    w = word
    first_y = w[0] == "y"
    if first_y:
        w = "Y" + w[1:]
    # step 1a
    if m := _STEP1A_SSES_IES.search(w):
        w = w[:m.start()] + m.group(1)
    elif m := _STEP1A_S.search(w):
        w = w[:m.start()] + m.group(1)
    # step 1b
    if m := _STEP1B_EED.search(w):
        if _MGR0.search(w[:m.start()]):
            w = w[:-1]
    elif m := _STEP1B_ED_ING.search(w):
        stem = w[:m.start()]
        if _VOWEL_IN_STEM.search(stem):
            w = stem
            if _STEP1B_AT_BL_IZ.search(w):
                w += "e"
            elif _STEP1B_DOUBLE.search(w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    # step 1c
    if m := _STEP1C_Y.search(w):
        stem = w[:m.start()]
        if _VOWEL_IN_STEM.search(stem):
            w = stem + "i"
    # step 2
    if m := _STEP2.search(w):
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2_LIST[m.group(1)]
    # step 3
    if m := _STEP3.search(w):
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3_LIST[m.group(1)]
    # step 4 (with the script's -ement change)
    if m := _STEP4.search(w):
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    if m := _STEP4_MENT.search(w):
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    if m := _STEP4_ENT.search(w):
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    elif m := _STEP4_ION.search(w):
        stem = w[:m.start()] + m.group(1)
        if _MGR1.search(stem):
            w = stem
    # step 5
    if m := _STEP5_E.search(w):
        stem = w[:m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _STEP5_LL.search(w) and _MGR1.search(w):
        w = w[:-1]
    if first_y:
        w = w[0].lower() + w[1:]
    return w


def morph_stem(token: str) -> str:
    """``MorphStem``: the WordNet-2.0 exception list first (irregular forms), else :func:`porter_stem`."""
    base = wordnet_exceptions().get(token)
    return base if base is not None else porter_stem(token)


_TOKEN = re.compile(rb"[a-z0-9]+")


def tokenize_sentence(text: bytes) -> list[bytes]:
    """The script's clean-up (``s/-/ - /g; s/[^A-Za-z0-9\\-]/ /g``) and its ``^[a-z0-9$]`` token filter."""
    return _TOKEN.findall(text.lower())
