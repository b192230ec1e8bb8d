"""Bootstrap intervals and paired tests on the generic Metric protocol, checked against sacreBLEU's own
significance code (run on the same statistics through an adapter) and against naive per-resample loops."""
from __future__ import annotations

import os

import numpy as np
import pytest

import refscore
import refscore.metrics
from refscore.errors import InputError, InputTypeError
from refscore.significance import (bootstrap_ci, bootstrap_ci_from_statistics, paired_test,
                                   paired_test_from_statistics)
from refscore.significance.sampling import interval_indices, resampled_totals, swapped_totals
from significance_metrics import MeanTokenAccuracy, SacrebleuView, TokenAccuracy, run_sacrebleu_paired

WORDS = "the a cat dog sat on mat house red blue big small runs ran quickly slowly".split()


def make_corpus(n_segments: int, n_systems: int, seed: int = 0):
    rng = np.random.default_rng(seed)

    def sentence():
        return " ".join(rng.choice(WORDS, size=int(rng.integers(0, 12))))

    references = [sentence() for _ in range(n_segments)]
    systems = {f"sys{k}": [sentence() if rng.random() < 0.4 + 0.1 * k else ref for ref in references]
               for k in range(n_systems)}
    return systems, references


@pytest.fixture(scope="module")
def corpus():
    return make_corpus(120, 4)


# -- parity with sacreBLEU's algorithm (same statistics, same seeds) ---------------------------------------------
@pytest.mark.parametrize("seed", [12345, 3])
def test_paired_bootstrap_equals_sacrebleu_paired_test(corpus, sacrebleu_seed, seed):
    systems, references = corpus
    metric = TokenAccuracy()
    expected = run_sacrebleu_paired(metric, systems, references, "bs", 300, seed)
    result = paired_test(metric, systems, references, test="bs", n=300, seed=seed)
    assert result.systems == tuple(systems)
    for ours, theirs in zip(result.results["tokacc"], expected):
        assert ours.score == theirs.score
        assert ours.mean == theirs.mean
        assert ours.ci == theirs.ci
        assert ours.p_value == theirs.p_value
    assert [r.p_value for r in result.results["tokacc"]][0] is None
    assert len({r.p_value for r in result.results["tokacc"][1:]}) > 1  # the systems really differ


@pytest.mark.parametrize("n_ar_confidence", [-1, 200])
def test_approximate_randomization_equals_sacrebleu_paired_test(corpus, sacrebleu_seed, n_ar_confidence):
    systems, references = corpus
    metric = TokenAccuracy()
    expected = run_sacrebleu_paired(metric, systems, references, "ar", 400, 12345, n_ar_confidence)
    result = paired_test(metric, systems, references, test="ar", n=400, seed=12345,
                         confidence_n=None if n_ar_confidence < 0 else n_ar_confidence)
    for ours, theirs in zip(result.results["tokacc"], expected):
        assert ours.score == theirs.score
        assert ours.p_value == theirs.p_value
        assert ours.mean == theirs.mean and ours.ci == theirs.ci  # both None without confidence
    assert result.confidence_n == (None if n_ar_confidence < 0 else n_ar_confidence)


