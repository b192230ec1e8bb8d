"""A score's direction is its metric's (issue 39 item 4): ``Score.higher_is_better`` has no default of its own, so a
plug-in built as docs/architecture.md's template says lower-is-better when its metric does, and the template's
code, run as the page gives it, reports so."""
from __future__ import annotations

import re
from dataclasses import dataclass
import sys
import types
from pathlib import Path

import numpy as np

from refscore.protocol import Metric, Score, Signature

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def template_namespace() -> dict:
    """The python blocks of docs/architecture.md's "Adding a metric" section, run in order in one namespace."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text[text.index("### Adding a metric"):]
    section = section[:section.index("\n### ", 1)]
    module = types.ModuleType("architecture_template")   # a module of its own: the page defines dataclasses
    sys.modules[module.__name__] = module
    try:
        for block in re.findall(r"^```python\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL):
            exec(compile(block, str(ARCHITECTURE), "exec"), module.__dict__)  # noqa: S102 (the page's own code)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def test_the_docs_template_reports_each_metrics_own_direction():
    namespace = template_namespace()
    metrics = [value for value in namespace.values()
               if isinstance(value, type) and issubclass(value, Metric) and value is not Metric]
    assert {cls.higher_is_better for cls in metrics} == {True, False}, "the page shows a lower-is-better metric"
    for cls in metrics:
        score = cls().corpus_score(namespace["hypotheses"], namespace["references"])
        assert score.higher_is_better is cls.higher_is_better, cls.__name__
        assert score.to_dict()["higher_is_better"] is cls.higher_is_better, cls.__name__
        stats = cls().statistics(namespace["hypotheses"], namespace["references"])
        assert cls().score_from_statistics(stats).higher_is_better is cls.higher_is_better, cls.__name__


@dataclass(frozen=True)
class _NoOptions:
    pass


class _Errors(Metric):
    """A lower-is-better plug-in whose Score leaves out the direction, as the docs' template does."""

    name = "errors_demo"
    config_class = _NoOptions
    higher_is_better = False

    def statistics(self, hypotheses, references, *, num_threads=None):
        return self._new_statistics(("errors",), np.array([[len(h.split())] for h in hypotheses], np.int64), 1)

    def scores_from_totals(self, totals):
        return np.asarray(totals, dtype=np.float64)[:, :1]

    def score_from_statistics(self, stats):
        return Score(metric=self.name, score=float(stats.totals()[0]), signature=self.signature_text(stats.nrefs))

    def signature(self, nrefs=1):
        return Signature({"nrefs": str(nrefs)})


def test_a_score_built_without_a_direction_takes_its_metrics():
    metric = _Errors()
    assert metric.corpus_score(["a b", "c"], ["x", "y"]).higher_is_better is False
    assert metric.sentence_score("a b", "x").higher_is_better is False


def test_a_subclass_that_changes_direction_overrides_its_parents_score():
    class Fewer(_Errors):
        higher_is_better = True

    assert Fewer().corpus_score(["a"], ["x"]).higher_is_better is True


def test_a_score_built_by_hand_states_no_direction_unless_given():
    assert Score(metric="x", score=0.5, signature="").higher_is_better is None
    assert Score(metric="x", score=0.5, signature="", higher_is_better=False).higher_is_better is False
