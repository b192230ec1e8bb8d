"""BLEU's flavors: ``BLEU(flavor="nltk")`` and ``BLEU(flavor="evaluate")`` are NLTK's ``corpus_bleu`` and HF's
``bleu`` script through the metric's own API (statistics, merges, sentence scores), and sacreBLEU's stays as it was
(hash, numbers, the add-k counts sacreBLEU reports)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as peer

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.metrics.bleu import BLEU, sacrebleu_reported_counts
from refscore.metrics.bleu.flavors import SmoothingFunction
from test_compat_evaluate_bleu import hf_bleu, tokenize_13a

VOCABULARY = ["the", "cat", "sat", "on", "a", "mat", ".", "猫", 7]
tokens = st.lists(st.sampled_from(VOCABULARY), max_size=8)
corpus = st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3)), min_size=1, max_size=5)
METHODS = [None, "method0", "method1", "method2", "method3", "method4"]   # 5-7 read the last segment: below


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@settings(max_examples=25, deadline=None)
@given(corpus, st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (0.2, 0.3, 0.5)]), st.sampled_from(METHODS),
       st.booleans())
def test_nltk_flavor_is_nltk_corpus_bleu_through_the_metric(data, weights, method, auto_reweigh):
    hyps, refs = [h for h, _ in data], [r for _, r in data]
    smoothing = getattr(SmoothingFunction(), method) if method else None
    metric = BLEU(flavor="nltk", weights=(weights,), smoothing_function=smoothing, auto_reweigh=auto_reweigh)
    peer_smoothing = getattr(peer.SmoothingFunction(), method) if method else None
    expected = quiet(peer.corpus_bleu, refs, hyps, weights, peer_smoothing, auto_reweigh)
    result = quiet(metric.corpus_score, hyps, refs)
    assert result.score == expected and result.statistics.nrefs in (-1, *map(len, refs))
    # statistics of two parts merge into the same corpus score; one row is NLTK's sentence_bleu
    parts = metric.statistics(hyps[:1], refs[:1]) + metric.statistics(hyps[1:], refs[1:])
    assert quiet(metric.score_from_statistics, parts).score == expected
    sentences = quiet(metric.sentence_scores, hyps, refs).tolist()
    assert sentences == [quiet(peer.sentence_bleu, r, h, weights, peer_smoothing, auto_reweigh)
                         for h, r in zip(hyps, refs)]


def test_nltk_flavor_hands_the_smoothing_function_the_last_segment():
    refs = [[["the", "cat", "sat", "on", "the", "mat"]], [["a", "dog"]]]
    hyps = [["the", "cat", "sat", "on", "the", "mat"], ["a", "cat"]]
    for method in ("method5", "method6", "method7"):
        metric = BLEU(flavor="nltk", smoothing_function=getattr(SmoothingFunction(), method))
        stats = metric.statistics(hyps, refs)
        ours = metric.flavor_score(stats.totals(), last_segment=(refs[-1], hyps[-1])).score
        assert ours == peer.corpus_bleu(refs, hyps, smoothing_function=getattr(peer.SmoothingFunction(), method))
    several = BLEU(flavor="nltk", weights=((1.0,), (0.5, 0.5)))
    result = quiet(several.corpus_score, hyps, refs)
    assert result.details["scores"] == peer.corpus_bleu(refs, hyps, weights=[(1.0,), (0.5, 0.5)])
    assert result.score == result.details["scores"][0] and several.config.max_order == 2


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="ab .c", max_size=12),
                          st.lists(st.text(alphabet="ab .c", max_size=12), min_size=1, max_size=3)),
                min_size=1, max_size=5), st.integers(1, 4), st.booleans())
def test_evaluate_flavor_is_the_hf_bleu_script_through_the_metric(data, max_order, smooth):
    predictions, references = [p for p, _ in data], refscore.per_segment([r for _, r in data])
    expected = hf_bleu(predictions, references, tokenize_13a, max_order, smooth)
    result = BLEU(flavor="evaluate", max_order=max_order, smooth=smooth).corpus_score(predictions, references)
    values = result.values
    assert (result.score, list(values["precisions"]), values["bp"], values["ratio"], values["sys_len"],
            values["ref_len"]) == tuple(expected.values())
    tokens = BLEU(flavor="evaluate", max_order=max_order, smooth=smooth).token_list_statistics(
        [p.split() for p in predictions], [[r.split() for r in refs] for refs in references])
    expected = hf_bleu(predictions, references, str.split, max_order, smooth)
    assert BLEU(flavor="evaluate", max_order=max_order, smooth=smooth).score_from_statistics(tokens).score == \
        expected["bleu"]


def test_sacrebleu_flavor_keeps_its_hash_and_other_flavors_hash_apart():
    assert BLEU().config_hash == BLEU(flavor="sacrebleu").config_hash == "0fc611059ff4d677"
    hashes = {BLEU(flavor="nltk").config_hash, BLEU(flavor="evaluate").config_hash,
              BLEU(flavor="evaluate", smooth=True).config_hash, BLEU().config_hash}
    assert len(hashes) == 4
    assert "flavor:evaluate" in BLEU(flavor="evaluate").signature_text()


def test_flavor_options_that_do_not_apply_are_errors():
    with pytest.raises(InputError, match="flavor"):
        BLEU(flavor="moses")
    with pytest.raises(InputError, match=r"weights applies to flavor='nltk'"):
        BLEU(weights=((1.0,),))
    with pytest.raises(InputError, match=r"smooth applies to flavor='evaluate'"):
        BLEU(flavor="nltk", smooth=True)
    with pytest.raises(InputError, match="smooth_method applies to flavor='sacrebleu'"):
        BLEU(flavor="evaluate", smooth_method="floor")
    with pytest.raises(InputError, match="order from the weights"):
        BLEU(flavor="nltk", weights=((0.5, 0.5),), max_order=3)
    with pytest.raises(InputTypeError, match="smoothing_function must be callable"):
        BLEU(flavor="nltk", smoothing_function="method1")


@pytest.mark.parametrize("counts, totals", [([2, 1, 0, 0], [3, 2, 1, 0]), ([0, 0, 0, 0], [3, 2, 1, 0]),
                                            ([5, 3, 2, 1], [6, 5, 4, 3])])
def test_sacrebleu_reported_add_k_counts(counts, totals):
    expected = sacrebleu.BLEU.compute_bleu(list(counts), list(totals), sum(totals[:1]), 4, smooth_method="add-k")
    ours_counts, ours_totals = list(counts), list(totals)
    sacrebleu_reported_counts(ours_counts, ours_totals, "add-k", None)
    assert (ours_counts, ours_totals) == (expected.counts, expected.totals)
    # sacreBLEU's 0-100 value to the last bit (100 x the 0-1 value may differ from it by an ulp)
    assert BLEU(smooth_method="add-k").percent_scores_from_totals(
        np.array([[totals[0], 4, *counts, *totals]]))[0, 0] == expected.score


def test_what_significance_and_the_report_read_is_declared_by_the_flavor():
    """Bootstrap replicates: sacreBLEU's float32 arithmetic for its flavor only; the compare-mt analyses of a report
    take the words and lengths of the metric that declares ``compare_mt_words`` (sacreBLEU's BLEU), not any BLEU."""
    from refscore.reporting.data import gather
    from refscore.reporting.mt_analyses import analyse
    from refscore.significance import bootstrap_ci_from_statistics

    hypotheses, references = ["the cat sat on the mat", "a dog"], ["the cat sat on a mat", "a dog barked"]
    hf = BLEU(flavor="evaluate", smooth=True)
    stats = hf.statistics(hypotheses, references)
    assert not hf.arithmetic().peer and BLEU().arithmetic().peer
    interval = bootstrap_ci_from_statistics(hf, stats, n=20)
    assert interval.score == hf.score_from_statistics(stats).score
    assert hf.compare_mt_words is False and BLEU().compare_mt_words is True
    data = gather({"a": hypotheses, "b": ["the cat", "a dog barked"]}, [[r] for r in references], [hf], n=2)
    analyses = analyse(data)
    assert analyses.bleu.config.flavor == "sacrebleu"
    assert analyses.lengths["b"].hypothesis_words == 5
