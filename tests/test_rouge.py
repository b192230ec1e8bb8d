"""ROUGE (rouge-score flavor): parity with rouge-score 0.1.2 on real data and random text, the compiled kernels
against simple references, the API, aggregation and bad input."""
from __future__ import annotations

import json
import pickle
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem import porter
from rouge_score import rouge_scorer, scoring

import refscore
from refscore._core import _rouge
from refscore.errors import InputError, InputTypeError, RefscoreWarning
from refscore.metrics.rouge import DEFAULT_TYPES, ROUGE, bootstrap_percentiles

from conftest import shared_data_path

pytestmark = pytest.mark.parity   # against the peer under this interpreter, on every supported Python

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def read_jsonl(path, limit=None):
    records = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            records.append(json.loads(line))
            if limit is not None and len(records) == limit:
                break
    return records


def peer_scores(types, predictions, references, use_stemmer=False, tokenizer=None):
    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer, tokenizer=tokenizer)
    out = []
    for prediction, refs in zip(predictions, references):
        if isinstance(refs, str):
            out.append(scorer.score(refs, prediction))
        else:
            out.append(scorer.score_multi(refs, prediction) if len(refs) > 1 else scorer.score(refs[0], prediction))
    return out


def assert_same_as_peer(result, peer, types):
    for rouge_type in types:
        for k, measure in enumerate(("precision", "recall", "fmeasure")):
            mine = getattr(result[rouge_type], measure)
            theirs = np.array([score[rouge_type][k] for score in peer], dtype=np.float64)
            mismatch = np.flatnonzero(mine != theirs)
            assert mismatch.size == 0, (f"{rouge_type} {measure}: {mismatch.size} documents differ, first "
                                        f"{mismatch[0]}: {mine[mismatch[0]]!r} vs {theirs[mismatch[0]]!r}")


# -- real data -------------------------------------------------------------------------------------------------
# A fixed subset per system and setting keeps the suite fast; the full 3 x 11,490 comparison (stemmer on and off)
# was run with benchmarks/bench_rouge.py --full-parity and matched every document (see docs/rouge.md).
CNNDM_SUBSET = 1500


@pytest.mark.parametrize("system", ["baseline", "pointer-gen", "pointer-gen-cov"])
@pytest.mark.parametrize("stemmer", [False, True])
def test_cnndm_matches_rouge_score(system, stemmer):
    path = shared_data_path("summ_cnndm_see2017", f"{system}.jsonl")
    offset = {"baseline": 0, "pointer-gen": 4000, "pointer-gen-cov": 8000}[system]
    records = read_jsonl(path, offset + CNNDM_SUBSET)[offset:]
    predictions = [r["prediction"] for r in records]
    references = [r["references"] for r in records]
    result = refscore.rouge(predictions, references, TYPES, stemmer=stemmer)
    assert_same_as_peer(result, peer_scores(TYPES, predictions, references, stemmer), TYPES)


def test_summeval_multi_reference_matches_score_multi():
    path = shared_data_path("summ_summeval", "summeval.jsonl")
    records = read_jsonl(path)[::8]  # 200 of 1,600 (all 16 systems, 11 references each)
    predictions = [r["prediction"] for r in records]
    references = [r["references"] for r in records]
    types = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")
    result = refscore.rouge(predictions, references, types, stemmer=True)
    peer = peer_scores(types, predictions, references, use_stemmer=True)
    assert_same_as_peer(result, peer, types)
    scorer = rouge_scorer.RougeScorer(["rouge2"], use_stemmer=True)
    for i in (0, 57, 199):
        per_ref = [scorer.score(ref, predictions[i])["rouge2"].fmeasure for ref in references[i]]
        assert result["rouge2"].best_reference[i] == int(np.argmax(per_ref))


def test_porter_stemmer_matches_nltk_on_every_dataset_word():
    words = set()
    for name in ("summ_cnndm_see2017/baseline.jsonl", "summ_cnndm_see2017/pointer-gen.jsonl",
                 "summ_cnndm_see2017/pointer-gen-cov.jsonl", "summ_summeval/summeval.jsonl",
                 "summ_summeval/sources.jsonl", "summ_xsum_maynez2020/xsum_systems.jsonl"):
        for record in read_jsonl(shared_data_path(*name.split("/"))):
            for value in record.values():
                for text in ([value] if isinstance(value, str) else value if isinstance(value, list) else []):
                    if isinstance(text, str):
                        words.update(re.findall(r"[a-z0-9]+", text.lower()))
    stemmer = porter.PorterStemmer()
    mismatches = [w for w in words if stemmer.stem(w) != _rouge.porter_stem(w)]
    assert len(words) > 40_000 and mismatches == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=ord("a"), max_codepoint=ord("z")), min_size=1, max_size=14))
