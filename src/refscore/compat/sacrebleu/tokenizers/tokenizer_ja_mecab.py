"""sacreBLEU's ``tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` (MeCab with the IPA dictionary; extra
``ja``) and ``FAIL_MESSAGE``, the install hint."""
from refscore.compat.sacrebleu.tokenizers._external import ExternalTokenizer

#: How to install what the tokenizer needs (refscore's extra; sacreBLEU names its own).
FAIL_MESSAGE = """
Japanese tokenization requires extra dependencies, but you do not have them installed.
Please install them like so.

    pip install 'refscore[ja]'
"""


class TokenizerJaMecab(ExternalTokenizer):
    """sacreBLEU's Japanese tokenizer: MeCab's ``-Owakati`` tokens of the stripped line; signature
    ``ja-mecab-<MeCab version>-IPA``."""

    def __init__(self) -> None:
        super().__init__("ja-mecab")
