"""sacreBLEU 2.6's ``tokenizers`` package: ``BaseTokenizer`` here, one module per tokenizer
(``tokenizer_13a.Tokenizer13a``, ``tokenizer_intl.TokenizerV14International``, ``tokenizer_zh.TokenizerZh``,
``tokenizer_char.TokenizerChar``, ``tokenizer_none.NoneTokenizer``, ``tokenizer_re.TokenizerRegexp``,
``tokenizer_ter.TercomTokenizer``) and, over :mod:`refscore.text.external`, ``tokenizer_ja_mecab.TokenizerJaMecab``,
``tokenizer_ko_mecab.TokenizerKoMecab`` and ``tokenizer_spm.TokenizerSPM`` / ``Flores101Tokenizer`` /
``Flores200Tokenizer`` / ``spBLEU1KTokenizer`` (extras ``ja``, ``ko``, ``spm``).

>>> from refscore.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
>>> Tokenizer13a().signature()
'13a'
"""
from refscore.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer  # noqa: F401
