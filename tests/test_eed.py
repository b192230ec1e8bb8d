"""EED: refscore's extended edit distance against torchmetrics' ``extended_edit_distance`` and
``ExtendedEditDistance`` (its preprocessing for "en" and "ja", its float32 sentence scores and corpus mean), on
random text (CJK, combining marks, emoji, empty strings, a 10,000-character line) and WMT22 texts; every number
equal to the bit."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torchmetrics_eed = pytest.importorskip("torchmetrics.functional.text.eed")
from torchmetrics.text import ExtendedEditDistance  # noqa: E402

import refscore  # noqa: E402
from conftest import read_segments, shared_data_path  # noqa: E402
from refscore.errors import InputError, InputTypeError  # noqa: E402
from refscore.metrics.eed import EED, preprocess_en, preprocess_ja  # noqa: E402

extended_edit_distance = torchmetrics_eed.extended_edit_distance
ALPHABET = st.sampled_from(list("abcAB 09.,?!e") + ["猫", "。", "\u0301", "é", "😀", "ｶ", "１", "\t", "\u3000",
                                                     "Mr", "Dr", "U", "S", "i", "g"])
TEXT = st.lists(ALPHABET, max_size=20).map("".join)   # pieces such as "Mr", "U": the abbreviation rules
PARAMETERS = st.sampled_from([{}, {"alpha": 1.0, "rho": 0.5, "deletion": 0.4, "insertion": 0.7},
                              {"alpha": 0.0, "rho": 0.1, "deletion": 1.0, "insertion": 2.0}])


def peer(hyps, refs, **options):
    corpus, sentences = extended_edit_distance(hyps, refs, return_sentence_level_score=True, **options)
    return float(corpus), sentences.numpy().astype(np.float64).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.sampled_from(["en", "ja"]), PARAMETERS)
def test_equal_torchmetrics_on_random_text(segments, language, parameters):
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    if language == "ja" and any(not preprocess_ja(r) for rs in refs for r in rs):
        refs = [[r + "a" for r in rs] for rs in refs]   # torchmetrics divides 0 by rho * coverage: fine, rho > 0
    corpus, sentences = peer(hyps, refs, language=language, **parameters)
    result = refscore.eed(hyps, refscore.per_segment(refs), language=language, **parameters)
    assert result.segments["eed"].tolist() == sentences
    assert result.score == corpus


def test_preprocessing_equals_torchmetrics():
    for text in ["Mr. Smith paid 3.50, e.g. cash!", "", "  x  y. ", "U.S. i.e. Dr. 1,000 ", "ｶﾀｶﾅ１\t"]:
        assert preprocess_en(text) == torchmetrics_eed._preprocess_en(text)
        assert preprocess_ja(text) == torchmetrics_eed._preprocess_ja(text)


def test_docstring_example_class_and_long_line():
    preds = ["this is the prediction", "here is an other sample"]
    target = ["this is the reference", "here is another one"]
    assert refscore.eed(preds, target).score == float(extended_edit_distance(preds, target))
    module = ExtendedEditDistance(return_sentence_level_score=True)
    module.update(preds[:1], target[:1])
    module.update(preds[1:], target[1:])
    corpus, sentences = module.compute()
    result = EED().score_from_statistics(EED().statistics(preds[:1], target[:1]) + EED().statistics(preds[1:],
                                                                                                    target[1:]))
    assert result.score == float(corpus)
    long = ("abc 猫 " * 1700)[:10_000]
    hyps, refs = [long, "", "😀"], [["short reference"], ["a"], [long[:300]]]
    assert refscore.eed(hyps, refscore.per_segment(refs)).segments["eed"].tolist() == peer(hyps, refs)[1]


def test_wmt22_texts_equal_torchmetrics():
    directory = shared_data_path("wmt22", "en-de")
    refs = read_segments(directory / "ref.txt")[:120]
    hyps = read_segments(sorted((directory / "sys").glob("*.txt"))[0])[:120]
    corpus, sentences = peer(hyps, refs)
    result = refscore.eed(hyps, refs, num_threads=2)
    assert result.segments["eed"].tolist() == sentences and result.score == corpus
    assert np.array_equal(EED().statistics(hyps, refs, num_threads=1).data, result.statistics.data)


def test_checks_intervals_paired_tests_pairwise_and_meta_evaluation(tmp_path):
    check = refscore.testing.Check("eed", threshold=0.3)
    scores, _ = check.scores(["a cat", "xyz"], [["a cat"], ["a dog"]])
    assert check.passes(scores).tolist() == [True, False]   # lower is better: at or below the threshold
    assert "lower is better" in EED().explain_case("a cat", ["a dog", "a cat"])
    hyps, refs = ["a b", "c d", "e", "kitten"], ["a b", "c x", "f", "sitting"]
    interval = refscore.bootstrap_ci(EED(), hyps, refs, n=40, seed=1).intervals["eed"]
    assert 0.0 <= interval.lower <= interval.upper <= 1.0
    paired = refscore.paired_test(EED(), {"A": hyps, "B": ["x", "y", "z", "w"]}, refs, n=40)
    assert len(paired.results["eed"]) == 2
    matrix = refscore.pairwise("eed", [["a cat", "the dog"]], [["a cat", "a dog", ""]])[0]
    assert matrix.tolist() == [[EED().sentence_scores([c], [r])[0] for r in ("a cat", "a dog", "")]
                               for c in ("a cat", "the dog")]
    from refscore import meta
    from refscore.meta.inputs import load_judgments

    texts = {"A": ["the cat sat", "a dog ran"], "B": ["the cat", "dog ran"], "C": ["cat sat the", "a dog"]}
    references = ["the cat sat down", "a dog ran off"]
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps({"system": s, "seg_id": i + 1, "hypothesis": h, "reference": references[i],
                                        "mqm": -float(i)}) + "\n" for s, hs in texts.items()
                            for i, h in enumerate(hs)), encoding="utf-8")
    judgments = load_judgments(str(path))
    scores = meta.MetricScores.from_metric(EED(), judgments)
    for row, system in enumerate(judgments.systems):
        # lower is better: negated; the system score is the float64 mean (resamples sum columns)
        assert scores.systems[row] == pytest.approx(-refscore.eed(texts[system], references).score, abs=1e-7)


def test_command_line_flags(tmp_path, capsys):
    from refscore.cli.main import main

    (tmp_path / "hyp.txt").write_text("ｶﾀｶﾅ\nkitten\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("カタカナ\nsitting\n", encoding="utf-8")
    assert main(["score", "-m", "eed", "--eed-language", "ja", "--eed-rho", "0.5", "-r", str(tmp_path / "ref.txt"),
                 "-i", str(tmp_path / "hyp.txt"), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)[0]["scores"]["eed"]
    expected = float(extended_edit_distance(["ｶﾀｶﾅ", "kitten"], ["カタカナ", "sitting"], language="ja", rho=0.5))
    assert record["score"] == 100 * expected   # torchmetrics float32 mean, as the API gives it
    assert record["higher_is_better"] is False and "lang:ja" in record["signature"]


def test_bad_input_names_the_argument():
    with pytest.raises(InputError, match="language"):
        EED(language="de")
    with pytest.raises(InputError, match="rho"):
        EED(rho=-0.1)
    with pytest.raises(InputTypeError, match="alpha"):
        EED(alpha="2")
    with pytest.raises(InputError, match="reference 0 is empty.*rho"):
        refscore.eed(["a"], [""], language="ja", rho=0.0)
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\]"):
        refscore.eed(["a", 3], ["a", "b"])
    assert refscore.eed([""], [""]).score == peer([""], [""])[0]
