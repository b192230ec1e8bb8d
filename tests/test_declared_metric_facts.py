"""Every fact and hook a workflow reads of a metric is declared on the one base (``refscore.protocol.Metric`` and
``refscore._metric_facts.MetricFacts``, with its default and a line of meaning): an AST scan of the workflow
packages finds each attribute read on a metric (``metric.X``, ``self.metric.X``, ``metrics[i].X``; not inside an
``isinstance(metric, ...)`` block, which reads that class's own API) and fails on one the base does not declare, so a plug-in never misses a hook it could not know about."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from refscore.metrics import REGISTRY, get_metric_class
from refscore.protocol import Metric

SOURCE = Path(__file__).resolve().parents[1] / "src" / "refscore"
#: The packages and modules on top of the metrics (the workflows) that take any metric.
WORKFLOWS = ("cli", "testing", "reporting", "significance", "pairs", "distributed", "meta", "integrations",
             "example.py", "reward.py", "streaming.py", "_pair_scoring.py")
#: The names a workflow gives a metric it was handed.
METRIC_NAMES = frozenset({"metric", "metric_", "each_metric", "scored_metric", "refscore_metric"})


def workflow_files() -> list[Path]:
    files: list[Path] = []
    for entry in WORKFLOWS:
        path = SOURCE / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def is_metric(node: ast.expr) -> bool:
    """``metric``, ``self.metric`` / ``self._metric``, ``metrics[i]``."""
    if isinstance(node, ast.Name):
        return node.id in METRIC_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in METRIC_NAMES or node.attr == "_metric"
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id == "metrics"
    return False


def _narrowed(test: ast.expr) -> bool:
    """``isinstance(metric, SomeClass)`` (alone or in an ``and``): the block reads that class's own API, not a
    workflow's hook."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_narrowed(value) for value in test.values)
    return (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and bool(test.args) and is_metric(test.args[0]))


def _reads(node: ast.AST, found: list[tuple[int, str]]) -> None:
    if isinstance(node, (ast.If, ast.IfExp)) and _narrowed(node.test):
        for child in ([node.test] + (node.orelse if isinstance(node.orelse, list) else [node.orelse])):
            _reads(child, found)
        return
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and is_metric(node.value):
        found.append((node.lineno, node.attr))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2 and is_metric(node.args[0]) and isinstance(node.args[1], ast.Constant)):
        found.append((node.lineno, str(node.args[1].value)))
    for child in ast.iter_child_nodes(node):
        _reads(child, found)


def metric_attributes_read(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    _reads(ast.parse(path.read_text(encoding="utf-8")), found)
    return found


#: Where a workflow's ``metric`` is a check's name (a string) or a score matrix (an array), not a metric.
NOT_METRIC_ATTRIBUTES = frozenset(set(dir(str)) | set(dir(np.ndarray))) - set(dir(Metric))


def declared() -> set[str]:
    """What every metric has: the base's attributes and hooks, and what ``Metric.__init__`` sets."""
    annotated = {name for cls in Metric.__mro__ for name in getattr(cls, "__annotations__", {})}
    return set(dir(Metric)) | annotated | {"config", "config_hash"}


def test_workflows_read_only_declared_metric_facts():
    known = declared()
    undeclared = [f"{path.relative_to(SOURCE)}:{line}: metric.{name}" for path in workflow_files()
                  for line, name in metric_attributes_read(path)
                  if name not in known and name not in NOT_METRIC_ATTRIBUTES]
    assert not undeclared, ("workflows read metric attributes that refscore.protocol.Metric / "
                            "refscore._metric_facts.MetricFacts do not declare (declare each there, with its "
                            "default and one line of meaning):\n" + "\n".join(undeclared))


def test_the_scan_finds_what_it_should():
    """The scan is not vacuous: it sees the reads of known facts, and would see an undeclared one."""
    reads = {name for path in workflow_files() for _, name in metric_attributes_read(path)}
    assert {"higher_is_better", "score_names", "statistics"} <= reads
    found: list[tuple[int, str]] = []
    _reads(ast.parse("def f(metric, metrics):\n    if isinstance(metric, Own):\n        metric.own_api()\n"
                     "    return metric.not_a_fact, getattr(metrics[0], 'nor_this')"), found)
    assert [name for _, name in found] == ["not_a_fact", "nor_this"]


@pytest.mark.parametrize("name", [name for name in REGISTRY if name not in ("bertscore", "meteor", "unbabel_comet")])
def test_integer_statistics_is_what_the_statistics_are(name):
    """``integer_statistics`` (exact sums: a distributed run sends only totals) matches the statistics' dtype."""
    metric = get_metric_class(name)()
    stats = metric.statistics(["a b c", "b"], [["a b d"], ["c"]], num_threads=1)
    assert metric.integer_statistics == (stats.data.dtype.kind == "i"), name


@pytest.mark.parametrize("name", [name for name in REGISTRY if name not in ("bertscore", "meteor", "unbabel_comet")])
def test_merge_rules_cover_every_column_and_count_documents_from_totals(name):
    """Every statistics column has one declared merge rule, and the segment count of a document-averaged result is
    the same from per-segment rows and from their one row of totals (streamed, distributed, torchmetrics runs)."""
    metric = get_metric_class(name)()
    stats = metric.statistics(["a b c", "b", ""], [["a b d"], ["c"], ["x"]], num_threads=1)
    rules = metric.merge_rules()
    assert set(rules) == set(stats.columns) | set(stats.carried_columns), name
    assert set(rules.values()) <= {"sum", "segments", "carried"}
    assert metric.carried_statistics_columns == stats.carried_columns
    totals = type(stats)(stats.metric, stats.config_hash, stats.columns, stats.totals()[None, :], stats.nrefs)
    whole, summed = metric.score_from_statistics(stats), metric.score_from_statistics(totals)
    assert whole.score == pytest.approx(summed.score)
    if "segments" in rules.values():
        assert metric.documents(stats) == metric.documents(totals) == 3
        if "documents" in whole.values:
            assert whole.values["documents"] == summed.values["documents"] == 3, name
