"""Plug-in metrics: a package outside refscore registers a Metric through a ``refscore.metrics`` entry point and
gets the command line (``-m name``, its own flags), test-case checks, the report, bootstrap intervals and paired
tests, with nothing in refscore naming it. The package is installed the way pip leaves one: its module and a
``.dist-info`` folder with ``entry_points.txt`` on the path (tests/plugin_metric/refscore_wordrecall.py)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import refscore
from refscore.metrics import REGISTRY, get_metric_class
from refscore.testing import Check
from test_cli_process import refscore_command

PLUGIN_SOURCE = Path(__file__).parent / "plugin_metric" / "refscore_wordrecall.py"
HYPOTHESES = ["the cat sat", "a dog", "one two three four"]
REFERENCES = ["the cat sat down", "the dog barked", "one two three five"]


def install_plugin(site: Path, entry: str = "refscore_wordrecall:WordRecall", name: str = "wordrecall") -> Path:
    """The plug-in package as an installer leaves it in ``site``: the module and its dist-info with the entry point."""
    site.mkdir(exist_ok=True)
    shutil.copy(PLUGIN_SOURCE, site / PLUGIN_SOURCE.name)
    info = site / "refscore_wordrecall-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: refscore-wordrecall\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[refscore.metrics]\n{name} = {entry}\n")
    return site


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The plug-in installed on sys.path, and the registry reading entry points afresh (restored afterwards)."""
    site = install_plugin(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    before = dict.copy(REGISTRY)
    monkeypatch.setattr(REGISTRY, "_plugins_loaded", False)
    yield site
    for name in set(dict.keys(REGISTRY)) - set(before):
        dict.__delitem__(REGISTRY, name)


def run(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(refscore_command(*args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_command_line_scores_a_plugin_metric_with_its_own_flags(tmp_path):
    site = install_plugin(tmp_path / "site")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPOTHESES) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(["The cat sat down", *REFERENCES[1:]]) + "\n")
    result = run(site, tmp_path, "score", "-m", "wordrecall,bleu", "-r", "ref.txt", "-i", "hyp.txt")
    assert result.returncode == 0, result.stderr
    assert "wordrecall: nrefs:1|lc:no" in result.stdout and "bleu: nrefs:1" in result.stdout
    lowered = run(site, tmp_path, "score", "-m", "wordrecall", "--wordrecall-lowercase", "--segments", "-r",
                  "ref.txt", "-i", "hyp.txt")
    assert lowered.returncode == 0, lowered.stderr
    assert [line.split("\t")[-1] for line in lowered.stdout.splitlines()[1:4]] == ["75.0000", "33.3333", "75.0000"]
    unknown = run(tmp_path, tmp_path, "score", "-m", "wordrecall", "-r", "ref.txt", "-i", "hyp.txt")
    assert unknown.returncode != 0 and "unknown metric 'wordrecall'" in unknown.stderr


def test_a_plugin_metric_is_a_check(plugin):
    check = Check("wordrecall", threshold=0.6)
    scores, _ = check.scores(HYPOTHESES, REFERENCES)
    assert check.passes(scores).tolist() == [True, False, True] and check.label == "Word recall"
    assert "wordrecall" in REGISTRY and list(REGISTRY)[-1] == "wordrecall"


def test_a_plugin_metric_gets_bootstrap_intervals_and_paired_tests(plugin):
    interval = refscore.bootstrap_ci("wordrecall", HYPOTHESES, REFERENCES, n=100, seed=3)
    assert interval.score == pytest.approx(7 / 11)
    result = refscore.paired_test("wordrecall", {"base": HYPOTHESES, "copy": REFERENCES}, REFERENCES, n=50)
    assert "wordrecall" in str(result)


def test_a_plugin_metric_is_in_the_report(plugin, tmp_path):
    output = tmp_path / "report.html"
    refscore.report({"a": HYPOTHESES, "b": REFERENCES}, REFERENCES, metrics=["wordrecall", "bleu"], output=output)
    assert "wordrecall" in output.read_text(encoding="utf-8")


def test_a_broken_plugin_is_a_clear_error(tmp_path, monkeypatch):
    site = install_plugin(tmp_path / "site", entry="refscore_wordrecall:WordRecallConfig", name="broken")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(REGISTRY, "_plugins_loaded", False)
    try:
        with pytest.raises(refscore.errors.InputError, match=r"metric 'broken'.*is not a refscore.protocol.Metric"):
            get_metric_class("broken")
    finally:
        dict.__delitem__(REGISTRY, "broken")


def test_a_plugin_cannot_replace_a_metric_of_refscore(tmp_path, monkeypatch):
    site = install_plugin(tmp_path / "site", name="bleu")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(REGISTRY, "_plugins_loaded", False)
    taken = "plug-in metric 'bleu'.*is left out: the name is taken by refscore.metrics.bleu:BLEU"
    with pytest.warns(refscore.errors.RefscoreWarning, match=taken):
        assert get_metric_class("bleu").__module__ == "refscore.metrics.bleu.metric"


def test_a_plugin_metric_runs_on_ray(plugin, tmp_path):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'refscore[ray]')")
    pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'refscore[ray]')")
    import json
    import sys

    import numpy as np

    import refscore.distributed as rd

    metric = get_metric_class("wordrecall")()
    ray.cloudpickle.register_pickle_by_value(sys.modules[type(metric).__module__])  # the workers lack its path
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps({"system": "a", "prediction": h, "references": [r]}) + "\n"
                            for h, r in zip(HYPOTHESES * 20, REFERENCES * 20)))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        merged = rd.statistics(str(path), [metric], unit_bytes=400)
    finally:
        ray.shutdown()
    assert np.array_equal(merged.of(metric, "a").data, metric.statistics(HYPOTHESES * 20, REFERENCES * 20).data)


