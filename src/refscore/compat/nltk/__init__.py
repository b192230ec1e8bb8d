"""Drop-in for ``nltk.translate`` (NLTK 3.10's BLEU, GLEU and chrF): BLEU (``sentence_bleu``, ``corpus_bleu``,
``SmoothingFunction``), GLEU (``sentence_gleu``, ``corpus_gleu``) and chrF (``sentence_chrf``, ``corpus_chrf``,
``chrf_precision_recall_fscore_support``), with NLTK's exact values. Inputs are token lists, as in NLTK.
NLTK's module layout is in ``refscore.compat.nltk.translate`` (``bleu_score``, ``gleu_score``, ``chrf_score``).
"""
from __future__ import annotations

__all__: list[str] = []

from refscore.compat._nltk_chrf import chrf_precision_recall_fscore_support, corpus_chrf, sentence_chrf  # noqa: E402

__all__ += ["chrf_precision_recall_fscore_support", "corpus_chrf", "sentence_chrf"]
from refscore.compat._nltk_bleu import (SmoothingFunction, brevity_penalty, closest_ref_length,  # noqa: E402
                                        corpus_bleu, corpus_gleu, modified_precision, sentence_bleu,
                                        sentence_gleu)

__all__ += ["SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu", "corpus_gleu",
            "modified_precision", "sentence_bleu", "sentence_gleu"]
