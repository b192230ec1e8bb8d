"""Scores from outside are not a special case of the workflows: what they do differently (read by key, explained by
where they were read, compared with a baseline by their declarations, ranges per instance) is declared on the metric
(``keyed_scores``, ``system_statistics``, ``explain_segment``, ``baseline_declarations``, ``threshold_range``), and no
workflow module names their class or branches on it."""
from __future__ import annotations

import ast
import math

import pytest

from refscore.metrics import get_metric_class
from refscore.metrics.external import external_scores, spec_in_folder
from refscore.testing.checks import Check
from refscore.testing.explain import explain

from test_declared_metric_facts import SOURCE, workflow_files

#: The class of scores from outside, and the input type that carries their keys: workflows build the input type
#: (every metric reads it as a list) but never test for either.
OUTSIDE = frozenset({"ExternalScores", "SystemSegments"})


def _tested_types(tree: ast.AST) -> list[tuple[int, str]]:
    """``isinstance(x, OUTSIDE)`` tests and imports of ``ExternalScores`` in a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            names = [n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)] if len(node.args) > 1 else []
            found += [(node.lineno, name) for name in names if name in OUTSIDE]
        if isinstance(node, ast.ImportFrom):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name == "ExternalScores"]
    return found


def test_no_workflow_branches_on_scores_from_outside():
    found = [f"{path.relative_to(SOURCE)}:{line}: {name}" for path in workflow_files()
             for line, name in _tested_types(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, ("workflows test for the class of scores from outside; declare what differs on the metric "
                       "(refscore._metric_facts.MetricFacts) instead:\n" + "\n".join(found))


def test_the_scan_sees_a_branch():
    tree = ast.parse("from refscore.metrics.external import ExternalScores\n"
                     "def f(metric, h):\n"
                     "    return isinstance(metric, ExternalScores) or isinstance(h, (list, SystemSegments))\n")
    assert [name for _, name in _tested_types(tree)] == ["ExternalScores", "ExternalScores", "SystemSegments"]


def test_the_hooks_default_to_scoring_the_text():
    chrf = get_metric_class("chrf")()
    assert not chrf.keyed_scores and chrf.baseline_declarations() is None
    assert chrf.explain_segment("a cat", ["a cat"], None, "7") == chrf.explain_case("a cat", ["a cat"])
    stats = chrf.system_statistics("sysA", ["a cat"], [["a cat"]], ["7"], num_threads=1)
    assert stats.data.tolist() == chrf.statistics(["a cat"], [["a cat"]], num_threads=1).data.tolist()


def test_scores_from_outside_declare_what_differs():
    mqm = external_scores({"sysA": [-1.0, -4.0]}, name="mqm", range=(-25, 0))
    unbounded = external_scores([0.5], name="comet")
    assert mqm.keyed_scores and mqm.threshold_range == (-25.0, 0.0) and mqm.score_range is None
    assert unbounded.threshold_range == (-math.inf, math.inf)
    assert mqm.baseline_declarations() == {"higher_is_better": True, "range": [-25.0, 0.0]}
    stats = mqm.system_statistics("sysA", ["x", "y"], [["r"], ["r"]], ["2", "1"])
    assert stats.column("score").tolist() == [-4.0, -1.0]
    assert "read from scores['sysA'][1]" in mqm.explain_segment("y", ["r"], "sysA", "2")


def test_a_check_reads_them_through_the_hooks():
    check = Check(external_scores([0.25, 0.75], name="comet", range=(0, 1)), threshold=0.5)
    scores, _ = check.scores(["a", "b"], [["x"], ["y"]], ids=["2", "1"])
    assert scores.tolist() == [0.75, 0.25]
    assert explain(check, "a", "x", "1").startswith("comet 0.2500 read from")
    with pytest.raises(Exception, match=r"threshold 50 is outside comet's range \[0, 1\]$"):   # no 0–100 hint
        check.replace(threshold=50)


def test_a_config_file_names_its_scores_from_its_folder():
    assert spec_in_folder("file:runs/comet.tsv", "project") == "file:project/runs/comet.tsv"
    assert spec_in_folder("file:/abs/comet.tsv", "project") == "file:/abs/comet.tsv"
    assert spec_in_folder("chrf", "project") == "chrf"


def test_the_declared_facts_scan_sees_the_new_hooks_read():
    """The AST test of tests/test_declared_metric_facts.py sees these hooks read by the workflows (so a hook
    dropped from the base would fail it)."""
    from test_declared_metric_facts import declared, metric_attributes_read

    reads = {name for path in workflow_files() for _, name in metric_attributes_read(path)}
    hooks = {"keyed_scores", "explain_segment", "baseline_declarations", "system_statistics"}
    assert hooks <= reads and hooks <= declared()
