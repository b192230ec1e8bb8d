"""Drop-in for sacreBLEU 2.6: the same functions and classes, the same 0–100 scale and signatures.

``from refscore.compat import sacrebleu`` then ``sacrebleu.corpus_bleu(hyps, [refs])`` etc. References use
sacreBLEU's *stream* layout here (``refs[k][i]``), exactly as sacreBLEU does.
"""
from __future__ import annotations

from refscore.compat._sacrebleu_chrf import CHRF, CHRFScore, CHRFSignature, corpus_chrf, sentence_chrf
from refscore.compat._sacrebleu_ter import TER, TERScore, corpus_ter, sentence_ter

__all__: list[str] = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf",
                      "TER", "TERScore", "corpus_ter", "sentence_ter"]
__all__: list[str] = []

# Each metric's drop-in lives in its own private module; they are re-exported here.
# (BLEU: _sacrebleu_bleu, chrF: _sacrebleu_chrf, TER: _sacrebleu_ter)

from refscore.compat._sacrebleu_chrf import CHRF, CHRFScore, CHRFSignature, corpus_chrf, sentence_chrf  # noqa: E402

__all__ += ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]
from refscore.compat._sacrebleu_ter import TER, TERScore, corpus_ter, sentence_ter  # noqa: E402

__all__ += ["TER", "TERScore", "corpus_ter", "sentence_ter"]
from refscore.compat._sacrebleu_ter import TER, TERScore, TERSignature, corpus_ter, sentence_ter  # noqa: E402

__all__ += ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]
from refscore.compat._sacrebleu_bleu import (BLEU, BLEUScore, BLEUSignature, corpus_bleu,  # noqa: E402
                                             raw_corpus_bleu, sentence_bleu)

__all__ += ["BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]
