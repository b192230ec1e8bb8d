"""sacreBLEU's ``tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` is not supported yet (a clear error)."""
from refscore.compat.sacrebleu.tokenizers._unsupported import UnsupportedTokenizer


class TokenizerKoMecab(UnsupportedTokenizer):
    """sacreBLEU's Korean MeCab tokenizer: not supported by refscore yet (raises ``InputError``)."""

    _signature = "ko-mecab"

    def __init__(self) -> None:
        super().__init__()
