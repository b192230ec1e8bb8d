"""Drop-in for sacreBLEU 2.6 with sacreBLEU's package layout: the same functions and classes, the same 0–100
scale and signatures. ``from refscore.compat import sacrebleu`` then ``sacrebleu.corpus_bleu(hyps, [refs])``, or
``from refscore.compat.sacrebleu.metrics import BLEU`` etc. References use sacreBLEU's *stream* layout
(``refs[k][i]``), exactly as sacreBLEU does.

Submodules as in sacreBLEU: ``metrics`` (``bleu``, ``chrf``, ``ter``, ``base``, ``helpers``), ``compat``,
``significance``, ``tokenizers``, ``utils``, ``dataset`` (the local cache only), ``version``.

>>> from refscore.compat import sacrebleu
>>> sacrebleu.__version__
'2.6.0'
>>> from refscore.compat.sacrebleu.metrics.bleu import BLEU
>>> BLEU is sacrebleu.BLEU
True
"""
from __future__ import annotations

from refscore.compat.sacrebleu.compat import (corpus_bleu, corpus_chrf, corpus_ter, raw_corpus_bleu, sentence_bleu,
                                              sentence_chrf, sentence_ter)
from refscore.compat.sacrebleu.dataset import DATASETS
from refscore.compat.sacrebleu.metrics import BLEU, CHRF, TER
from refscore.compat.sacrebleu.metrics.bleu import BLEUScore, BLEUSignature
from refscore.compat.sacrebleu.metrics.chrf import CHRFScore, CHRFSignature
from refscore.compat.sacrebleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams
from refscore.compat.sacrebleu.metrics.ter import TERScore, TERSignature
from refscore.compat.sacrebleu.utils import (SACREBLEU_DIR, download_test_set, get_available_testsets,
                                             get_langpairs_for_testset, get_reference_files, get_source_file,
                                             smart_open)
from refscore.compat.sacrebleu.version import __version__

__all__ = [
    "smart_open", "SACREBLEU_DIR", "download_test_set", "get_source_file", "get_reference_files",
    "get_available_testsets", "get_langpairs_for_testset", "extract_word_ngrams", "extract_char_ngrams",
    "DATASETS", "BLEU", "CHRF", "TER", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf",
    "sentence_chrf", "corpus_ter", "sentence_ter", "__version__",
    # refscore's drop-in has always re-exported these (sacreBLEU keeps them in metrics.*)
    "BLEUScore", "BLEUSignature", "CHRFScore", "CHRFSignature", "TERScore", "TERSignature",
]
