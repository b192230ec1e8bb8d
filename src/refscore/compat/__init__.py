"""Drop-in replacements with the peers' call signatures and identical outputs.

``from refscore.compat import sacrebleu`` (sacreBLEU's functions and classes), ``refscore.compat.nltk``,
``refscore.compat.evaluate`` (``load(name).compute(...)``), ``refscore.compat.rouge_score``,
``refscore.compat.bert_score``.
"""
