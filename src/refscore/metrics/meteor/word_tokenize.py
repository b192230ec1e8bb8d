"""METEOR's ``tokenize="word_tokenize"``: NLTK 3.10.4's ``word_tokenize(text, preserve_line=True)``, the words
Hugging Face ``evaluate``'s ``meteor`` script gives NLTK's METEOR. It lives with every other tokenizer in
:mod:`refscore.text.word_tokenize` (registry name ``"word_tokenize"``); this name stays for callers of this module.

>>> word_tokenize("They'll pay $3.88 (roughly), won't they?")
['They', "'ll", 'pay', '$', '3.88', '(', 'roughly', ')', ',', 'wo', "n't", 'they', '?']
"""
from refscore.text.word_tokenize import word_tokenize

__all__ = ["word_tokenize"]
