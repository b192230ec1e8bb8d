"""Drop-in for rouge-score 0.1.2: ``from refscore.compat.rouge_score import rouge_scorer, scoring``.

``rouge_scorer.RougeScorer`` gives rouge-score's exact per-document ``Score(precision, recall, fmeasure)``
(computed by refscore's compiled core) and adds ``score_batch`` for whole corpora; ``scoring.BootstrapAggregator``
reproduces rouge-score's resampling draw for draw (same NumPy random stream) and optionally takes a ``seed``.

>>> from refscore.compat.rouge_score import rouge_scorer
>>> scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scorer.score("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log.")["rouge1"]
Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
"""
from refscore.compat.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["io", "rouge_scorer", "scoring", "tokenize", "tokenizers"]
