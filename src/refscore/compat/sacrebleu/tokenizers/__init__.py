"""sacreBLEU 2.6's ``tokenizers`` package: ``BaseTokenizer`` here, one module per tokenizer
(``tokenizer_13a.Tokenizer13a``, ``tokenizer_intl.TokenizerV14International``, ``tokenizer_zh.TokenizerZh``,
``tokenizer_char.TokenizerChar``, ``tokenizer_none.NoneTokenizer``, ``tokenizer_re.TokenizerRegexp``,
``tokenizer_ter.TercomTokenizer``). The MeCab and SentencePiece tokenizers exist and raise a clear error.

>>> from refscore.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
>>> Tokenizer13a().signature()
'13a'
"""
from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer  # noqa: F401
