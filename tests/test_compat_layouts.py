"""The rouge-score, ``rouge``, NLTK and bert-score drop-ins have their peers' module layouts, and their helpers
give the peers' results (tested against the installed peers, with generated text)."""
from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

WORDS = ["the", "The", "cat", "cats", "running", "ran", "a", ".", ",", "U.S.", "state-of-the-art", "é", "İ", "猫",
         "x1", "  ", "\n", "Δ", "don't"]
text = st.one_of(st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join), st.text(max_size=25))
tokens = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=12)


@pytest.mark.parametrize("module", ["rouge_score.tokenize", "rouge_score.io", "rouge_score.rouge_scorer",
                                    "rouge_score.scoring", "rouge_score.tokenizers", "rouge.rouge",
                                    "rouge.rouge_score", "nltk.translate", "nltk.translate.bleu_score",
                                    "nltk.translate.gleu_score", "nltk.translate.chrf_score"])
def test_submodules_import(module: str) -> None:
    importlib.import_module(f"refscore.compat.{module}")


@settings(max_examples=200, deadline=None)
@given(text, st.booleans())
def test_rouge_score_tokenize_is_rouge_scores(line: str, stem: bool) -> None:
    from nltk.stem import porter
    from rouge_score import tokenize as peer

    from refscore.compat.rouge_score import tokenize as ours
    stemmer = porter.PorterStemmer("ORIGINAL_ALGORITHM") if stem else None
    assert ours.tokenize(line, stemmer) == peer.tokenize(line, stemmer)


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_lcs_ind_is_rouge_scores(ref: list[str], can: list[str]) -> None:
    from rouge_score import rouge_scorer as peer

    from refscore.compat.rouge_score import rouge_scorer as ours
    assert ours.lcs_ind(ref, can) == peer.lcs_ind(ref, can)


@pytest.mark.parametrize("aggregate", [False, True])
def test_compute_scores_and_write_to_csv_is_rouge_scores(tmp_path, aggregate: bool) -> None:
    from rouge_score import io as peer_io
    from rouge_score import rouge_scorer as peer_scorer
    from rouge_score import scoring as peer_scoring

    from refscore.compat.rouge_score import io, rouge_scorer, scoring
    for index, (targets, predictions) in enumerate([("the cat sat\na dog\n", "the cat ran\na dog barked\n"),
                                                    ("it rained\n", "it rained all day\n")]):
        (tmp_path / f"target{index}.txt").write_text(targets)
        (tmp_path / f"prediction{index}.txt").write_text(predictions)
    arguments = (str(tmp_path / "target*"), str(tmp_path / "prediction*"))
    io.compute_scores_and_write_to_csv(*arguments, str(tmp_path / "ours.csv"),
                                       rouge_scorer.RougeScorer(["rouge1", "rougeL"]),
                                       scoring.BootstrapAggregator(seed=1) if aggregate else None)
    peer_io.compute_scores_and_write_to_csv(*arguments, str(tmp_path / "peer.csv"),
                                            peer_scorer.RougeScorer(["rouge1", "rougeL"]),
                                            peer_scoring.BootstrapAggregator() if aggregate else None)
    ours, peer = (tmp_path / "ours.csv").read_text(), (tmp_path / "peer.csv").read_text()
    if aggregate:   # the bootstrap draws differ by seed; the layout and the mid scores of 3 examples agree
        assert [line.split(",")[0] for line in ours.splitlines()] == [line.split(",")[0] for line in
                                                                        peer.splitlines()]
    else:
        assert ours == peer
    with pytest.raises(ValueError, match="equal and positive number"):
        io.compute_scores_and_write_to_csv(str(tmp_path / "none*"), arguments[1], str(tmp_path / "x.csv"),
                                           rouge_scorer.RougeScorer(["rouge1"]), None)


sentences = st.lists(st.lists(st.sampled_from(["a", "b", "c", "the", "cat"]), min_size=1, max_size=6).map(" ".join),
                     min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(st.lists(sentences, min_size=1, max_size=4), st.integers(1, 3), st.booleans(), st.data())
def test_rouge_package_rouge_score_module_is_the_packages(sequences, n: int, exclusive: bool, data) -> None:
    from rouge import rouge_score as peer

    from refscore.compat.rouge import rouge_score as ours
    pairs = data.draw(st.lists(st.tuples(st.integers(0, len(sequences) - 1), st.integers(0, len(sequences) - 1)),
                               max_size=5))
    assert ours.multi_rouge_n(sequences, pairs, n, exclusive) == peer.multi_rouge_n(sequences, pairs, n, exclusive)
    hyp, ref = sequences[0], sequences[-1]
    assert ours.rouge_n(hyp, ref, n, exclusive=exclusive) == peer.rouge_n(hyp, ref, n, exclusive=exclusive)
    assert ours.rouge_n(hyp, ref, n, True, exclusive) == peer.rouge_n(hyp, ref, n, True, exclusive)
    assert ours.rouge_l_summary_level(hyp, ref, exclusive=exclusive) == peer.rouge_l_summary_level(
        hyp, ref, exclusive=exclusive)
    counts = data.draw(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)))
    assert ours.f_r_p_rouge_n(*counts) == peer.f_r_p_rouge_n(*counts)
    words = " ".join(hyp).split(" ")
    for peer_class, our_class in ((peer.Ngrams, ours.Ngrams),):
        a, b = peer_class(words, exclusive), peer_class(words[::2], exclusive)
        c, d = our_class(words, exclusive), our_class(words[::2], exclusive)
        assert len(a.intersection(b)) == len(c.intersection(d)) and len(a.union(b)) == len(c.union(d))
        if not exclusive:
            assert a.intersection(b)._ngrams == c.intersection(d)._ngrams


def test_rouge_package_version() -> None:
    import rouge

    import refscore.compat.rouge as ours
    assert ours.__version__ == rouge.__version__


@settings(max_examples=200, deadline=None)
@given(st.one_of(text, tokens), st.one_of(text, tokens), st.integers(1, 5), st.sampled_from([1.0, 2.0, 3.0]))
def test_nltk_chrf_precision_recall_fscore_support_is_nltks(reference, hypothesis, n: int, beta: float) -> None:
    from nltk.translate.chrf_score import chrf_precision_recall_fscore_support as peer

    from refscore.compat.nltk.translate.chrf_score import chrf_precision_recall_fscore_support as ours
    assert ours(reference, hypothesis, n, beta) == peer(reference, hypothesis, n, beta)
