"""sacreBLEU's ``tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` is not supported yet (a clear error)."""
from refscore.compat.sacrebleu.tokenizers._unsupported import UnsupportedTokenizer


class TokenizerJaMecab(UnsupportedTokenizer):
    """sacreBLEU's Japanese MeCab tokenizer: not supported by refscore yet (raises ``InputError``)."""

    _signature = "ja-mecab"

    def __init__(self) -> None:
        super().__init__()
