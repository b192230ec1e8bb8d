"""sacreBLEU's ``tokenizers.tokenizer_spm``: the SentencePiece tokenizers (``spm``, ``flores101``, ``flores200``,
``spBLEU-1K``) are not supported yet (a clear error when created)."""
from __future__ import annotations


from refscore.compat.sacrebleu.tokenizers._unsupported import UnsupportedTokenizer


class TokenizerSPM(UnsupportedTokenizer):
    """sacreBLEU's SentencePiece tokenizer: not supported by refscore yet (raises ``InputError``)."""

    _signature = "spm"

    def __init__(self, key: str = "spm") -> None:
        self._signature = key
        super().__init__()


class Flores200Tokenizer(TokenizerSPM):
    """``flores200``: not supported yet."""

    def __init__(self) -> None:
        super().__init__("flores200")


class Flores101Tokenizer(TokenizerSPM):
    """``flores101``: not supported yet."""

    def __init__(self) -> None:
        super().__init__("flores101")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacreBLEU's name)
    """``spBLEU-1K``: not supported yet."""

    def __init__(self) -> None:
        super().__init__("spBLEU-1K")