def test_bootstrap_ci_equals_sacrebleu_bootstrap_resample(corpus, sacrebleu_seed):
    from sacrebleu.significance import _bootstrap_resample

    systems, references = corpus
    metric = TokenAccuracy()
    hypotheses = systems["sys2"]
    os.environ["SACREBLEU_SEED"] = "12345"
    view = SacrebleuView(metric, references)
    seed_label, scores = _bootstrap_resample(view._extract_corpus_statistics(hypotheses, None), view, 500)
    theirs = sorted(s.score for s in scores)
    result = bootstrap_ci(metric, hypotheses, references, n=500)
    assert seed_label == "12345" and result.seed == 12345
    assert np.array_equal(np.sort(result.samples[:, 0]), theirs)
    lower, upper = theirs[500 // 40], theirs[500 - 500 // 40 - 1]
    assert (result.lower, result.upper) == (lower, upper)
    assert result.ci == 0.5 * (upper - lower)
    assert result.mean == pytest.approx(float(np.mean(theirs)), rel=1e-15)


# -- the vectorised sums equal naive loops ------------------------------------------------------------------------
def test_resampled_totals_match_fancy_indexing_and_are_int64():
    rng = np.random.default_rng(1)
    data = rng.integers(0, 50, size=(257, 6)).astype(np.int64)
    indices = rng.choice(257, size=(1100, 257), replace=True)
    expected = data[indices].sum(axis=1)
    got = resampled_totals(data, indices)
    assert got.dtype == np.int64 and np.array_equal(got, expected)


@pytest.mark.parametrize("base", [2 ** 22 + 1, 2 ** 30 + 1, 2 ** 52 + 1])  # float32, float64 and int64 products
def test_resampled_totals_stay_exact_at_every_magnitude(base):
    data = np.array([[base, 3], [base + 2, 5]], dtype=np.int64)
    indices = np.array([[0, 0], [1, 1], [0, 1]])
    assert resampled_totals(data, indices).tolist() == [
        [2 * base, 6], [2 * base + 4, 10], [2 * base + 2, 8]]


def test_swapped_totals_match_sacrebleu_masks():
    rng = np.random.default_rng(2)
    first = rng.integers(0, 9, size=(300, 4))
    second = rng.integers(0, 9, size=(300, 4))
    masks = rng.integers(2, size=(50, 300), dtype=bool)
    a, b = swapped_totals(first, second, masks)
    assert np.array_equal(a, masks @ first + ~masks @ second)
    assert np.array_equal(b, ~masks @ first + masks @ second)
    third = first[::-1]  # several systems side by side share one product
    a2, b2 = swapped_totals(first, np.concatenate([second, third], axis=1), masks)
    assert np.array_equal(a2, np.concatenate([a, masks @ first + ~masks @ third], axis=1))
    assert np.array_equal(b2[:, 4:], ~masks @ first + masks @ third)


def test_document_averaged_metric_resamples_document_scores(corpus):
    systems, references = corpus
    metric = MeanTokenAccuracy()
    stats = metric.statistics(systems["sys1"], references)
    result = bootstrap_ci_from_statistics(metric, stats, n=400, seed=5)
    per_document = stats.column("score")
    indices = np.random.default_rng(5).choice(len(stats), size=(400, len(stats)), replace=True)
    naive = np.sort(per_document[indices].mean(axis=1))
    assert np.allclose(np.sort(result.samples[:, 0]), naive, rtol=1e-13, atol=0)
    assert result.score == pytest.approx(per_document.mean(), rel=1e-15)
    assert result.lower == pytest.approx(naive[10], rel=1e-13)


# -- interval arithmetic, several scores, signature, seeds ---------------------------------------------------------
@pytest.mark.parametrize("n", [1, 39, 40, 1000, 1001])
def test_interval_indices_are_sacrebleu_for_95_percent(n):
    assert interval_indices(n, 0.95) == (n // 40, n - n // 40 - 1)


def test_interval_indices_for_other_levels():
    assert interval_indices(1000, 0.9) == (50, 949)
    assert interval_indices(1000, 0.99) == (5, 994)


def test_every_score_name_gets_an_interval(corpus):
    systems, references = corpus
    result = bootstrap_ci(TokenAccuracy(), systems["sys0"], references, n=200)
    assert list(result.intervals) == ["tokacc", "tokacc_sq"]
    first, second = result.intervals.values()
    assert second.score == pytest.approx(first.score ** 2)
    assert np.allclose(result.samples[:, 1], result.samples[:, 0] ** 2)
    assert "TOKACC = " in result.format() and "μ = " in result.format()


def test_signature_records_samples_and_seed(corpus):
    systems, references = corpus
    result = bootstrap_ci(TokenAccuracy(), systems["sys0"], references, n=50, seed=0)
    text = str(result.signature)
    assert text.startswith("nrefs:1|bs:50|seed:0|case:mixed|refscore:")
    assert result.signature.format(short=True).startswith("nrefs:1|bs:50|rs:0|")
    paired = paired_test(TokenAccuracy(), systems, references, test="ar", n=20, seed=None)
    assert "|ar:20|seed:none|" in str(paired.signatures["tokacc"])


def test_seed_zero_is_a_real_seed_and_none_is_fresh(corpus):
    systems, references = corpus
    hyps = systems["sys3"]
    a = bootstrap_ci(TokenAccuracy(), hyps, references, n=100, seed=0)
    b = bootstrap_ci(TokenAccuracy(), hyps, references, n=100, seed=0)
    assert np.array_equal(a.samples, b.samples)
    expected = np.random.default_rng(0).choice(len(hyps), size=(100, len(hyps)), replace=True)
    stats = TokenAccuracy().statistics(hyps, references)
    assert np.array_equal(a.samples, TokenAccuracy().scores_from_totals(stats.data[expected].sum(axis=1)))
    c = bootstrap_ci(TokenAccuracy(), hyps, references, n=100, seed=None)
    d = bootstrap_ci(TokenAccuracy(), hyps, references, n=100, seed=None)
    assert not np.array_equal(c.samples, d.samples)


def test_identical_system_gets_sacrebleus_minimum_p_value(corpus, sacrebleu_seed):
    # sacreBLEU (after multeval) counts sample statistics strictly above the real difference: a copy of the
    # baseline has difference 0 everywhere and gets p = 1 / (n + 1), the smallest possible value; refscore keeps this
    systems, references = corpus
    pair = {"base": systems["sys1"], "copy": systems["sys1"]}
    for test in ("bs", "ar"):
        expected = run_sacrebleu_paired(TokenAccuracy(), pair, references, test, 200, 12345)
        result = paired_test(TokenAccuracy(), pair, references, test=test, n=200)
        assert result.result("copy", "tokacc").p_value == expected[1].p_value == 1 / 201


def test_from_statistics_equals_from_text_and_to_dict(corpus):
    systems, references = corpus
    metric = TokenAccuracy()
    stats = {name: metric.statistics(h, references) for name, h in systems.items()}
    a = paired_test_from_statistics(metric, stats, test="bs", n=100)
    b = paired_test(metric, systems, references, test="bs", n=100)
    assert a.results == b.results
    payload = a.to_dict()
    assert payload["baseline"] == "sys0" and payload["systems"][0]["baseline"] is True
    assert set(payload["systems"][1]["scores"]["tokacc"]) == {"score", "p_value", "mean", "ci", "lower", "upper"}


def test_docstring_examples_run():
    import doctest

    from refscore.significance import _arithmetic, sampling, intervals, paired

    for module in (_arithmetic, sampling, intervals, paired):
        failures, attempted = doctest.testmod(module)
        assert failures == 0 and attempted > 0, module.__name__


def test_lazy_public_names():
    assert refscore.bootstrap_ci is bootstrap_ci
    assert refscore.paired_test is paired_test


# -- bad input ---------------------------------------------------------------------------------------------------
def test_systems_with_different_segment_counts(corpus):
    systems, references = corpus
    bad = dict(systems)
    bad["short"] = systems["sys1"][:-1]
    with pytest.raises(InputError, match="different numbers of segments.*short: 119"):
        paired_test(TokenAccuracy(), bad, references)
    stats = {name: TokenAccuracy().statistics(h, references) for name, h in systems.items()}
    stats["sys1"] = stats["sys1"].take(range(10))
    with pytest.raises(InputError, match="'sys1' has 10 segments but the baseline 'sys0' has 120"):
        paired_test_from_statistics(TokenAccuracy(), stats)


def test_single_system_paired_test(corpus):
    systems, references = corpus
    with pytest.raises(InputError, match="a baseline and at least one other system; got 1"):
        paired_test(TokenAccuracy(), {"only": systems["sys0"]}, references)


@pytest.mark.parametrize("n", [0, -5])
def test_n_below_one(corpus, n):
    systems, references = corpus
    with pytest.raises(InputError, match="n must be >= 1"):
        bootstrap_ci(TokenAccuracy(), systems["sys0"], references, n=n)
    with pytest.raises(InputError, match="n must be >= 1"):
        paired_test(TokenAccuracy(), systems, references, n=n)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, float("nan")])
