"""sacreBLEU's ``tokenizers.tokenizer_13a``: ``Tokenizer13a`` (mteval-v13a, sacreBLEU's default)."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import CompiledTokenizer


class Tokenizer13a(CompiledTokenizer):
    """mteval-v13a tokenization, as sacreBLEU's ``Tokenizer13a`` (``-\\n`` joins, ``<skipped>`` dropped, entities
    unescaped, punctuation split).

    >>> Tokenizer13a()("It costs $3.50-ish, ok?")
    'It costs $ 3.50 - ish , ok ?'
    """

    _signature = "13a"
    # sacreBLEU's class tokenizes the line as given; its BLEU strips trailing whitespace first ("13a").
    _kernel_name = "13a-unstripped"
