"""PERM-BOTH, bootstrap intervals and significance clusters against mt-metrics-eval's stats.py: the
``"reference"`` resampler bit for bit under the seed mapping (the reference run after ``np.random.seed(s)`` <->
``seed=s``), the fast resampler in distribution (two-sample Kolmogorov-Smirnov on the resampled differences)."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import refscore.meta as meta
import refscore.meta._resample as _resample
from meta_reference import packed, reference_stats, synthetic
from refscore.errors import InputError


def _reference_run(stats, human, first, second, function, grouping, k, seed, **options):
    corr1 = stats.Correlation(human.shape[0], packed(human), packed(first))
    corr2 = stats.Correlation(human.shape[0], packed(human), packed(second))
    np.random.seed(seed)
    return stats.PermutationSigDiff(corr1, corr2, function, grouping, k, **options)


@pytest.mark.parametrize("statistic,function,grouping,options", [
    ("pearson", "pearsonr", "none", {}),
    ("spearman", "spearmanr", "sys", {}),
    ("kendall", "KendallVariants", "item", {"variant": "acc23"}),
    ("kendall_ties_opt", "KendallWithTiesOpt", "item", {"variant": "23", "sample_rate": 0.5}),
])
def test_perm_both_reference_resampler_is_the_reference_bit_for_bit(statistic, function, grouping, options):
    stats = reference_stats()
    human, (first, second) = synthetic(systems=4, items=6, seed=8, missing=0.1)
    fn = getattr(scipy.stats, function, None) or getattr(stats, function)
    p, delta, k_used, samples = _reference_run(stats, human, first, second, fn, grouping, 40, 3, **options)
    got = meta.perm_both(human, first, second, statistic, grouping, k=40, seed=3, resampler="reference", **options)
    assert (got.p_value, got.resamples) == (p, k_used)
    assert got.delta == pytest.approx(delta, rel=1e-12, abs=1e-15)
    np.testing.assert_allclose(got.samples, np.array(samples), rtol=1e-12, atol=1e-15)


def test_perm_both_early_stopping_follows_the_reference():
    stats = reference_stats()
    rng = np.random.default_rng(1)
    human = rng.normal(size=(4, 10))
    good, bad = human + rng.normal(0, 0.1, human.shape), rng.normal(size=human.shape)
    p, _, k_used, _ = _reference_run(stats, human, bad, good, scipy.stats.pearsonr, "none", 50, 0,
                                     params=stats.PermutationSigDiffParams(block_size=10))
    got = meta.perm_both(human, bad, good, k=50, seed=0, resampler="reference", block_size=10)
    assert (got.p_value, got.resamples) == (p, k_used) and k_used < 50


def test_fast_resampler_agrees_in_distribution():
    """The resampled differences corr2 - corr1 of 400 fast resamples and of 400 reference resamples come from
    one distribution: a two-sample KS test does not reject it at 0.001 (seeds fixed: deterministic)."""
    stats = reference_stats()
    human, (first, second) = synthetic(systems=6, items=10, seed=9, missing=0.0)
    _, delta, _, samples = _reference_run(stats, human, first, second, scipy.stats.pearsonr, "none", 400, 4,
                                          params=stats.PermutationSigDiffParams(block_size=400))
    reference = np.diff(np.array(samples)[:, ::-1], axis=1).ravel()
    fast = meta.perm_both(human, first, second, k=400, seed=4, block_size=400)
    assert fast.delta == pytest.approx(delta, rel=1e-12)
    assert scipy.stats.ks_2samp(fast.samples[:, 0] - fast.samples[:, 1], reference).pvalue > 1e-3
    # the same test rejects resamples that do not permute (the KS test has the power to tell)
    assert scipy.stats.ks_2samp(reference, reference * 0.3 + delta).pvalue < 1e-3


def test_perm_both_matrix_is_compute_sig_matrix():
    """Pairs in ComputeSigMatrix's order on one stream: every p-value equal to the reference's."""
    stats = reference_stats()
    rng = np.random.default_rng(0)
    human = rng.normal(size=(5, 40))
    metrics = {f"m{i}": human + rng.normal(0, 0.8 + 0.2 * i, human.shape) for i in range(4)}
    order, values, p = meta.perm_both_matrix(human, metrics, k=150, seed=2, resampler="reference")
    np.random.seed(2)
    corrs = {name: stats.Correlation(5, packed(human), packed(metrics[name])) for name in order}
    for i in range(4):
        assert values[i] == pytest.approx(corrs[order[i]].Pearson()[0], rel=1e-12)
        for j in range(i + 1, 4):
            expected = stats.PermutationSigDiff(corrs[order[j]], corrs[order[i]], scipy.stats.pearsonr, "none", 150)
            assert p[i, j] == expected[0]


def test_reference_coin_blocks_are_the_reference_coins(monkeypatch):
    """Drawn block by block into one buffer, the coins are ``np.random.binomial(1, 0.5, n)`` per resample after
    ``np.random.seed(s)``, and the stream goes on after them where the reference's does."""
    monkeypatch.setattr(_resample, "_BLOCK_CELLS", 3 * 11 + 1)  # 3 resamples a block: 3, 3, 3 and 1
    draw = _resample.Resampler("reference", 7)
    blocks = [block.copy() for block in draw.coin_blocks(10, 11)]
    np.random.seed(7)
    expected = np.array([np.random.binomial(1, 0.5, 11) for _ in range(10)], dtype=float)
    assert [len(block) for block in blocks] == [3, 3, 3, 1]
    assert np.array_equal(np.concatenate(blocks), expected)
    assert np.array_equal(draw.masks(2, 5), np.random.binomial(1, 0.5, (2, 5)) == 1)


