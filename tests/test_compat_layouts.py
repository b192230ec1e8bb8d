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


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    from bertscore_helpers import build_tiny_bert, build_tiny_roberta
    directory = tmp_path_factory.mktemp("bert_models")
    return [str(build_tiny_bert(directory / "bert")), str(build_tiny_roberta(directory / "roberta"))]


def test_bert_score_layout_and_version() -> None:
    import bert_score

    import refscore.compat.bert_score as ours
    from refscore.compat.bert_score.scorer import BERTScorer
    from refscore.compat.bert_score.utils import lang2model, model2layers
    assert ours.__version__ == bert_score.__version__
    assert BERTScorer is ours.BERTScorer and ours.model2layers is model2layers
    assert model2layers == bert_score.utils.model2layers
    assert dict(lang2model) == dict(bert_score.utils.lang2model) and lang2model["xx"] == bert_score.lang2model["xx"]
    for arguments in [("m", 3, True, True, True, True), ("m", 9, False, True, False, False)]:
        assert ours.get_hash(*arguments) == bert_score.get_hash(*arguments)


@settings(max_examples=25, deadline=None)
@given(st.lists(text, min_size=1, max_size=5))
def test_bert_score_sent_encode_and_idf_are_bert_scores(tiny_models, sentences: list[str]) -> None:
    import bert_score.utils as peer

    from refscore.compat.bert_score import utils as ours
    # bert-score 0.3.13 cannot encode a blank sentence under transformers 5 (its tokenizers lost
    # build_inputs_with_special_tokens): compared where the peer runs; refscore gives the special tokens there
    sentences = [s for s in sentences if s.strip()] or ["x"]
    for model in tiny_models:
        tokenizer = ours.get_tokenizer(model)
        assert ours.sent_encode(tokenizer, " ") == tokenizer("", add_special_tokens=True)["input_ids"]
        for sentence in sentences:
            assert ours.sent_encode(tokenizer, sentence) == peer.sent_encode(tokenizer, sentence)
        expected = peer.get_idf_dict(sentences, tokenizer, nthreads=0)
        got = ours.get_idf_dict(sentences, tokenizer)
        assert dict(got) == dict(expected) and got[10 ** 6] == expected[10 ** 6]


def test_bert_scorer_use_custom_baseline(tiny_models, tmp_path) -> None:
    from refscore.compat.bert_score import BERTScorer
    assert BERTScorer(tiny_models[0], num_layers=2).use_custom_baseline is False
    baseline = tmp_path / "baseline.tsv"
    baseline.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n1,0.1,0.1,0.1\n2,0.1,0.1,0.1\n3,0.1,0.1,0.1\n")
    scorer = BERTScorer(tiny_models[0], num_layers=2, rescale_with_baseline=True, baseline_path=str(baseline))
    assert scorer.use_custom_baseline is True and scorer.hash.endswith("-custom-rescaled")


@pytest.mark.parametrize("all_layers", [False, True])
def test_bert_cos_score_idf_and_get_bert_embedding_are_bert_scores(tiny_models, all_layers: bool) -> None:
    """Same model object, tokenizer and IDF dict, same process: bert-score's batching and matching, so the same
    float32 tensors."""
    import bert_score.utils as peer
    import torch

    from refscore.compat.bert_score import utils as ours
    refs = ["The cat sat on the mat.", "A quick brown fox jumps over the lazy dog.", "Das Wetter ist schön."]
    hyps = ["The cat is on the mat.", "A fast brown fox jumped.", "Das Wetter ist heute schön."]
    for model_path in tiny_models:
        tokenizer = ours.get_tokenizer(model_path)
        model = ours.get_model(model_path, 2, all_layers=all_layers)
        idf = ours.get_idf_dict(refs, tokenizer)
        expected = peer.bert_cos_score_idf(model, refs, hyps, tokenizer, idf, batch_size=2, device="cpu",
                                           all_layers=all_layers)
        got = ours.bert_cos_score_idf(model, refs, hyps, tokenizer, idf, batch_size=2, device="cpu",
                                      all_layers=all_layers)
        assert torch.equal(got, expected)
        embedding, mask, padded_idf = ours.get_bert_embedding(hyps, model, tokenizer, idf, device="cpu")
        peer_embedding, peer_mask, peer_idf = peer.get_bert_embedding(hyps, model, tokenizer, idf, device="cpu")
        assert torch.equal(embedding, peer_embedding) and torch.equal(mask, peer_mask)
        assert torch.equal(padded_idf, peer_idf)
