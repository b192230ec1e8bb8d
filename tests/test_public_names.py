"""The package facade ``refscore``: the public names README.md and docs/ document, now built from the metric registry
(``refscore.metrics.public_names``) instead of a list in ``refscore/__init__.py``."""
from __future__ import annotations

import importlib
import subprocess
import sys

import refscore
from refscore.metrics import REGISTRY, public_names

#: The names ``import refscore`` offers (README.md and the metric pages of docs/), written out here so that
#: building them from the registry is checked against the documented API, not against itself.
DOCUMENTED = {
    "__version__", "from_streams", "per_segment", "Statistics", "show_config",
    "BLEU", "BLEUConfig", "BLEUScore", "bleu", "sentence_bleu",
    "GLEU", "GLEUConfig", "GLEUScore", "gleu", "sentence_gleu",
    "CHRF", "CHRFConfig", "CHRFScore", "chrf", "sentence_chrf",
    "TER", "TERConfig", "TERScore", "ter", "sentence_ter",
    "ROUGE", "ROUGEConfig", "ROUGEScore", "rouge", "ROUGE155", "ROUGE155Config", "ROUGE155Score", "rouge155",
    "BERTScoreConfig", "BERTScorer", "bertscore", "COMET", "COMETConfig", "comet", "unbabel_comet",
    "METEOR", "METEORConfig", "METEORScore", "meteor", "sentence_meteor",
    "ExactMatch", "ExactMatchConfig", "exact_match", "sentence_exact_match",
    "SQuAD", "SQuADConfig", "SQuADScore", "squad", "sentence_squad",
    "WER", "ErrorRateConfig", "wer", "sentence_wer", "CER", "cer", "sentence_cer", "MER", "mer", "sentence_mer",
    "WIL", "wil", "sentence_wil", "WIP", "wip", "sentence_wip",
    "EditDistance", "EditDistanceConfig", "edit_distance", "sentence_edit_distance",
    "EED", "EEDConfig", "eed", "sentence_eed",
    "bootstrap_ci", "bootstrap_ci_from_statistics", "paired_test", "paired_test_from_statistics",
    "paired_bootstrap", "paired_approximate_randomization",
    "external_scores", "ExternalScores", "SystemSegments", "report", "Reward", "reward",
    "save_statistics", "load_statistics",
    "pairwise", "pairwise_items", "mbr", "MBRResult", "pruning_mbr", "centroid_mbr",
}


def test_all_is_the_documented_api():
    assert len(refscore.__all__) == len(set(refscore.__all__))
    assert set(refscore.__all__) == DOCUMENTED
    assert DOCUMENTED <= set(dir(refscore))


def test_every_public_name_resolves_to_its_module_object():
    for module, names in public_names().items():
        loaded = importlib.import_module(module)
        for name in names:
            assert getattr(refscore, name) is getattr(loaded, name), f"refscore.{name}"
    for name in DOCUMENTED:
        assert getattr(refscore, name) is not None, name


def test_every_built_in_metric_has_facade_names():
    """A registered metric's function is ``refscore.<name>`` (the registry entry is the one place to add it)."""
    facade = {name for names in public_names().values() for name in names}
    assert set(REGISTRY) <= facade


def test_import_stays_lazy():
    """``import refscore`` imports no metric module and no plug-in metadata until a name is used."""
    code = ("import sys, refscore; print(sorted(m for m in sys.modules if m.startswith('refscore.metrics.')"
            " or m == 'refscore.significance'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
