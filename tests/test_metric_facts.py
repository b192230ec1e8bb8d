"""A metric carries its facts: a metric class defined outside refscore and registered gets test-case checks
(label, range refusal, bands, direction), explanations and bootstrap arithmetic without any list in
refscore.testing or refscore.significance naming it; refscore's own metrics declare theirs on their classes."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from refscore.errors import InputError, InputTypeError
from refscore.metrics import REGISTRY, get_metric_class
from refscore.testing import Check
from refscore.testing.checks import check_names, resolve_spec
from refscore.testing.explain import explain

sys.path.insert(0, str(Path(__file__).parent / "plugin_metric"))


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(REGISTRY, "wordrecall", "refscore_wordrecall:WordRecall")
    return get_metric_class("wordrecall")


def test_a_registered_metric_gets_a_check_with_its_label_bands_and_range(registered):
    check = Check("WordRecall", threshold=0.5)
    assert check.metric_class is registered and check.label == "Word recall" and "wordrecall" in check_names()
    assert check.bands_of([0.9, 0.5, 0.1]) == ["most words", "some words", None]
    scores, _ = check.scores(["the cat sat", "a dog"], [["the cat sat down"], ["the dog barked"]])
    assert scores.tolist() == [0.75, 1 / 3] and check.passes(scores).tolist() == [True, False]
    with pytest.raises(InputError, match=r"threshold 50 is outside Word recall's range \[0, 1\].*did you mean 0\.5"):
        Check("wordrecall", threshold=50)
    with pytest.raises(InputError, match=r"valid options: \['lowercase'\]"):
        Check("wordrecall", lowercase=True, stemmer=True)


def test_a_registered_metric_explains_its_cases(registered):
    assert explain(Check("wordrecall"), "the cat", "the black cat sat") == "reference words missing: black, sat"


def test_the_default_explanation_states_every_score(registered, monkeypatch):
    monkeypatch.delattr(registered, "explain_case")
    assert explain(Check("wordrecall"), "the cat", "the black cat sat") == "wordrecall 0.500"


def test_a_registered_metric_gets_refscores_own_bootstrap_arithmetic(registered):
    from refscore.significance import bootstrap_ci

    metric = registered()
    arithmetic = metric.arithmetic()
    assert arithmetic.scale == 1.0 and not arithmetic.peer
    interval = bootstrap_ci(metric, ["the cat sat", "a dog", "x y"], ["the cat", "a dog", "z"], n=50, seed=1)
    assert interval.score == pytest.approx(4 / 5)


@pytest.mark.parametrize(("check_name", "registry", "label", "fixed", "defaults", "bands"), [
    ("bleu", "bleu", "BLEU", (), (("effective_order", True),), 3),
    ("chrf", "chrf", "chrF", (), (), 0),
    ("ter", "ter", "TER", (), (), 0),
    ("bertscore", "bertscore", "BERTScore F1", (), (), 0),
    ("rougel", "rouge", "ROUGE-L", (("types", ("rougeL",)),), (), 0),
    ("rouge155", "rouge", "ROUGE-155", (("types", ("rouge155",)),), (), 0),   # as before: ROUGE's rouge<n>
])
def test_refscores_metrics_declare_their_checks(check_name, registry, label, fixed, defaults, bands):
    canonical, spec = resolve_spec(check_name.upper())
    assert (canonical, spec.registry, spec.label, spec.options, spec.defaults, len(spec.bands)) == (
        spec.name, registry, label, fixed, defaults, bands)
    assert canonical == check_name or canonical == dict(fixed)["types"][0]


def test_check_names_come_from_the_registry():
    assert check_names() == [name for metric in REGISTRY for name in get_metric_class(metric).check_names()]
    assert {"bleu", "meteor", "rougeL", "rouge<n>"} <= set(check_names()) and "rouge155" not in check_names()



def test_peer_arithmetic_is_declared_by_bleu_chrf_and_ter_only():
    peers = {name for name in REGISTRY if name != "bertscore" and get_metric_class(name)().arithmetic().peer}
    assert peers == {"bleu", "chrf", "ter"}
    assert np.isclose(get_metric_class("ter")().arithmetic().exact(np.array([[1.0, 4.0]]))[0, 0], 25.0)


class _ModelRecall:
    """A plug-in metric that loads a "model": it declares loads_model, warm_up and token similarities."""

    loads_model = True

    def __init__(self, base):
        self.base, self.loads = base, 0

    def warm_up(self):
        self.loads += 1

    def token_similarities(self):
        return self

    def similarity_matrix(self, output, reference):
        return np.ones((len(output.split()), len(reference.split()))), output.split(), reference.split()


def test_workflows_read_model_facts_from_the_metric(registered):
    from types import SimpleNamespace

    from refscore.distributed.api import _needs_actors
    from refscore.distributed.compute import warm_up
    from refscore.metrics.bertscore import BERTScoreMetric
    from refscore.reporting.heatmaps import similarity_source

    plain = registered()
    assert not _needs_actors([plain]) and similarity_source(SimpleNamespace(metrics=[plain])) is None
    assert BERTScoreMetric.loads_model and BERTScoreMetric.runtime_fields >= {"device", "batch_tokens", "progress"}
    model_metric = type("ModelRecall", (_ModelRecall, registered), {})(plain)
    assert _needs_actors([plain, model_metric])
    warm_up([plain, model_metric])
    assert model_metric.loads == 1
    assert similarity_source(SimpleNamespace(metrics=[plain, model_metric])) is model_metric


def test_command_line_defaults_are_the_metrics():
    bleu, chrf = get_metric_class("bleu"), get_metric_class("chrf")
    assert bleu.command_line_defaults({}, segments=True) == {"effective_order": True}
    assert bleu.command_line_defaults({"effective_order": False}, segments=True) == {"effective_order": False}
    assert chrf.command_line_defaults({}, segments=True) == {}
    assert [option.flags[0] for option in get_metric_class("bertscore").runtime_cli_options] == [
        "--device", "--bertscore-batch-tokens"]


#: Every metric's default config hash before runtime fields moved onto the metric classes: statistics pickles and
#: saved baselines carry these, so they must never change (BERTScore: roberta-large, its settings' hash).
DEFAULT_CONFIG_HASHES = {"bleu": "0fc611059ff4d677", "gleu": "8c82674fcff79fd1", "chrf": "1b681960248b2fbf",
                         "ter": "da12e3a0beefc5ee", "rouge": "6343418e7fc5ffe9", "rouge155": "4cee208f6a6921f9",
                         "bertscore": "6017c8f6fe1b25a9", "meteor": "6503695db52d5009"}


@pytest.mark.parametrize("name", sorted(DEFAULT_CONFIG_HASHES))
def test_default_config_hashes_are_unchanged(name):
    options = {"model_type": "roberta-large"} if name == "bertscore" else {}
    assert get_metric_class(name)(**options).config_hash == DEFAULT_CONFIG_HASHES[name]


def test_runtime_fields_stay_out_of_the_config_hash(registered):
    from refscore.metrics.bertscore import BERTScoreMetric, config_hash_of

    base = BERTScoreMetric(model_type="roberta-large")
    runtime = BERTScoreMetric(model_type="roberta-large", device="cpu", batch_tokens=64, progress=False)
    assert runtime.config_hash == base.config_hash == config_hash_of(base.config)
    assert BERTScoreMetric(model_type="roberta-large", idf=True).config_hash != base.config_hash
    with pytest.raises(InputTypeError, match=r"BERTScoreMetric: .*valid settings: model_type"):
        BERTScoreMetric(model_type="roberta-large", colour="red")
    monkeypatched = type("LowercaseIsRuntime", (registered,), {"runtime_fields": frozenset({"lowercase"})})
    assert monkeypatched(lowercase=True).config_hash == monkeypatched(lowercase=False).config_hash
    assert registered(lowercase=True).config_hash != registered(lowercase=False).config_hash
