"""sacreBLEU's ``tokenizers.tokenizer_none``: ``NoneTokenizer`` (the line unchanged)."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """No tokenization: the line as given.

    >>> NoneTokenizer()("a  b ")
    'a  b '
    """

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        return line
