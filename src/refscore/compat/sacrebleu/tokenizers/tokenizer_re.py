"""sacreBLEU's ``tokenizers.tokenizer_re``: ``TokenizerRegexp``, the post-processing regular expressions shared by
its 13a and zh tokenizers (copied from sacreBLEU 2.6, Apache-2.0)."""
from __future__ import annotations

import re

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class TokenizerRegexp(BaseTokenizer):
    """sacreBLEU's regexp pass: ASCII punctuation split; ``.``/``,`` only away from digits; ``-`` after a digit.

    >>> TokenizerRegexp()("a,b 3.5-4")
    'a , b 3.5 - 4'
    """

    def signature(self) -> str:
        return "re"

    def __init__(self) -> None:
        self._re = [
            (re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),
            (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),
            (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),
            (re.compile(r'([0-9])(-)'), r'\1 \2 '),
        ]

    def __call__(self, line: str) -> str:
        for pattern, replacement in self._re:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())
