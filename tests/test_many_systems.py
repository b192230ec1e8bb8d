"""Many systems on one test set: refscore.metrics.systems.statistics_by_system scores the systems of a lexical
metric in one call, with each system's statistics equal to a call of its own; the command line and paired tests
use it."""
from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import refscore
from refscore.cli.score import score_systems
from refscore.errors import InputTypeError
from refscore.metrics import get_metric_class
from refscore.metrics.systems import statistics_by_system

REFERENCES = [["the cat sat on the mat", "a cat sat on the mat"], ["a dog barked"], [""], ["it rained all day"]]
SYSTEMS = {"base": ["the cat sat on mat", "dog barked", "", "it rained"],
           "new": ["the cat sat on the mat", "a dog barked loudly", "x", "it rained all day"],
           "third": ["cat", "", "", "all day it rained"]}


def counting(metric):
    """``metric`` with its statistics calls counted (``metric.calls``); ``metric.metric`` is the metric itself."""
    statistics = metric.statistics

    def counted(*args, **kwargs):
        metric.calls += 1
        return statistics(*args, **kwargs)

    metric.calls, metric.metric, metric.statistics = 0, metric, counted
    return metric


@pytest.mark.parametrize("name, options", [("bleu", {}), ("chrf", {"word_order": 2}), ("ter", {}), ("gleu", {}),
                                           ("rouge", {"types": ("rouge1", "rougeL")})])
def test_one_call_for_all_systems_equals_each_system_alone(name, options):
    metric = counting(get_metric_class(name)(**options))
    together = statistics_by_system(metric, SYSTEMS, REFERENCES, num_threads=2)
    assert metric.calls == 1
    for system, hypotheses in SYSTEMS.items():
        alone = type(metric)(**options).statistics(hypotheses, REFERENCES, num_threads=1)
        assert np.array_equal(together[system].data, alone.data), system
        assert together[system].config_hash == alone.config_hash and together[system].nrefs == alone.nrefs


def test_errors_and_warnings_name_each_systems_own_positions():
    broken = {**SYSTEMS, "third": ["cat", None, "", "x"]}
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\]"):
        statistics_by_system(refscore.CHRF(), broken, REFERENCES)
    tokenized = {"a": ["the cat sat", "a dog"] * 2, "b": ["the cat sat .", "a dog ( sat ) ."] * 2}
    metric = counting(refscore.BLEU())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        statistics_by_system(metric, tokenized, ["the cat sat .", "a dog ( sat ) ."] * 2)
    if caught:   # the tokenized-input advice: given by the systems' own calls (1 joint + 2), not the joint one
        assert metric.calls == 3


def test_systems_that_cannot_share_a_call_are_scored_one_by_one():
    external = counting(refscore.external_scores([0.5, 0.25, 1.0, 0.0], name="human"))
    statistics_by_system(external, SYSTEMS, REFERENCES)
    assert external.calls == len(SYSTEMS)
    single = counting(refscore.BLEU())
    statistics_by_system(single, {"a": ["x"]}, REFERENCES[:1])
    assert single.calls == 1


def test_score_command_and_paired_tests_use_one_call():
    metric = counting(refscore.BLEU())
    rows = score_systems([metric], SYSTEMS, REFERENCES, with_segments=False)
    assert metric.calls == 1 and [row["system"] for row in rows] == list(SYSTEMS)
    chrf = counting(refscore.CHRF())
    result = refscore.paired_test([chrf], SYSTEMS, REFERENCES, test="ar", n=50)
    assert chrf.calls == 1
    assert result.result("new", "chrf").score == refscore.chrf(SYSTEMS["new"], REFERENCES).score


def test_score_command_with_many_systems_prints_each_systems_own_scores(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(refs[0] for refs in REFERENCES) + "\n", encoding="utf-8")
    for system, hypotheses in SYSTEMS.items():
        (tmp_path / f"{system}.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")

    def run(*systems):
        command = [sys.executable, "-m", "refscore.cli", "score", "ref.txt", "-m", "bleu,chrf", "--format",
                   "json", "-i", *(f"{system}.txt" for system in systems)]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    together = run(*SYSTEMS)
    alone = [run(system) for system in SYSTEMS]
    assert len(together) == len(SYSTEMS) == len(alone)
    for joint, single in zip(together, alone):
        assert joint == single[0]