def test_porter_stemmer_matches_nltk_on_generated_words(word):
    assert _rouge.porter_stem(word) == porter.PorterStemmer().stem(word)


# -- random text -----------------------------------------------------------------------------------------------
WORDS = ["the", "cat", "cats", "sat", "sitting", "on", "mat", "mats", "running", "runs", "happily", "ponies",
         "caresses", "generalization", "a", "A", "The", "Cat", "3", "2020", "U.S.", "state-of-the-art", "naïve",
         "café", "中文", "Ж", "\u212a", "İstanbul", "x1y2"]
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ". ", ", ", "-", "\t", "\u00a0", "!", "'"]
ascii_ish_text = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=40).map("".join)


def corpora(text, max_references, max_documents):
    """(predictions, references) with 1..max_documents documents of 1..max_references references each."""
    pairs = st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=max_references)), min_size=1,
                     max_size=max_documents)
    # per_segment: a square corpus (n documents x n references) would otherwise be refused as ambiguous
    return pairs.map(lambda items: ([p for p, _ in items], refscore.per_segment([r for _, r in items])))


@settings(max_examples=150, deadline=None)
@given(corpora(ascii_ish_text, 3, 4), st.booleans())
def test_random_text_matches_rouge_score(corpus, stemmer):
    predictions, references = corpus
    types = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RefscoreWarning)
        result = refscore.rouge(predictions, references, types, stemmer=stemmer, num_threads=2)
    assert_same_as_peer(result, peer_scores(types, predictions, references, stemmer), types)


def test_unicode_tokenizer_scores_chinese_and_warns_for_rouge_score_tokenizer():
    with pytest.warns(RefscoreWarning, match=r"other scripts, 100% of .*tokenizer='unicode'") as caught:
        zero = refscore.rouge(["这是一个测试"], ["这是测试"], ("rouge1",))
    assert caught[0].filename == __file__  # points at the caller's line
    assert zero["rouge1"].fmeasure[0] == 0.0  # rouge-score's own result (anchors.md section 5)
    unicode = refscore.rouge(["这是一个测试"], ["这是测试"], ("rouge1",), tokenizer="unicode")
    assert unicode["rouge1"].precision[0] == 4 / 6 and unicode["rouge1"].recall[0] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        refscore.rouge(["...", ""], ["", "a"], ("rouge1",))  # nothing to tokenize: no warning


# -- kernels against simple references -------------------------------------------------------------------------
def reference_lcs(a, b):
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=150), st.lists(st.integers(0, 5), max_size=150),
       st.sampled_from([None, 1, 3]))
def test_lcs_kernels_match_dp_and_rouge_score_backtrack(a, b, table_limit):
    assert _rouge.lcs_length(a, b) == reference_lcs(a, b)
    expected = rouge_scorer.lcs_ind(a, b) if a and b else []
    assert _rouge.lcs_positions(a, b, table_limit) == expected


def test_lcs_length_across_column_blocks():
    rng = np.random.default_rng(7)
    a = rng.integers(0, 30, 150).tolist()
    b = rng.integers(0, 30, 5000).tolist()  # > 4096 columns: two blocks with carried rows
    assert _rouge.lcs_length(a, b) == reference_lcs(a, b) == _rouge.lcs_length(b, a)


def test_two_long_documents_score_without_quadratic_memory():
    rng = np.random.default_rng(3)
    vocabulary = np.array([f"w{k}" for k in range(2000)])
    first = " ".join(vocabulary[rng.integers(0, 2000, 30_000)])
    second = " ".join(vocabulary[rng.integers(0, 2000, 30_000)])
    result = refscore.rouge([first], [second], ("rougeL", "rougeLsum"))
    # one sentence each: ROUGE-Lsum equals ROUGE-L; a 30k x 30k int table would need 3.6 GB
    assert 0 < result["rougeL"].fmeasure[0] == result["rougeLsum"].fmeasure[0] < 1


# -- API --------------------------------------------------------------------------------------------------------
def test_blog_example_acceptance_values():
    result = refscore.rouge(["to make people trustworthy you need to trust them"],
                            ["the way to make people trustworthy is to trust them"])
    assert result["rouge1"].recall[0] == 0.7
    assert round(float(result["rougeL"].fmeasure[0]), 5) == 0.73684


