"""Drop-in replacements with the peers' call signatures, module layouts and identical outputs.

``from refscore.compat import sacrebleu`` (sacreBLEU's functions, classes and submodules), ``refscore.compat.nltk``
(``nltk.translate``'s metrics), ``refscore.compat.evaluate`` (``load(name).compute(...)``),
``refscore.compat.rouge_score``, ``refscore.compat.rouge``, ``refscore.compat.bert_score``, ``refscore.compat.jiwer``.

:func:`install` switches existing code over in one line (``import sacrebleu`` etc. then resolve to these), and
:func:`uninstall` switches back; ``python -m refscore.compat run script.py`` runs a program with the switch on.
"""
from refscore.compat._install import install, installed, uninstall

__all__ = ["install", "installed", "uninstall"]
