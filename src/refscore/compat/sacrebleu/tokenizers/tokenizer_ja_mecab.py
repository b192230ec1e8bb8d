"""sacreBLEU's ``tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` (MeCab with the IPA dictionary; extra
``ja``) and ``FAIL_MESSAGE``, the install hint."""
from refscore.compat.sacrebleu.tokenizers._external import MecabTokenizer, install_hint

#: How to install what the tokenizer needs (refscore's extra; sacreBLEU names its own).
FAIL_MESSAGE = install_hint("Japanese", "ja-mecab")


class TokenizerJaMecab(MecabTokenizer):
    """sacreBLEU's Japanese tokenizer: MeCab's ``-Owakati`` tokens of the stripped line; signature
    ``ja-mecab-<MeCab version>-IPA``."""

    _key = "ja-mecab"
