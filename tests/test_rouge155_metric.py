"""The ROUGE155 metric: configuration, text handling (stemming, stopwords, Unicode), the metric protocol, and bad
input."""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore._core._rouge155_text import porter_stem_words
from refscore.errors import InputError, InputTypeError
from refscore.metrics import get_metric_class
from refscore.metrics.rouge import ROUGE155, ROUGE155Config, ROUGE155Score, parse_type, read_summary, rouge155
from refscore.metrics.rouge.rouge155_text import encode_texts
from rouge155_perl_oracle import morph_stem, porter_stem

GOLDEN = Path(__file__).parent / "golden" / "rouge155_porter_stems.tsv"


def test_porter_stemmer_equals_the_perl_scripts_stemmer():
    pairs = [line.split("\t") for line in GOLDEN.read_text().splitlines() if not line.startswith("#")]
    assert len(pairs) == 6000
    mismatches = [(word, stem, porter_stem(word)) for word, stem in pairs if porter_stem(word) != stem]
    assert not mismatches, mismatches[:10]


def test_wordnet_exceptions_come_first_and_later_lists_win():
    assert morph_stem("geese") == "goose" and morph_stem("went") == "go" and morph_stem("children") == "child"
    assert morph_stem("better") == "well"  # adj.exc says good, adv.exc (read later) says well
    assert morph_stem("agreement") == porter_stem("agreement") == "agreem"  # the script's step 4 tries -ent too


def test_only_tokens_longer_than_three_characters_are_stemmed():
    encoded = encode_texts(["ties ran running runs"], stemming=True, remove_stopwords=False)
    # "ties" -> "ti", "ran" stays (3 chars, not looked up), "running" -> "run", "runs" -> "run"
    assert encoded.flat_tokens.tolist() == [0, 1, 2, 2]


def test_stopwords_are_removed_before_counting():
    plain = rouge155(["the cat"], ["the dog cat"], types=("ROUGE-1",), printed_averages=False)["ROUGE-1"]
    removed = rouge155(["the cat"], ["the dog cat"], types=("ROUGE-1",), remove_stopwords=True,
                       printed_averages=False)["ROUGE-1"]
    assert (plain.recall[0], plain.precision[0]) == (0.66667, 1.0)
    assert (removed.recall[0], removed.precision[0]) == (0.5, 1.0)


def test_non_ascii_letters_separate_tokens_as_in_the_script():
    result = rouge155(["naïve café"], ["na ve caf"], types=("ROUGE-1",), printed_averages=False)["ROUGE-1"]
    assert result.fmeasure[0] == 1.0


def test_best_model_picks_the_reference_with_the_best_recall():
    refs = [["a b c d", "a x y z"]]
    best = rouge155(["a b"], refs, types=("ROUGE-1",), scoring_formula="B", printed_averages=False)["ROUGE-1"]
    average = rouge155(["a b"], refs, types=("ROUGE-1",), printed_averages=False)["ROUGE-1"]
    assert (best.recall[0], best.precision[0]) == (0.5, 1.0)
    assert (average.recall[0], average.precision[0]) == (0.375, 0.75)  # 3 hits / 8 model, 3 / (2 x 2) peer


def test_rouge_w_reproduces_the_double_weighting_of_the_recall_base():
    text = "a b c d e f g h i j"
    result = rouge155([text], [text], types=("ROUGE-W-1.2",), printed_averages=False)["ROUGE-W-1.2"]
    assert result.precision[0] == 1.0
    assert result.recall[0] == round((10 ** 1.2 / (10 ** 1.2) ** 1.2) ** (1 / 1.2), 5)


def test_empty_texts_score_zero():
    result = rouge155(["", "a b", ""], ["a b", "", ""], types=("ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU*"),
                      printed_averages=False)
    for name, r in result.items():
        assert r.recall.tolist() == r.precision.tolist() == r.fmeasure.tolist() == [0.0, 0.0, 0.0], name


