"""NLTK 3.10.4's ``word_tokenize(text, preserve_line=True)`` (its ``NLTKWordTokenizer``, an improved Penn
Treebank tokenizer), transcribed rule for rule: the words Hugging Face ``evaluate``'s ``meteor`` script gives
NLTK's METEOR. ``preserve_line=True`` skips Punkt sentence splitting, which needs downloaded model data; the
script splits sentences first, so for text of several sentences a period inside the text stays on its word here.

>>> word_tokenize("They'll pay $3.88 (roughly), won't they?")
['They', "'ll", 'pay', '$', '3.88', '(', 'roughly', ')', ',', 'wo', "n't", 'they', '?']
"""
from __future__ import annotations

import re

try:  # NLTK compiles these rules with the ``regex`` engine (its dependency), whose \w also takes combining marks
    import regex as _engine
except ImportError:  # pragma: no cover - Python's re: the same tokens except beside combining marks
    _engine = re

# NLTK's rule lists in its order, compiled as NLTK compiles them (``nltk.redos``: the ``regex`` engine; the
# contractions with Python's ``re``); ``*+`` in its final-period rule is written ``*`` (the same matches, since
# ``\s*$`` follows) so that Python 3.10's ``re`` compiles it too.
_STARTING_QUOTES = [
    (_engine.compile("([«“‘„]|[`]+)", _engine.U), r" \1 "),
    (_engine.compile(r"^\""), r"``"),
    (_engine.compile(r"(``)"), r" \1 "),
    (_engine.compile(r"([ \(\[{<])(\"|\'{2})"), r"\1 `` "),
    (_engine.compile(r"(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)", _engine.U), r"\1 "),
]
_ENDING_QUOTES = [
    (_engine.compile("([»”’])", _engine.U), r" \1 "),
    (_engine.compile(r"''"), " '' "),
    (_engine.compile(r'"'), " '' "),
    (_engine.compile(r"\s+"), " "),
    (_engine.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
    (_engine.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
]
_PUNCTUATION = [
    (_engine.compile(r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*)\s*$", _engine.U), r"\1 \2 \3 "),
    (_engine.compile(r"([:,])([^\d])"), r" \1 \2"),
    (_engine.compile(r"([:,])$"), r" \1 "),
    (_engine.compile(r"\.{2,}", _engine.U), r" \g<0> "),
    (_engine.compile(r"[;@#$%&]"), r" \g<0> "),
    (_engine.compile(r"[\u2012-\u2015]", _engine.U), r" \g<0> "),
    (_engine.compile(r'([^\.])(\.)([\]\)}>"\']*)\s*$'), r"\1 \2\3 "),
    (_engine.compile(r"[?!]"), r" \g<0> "),
    (_engine.compile(r"([^'])' "), r"\1 ' "),
    (_engine.compile(r"[*]", _engine.U), r" \g<0> "),
]
_PARENS_BRACKETS = (_engine.compile(r"[\]\[\(\)\{\}\<\>]"), r" \g<0> ")
_DOUBLE_DASHES = (_engine.compile(r"--"), r" -- ")
_CONTRACTIONS2 = [re.compile(p) for p in (
    r"(?i)\b(can)(?#X)(not)\b", r"(?i)\b(d)(?#X)('ye)\b", r"(?i)\b(gim)(?#X)(me)\b", r"(?i)\b(gon)(?#X)(na)\b",
    r"(?i)\b(got)(?#X)(ta)\b", r"(?i)\b(lem)(?#X)(me)\b", r"(?i)\b(more)(?#X)('n)\b", r"(?i)\b(wan)(?#X)(na)(?=\s)")]
_CONTRACTIONS3 = [re.compile(p) for p in (r"(?i) ('t)(?#X)(is)\b", r"(?i) ('t)(?#X)(was)\b")]


def word_tokenize(text: str) -> list[str]:
    """The tokens of NLTK's ``word_tokenize(text, preserve_line=True)`` (see the module docstring).

    >>> word_tokenize('"Cannot," she said -- twice.')
    ['``', 'Can', 'not', ',', "''", 'she', 'said', '--', 'twice', '.']
    """
    for regexp, substitution in _STARTING_QUOTES:
        text = regexp.sub(substitution, text)
    for regexp, substitution in _PUNCTUATION:
        text = regexp.sub(substitution, text)
    text = _PARENS_BRACKETS[0].sub(_PARENS_BRACKETS[1], text)
    text = _DOUBLE_DASHES[0].sub(_DOUBLE_DASHES[1], text)
    text = " " + text + " "
    for regexp, substitution in _ENDING_QUOTES:
        text = regexp.sub(substitution, text)
    for regexp in _CONTRACTIONS2:
        text = regexp.sub(r" \1 \2 ", text)
    for regexp in _CONTRACTIONS3:
        text = regexp.sub(r" \1 \2 ", text)
    return text.split()
