"""refscore: reference-based text metrics (BLEU, Google-BLEU, ROUGE, chrF/chrF++, TER, BERTScore, METEOR) with the
exact numbers of sacreBLEU, NLTK, rouge-score and bert-score, computed by a multi-core compiled core.

>>> import refscore
>>> refscore.from_streams([["a b", "c d"]])
[['a b'], ['c d']]
"""
from __future__ import annotations

from typing import Any

from refscore.inputs import from_streams, per_segment
from refscore.lazy import LazyNames
from refscore._version import __version__
from refscore.protocol import Statistics

# Public names resolved lazily (module -> names), so `import refscore` stays cheap.
_LAZY = LazyNames(__name__, globals(), {
    "refscore.metrics.bleu": ("BLEU", "BLEUConfig", "BLEUScore", "bleu", "sentence_bleu"),
    "refscore.metrics.gleu": ("GLEU", "GLEUConfig", "GLEUScore", "gleu", "sentence_gleu"),
    "refscore.metrics.chrf": ("CHRF", "CHRFConfig", "CHRFScore", "chrf", "sentence_chrf"),
    "refscore.metrics.ter": ("TER", "TERConfig", "TERScore", "ter", "sentence_ter"),
    "refscore.metrics.rouge": ("ROUGE", "ROUGEConfig", "ROUGEScore", "rouge", "ROUGE155", "ROUGE155Config",
                               "ROUGE155Score", "rouge155"),
    "refscore.significance": ("bootstrap_ci", "bootstrap_ci_from_statistics", "paired_test",
                              "paired_test_from_statistics", "paired_bootstrap", "paired_approximate_randomization"),
    "refscore.metrics.bertscore": ("BERTScoreConfig", "BERTScorer", "bertscore"),
    "refscore.metrics.meteor": ("METEOR", "METEORConfig", "METEORScore", "meteor", "sentence_meteor"),
    "refscore.metrics.external": ("external_scores", "ExternalScores", "SystemSegments"),
    "refscore.reporting": ("report",),
    "refscore.reward": ("Reward", "reward"),
    "refscore.io.statistics": ("save_statistics", "load_statistics"),
})
__getattr__ = _LAZY.getattr
__dir__ = _LAZY.dir
__all__ = ["__version__", "from_streams", "per_segment", "Statistics", "show_config", *_LAZY.names]


def show_config() -> dict[str, Any]:
    """Build facts: version, whether the core has OpenMP, and the default thread count."""
    from refscore._core import openmp_enabled, resolve_num_threads

    return {"version": __version__, "openmp": openmp_enabled(), "default_num_threads": resolve_num_threads()}
