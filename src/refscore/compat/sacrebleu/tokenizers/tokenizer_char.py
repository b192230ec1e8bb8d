"""sacreBLEU's ``tokenizers.tokenizer_char``: ``TokenizerChar``."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class TokenizerChar(BaseTokenizer):
    """Every character, whitespace included, separated by one space (sacreBLEU's string; its BLEU then splits it
    on whitespace, so spaces are not tokens).

    >>> TokenizerChar()("ab c")
    'a b   c'
    """

    def signature(self) -> str:
        return "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)
