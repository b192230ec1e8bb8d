"""The Porter stemmer of NLTK 3.10.4's ``PorterStemmer`` (its default ``NLTK_EXTENSIONS`` mode), compiled: the one
stemmer ROUGE (rouge-score's ``use_stemmer=True``) and METEOR (NLTK's stem stage) share.

>>> porter_stem("running"), porter_stem("generalizations"), porter_stem(""), porter_stem("Running")
('run', 'gener', '', 'Run')
"""
from __future__ import annotations

from refscore._core import _rouge

__all__ = ["porter_stem"]


def porter_stem(word: str) -> str:
    """``word`` stemmed as ``nltk.stem.porter.PorterStemmer().stem(word, to_lowercase=False)`` does: the case is
    kept (ROUGE and METEOR lower-case their words before stemming, as their peers do)."""
    return _rouge.porter_stem(word)
