"""Drop-in modules for rouge-score, HF evaluate's rouge and the rouge package, against the real packages."""
from __future__ import annotations

import random

import numpy as np
import pytest
import rouge as rouge_package
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as peer_rouge_scorer
from rouge_score import scoring as peer_scoring
from rouge_score import tokenizers as peer_tokenizers

from refscore.compat import evaluate
from refscore.compat import rouge as compat_rouge
from refscore.compat.rouge_score import rouge_scorer, scoring, tokenizers

TEXTS = ["The quick brown fox jumps over the lazy dog.", "The quick brown dog jumps on the log.\nIt ran.",
         "to make people trustworthy you need to trust them", "the way to make people trustworthy is to trust them",
         "", "Ünïcödé text 中文 only", "U.S. state-of-the-art naïve café 3.14", "cats running happily\n\nponies"]
words = st.sampled_from(["the", "cat", "cats", "sat", "on", "mat", "running", "runs", ".", "\n", " ", "The",
                         "dog", "é", "3", "-"])
text = st.lists(words, max_size=25).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=4), st.booleans())
def test_rouge_scorer_matches_peer(pairs, stemmer):
    types = ["rouge1", "rouge4", "rougeLsum", "rougeL"]
    mine = rouge_scorer.RougeScorer(types, use_stemmer=stemmer)
    peer = peer_rouge_scorer.RougeScorer(types, use_stemmer=stemmer)
    for prediction, targets in pairs:
        assert mine.score(targets[0], prediction) == peer.score(targets[0], prediction)
        assert mine.score_multi(targets, prediction) == peer.score_multi(targets, prediction)
    batch = mine.score_batch([t for _, t in pairs], [p for p, _ in pairs])
    assert batch == [peer.score_multi(t, p) for p, t in pairs]


def test_rouge_scorer_with_custom_tokenizer_and_type_errors():
    class Whitespace:
        def tokenize(self, text):
            return text.split()

    mine = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], tokenizer=Whitespace())
    peer = peer_rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], tokenizer=Whitespace())
    for target, prediction in zip(TEXTS, reversed(TEXTS)):
        assert mine.score(target, prediction) == peer.score(target, prediction)
    assert mine.score_multi(TEXTS[:3], TEXTS[3]) == peer.score_multi(TEXTS[:3], TEXTS[3])
    for bad, message in (("rouge0", "rougen requires positive n"), ("rouge12", "Invalid rouge type"),
                         ("rougeW", "Invalid rouge type")):
        with pytest.raises(ValueError, match=message):
            rouge_scorer.RougeScorer([bad]).score("a", "a")


class _MarkedWords:
    """A tokenizer whose tokens of a text's sentences differ from those of the whole text (a start marker per
    call; punctuation-only words dropped, so some sentences have no token)."""

    def tokenize(self, text):
        return [("start",)] + [w for w in text.split() if any(c.isalnum() for c in w)]


@pytest.mark.parametrize("types", [["rouge1", "rouge2", "rougeL", "rougeLsum"], ["rougeLsum"], ["rougeL", "rouge2"]])
def test_custom_tokenizer_whose_sentence_tokens_differ_from_the_whole_text(types):
    mine = rouge_scorer.RougeScorer(types, tokenizer=_MarkedWords())
    peer = peer_rouge_scorer.RougeScorer(types, tokenizer=_MarkedWords())
    texts = ["the cat sat\n--\non the mat", "a dog\nbarked at the cat\n", "", "--", "mat the on\nsat cat the"]
    for target in texts:
        for prediction in texts:
            assert mine.score(target, prediction) == peer.score(target, prediction), (target, prediction)
    assert mine.score_multi(texts[:3], texts[4]) == peer.score_multi(texts[:3], texts[4])
    assert mine.score_batch([texts[:2], texts[3]], texts[:2]) == [peer.score_multi(texts[:2], texts[0]),
                                                                  peer.score(texts[3], texts[1])]


def test_default_tokenizer_matches_peer():
    for use_stemmer in (False, True):
        mine, peer = tokenizers.DefaultTokenizer(use_stemmer), peer_tokenizers.DefaultTokenizer(use_stemmer)
        for value in TEXTS:
            assert mine.tokenize(value) == peer.tokenize(value)
    assert tokenizers.DefaultTokenizer().tokenize("U.S. state-of-the-art naïve café 3.14") == \
        ["u", "s", "state", "of", "the", "art", "na", "ve", "caf", "3", "14"]


def test_bootstrap_aggregator_matches_peer_under_the_same_seed():
    scores = peer_rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score
    mine, peer = scoring.BootstrapAggregator(n_samples=300), peer_scoring.BootstrapAggregator(n_samples=300)
    for target, prediction in zip(TEXTS, TEXTS[1:] + TEXTS[:1]):
        mine.add_scores(scores(target, prediction))
        peer.add_scores(scores(target, prediction))
    np.random.seed(99)
    expected = peer.aggregate()
    np.random.seed(99)
    assert mine.aggregate() == expected
    seeded = scoring.BootstrapAggregator(n_samples=300, seed=99)
    for target, prediction in zip(TEXTS, TEXTS[1:] + TEXTS[:1]):
        seeded.add_scores(scores(target, prediction))
    assert seeded.aggregate() == expected
    assert scoring.fmeasure(0.5, 0.25) == peer_scoring.fmeasure(0.5, 0.25)
    with pytest.raises(ValueError, match="n_samples must be positive"):
        scoring.BootstrapAggregator(n_samples=0)


