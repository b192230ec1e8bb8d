"""The plug-in template of docs/architecture.md ("Adding a metric", ``WordRecall``) works from every entry point
as the docs give it: the code is taken from the docs, installed as a plug-in package would be (its module and a
``.dist-info`` with a ``refscore.metrics`` entry point) and run through the Python API (one reference as a string,
references as lists, a varying count), ``refscore score -m``, ``refscore compare`` and ``refscore check``."""
from __future__ import annotations

import json
import math
import re
import sys
import types
from pathlib import Path

import pytest

from refscore.errors import InputError
from refscore.metrics import REGISTRY
from refscore.testing import Check
from test_plugin_metrics import run

DOCS = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
HYPOTHESES = ["the cat sat on the mat", "a dog", "hello world"]
REFERENCES = ["The cat is on the mat", "a dog barked", "hello there world"]
SECOND = ["the cat was on a mat", "dog", "hello world"]


def template_source() -> str:
    """The one python block of the docs that defines the template's metric class."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)
    found = [block for block in blocks if "class WordRecall(Metric)" in block]
    assert len(found) == 1, "docs/architecture.md should hold one WordRecall template"
    return found[0]


def template_module() -> types.ModuleType:
    """The template's code as a module of its own (a dataclass needs its module in ``sys.modules``)."""
    module = sys.modules["docs_template_word_recall"] = types.ModuleType("docs_template_word_recall")
    exec(compile(template_source(), str(DOCS), "exec"), module.__dict__)
    return module


def install_template(site: Path) -> Path:
    """The template as an installed plug-in package, registered under its metric's name."""
    site.mkdir(exist_ok=True)
    (site / "docs_word_recall.py").write_text(template_source(), encoding="utf-8")
    info = site / "docs_word_recall-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: docs-word-recall\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[refscore.metrics]\nword_recall = docs_word_recall:WordRecall\n")
    return site


def test_the_template_takes_references_as_strings_and_as_lists():
    metric = template_module().WordRecall()
    as_strings = metric.corpus_score(HYPOTHESES, REFERENCES)
    as_lists = metric.corpus_score(HYPOTHESES, [[reference] for reference in REFERENCES])
    assert as_strings.score == as_lists.score == pytest.approx(8 / 12)  # cat on the mat, a dog, hello world
    assert "nrefs:1" in as_strings.signature
    two = metric.corpus_score(HYPOTHESES, [[a, b] for a, b in zip(REFERENCES, SECOND)])
    assert "nrefs:2" in two.signature and two.score > as_strings.score  # each segment's best reference counts
    varying = metric.corpus_score(HYPOTHESES, [[REFERENCES[0], SECOND[0]], REFERENCES[1], [REFERENCES[2]]])
    assert "nrefs:var" in varying.signature and varying.statistics.nrefs == -1
    assert metric.sentence_score(HYPOTHESES[2], [REFERENCES[2], SECOND[2]]).score == 1.0
    with pytest.raises(InputError, match="references"):   # bad input is refscore's clear error, not a TypeError
        metric.corpus_score(HYPOTHESES, REFERENCES[:2])


def test_the_template_runs_from_the_command_line_and_check(tmp_path):
    site = install_template(tmp_path / "site")
    expected = template_module().WordRecall().corpus_score(HYPOTHESES, REFERENCES).score
    (tmp_path / "hyp.txt").write_text("\n".join(HYPOTHESES) + "\n")
    (tmp_path / "other.txt").write_text("\n".join(SECOND) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(REFERENCES) + "\n")
    (tmp_path / "ref2.txt").write_text("\n".join(SECOND) + "\n")
    scored = run(site, tmp_path, "score", "-m", "word_recall", "-r", "ref.txt", "-i", "hyp.txt", "--format", "json")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)[0]["scores"]["word_recall"]["score"] == pytest.approx(100 * expected)
    two = run(site, tmp_path, "score", "-m", "word_recall", "-r", "ref.txt", "-r", "ref2.txt", "-i", "hyp.txt")
    assert two.returncode == 0 and "nrefs:2" in two.stdout, two.stderr
    compared = run(site, tmp_path, "compare", "-m", "word_recall", "-r", "ref.txt", "-i", "hyp.txt", "other.txt",
                   "--n", "50")
    assert compared.returncode == 0, compared.stderr
    cases = [{"actual_output": h, "expected_output": [r, s]} for h, r, s in zip(HYPOTHESES, REFERENCES, SECOND)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases))
    checked = run(site, tmp_path, "check", "cases.jsonl", "-c", "word_recall=0.5")
    assert checked.returncode == 0 and "Traceback" not in checked.stderr, checked.stdout + checked.stderr


@pytest.fixture
def installed(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(install_template(tmp_path / "site")))
    monkeypatch.setattr(REGISTRY, "_plugins_loaded", False)
    yield
    dict.pop(REGISTRY, "word_recall", None)


def test_the_template_is_a_check(installed):
    check = Check("word_recall", threshold=0.5)
    scores, _ = check.scores(HYPOTHESES, [[r, s] for r, s in zip(REFERENCES, SECOND)])
    assert check.passes(scores).tolist() == [True, True, True]


def test_an_unbounded_metric_declares_an_infinite_threshold_range(installed, tmp_path):
    """What the docs tell an unbounded metric to declare takes a threshold of any finite size."""
    assert "threshold_range = (-math.inf, math.inf)" in DOCS.read_text(encoding="utf-8")
    (tmp_path / "site" / "unbounded_recall.py").write_text(
        "import math\nfrom docs_word_recall import WordRecall\n\n\nclass Unbounded(WordRecall):\n"
        "    name = 'unbounded'\n    threshold_range = (-math.inf, math.inf)\n")
    dict.__setitem__(REGISTRY, "unbounded", "unbounded_recall:Unbounded")
    try:
        assert Check("unbounded", threshold=-3.5).threshold == -3.5
        with pytest.raises(InputError, match="outside"):
            Check("word_recall", threshold=-3.5)
        with pytest.raises(InputError, match="finite"):
            Check("unbounded", threshold=math.inf)
    finally:
        dict.__delitem__(REGISTRY, "unbounded")
