"""sacreBLEU's ``tokenizers.tokenizer_intl``: ``TokenizerV14International`` (mteval-v14 international)."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import CompiledTokenizer


class TokenizerV14International(CompiledTokenizer):
    """mteval-v14 ``--international-tokenization``: Unicode punctuation next to non-digits and every symbol split.

    >>> TokenizerV14International()("Grüße, «Welt»!")
    'Grüße , « Welt » !'
    """

    _signature = "intl"
    _kernel_name = "intl"
