"""sacreBLEU's ``tokenizers.tokenizer_intl``: ``TokenizerV14International`` (mteval-v14 international)."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import CompiledTokenizer


class TokenizerV14International(CompiledTokenizer):
    """mteval-v14 ``--international-tokenization``: Unicode punctuation next to non-digits and every symbol split.

    >>> TokenizerV14International()("Grüße, «Welt»!")
    'Grüße , « Welt » !'
    >>> TokenizerV14International()("in 2014.\\n")   # the newline after '.' is a non-digit: '.' splits off
    'in 2014 .'
    """

    _signature = "intl"
    _kernel_name = "intl"

    def __call__(self, line: str) -> str:
        stripped = line.rstrip() if isinstance(line, str) else line
        if stripped is line or stripped == line:
            return super().__call__(line)
        # sacreBLEU applies its rules to the line as given, where trailing whitespace is a non-digit after the last
        # character ('2014.\n' splits the '.'); the compiled kernel tokenizes the right-stripped text, as the
        # metrics do. One space and a stand-in word carry the same neighbour, and the stand-in's token is dropped.
        return super().__call__(stripped + " x")[:-2]