def hf_reference_compute(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False,
                         tokenizer=None, seed=0):
    """HF evaluate's metrics/rouge/rouge.py `_compute` logic run with the real rouge-score, under its seed."""
    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    wrapped = None
    if tokenizer is not None:
        class Wrapped:
            def tokenize(self, value):
                return tokenizer(value)
        wrapped = Wrapped()
    scorer = peer_rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=wrapped)
    aggregator, scores = peer_scoring.BootstrapAggregator(), []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        aggregator.add_scores(score) if use_aggregator else scores.append(score)
    if use_aggregator:
        state = np.random.get_state()
        np.random.seed(seed)
        result = {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
        np.random.set_state(state)
        return result
    return {key: [score[key].fmeasure for score in scores] for key in scores[0]}


@pytest.mark.parametrize("kwargs", [{}, {"use_aggregator": False}, {"use_stemmer": True, "rouge_types": ["rouge2"]},
                                    {"tokenizer": str.split, "use_aggregator": False}])
def test_evaluate_rouge_matches_hf_logic(kwargs):
    predictions = TEXTS[:6]
    references = TEXTS[2:8]
    module = evaluate.load("rouge", seed=5)
    assert module.compute(predictions=predictions, references=references, **kwargs) == \
        hf_reference_compute(predictions, references, seed=5, **kwargs)
    multi = [[r, TEXTS[0]] for r in references]
    assert module.compute(predictions=predictions, references=multi, **kwargs) == \
        hf_reference_compute(predictions, multi, seed=5, **kwargs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.sampled_from([None, ["rouge1", "rougeLsum", "rouge1"], ["rougeL", "rouge3"]]), st.booleans(),
       st.booleans(), st.integers(0, 2**31))
def test_columnar_path_equals_the_tuple_path(pairs, rouge_types, multi_ref, use_stemmer, seed):
    """The columns (``score_columns``, ``add_score_columns``, what ``evaluate.load("rouge")`` runs) give exactly
    the values of per-example ``Score`` tuples: the drop-in's own and HF's loop over the real rouge-score."""
    predictions = [prediction for prediction, _ in pairs]
    references = [refs if multi_ref else refs[0] for _, refs in pairs]
    scorer = rouge_scorer.RougeScorer(rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                      use_stemmer=use_stemmer)
    columns, tuples = scorer.score_columns(references, predictions), scorer.score_batch(references, predictions)
    assert list(columns) == list(tuples[0])
    for key, column in columns.items():
        assert column.fmeasure.dtype == np.float64
        assert [tuple(values) for values in zip(*column)] == [tuple(score[key]) for score in tuples]
    by_columns, by_tuples = scoring.BootstrapAggregator(n_samples=50, seed=seed), \
        scoring.BootstrapAggregator(n_samples=50, seed=seed)
    by_columns.add_score_columns(columns)
    for score in tuples:
        by_tuples.add_scores(score)
    assert by_columns.aggregate() == by_tuples.aggregate()
    module = evaluate.load("rouge", seed=seed % 1000)
    options = {"rouge_types": rouge_types, "use_stemmer": use_stemmer}
    for use_aggregator in (True, False):
        assert module.compute(predictions=predictions, references=references, use_aggregator=use_aggregator,
                              **options) == hf_reference_compute(predictions, references, seed=seed % 1000,
                                                                 use_aggregator=use_aggregator, **options)


def test_rouge_package_matches_peer_on_random_text():
    rng = random.Random(0)
    vocabulary = "a b c the cat. dog. sat . mat on".split(" ") + ["", "  ", ".", "A", "cat,"]
    for _ in range(60):
        hyps = [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 25))) for _ in range(3)]
        refs = [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 25))) for _ in range(3)]
        for kwargs in ({}, {"exclusive": False}, {"return_lengths": True}, {"raw_results": True},
                       {"metrics": ["rouge-3", "rouge-5", "rouge-l"], "stats": ["f"]}):
            for avg in (False, True):
                if kwargs.get("raw_results") and avg:
                    continue
                outcomes = []
                for module in (rouge_package, compat_rouge):
                    try:
                        outcomes.append(module.Rouge(**kwargs).get_scores(hyps, refs, avg=avg))
                    except ValueError as exc:
                        outcomes.append(("ValueError", str(exc)))
                assert outcomes[0] == outcomes[1], (hyps, refs, kwargs, avg)


def test_rouge_package_blog_example_and_files(tmp_path):
    hyp = "to make people trustworthy you need to trust them"
    ref = "the way to make people trustworthy is to trust them"
    assert compat_rouge.Rouge().get_scores(hyp, ref) == rouge_package.Rouge().get_scores(hyp, ref)
    assert compat_rouge.Rouge().get_scores([hyp, ref], [ref, hyp], avg=True) == \
        rouge_package.Rouge().get_scores([hyp, ref], [ref, hyp], avg=True)
    (tmp_path / "h.txt").write_text(f"{hyp}\n{ref}\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text(f"{ref}\n{hyp}\n", encoding="utf-8")
    assert compat_rouge.FilesRouge().get_scores(str(tmp_path / "h.txt"), str(tmp_path / "r.txt")) == \
        rouge_package.FilesRouge().get_scores(str(tmp_path / "h.txt"), str(tmp_path / "r.txt"))
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        compat_rouge.Rouge().get_scores("", ref)