def test_confidence_outside_unit_interval(corpus, confidence):
    systems, references = corpus
    with pytest.raises(InputError, match="confidence must be a finite number strictly between 0 and 1"):
        bootstrap_ci(TokenAccuracy(), systems["sys0"], references, confidence=confidence)


def test_wrong_types_and_options(corpus):
    systems, references = corpus
    with pytest.raises(InputTypeError, match="n must be an int"):
        bootstrap_ci(TokenAccuracy(), systems["sys0"], references, n=10.5)
    with pytest.raises(InputError, match="seed must be >= 0"):
        bootstrap_ci(TokenAccuracy(), systems["sys0"], references, seed=-1)
    with pytest.raises(InputTypeError, match="seed must be a non-negative int or None"):
        bootstrap_ci(TokenAccuracy(), systems["sys0"], references, seed="12345")
    with pytest.raises(InputError, match="test must be one of"):
        paired_test(TokenAccuracy(), systems, references, test="t-test")
    with pytest.raises(InputError, match="confidence_n applies to test='ar' only"):
        paired_test(TokenAccuracy(), systems, references, test="bs", confidence_n=100)
    with pytest.raises(InputTypeError, match="systems must be a dict"):
        paired_test(TokenAccuracy(), systems["sys0"], references)


def test_statistics_of_another_configuration_are_refused(corpus):
    systems, references = corpus
    stats = TokenAccuracy(lowercase=True).statistics(systems["sys0"], references)
    with pytest.raises(InputError, match="recompute them with the same settings"):
        bootstrap_ci_from_statistics(TokenAccuracy(), stats)
    empty = TokenAccuracy().statistics(systems["sys0"], references).take(np.arange(0))
    with pytest.raises(InputError, match="no segments"):
        bootstrap_ci_from_statistics(TokenAccuracy(), empty)


