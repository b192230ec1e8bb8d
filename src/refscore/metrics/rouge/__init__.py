"""ROUGE in two flavors, one function: :func:`rouge` (``flavor="rouge-score"``: rouge-score 0.1.2's numbers;
``flavor="rouge155"``: the ROUGE-1.5.5 Perl script's) and :func:`rouge155` (the script with its own options).

Modules: :mod:`~refscore.metrics.rouge.types` (type names of both flavors), :mod:`~refscore.metrics.rouge.config`
(their frozen settings), :mod:`~refscore.metrics.rouge.score` (the results), :mod:`~refscore.metrics.rouge.metric`
(the rouge-score flavor), :mod:`~refscore.metrics.rouge.extended` (its ROUGE-W/S/SU),
:mod:`~refscore.metrics.rouge.tokenize` (its tokenizers), :mod:`~refscore.metrics.rouge.rouge155_metric`
and :mod:`~refscore.metrics.rouge.rouge155_text` (the script's flavor and text handling),
:mod:`~refscore.metrics.rouge.bootstrap` (both flavors' corpus bootstraps), :mod:`~refscore.metrics.rouge.flavors`
(:func:`rouge` and the flavor registry).

>>> result = rouge(["the cat sat on the mat"], ["the cat is on the mat"], types=("rouge1", "rougeL"))
>>> round(float(result["rouge1"].fmeasure[0]), 4), round(result["rougeL"].mean.recall, 4)
(0.8333, 0.8333)
"""
from refscore._core._rouge import lcs_positions   # the drop-ins' summary-level LCS (rouge-score, py-rouge)
from refscore.metrics.rouge.bootstrap import PerlAverage, bootstrap_percentiles, perl_averages
from refscore.metrics.rouge.config import SPLITTERS, TOKENIZERS, ROUGE155Config, ROUGEConfig
from refscore.metrics.rouge.flavors import FLAVORS, rouge, rouge_flavor
from refscore.metrics.rouge.metric import ROUGE
from refscore.metrics.rouge.rouge155_metric import ROUGE155, read_summary, rouge155
from refscore.metrics.rouge.score import PRF, Interval, ROUGE155Score, ROUGE155TypeResult, ROUGEScore, RougeTypeScores
from refscore.metrics.rouge.types import DEFAULT_TYPES, RougeType, parse_type

__all__ = ["DEFAULT_TYPES", "FLAVORS", "Interval", "PRF", "PerlAverage", "ROUGE", "ROUGE155", "ROUGE155Config",
           "ROUGE155Score", "ROUGE155TypeResult", "ROUGEConfig", "ROUGEScore", "RougeType", "RougeTypeScores",
           "SPLITTERS", "TOKENIZERS", "bootstrap_percentiles", "lcs_positions", "parse_type", "perl_averages",
           "read_summary", "rouge", "rouge155", "rouge_flavor"]
