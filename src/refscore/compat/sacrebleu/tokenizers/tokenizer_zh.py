"""sacreBLEU's ``tokenizers.tokenizer_zh``: ``TokenizerZh`` (Chinese characters split, then 13a's rules)."""
from __future__ import annotations

from refscore.compat.sacrebleu.tokenizers.tokenizer_base import CompiledTokenizer


class TokenizerZh(CompiledTokenizer):
    """sacreBLEU's Chinese tokenizer: every Chinese character is a token.

    >>> TokenizerZh()("我喜欢猫, ok")
    '我 喜 欢 猫 , ok'
    """

    _signature = "zh"
    _kernel_name = "zh"