def test_anchor_values():
    newline = refscore.rouge(["The dog.\nThe cat."], ["The cat.\nThe dog."], ("rougeLsum",))
    flat = refscore.rouge(["The dog. The cat."], ["The cat. The dog."], ("rougeLsum",))
    assert newline["rougeLsum"].fmeasure[0] == 1.0 and flat["rougeLsum"].fmeasure[0] == 0.5
    builtin = refscore.rouge(["The dog. The cat."], ["The cat. The dog."], ("rougeLsum",), split_summaries="builtin")
    assert builtin["rougeLsum"].fmeasure[0] == 1.0


def test_any_n_and_empty_inputs():
    result = refscore.rouge(["a b c d e f g h i j k l", "", "x"], ["a b c d e f g h i j k l", "a", ""],
                            ("rouge12", "rouge1", "rougeL", "rougeLsum"))
    assert result["rouge12"].fmeasure.tolist() == [1.0, 0.0, 0.0]
    for rouge_type in ("rouge1", "rougeL", "rougeLsum"):
        assert result[rouge_type].precision[1:].tolist() == [0.0, 0.0]  # rouge-score's defined zeros


def test_result_means_statistics_and_metric_protocol():
    predictions = ["the cat sat on the mat", "a dog barked", "hello world"]
    references = [["the cat is on the mat", "a cat sat"], "the dog barked loudly", "hello there world"]
    result = refscore.rouge(predictions, references)
    metric = ROUGE()
    assert result.means["rouge1"].fmeasure == pytest.approx(np.mean(result["rouge1"].fmeasure), abs=1e-15)
    corpus = metric.corpus_score(predictions, references)
    assert corpus.values["fmeasure"] == pytest.approx(result.values["fmeasure"], abs=1e-15)
    assert corpus.values["documents"] == 3
    parts = metric.statistics(predictions[:1], references[:1]) + metric.statistics(predictions[1:], references[1:])
    merged = metric.score_from_statistics(pickle.loads(pickle.dumps(parts)))
    assert merged.values["fmeasure"] == pytest.approx(corpus.values["fmeasure"], abs=1e-15)
    sentence = metric.sentence_scores(predictions, references)
    assert sentence.tolist() == result["rouge1"].fmeasure.tolist()
    assert "flavor:rouge-score" in corpus.signature and "stem:no" in corpus.signature
    assert refscore.rouge(predictions, references, num_threads=1)["rougeLsum"].fmeasure.tolist() == \
        refscore.rouge(predictions, references, num_threads=2)["rougeLsum"].fmeasure.tolist()


def test_rouge_returns_the_corpus_score_with_its_statistics_and_per_document_arrays():
    predictions = ["the cat sat on the mat", "a dog barked", "hello world"]
    references = [["the cat is on the mat", "a cat sat"], "the dog barked loudly", "hello there world"]
    result = refscore.rouge(predictions, references)
    metric = ROUGE()
    assert isinstance(result, refscore.ROUGEScore) and result == metric.corpus_score(predictions, references)
    assert result.score == result.values["fmeasure"]["rouge1"] == result.means["rouge1"].fmeasure
    assert np.array_equal(result.statistics.data, metric.statistics(predictions, references).data)
    assert result["rouge1"].best_reference.tolist() == [0, 0, 0] and list(result) == list(DEFAULT_TYPES)
    assert "statistics" not in result.to_dict() and json.dumps(result.to_dict())
    from_stats = metric.score_from_statistics(result.statistics)   # per-document values come from the statistics
    assert from_stats["rougeL"].fmeasure.tolist() == result["rougeL"].fmeasure.tolist()
    assert from_stats["rougeL"].best_reference.tolist() == [0, 0, 0]   # carried by the statistics (not summed)
    chunked = metric.corpus_score_chunks([(predictions[:2], references[:2]), (predictions[2:], references[2:])])
    assert chunked.values["fmeasure"] == pytest.approx(result.values["fmeasure"], abs=1e-15)
    assert chunked.values["documents"] == 3
    with pytest.raises(InputError, match="summed statistics"):
        chunked["rouge1"]
    with pytest.raises(KeyError, match="rougeW"):
        result["rougeW"]


def test_the_metrics_have_no_side_doors_beside_the_protocol():
    from refscore.metrics.rouge import ROUGE155

    for name in ("compute", "score_sequences", "result_from_counts"):
        assert not hasattr(ROUGE, name) and not hasattr(ROUGE155, name)