def test_type_names():
    assert ROUGE155Config(types="rouge1, L ,w-1.2, s-1, SU4").types == \
        ("ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU4")
    assert parse_type("ROUGE-S*").int_param == -1 and parse_type("rougesu*").unigrams


@pytest.mark.parametrize("options, message", [
    ({"types": ("rougeLsum",)}, "already summary-level"),
    ({"types": ("ROUGE-0",)}, "order must be >= 1"),
    ({"types": ("W-0",)}, "weight must be > 0"),
    ({"types": ("ROUGE-1", "rouge1")}, "twice"),
    ({"types": ()}, "non-empty"),
    ({"alpha": 1.5}, "alpha"),
    ({"word_limit": 10, "byte_limit": 75}, "not both"),
    ({"word_limit": -1}, "word_limit must be >= 0"),
    ({"scoring_formula": "C"}, "scoring_formula"),
    ({"confidence": 120}, "confidence"),
    ({"resamples": 0}, "resamples"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(InputError, match=message):
        ROUGE155(**options)


def test_bad_option_types_are_named():
    with pytest.raises(InputTypeError, match="word_limit"):
        ROUGE155Config(word_limit=True)
    with pytest.raises(InputTypeError, match="types"):
        ROUGE155Config(types=(1,))
    with pytest.raises(InputTypeError, match="word_limit must be a non-negative int"):  # via the metric
        ROUGE155(word_limit=2.5)


def test_bad_input_is_named():
    metric = ROUGE155()
    with pytest.raises(InputError, match="2 segments but references has 1"):
        metric.statistics(["a", "b"], ["a"])
    with pytest.raises(InputTypeError, match="token ids"):
        metric.statistics([[1, 2]], [[1, 2]])
    with pytest.raises(InputTypeError, match=r"references\[0\]\[1\]"):
        metric.statistics(["a"], [["a", None]])
    with pytest.raises(InputError, match=r"references\[1\]\[0\] contains the lone surrogate"):
        metric.statistics(["a", "b"], ["a", ["b\ud800"]])


def test_rouge155_returns_the_corpus_score_with_statistics_printed_lines_and_per_document_values():
    hyps = ["the cat sat on the mat", "a dog\nbarked loudly", ""]
    refs = [["the cat sat", "a cat sat down"], "the dog barked", "nothing"]
    metric = ROUGE155(types=("ROUGE-1", "ROUGE-L"))
    result = rouge155(hyps, refs, types=("ROUGE-1", "ROUGE-L"))
    assert isinstance(result, ROUGE155Score) and result == metric.corpus_score(hyps, refs)
    assert np.array_equal(result.statistics.data, metric.statistics(hyps, refs).data)
    assert list(result) == list(result.keys()) == ["ROUGE-1", "ROUGE-L"] and len(result) == 2
    printed = metric.script_score(result.statistics)
    assert result["ROUGE-L"].printed["F"].average == printed.values["averages"]["ROUGE-L"]["F"]
    assert result["ROUGE-L"].printed["F"].low == printed.values["intervals"]["ROUGE-L"]["F"][0]
    assert [result[name].name for name in result] == ["ROUGE-1", "ROUGE-L"]
    assert json.dumps(result.to_dict()) and "printed" not in result.to_dict()
    assert rouge155(hyps, refs, printed_averages=False)["ROUGE-1"].printed == {}
    flavor = refscore.rouge(hyps, refs, ["rougeL", "rouge1"], flavor="rouge155")
    assert list(flavor) == ["rougeL", "rouge1"] and flavor["rouge1"].name == "ROUGE-1"
    assert flavor["rougeL"].fmeasure.tolist() == flavor["ROUGE-L"].fmeasure.tolist()
    assert flavor["rougeL"].fmeasure.tolist() == result["ROUGE-L"].fmeasure.tolist()
    assert flavor["rouge1"].best_reference.tolist() == [-1, -1, -1]


def test_metric_protocol_merges_and_averages():
    metric = get_metric_class("rouge155")(types=("ROUGE-1", "ROUGE-L"))
    hyps = ["the cat sat on the mat", "a dog\nbarked loudly", ""]
    refs = [["the cat sat", "a cat sat down"], "the dog barked", "nothing"]
    whole = metric.statistics(hyps, refs)
    merged = metric.statistics(hyps[:1], refs[:1]) + metric.statistics(hyps[1:], refs[1:])
    assert np.array_equal(whole.data, merged.data) and merged.nrefs == -1
    per_doc = rouge155(hyps, refs, types=("ROUGE-1", "ROUGE-L"), printed_averages=False)
    score = metric.score_from_statistics(pickle.loads(pickle.dumps(merged)))
    for name in ("ROUGE-1", "ROUGE-L"):
        assert score.values["averages"][name] == pytest.approx({"R": per_doc[name].recall.mean(),
                                                                "P": per_doc[name].precision.mean(),
                                                                "F": per_doc[name].fmeasure.mean()})
    assert score.score == score.values["averages"]["ROUGE-1"]["F"] and score.values["documents"] == 3
    table = metric.segment_table(whole)
    assert table["ROUGE-L-F"].tolist() == per_doc["ROUGE-L"].fmeasure.tolist()
    assert metric.sentence_score(hyps[0], refs[0]).values["averages"]["ROUGE-1"]["F"] == per_doc["ROUGE-1"].fmeasure[0]
    with pytest.raises(InputError, match="recompute"):
        ROUGE155().score_from_statistics(whole)


def test_unbounded_skip_bigrams_on_huge_texts_are_refused_with_advice():
    big = " ".join(f"w{i}" for i in range(50_000))
    # 2 x 1.25e9 skip-bigram keys of 8 bytes: over the default memory budget (2 GiB), refused before allocating
    with pytest.raises(InputError, match=r"ROUGE-S\* of segment 1 \(hypotheses\[1\] and its references\) needs "
                                         r"about 9\.3 GiB, more than the memory budget.*ROUGE-S4"):
        rouge155(["a b", big], ["a", "b"], types=("ROUGE-S*",), printed_averages=False)
    bounded = rouge155([big], [big], types=("ROUGE-S4", "ROUGE-2"), printed_averages=False)
    assert bounded["ROUGE-S4"].fmeasure[0] == bounded["ROUGE-2"].fmeasure[0] == 1.0


def test_compiled_porter_stemmer_equals_the_transcription():
    pairs = [line.split("\t") for line in GOLDEN.read_text().splitlines() if not line.startswith("#")]
    assert [s.decode() for s in porter_stem_words([w.encode() for w, _ in pairs])] == [s for _, s in pairs]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aeiouybcdlmnrstwxzgk0", max_size=14))
def test_compiled_porter_stemmer_equals_the_transcription_on_random_words(word):
    assert porter_stem_words([word.encode()])[0].decode() == porter_stem(word)


def test_read_summary_formats(tmp_path):
    see = tmp_path / "a.html"
    see.write_bytes(b'<html>\n<a name="1">[1]</a> <a href="#1" id=1>The cat sat.</a>\n'
                    b'<a size="7" name="2">[2]</a> <a href="#2" id=2>It slept \xe9.</a>\n</html>\n')
    isi = tmp_path / "a.isi"
    isi.write_text('<S SNTNO="1">The cat sat.</S>\n<S SNTNO="2a">It slept.</S>\nignored\n')
    spl = tmp_path / "a.spl"
    spl.write_text("The cat sat.\n\nIt slept.\n")
    assert read_summary(see, "SEE") == "The cat sat.\nIt slept \udce9."  # undecodable bytes are kept
    assert read_summary(isi, "isi") == "The cat sat.\nIt slept."
    assert read_summary(spl) == "The cat sat.\n\nIt slept.\n"
    with pytest.raises(InputError, match="input_format"):
        read_summary(spl, "BE")
