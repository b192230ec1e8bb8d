"""Drop-in for the ``rouge`` PyPI package 1.0.1 with its layout: ``Rouge``, ``FilesRouge`` (module
``rouge.rouge``) and the ``rouge.rouge_score`` functions, with that package's semantics and outputs.

>>> from refscore.compat import rouge
>>> rouge.__version__
'1.0.1'
>>> rouge.Rouge(metrics=["rouge-1"]).get_scores("the cat sat", "the cat ran")[0]["rouge-1"]["r"]
0.6666666666666666
"""
from refscore.compat.rouge import rouge_score
from refscore.compat.rouge.rouge import FilesRouge, Rouge

__version__ = "1.0.1"
__all__ = ["FilesRouge", "Rouge"]
_ = rouge_score  # the submodule, imported so that ``rouge.rouge_score`` works as in the package