def install_unimportable_plugin(site: Path) -> Path:
    """A plug-in distribution whose module raises as it is imported (a missing dependency of its own, a bug)."""
    site.mkdir(exist_ok=True)
    (site / "refscore_crashing.py").write_text('raise RuntimeError("this plug-in is broken on purpose")\n')
    info = site / "refscore_crashing-2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: refscore-crashing\nVersion: 2.3\n")
    (info / "entry_points.txt").write_text("[refscore.metrics]\ncrashing = refscore_crashing:Crashing\n")
    return site


def test_an_unimportable_plugin_does_not_take_the_command_line_down(tmp_path):
    site = install_unimportable_plugin(tmp_path / "site")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPOTHESES) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(REFERENCES) + "\n")
    help_text = run(site, tmp_path, "--help")
    assert help_text.returncode == 0 and "Traceback" not in help_text.stderr, help_text.stderr
    scored = run(site, tmp_path, "score", "-m", "bleu", "-r", "ref.txt", "-i", "hyp.txt")
    assert scored.returncode == 0 and "Traceback" not in scored.stderr, scored.stderr
    assert "bleu: nrefs:1" in scored.stdout
    warning = [line for line in scored.stderr.splitlines() if "crashing" in line]
    assert len(warning) == 1, scored.stderr   # one line, naming the package and the error
    assert warning[0].startswith("refscore: warning: ")
    assert "refscore-crashing 2.3" in warning[0] and "RuntimeError: this plug-in is broken on purpose" in warning[0]
    cases = "".join(json.dumps({"actual_output": h, "expected_output": r}) + "\n" for h, r in zip(HYPOTHESES, REFERENCES))
    (tmp_path / "cases.jsonl").write_text(cases)
    checked = run(site, tmp_path, "check", "cases.jsonl", "-c", "bleu=0.0")
    assert checked.returncode == 0 and "Traceback" not in checked.stderr, checked.stderr
    used = run(site, tmp_path, "score", "-m", "crashing", "-r", "ref.txt", "-i", "hyp.txt")
    assert used.returncode != 0 and "Traceback" not in used.stderr, used.stderr
    assert "refscore-crashing 2.3" in used.stderr and "broken on purpose" in used.stderr


def test_an_unimportable_plugin_is_left_out_of_the_checks_with_a_warning(tmp_path, monkeypatch):
    site = install_unimportable_plugin(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(REGISTRY, "_plugins_loaded", False)
    try:
        with pytest.warns(refscore.errors.RefscoreWarning, match=r"'crashing' \(package refscore-crashing 2.3"):
            assert Check("bleu", threshold=0.1).label
        with pytest.raises(refscore.errors.InputError, match="RuntimeError: this plug-in is broken on purpose"):
            get_metric_class("crashing")
    finally:
        dict.__delitem__(REGISTRY, "crashing")
