"""Languages and the words BLEU counts: sacreBLEU's tokenizer for a target language (its ``-l SRC-TGT``) and
a test for text written mostly in Chinese, Japanese or Korean, which sacreBLEU's default 13a tokenizer cuts at
spaces and punctuation only (a Chinese clause is then one "word").

>>> pair = parse_language_pair("en-zh")
>>> pair.source, pair.target, tokenizer_for_target(pair.target), tokenizer_for_target("de")
('en', 'zh', 'zh', '13a')
>>> cjk_language(["我喜欢猫。", "今天天气很好。"]), cjk_language(["猫が好きです。"]), cjk_language(["a cat"])
('zh', 'ja', None)
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from refscore.errors import InputError

#: sacreBLEU 2.6's ``BLEU.TOKENIZER_DEFAULT``: BLEU's tokenizer when the target language picks none.
DEFAULT_TOKENIZER = "13a"
#: sacreBLEU 2.6's ``BLEU._TOKENIZER_MAP``: BLEU's tokenizer for these target languages (``-l SRC-TGT``).
TARGET_TOKENIZERS: dict[str, str] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
#: Tokenizers that split at spaces and punctuation only: unfit for text without spaces between words.
SPACE_TOKENIZERS = ("13a", "intl")
#: Text with more than this share of CJK letters (of all letters and digits) is "mostly CJK".
CJK_SHARE = 0.5
#: The first this many characters of a corpus decide (the test runs on every corpus BLEU).
CJK_SAMPLE_CHARS = 4_000

_HAN = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]"
_KANA = r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]"
_HANGUL = r"[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]"
#: Below the first code point of those ranges no text is CJK (decided by ``max()``, without a regex).
_FIRST_CJK = "\u1100"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """The compiled classes (any CJK, letters, Han, kana, Hangul), compiled on the first text that may be CJK:
    compiling them costs the command line's start-up more than scoring a line."""
    any_cjk = "[" + "".join(pattern[1:-1] for pattern in (_HAN, _KANA, _HANGUL)) + "]"
    return tuple(re.compile(pattern) for pattern in (any_cjk, r"\w", _HAN, _KANA, _HANGUL))


class LanguagePair(NamedTuple):
    """A source and a target language code, as sacreBLEU's ``-l en-zh`` gives them."""

    source: str
    target: str


def parse_language_pair(text: str, what: str = "language pair") -> LanguagePair:
    """``SRC-TGT`` (sacreBLEU's ``-l``; sacreBLEU reads the part after the first ``-`` as the target) as a
    :class:`LanguagePair`, codes lowercased; anything else raises :class:`~refscore.errors.InputError` naming
    ``what``.

    >>> parse_language_pair("EN-ZH")
    LanguagePair(source='en', target='zh')
    """
    parts = str(text).strip().lower().split("-")
    if len(parts) < 2 or not all(re.fullmatch(r"[a-z0-9_]+", part) for part in parts):
        raise InputError(f"{what} {text!r} is not SRC-TGT: give the source and target language codes joined by "
                         f"'-', as sacreBLEU's -l does (e.g. en-zh, de-en)")
    return LanguagePair(parts[0], parts[1])


def tokenizer_for_target(target: str) -> str:
    """The tokenizer sacreBLEU's BLEU picks for target language ``target`` when none is given."""
    return TARGET_TOKENIZERS.get(target.lower(), DEFAULT_TOKENIZER)


def cjk_language(texts: Sequence[str]) -> str | None:
    """``"zh"``, ``"ja"`` or ``"ko"`` when ``texts`` (their first :data:`CJK_SAMPLE_CHARS` characters) are
    mostly written in Chinese characters, Japanese (kana among them) or Hangul; None otherwise."""
    sample, size = [], 0
    for text in texts:
        if not isinstance(text, str):
            return None   # token ids: no text to judge
        sample.append(text)
        size += len(text)
        if size >= CJK_SAMPLE_CHARS:
            break
    joined = "\n".join(sample)
    if not joined or max(joined) < _FIRST_CJK:   # the common case, decided in one C scan
        return None
    any_cjk, letters_pattern, *scripts = _patterns()
    if any_cjk.search(joined) is None:
        return None
    letters = len(letters_pattern.findall(joined))
    han, kana, hangul = (len(pattern.findall(joined)) for pattern in scripts)
    if not letters or han + kana + hangul <= CJK_SHARE * letters:
        return None
    if hangul >= han + kana:
        return "ko"
    return "ja" if kana else "zh"


def cjk_advice(owner: str, texts: Sequence[str], tokenize: str) -> str | None:
    """The one-line advice for ``texts`` that are mostly CJK and tokenized with ``tokenize`` (13a or intl), or
    None when the tokenizer fits the text.

    >>> cjk_advice("BLEU", ["我喜欢猫。"], "13a").split(";")[0]
    "BLEU: the hypotheses are mostly Chinese text, which tokenize='13a' cuts at spaces and punctuation only"
    >>> cjk_advice("BLEU", ["我喜欢猫。"], "zh") is None
    True
    """
    if tokenize not in SPACE_TOKENIZERS:
        return None
    language = cjk_language(texts)
    if language is None:
        return None
    name, best = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[language], TARGET_TOKENIZERS[language]
    return (f"{owner}: the hypotheses are mostly {name} text, which tokenize={tokenize!r} cuts at spaces and "
            f"punctuation only; sacreBLEU uses {best!r} for a {name} target: pass tokenize={best!r} (command "
            f"line: -l SRC-{language} or --tokenize {best})")
