"""Where METEOR's WordNet comes from, tested without needing it: the error when it is missing (API and a real
process), and the test suite's own rule (skip, or fail under CI's ``REFSCORE_REQUIRE_WORDNET=1``)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import _meteor_peer
from refscore.errors import MissingModelError
from refscore.metrics.meteor import METEOR

#: the command line in a new process
REFSCORE = [sys.executable, "-c", "import sys; from refscore.cli.main import main; sys.exit(main())"]


def test_missing_wordnet_names_the_packages_and_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("REFSCORE_WORDNET", str(tmp_path))
    with pytest.raises(MissingModelError) as error:
        METEOR().sentence_scores(["a"], ["a"])
    message = str(error.value)
    assert "wordnet-base" in message and "wordnet-sense-index" in message and "$REFSCORE_WORDNET" in message
    assert str(tmp_path) in message and "index.noun" in message


def test_missing_wordnet_on_the_command_line(tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a cat\n", encoding="utf-8")
    ref.write_text("the cat\n", encoding="utf-8")
    env = {**os.environ, "REFSCORE_WORDNET": str(tmp_path)}
    done = subprocess.run([*REFSCORE, "score", "-m", "meteor", "-i", str(hyp), "-r", str(ref)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 7, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("refscore: error: METEOR needs WordNet 3.0") and "Traceback" not in done.stderr
    assert "apt-get install wordnet-base wordnet-sense-index" in done.stderr


@pytest.mark.parametrize("required, outcome", [("1", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_missing_wordnet_skips_the_tests_or_fails_them_in_ci(tmp_path, monkeypatch, required, outcome):
    monkeypatch.setattr(_meteor_peer, "DEBIAN_WORDNET", tmp_path)
    monkeypatch.setenv("REFSCORE_REQUIRE_WORDNET", required)
    with pytest.raises(outcome, match="apt-get install wordnet-base wordnet-sense-index"):
        _meteor_peer.require_wordnet()


def test_lexnames_is_the_manual_page_table():
    if not _meteor_peer.LEXNAMES_MAN_PAGE.is_file():
        pytest.skip(_meteor_peer.WHY)
    lines = _meteor_peer.lexnames_lines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3\n" and lines[3] == "03\tnoun.Tops\t1\n" and lines[44] == "44\tadj.ppl\t3\n"


def test_example_reports_a_missing_wordnet_and_scores_the_rest(tmp_path, monkeypatch):
    from refscore.example import example_metrics

    monkeypatch.setenv("REFSCORE_WORDNET", str(tmp_path))
    metrics, skipped = example_metrics("summarization")   # ROUGE, ROUGE-1.5.5 and METEOR (example_task)
    assert [metric.name for metric in metrics] == ["rouge", "rouge155"]
    assert "wordnet-base" in skipped["meteor"] and "$REFSCORE_WORDNET" in skipped["meteor"]
