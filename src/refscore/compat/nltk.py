"""Drop-in for ``nltk.translate``: BLEU (``sentence_bleu``, ``corpus_bleu``, ``SmoothingFunction``), GLEU
(``sentence_gleu``, ``corpus_gleu``) and chrF (``sentence_chrf``, ``corpus_chrf``), with NLTK's exact values.
Inputs are token lists, as in NLTK.
"""
from __future__ import annotations

__all__: list[str] = []

from refscore.compat._nltk_chrf import corpus_chrf, sentence_chrf  # noqa: E402

__all__ += ["corpus_chrf", "sentence_chrf"]
from refscore.compat._nltk_bleu import (SmoothingFunction, brevity_penalty, closest_ref_length,  # noqa: E402
                                        corpus_bleu, corpus_gleu, modified_precision, sentence_bleu,
                                        sentence_gleu)

__all__ += ["SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu", "corpus_gleu",
            "modified_precision", "sentence_bleu", "sentence_gleu"]