def test_coins_in_place_is_the_comparison_with_one_half():
    """``rint`` sends 0.5 itself to 0 (half to even), as ``> 0.5`` does; 0.5's neighbours fall on either side."""
    edges = np.array([0.0, 0.5, np.nextafter(0.5, 0.0), np.nextafter(0.5, 1.0), 0.75, np.nextafter(1.0, 0.0)])
    uniform = np.concatenate([edges, np.random.default_rng(0).random(1000)])
    expected = (uniform > 0.5).astype(float)
    assert np.array_equal(_resample.coins_in_place(uniform), expected)


def test_batched_reference_pearson_is_the_reference_bit_for_bit(monkeypatch):
    """The reference-seeded Pearson without grouping draws its coins block by block and sums each block with one
    matrix product, never a whole test's coins at once (``masks`` is not called). With coin blocks of 7 resamples
    that cut across the early-stopping blocks of 25, a test's p-value, resample count and resampled correlations,
    and a ComputeSigMatrix run's p-values on one stream, equal the reference's."""
    stats = reference_stats()
    monkeypatch.setattr(_resample, "_BLOCK_CELLS", 7 * 120)
    monkeypatch.setattr(_resample.Resampler, "masks", lambda *args: pytest.fail("all coins drawn at once"))
    rng = np.random.default_rng(5)
    human = rng.normal(size=(4, 30))
    metrics = {f"m{i}": human + rng.normal(0, 0.9 + 0.3 * i, human.shape) for i in range(4)}
    human[0, :3] = np.nan  # 117 rated cells: 7 resamples a block
    params = stats.PermutationSigDiffParams(block_size=25, early_min=0.0, early_max=1.0)
    p, delta, k_used, samples = _reference_run(stats, human, metrics["m1"], metrics["m0"], scipy.stats.pearsonr,
                                               "none", 60, 11, params=params)
    got = meta.perm_both(human, metrics["m1"], metrics["m0"], k=60, seed=11, resampler="reference",
                         block_size=25, early_min=0.0, early_max=1.0)
    assert (got.p_value, got.resamples, got.delta) == (p, k_used, pytest.approx(delta, rel=1e-12))
    np.testing.assert_allclose(got.samples, np.array(samples), rtol=1e-12, atol=1e-15)
    order, _, matrix = meta.perm_both_matrix(human, metrics, k=60, seed=11, resampler="reference")
    np.random.seed(11)
    corrs = {name: stats.Correlation(4, packed(human), packed(metrics[name])) for name in order}
    for i in range(4):
        for j in range(i + 1, 4):
            expected = stats.PermutationSigDiff(corrs[order[j]], corrs[order[i]], scipy.stats.pearsonr, "none", 60)
            assert matrix[i, j] == expected[0]


