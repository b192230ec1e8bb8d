"""Text handling shared by the metrics: tokenizers, sentence splitting and stemming.

Every word tokenizer a user can name is in one registry: ``refscore.text.tokenizers()`` lists the names and
``refscore.text.get_tokenizer(name)`` gives one as ``line -> tokens`` (:mod:`refscore.text.tokenizer_registry`).

- :mod:`refscore.text.external`: sacreBLEU's tokenizers that run MeCab or SentencePiece (``ja-mecab``,
  ``ko-mecab``, ``flores101``/``spm``, ``flores200``, ``spBLEU-1K``), by name (``get_tokenizer``);
- :mod:`refscore.text.sentences`: sentence splitting (ROUGE-Lsum's, and NLTK's ``sent_tokenize`` when installed);
- :mod:`refscore.text.porter`: the Porter stemmer ROUGE and METEOR share (:func:`~refscore.text.porter.porter_stem`).

sacreBLEU's compiled tokenizers (``13a``, ``intl``, ``zh``, ``char``, ``none``) run inside the kernels
(``refscore._core``); ROUGE's tokenizers are in :mod:`refscore.metrics.rouge.tokenize` and
:mod:`refscore.metrics.rouge.words` (they read ROUGE's config), METEOR's ``word_tokenize`` in
:mod:`refscore.metrics.meteor`.

The package imports nothing until a name is used.

>>> import refscore.text
>>> refscore.text.get_tokenizer("13a")("Hi, you.")
['Hi', ',', 'you', '.']
"""
from refscore.lazy import LazyNames

_LAZY = LazyNames(__name__, globals(), {"refscore.text.tokenizer_registry": ("get_tokenizer", "tokenizers")})
__getattr__ = _LAZY.getattr
__dir__ = _LAZY.dir
__all__ = _LAZY.names
