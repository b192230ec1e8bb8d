"""BERTScore on the metric protocol: results are Scores with statistics, one list of settings, signatures without
loading a model, and imports that point down."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import numpy as np
import pytest

from bertscore_helpers import CORPUS

pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.metrics.bertscore import scorer  # noqa: E402
from refscore.errors import InputTypeError  # noqa: E402
from refscore.protocol import Score  # noqa: E402
from refscore.metrics.bertscore import BERTScoreMetric  # noqa: E402
from refscore.protocol import Statistics  # noqa: E402

HYPS = CORPUS[:6]
REFS = CORPUS[3:9]
PACKAGE = Path(refscore.__file__).parent


def test_results_are_scores_with_statistics(tiny_bert):
    result = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=list(REFS))
    assert isinstance(result, Score) and result.values["f1"] == result.score
    assert result.score == pytest.approx(float(np.mean(result.details["f1"], dtype=np.float64)), abs=1e-12)
    assert result.statistics.columns == ("precision", "recall", "f1", "documents")
    np.testing.assert_array_equal(result.statistics.data[:, 2].astype(np.float32), result.details["f1"])
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, idf_sentences=tuple(REFS), device="cpu")
    assert result.statistics.config_hash == metric.config_hash   # the runtime device does not change the hash
    corpus = metric.score_from_statistics(result.statistics)
    assert corpus.values["f1"] == pytest.approx(result.score, abs=1e-12) and corpus.signature == result.signature
    assert corpus.values["hash"] == result.details["hash"]
    np.testing.assert_array_equal(metric.segment_scores(result.statistics).astype(np.float32), result.details["f1"])
    assert "statistics" in result.to_dict() and "statistics" not in corpus.to_dict()


def test_all_layers_statistics_keep_every_layer(tiny_bert):
    result = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=1, all_layers=True)
    layers = result.details["f1"].shape[0]
    assert result.statistics.columns[:2] == ("precision_0", "precision_1") and len(result.statistics.columns) == \
        3 * layers + 1
    assert result.score == pytest.approx(float(np.mean(result.details["f1"][1], dtype=np.float64)), abs=1e-12)
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=1, all_layers=True)
    np.testing.assert_array_equal(metric.segment_scores(result.statistics).astype(np.float32), result.details["f1"][1])


def test_settings_are_listed_once(tiny_bert):
    fields = {field for field in refscore.BERTScoreConfig.__dataclass_fields__}
    for function in (refscore.bertscore, refscore.BERTScorer.__init__, BERTScoreMetric.__init__):
        named = set(inspect.signature(function).parameters) - {"self", "hypotheses", "references", "num_threads",
                                                               "config", "options"}
        assert named <= fields, function
    with pytest.raises(InputTypeError, match="no_such_setting.*valid settings: model_type"):
        refscore.BERTScorer(tiny_bert, 2, no_such_setting=1)
    config = refscore.BERTScoreConfig(model_type=tiny_bert, num_layers=2, idf=list(REFS))
    from_config = refscore.BERTScorer(config=config).score(HYPS, REFS)
    from_arguments = refscore.bertscore(HYPS, REFS, model_type=tiny_bert, num_layers=2, idf=list(REFS))
    np.testing.assert_array_equal(from_config.details["f1"], from_arguments.details["f1"])


def test_score_from_statistics_loads_no_model(tiny_bert, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(scorer, "load_model", refuse)
    metric = BERTScoreMetric(model_type=tiny_bert, num_layers=2, idf_sentences=("a b", "c"))
    stats = Statistics("bertscore", metric.config_hash, metric.columns, np.array([[0.5, 0.25, 0.3, 1.0]]), 1)
    score = metric.score_from_statistics(stats)
    assert (score.values["f1"], score.values["precision"], score.values["recall"]) == (0.3, 0.5, 0.25)
    assert "layer:2" in score.signature and "idf:fixed-" in score.signature
    assert score.values["hash"].startswith(f"{tiny_bert}_L2_idf_version=")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_imports_point_down():
    """The metric never imports the command line; its internals (every module of the package but the metric and
    the package itself) import only each other and the metrics' shared internals (``refscore.metrics._*``) below
    refscore.metrics, never the metric or the command line."""
    package = PACKAGE / "metrics" / "bertscore"
    assert not {m for m in _imported_modules(package / "metric.py") if m.startswith("refscore.cli")}
    internals = [module for module in package.glob("*.py") if module.name not in ("metric.py", "__init__.py")]
    assert len(internals) >= 8
    for module in internals:
        upward = {m for m in _imported_modules(module) if m.startswith(("refscore.metrics", "refscore.cli"))
                  and not (m.startswith("refscore.metrics.bertscore.") and m != "refscore.metrics.bertscore.metric")
                  and not m.startswith("refscore.metrics._")}   # the metrics' shared internals (explanations)
        assert not upward, module.name
