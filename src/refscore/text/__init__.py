"""Text handling shared by the metrics: tokenizers, sentence splitting and stemming.

Every word tokenizer is in one registry (:mod:`refscore.text.tokenizer_registry`): ``refscore.text.tokenizers()``
lists the names (``tokenizers(family)`` those of one family: ``"sacrebleu"``, ``"huggingface"``, ``"rouge"``,
``"nltk"``) and ``refscore.text.get_tokenizer(name)`` gives one as ``text -> tokens``; the metrics take theirs from
it by the name in their config.

- sacreBLEU's compiled tokenizers (``13a``, ``intl``, ``zh``, ``char``, ``none``, and Hugging Face's
  ``13a-unstripped``) run inside the kernels (``refscore._core``); :func:`interned_words` gives their words of many
  texts at once;
- :mod:`refscore.text.external`: sacreBLEU's tokenizers that run MeCab or SentencePiece (``ja-mecab``,
  ``ko-mecab``, ``flores101``/``spm``, ``flores200``, ``spBLEU-1K``);
- :mod:`refscore.text.rouge_words`: ROUGE's ``rouge-score`` and ``unicode`` tokenizers;
- :mod:`refscore.text.word_tokenize`: NLTK's ``word_tokenize`` (METEOR's Hugging Face flavor);
- :mod:`refscore.text.sentences`: sentence splitting (ROUGE-Lsum's, and NLTK's ``sent_tokenize`` when installed);
- :mod:`refscore.text.porter`: the Porter stemmer ROUGE and METEOR share (:func:`~refscore.text.porter.porter_stem`).

The package imports nothing until a name is used.

>>> import refscore.text
>>> refscore.text.get_tokenizer("13a")("Hi, you.")
['Hi', ',', 'you', '.']
>>> refscore.text.get_tokenizer("unicode")("Grüße, 世界")
['grüße', '世', '界']
"""
from refscore.lazy import LazyNames

_LAZY = LazyNames(__name__, globals(), {
    "refscore.text.tokenizer_registry": ("get_tokenizer", "interned_words", "stems", "tokenizers")})
__getattr__ = _LAZY.getattr
__dir__ = _LAZY.dir
__all__ = _LAZY.names