def test_significance_clusters_follow_the_wmt_greedy_rule():
    nan = np.nan
    # metric 2 is beaten by metric 0 (p=0.01), so it starts rank 2; metric 3 is beaten by nothing of rank 2
    # (only by metric 0, which belongs to rank 1, and the rule looks inside the current rank only)
    p = np.array([[nan, 0.30, 0.01, 0.01], [nan, nan, 0.20, 0.50], [nan, nan, nan, 0.40], [nan] * 4])
    assert meta.significance_clusters(p, 0.05) == [1, 1, 2, 2]
    assert meta.significance_clusters(p, 0.005) == [1, 1, 1, 1]
    chain = np.array([[nan, 0.01, 0.01], [nan, nan, 0.04], [nan, nan, nan]])
    assert meta.significance_clusters(chain, 0.05) == [1, 2, 3]


def test_bootstrap_interval_resamples_items():
    """Each replicate is the reference's correlation of the resampled matrix; the ends are sorted replicates."""
    stats = reference_stats()
    human, (metric, _) = synthetic(systems=5, items=12, seed=2)
    interval = meta.bootstrap_interval(human, metric, "kendall", "item", n=30, seed=1, variant="acc23")
    picks = np.random.default_rng(1).integers(0, 12, (30, 12))
    replicates = sorted(stats.Correlation(5, packed(human[:, p]), packed(metric[:, p])).KendallVariants(
        "item", "acc23")[0] for p in picks)
    assert (interval.lower, interval.upper) == (replicates[0], replicates[-1])  # 95% of 30: the extremes
    assert interval.lower <= interval.value <= interval.upper
    with pytest.raises(InputError, match='over="segments"'):
        meta.bootstrap_interval(human, metric, grouping="item", over="segments")


def test_system_scores_of_a_corpus_metric_come_from_summed_statistics(tmp_path):
    """A corpus metric's system score is its corpus score; an item resample's is the corpus score of the
    resampled segments (repeats counted); lower-is-better metrics are negated."""
    import json

    from refscore.meta.inputs import load_judgments
    from refscore.metrics.bleu import BLEU
    from refscore.metrics.ter import TER

    texts = {"A": ["the cat sat", "a dog ran off", "hello there"], "B": ["the cat", "dog ran", "hello world there"],
             "C": ["cat sat the", "a dog ran", "there"]}
    references = ["the cat sat down", "a dog ran off fast", "hello there"]
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps({"system": s, "seg_id": i + 1, "hypothesis": h, "reference": references[i],
                                        "mqm": -float(i)}) + "\n"
                            for s, hyps in texts.items() for i, h in enumerate(hyps)), encoding="utf-8")
    judgments = load_judgments(str(path))
    bleu = meta.MetricScores.from_metric(BLEU(), judgments)
    ter = meta.MetricScores.from_metric(TER(), judgments)
    for row, system in enumerate(judgments.systems):
        assert bleu.systems[row] == BLEU().corpus_score(texts[system], references).score
        assert ter.systems[row] == -TER().corpus_score(texts[system], references).score
        repeated = [texts[system][0], texts[system][0], texts[system][2]]
        expected = BLEU().corpus_score(repeated, [references[0], references[0], references[2]]).score
        assert bleu.resample(np.array([[2.0, 0.0, 1.0]]))[0, row] == pytest.approx(expected, rel=1e-12)