#: The text metrics that run in milliseconds (BERTScore needs a model; its statistics follow the same protocol).
FAST_METRICS = [name for name in ("bleu", "gleu", "chrf", "ter", "rouge") if name in refscore.metrics.REGISTRY]


@pytest.mark.parametrize("name", FAST_METRICS)
def test_every_registered_metric_gets_intervals_and_paired_tests(name):
    """The generic protocol serves every metric: the interval's score is the metric's corpus score, and a paired
    test of a system against itself and against a better one runs on all its score names."""
    from refscore.metrics import get_metric_class

    metric = get_metric_class(name)()
    references = ["the cat sat on the mat", "a dog barked at the postman", "it rained all day long", "hello world"]
    base = ["the cat sat on mat", "dog barked at postman", "it rained", "hello"]
    stats = metric.statistics(base, references)
    result = bootstrap_ci_from_statistics(metric, stats, n=50, seed=1)
    assert list(result.intervals) == list(metric.score_names)
    assert result.score == pytest.approx(float(metric.score_from_statistics(stats).score), rel=1e-12, abs=1e-15)
    paired = paired_test(metric, {"base": base, "same": base, "better": references}, references, test="ar", n=50)
    assert set(paired.results) == set(metric.score_names)
    assert paired.result("same", metric.score_names[0]).p_value == 1 / 51


def test_paired_bootstrap_compares_like_sacrebleu_at_float32_precision():
    """sacreBLEU compares float32 sample statistics with a Python-float difference, so numpy compares in float32:
    1.0 > float32(1 - 1e-12) is False, where a float64 comparison would count it."""
    from sacrebleu.significance import _compute_p_value

    from refscore.significance.paired import _bootstrap_exceeding

    system, baseline = np.float32([0, 2]), np.float32([0, 0])   # statistics -1 and 1
    sample_diffs = np.abs(system - baseline)
    for real in (1 - 1e-12, np.float64(1 - 1e-12), 1 + 1e-12, 0.5, 1.2):
        theirs = round(_compute_p_value(sample_diffs - sample_diffs.mean(), float(real)) * 3) - 1
        assert _bootstrap_exceeding(system, baseline, real) == theirs, real
    assert _bootstrap_exceeding(system, baseline, np.float64(1 - 1e-12)) == 0   # float64 would count 1