def test_sentence_separator_gives_token_ids_the_sentences_of_rouge_lsum():
    text = refscore.rouge(["a b\nc d a"], ["c d\na b e"], ("rougeL", "rougeLsum", "rouge2"))
    ids = refscore.rouge([[1, 2, 0, 3, 4, 1]], [[3, 4, 0, 1, 2, 5]], ("rougeL", "rougeLsum", "rouge2"),
                         sentence_separator=0)
    one_sentence = refscore.rouge([[1, 2, 3, 4, 1]], [[3, 4, 1, 2, 5]], ("rougeL", "rougeLsum", "rouge2"))
    for name in ("rougeL", "rougeLsum", "rouge2"):
        assert ids[name].fmeasure.tolist() == text[name].fmeasure.tolist()
    assert ids["rougeLsum"].fmeasure[0] > one_sentence["rougeLsum"].fmeasure[0]
    assert "sep:0" in ids.signature
    with pytest.raises(InputTypeError, match="sentence_separator"):
        ROUGE(sentence_separator="\n")


def test_token_id_input():
    result = refscore.rouge([[1, 2, 3, 4]], [[[2, 3, 4, 5], [1, 2, 3]]], ("rouge1", "rougeL"))
    assert result["rouge1"].best_reference.tolist() == [1]
    assert result["rougeL"].recall.tolist() == [1.0]


# -- bootstrap ---------------------------------------------------------------------------------------------------
def test_bootstrap_equals_rouge_score_aggregator_under_the_same_seed():
    predictions = ["the cat sat", "a dog", "hello world again", "one two", "x y z"]
    references = ["the cat sat down", "the dog", "hello world", "two one", "z"]
    result = refscore.rouge(predictions, references, ("rouge1", "rougeL"))
    aggregator = scoring.BootstrapAggregator(n_samples=200)
    for score in peer_scores(("rouge1", "rougeL"), predictions, references):
        aggregator.add_scores(score)
    np.random.seed(1234)
    expected = aggregator.aggregate()
    np.random.seed(1234)
    assert result.bootstrap(n_samples=200) == {k: tuple(map(tuple, v)) for k, v in expected.items()}
    assert result.bootstrap(n_samples=200, seed=1234) == {k: tuple(map(tuple, v)) for k, v in expected.items()}
    with pytest.raises(InputError, match="n_samples"):
        bootstrap_percentiles([np.zeros((2, 3))], n_samples=0)


# -- bad input ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, match", [
    ({"types": ("rouge1", "rougeX")}, InputError, "unknown ROUGE type 'rougeX'.*rougeLsum.*rougeSU"),
    ({"types": ("rouge0",)}, InputError, "unknown ROUGE type"),
    ({"types": ()}, InputError, "types is empty"),
    ({"flavor": "perl"}, InputError, "unknown ROUGE flavor 'perl'; available: rouge-score"),
    ({"tokenizer": "spacy"}, InputError, "tokenizer must be one of"),
    ({"split_summaries": "punkt"}, InputError, "split_summaries must be"),
    ({"stemmer": "yes"}, InputTypeError, "stemmer must be True or False"),
])
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        refscore.rouge(["a"], ["a"], **kwargs)


def test_bad_inputs_name_argument_and_position():
    with pytest.raises(InputTypeError, match=r"references\[1\] is None"):
        refscore.rouge(["a", "b"], ["a", None])
    with pytest.raises(InputError, match="predictions has 2 segments but references has 1"):
        refscore.rouge(["a", "b"], ["a"])
    with pytest.raises(InputTypeError, match="predictions must be a list"):
        refscore.rouge("a b", ["a b"])
    with pytest.raises(InputError, match=r"references\[0\] is an empty list"):
        refscore.rouge(["a"], [[]])


@pytest.mark.parametrize("text, sentences", [
    ("Mr. Smith arrived. He left!", ["Mr. Smith arrived.", "He left!"]),
    ("J. R. R. Tolkien wrote it. Really?", ["J. R. R. Tolkien wrote it.", "Really?"]),
    ("It costs 3.5 dollars, e.g. in the U.S. market. Fine.", ["It costs 3.5 dollars, e.g. in the U.S. market.",
                                                              "Fine."]),
    ("He said \"stop.\" Then he went... and came back.", ["He said \"stop.\"", "Then he went... and came back."]),
    ("第一句。第二句！第三句", ["第一句。", "第二句！", "第三句"]),
    ("line one\nline two. Next", ["line one", "line two.", "Next"]),
    ("", []),
])
def test_builtin_sentence_splitter_rules(text, sentences):
    from refscore.text.sentences import split_sentences

    assert split_sentences(text) == sentences


def test_nltk_splitting_reports_missing_data_or_matches_rouge_score():
    text = "The cat sat. The dog ran. The end."
    try:
        result = refscore.rouge([text], ["The dog ran. The cat sat."], ("rougeLsum",), split_summaries="nltk")
    except InputError as exc:
        assert "punkt_tab" in str(exc)
        return
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    assert result["rougeLsum"].fmeasure[0] == scorer.score("The dog ran. The cat sat.", text)["rougeLsum"].fmeasure
