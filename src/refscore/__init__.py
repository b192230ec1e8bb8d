"""refscore: reference-based text metrics (BLEU, Google-BLEU, ROUGE, chrF/chrF++, TER, BERTScore, METEOR) with the
exact numbers of sacreBLEU, NLTK, rouge-score and bert-score, computed by a multi-core compiled core.

>>> import refscore
>>> refscore.from_streams([["a b", "c d"]])
[['a b'], ['c d']]
"""
from __future__ import annotations

from typing import Any

from refscore.hash_key import refuse_a_bad_hash_key
from refscore.lazy import LazyNames
from refscore.metrics import public_names
from refscore._version import __version__

refuse_a_bad_hash_key()   # the compiled modules load lazily; a program still learns of a bad key at import

# Public names resolved lazily (module -> names), so `import refscore` stays cheap (it imports not even numpy:
# tests/test_cli_startup.py): the input helpers and Statistics, every registered metric's names
# (refscore.metrics.public_names), then the workflows on top of them.
_LAZY = LazyNames(__name__, globals(), {
    "refscore.inputs": ("from_streams", "per_segment"),
    "refscore.protocol": ("Statistics",),
    **public_names(),
    "refscore.significance": ("bootstrap_ci", "bootstrap_ci_from_statistics", "paired_test",
                              "paired_test_from_statistics", "paired_bootstrap", "paired_approximate_randomization"),
    "refscore.metrics.external": ("external_scores", "ExternalScores", "SystemSegments"),
    "refscore.reporting": ("report",),
    "refscore.reward": ("Reward", "reward"),
    "refscore.io.statistics": ("save_statistics", "load_statistics"),
    "refscore.pairs": ("pairwise", "pairwise_items", "mbr", "MBRResult", "pruning_mbr", "centroid_mbr"),
})
__getattr__ = _LAZY.getattr
__dir__ = _LAZY.dir
__all__ = ["__version__", "show_config", *_LAZY.names]


def show_config() -> dict[str, Any]:
    """Build facts: version, whether the core has OpenMP, and the default thread count."""
    from refscore._core import openmp_enabled, resolve_num_threads

    return {"version": __version__, "openmp": openmp_enabled(), "default_num_threads": resolve_num_threads()}
