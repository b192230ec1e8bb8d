"""Edit distance: refscore's metric, its kernel and its pairwise matrices against RapidFuzz 3 (``Levenshtein`` and
``Indel`` distance / normalized_distance / normalized_similarity, ``fuzz.ratio``, ``process.cdist``), on random
text (CJK, combining marks, emoji, empty strings, 10,000-character lines) and on WMT22 texts; every number equal."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz import fuzz, process  # noqa: E402
from rapidfuzz.distance import Indel, Levenshtein  # noqa: E402

import refscore  # noqa: E402
from conftest import read_segments, shared_data_path  # noqa: E402
from refscore._core._edit_distance import INDEL, LEVENSHTEIN, pair_distances  # noqa: E402
from refscore.errors import InputError, InputTypeError  # noqa: E402
from refscore.metrics._edit_symbols import text_symbols  # noqa: E402
from refscore.metrics.edit_distance import EditDistance  # noqa: E402

PEERS = {"levenshtein": Levenshtein, "indel": Indel}
#: Latin, CJK, a combining acute accent, emoji, a lone surrogate, NUL and several spaces
ALPHABET = st.sampled_from(list("abcAB 09.,?!") + ["猫", "犬", "\u0301", "é", "😀", "👍", "\U0001f3fd", "\ud800", "\x00",
                                                    "\t", "\u3000"])
TEXT = st.text(ALPHABET, max_size=150)


def peer_units(text: str, unit: str) -> str | list[str]:
    return text if unit == "characters" else text.split()


def peer_values(hyp: str, ref: str, measure: str, unit: str) -> tuple[float, float, int]:
    peer, a, b = PEERS[measure], peer_units(hyp, unit), peer_units(ref, unit)
    return peer.normalized_similarity(a, b), peer.normalized_distance(a, b), peer.distance(a, b)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6), st.sampled_from(["levenshtein", "indel"]),
       st.sampled_from(["characters", "words"]))
def test_segments_equal_rapidfuzz_on_random_text(pairs, measure, unit):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    stats = EditDistance(measure=measure, unit=unit).statistics(hyps, refs)
    expected = np.array([peer_values(h, r, measure, unit) for h, r in pairs])
    assert stats.column("similarity").tolist() == expected[:, 0].tolist()
    assert stats.column("normalized_distance").tolist() == expected[:, 1].tolist()
    assert stats.column("distance").tolist() == expected[:, 2].tolist()


@pytest.mark.parametrize("seed", range(4))
def test_kernel_block_lengths_equal_rapidfuzz(seed):
    # every word boundary of the bit-parallel blocks (63, 64, 65, 128...) and 10,000-character lines
    rng = random.Random(seed)
    lengths = [0, 1, 2, 63, 64, 65, 127, 128, 129, 300, 10_000]
    alphabet = "ab" if seed % 2 else "abcdefgh猫😀 "
    texts = ["".join(rng.choice(alphabet) for _ in range(n)) for n in lengths]
    symbols, offsets, size = text_symbols(texts, "characters")
    left, right = np.meshgrid(np.arange(len(texts)), np.arange(len(texts)), indexing="ij")
    for kind, peer in ((LEVENSHTEIN, Levenshtein), (INDEL, Indel)):
        found = pair_distances(symbols, offsets, left.ravel(), right.ravel(), kind, size)
        assert found.tolist() == [peer.distance(texts[i], texts[j]) for i, j in zip(left.ravel(), right.ravel())]


def test_wmt22_texts_equal_rapidfuzz():
    directory = shared_data_path("wmt22", "en-de")
    refs = read_segments(directory / "ref.txt")[:500]
    hyps = read_segments(sorted((directory / "sys").glob("*.txt"))[0])[:500]
    for measure in ("levenshtein", "indel"):
        for unit in ("characters", "words"):
            result = refscore.edit_distance(hyps, refs, measure=measure, unit=unit)
            expected = [peer_values(h, r, measure, unit)[0] for h, r in zip(hyps, refs)]
            assert result.segments["edit_distance"].tolist() == expected
            assert result.score == sum(expected) / len(expected)


def test_ratio_is_fuzz_ratio_and_corpus_values():
    score = refscore.sentence_edit_distance("this is a test", "this is a test!", measure="indel")
    assert score.values["ratio"] == fuzz.ratio("this is a test", "this is a test!")
    result = refscore.edit_distance(["kitten", "abc", ""], ["sitting", "abc", ""])
    assert result.values["distance"] == 3 and result.values["segments"] == 3
    assert result.score == (Levenshtein.normalized_similarity("kitten", "sitting") + 1.0 + 1.0) / 3
    assert result.values["normalized_distance"] == Levenshtein.normalized_distance("kitten", "sitting") / 3
    assert result.higher_is_better and "measure:levenshtein" in result.signature


def test_distances_equal_torchmetrics_edit_distance():
    from torchmetrics.functional.text import edit_distance as tm_edit_distance

    preds, target = ["kitten", "abc", "", "中文😀x", "e\u0301"], ["sitting", "abd", "xyz", "中文", "é"]
    result = refscore.edit_distance(preds, target)
    assert result.segments["edit_distance"].size == 5
    assert result.statistics.column("distance").tolist() == tm_edit_distance(preds, target, reduction="none").tolist()
    assert result.values["distance"] == int(tm_edit_distance(preds, target, reduction="sum"))
    assert result.values["mean_distance"] == pytest.approx(float(tm_edit_distance(preds, target)), rel=1e-7)


def test_several_references_take_the_best_and_threads_do_not_matter():
    hyps = ["the cat sat", "abc", "xyz"] * 200
    refs = [["the dog sat", "the cat sat."], ["abd", "abc", "xbc"], ["", "q"]] * 200
    one = EditDistance().statistics(hyps, refs, num_threads=1)
    two = EditDistance().statistics(hyps, refs, num_threads=2)
    assert np.array_equal(one.data, two.data)
    expected = [max(Levenshtein.normalized_similarity(h, r) for r in rs) for h, rs in zip(hyps, refs)]
    assert one.column("similarity").tolist() == expected
    assert one.column("ref_length")[:3].tolist() == [12.0, 3.0, 0.0]   # tied at 0: the first ("", not "q")


def test_token_ids_equal_rapidfuzz_on_lists():
    hyps = [np.array([5, 7, 2**40, 7]), np.array([], dtype=np.int64)]
    refs = [[np.array([5, 2**40, 7, 9])], [np.array([1])]]
    stats = EditDistance().statistics(hyps, refs)
    assert stats.column("distance").tolist() == [Levenshtein.distance([5, 7, 2**40, 7], [5, 2**40, 7, 9]), 1.0]


@pytest.mark.parametrize("measure", ["levenshtein", "indel"])
@pytest.mark.parametrize("unit", ["characters", "words"])
def test_pairwise_equals_process_cdist(measure, unit):
    rng = random.Random(7)
    texts = [" ".join(rng.choice(["a", "ab", "猫", "😀x", ""]) for _ in range(rng.randint(0, 30)))
             for _ in range(40)]
    scorer = PEERS[measure].normalized_similarity
    peer = [peer_units(t, unit) for t in texts]
    expected = process.cdist(peer, peer, scorer=scorer, dtype=np.float64)
    found = refscore.pairwise(EditDistance(measure=measure, unit=unit), [texts], num_threads=2)[0]
    assert np.array_equal(found, expected)
    against = refscore.pairwise(EditDistance(measure=measure, unit=unit), [texts[:5]], [texts[5:9]])[0]
    assert np.array_equal(against, process.cdist(peer[:5], peer[5:9], scorer=scorer, dtype=np.float64))
    # MBR over the item's candidates: each candidate's mean similarity to the others (include_self=False)
    chosen = refscore.mbr([texts[:6]], EditDistance(measure=measure, unit=unit))
    utilities = (expected[:6, :6].sum(1) - np.diag(expected[:6, :6])) / 5
    assert chosen.utilities[0] == pytest.approx(utilities, abs=1e-12)
    assert chosen.chosen[0] == int(np.argmax(utilities))


def test_checks_intervals_paired_tests_and_meta_evaluation(tmp_path):
    check = refscore.testing.Check("edit_distance", threshold=0.8)
    scores, _ = check.scores(["kitten", "abc"], [["sitting"], ["abc"]])
    assert scores.tolist() == [Levenshtein.normalized_similarity("kitten", "sitting"), 1.0]
    assert check.passes(scores).tolist() == [False, True]
    explanation = EditDistance().explain_case("kitten", ["sitting"])
    assert "3 edits" in explanation and "6 and 7 characters" in explanation
    hyps, refs = ["a b", "c d", "e", "kitten"], ["a b", "c x", "f", "sitting"]
    interval = refscore.bootstrap_ci(EditDistance(), hyps, refs, n=40, seed=1).intervals["edit_distance"]
    assert 0.0 <= interval.lower <= interval.score <= interval.upper <= 1.0
    paired = refscore.paired_test(EditDistance(), {"A": hyps, "B": ["x", "y", "z", "w"]}, refs, n=40)
    assert paired.results["edit_distance"][0].score == refscore.edit_distance(hyps, refs).score
    from refscore import meta
    from refscore.meta.inputs import load_judgments

    texts = {"A": ["the cat sat", "a dog ran"], "B": ["the cat", "dog ran"], "C": ["cat sat the", "a dog"]}
    references = ["the cat sat down", "a dog ran off"]
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps({"system": s, "seg_id": i + 1, "hypothesis": h, "reference": references[i],
                                        "mqm": -float(i)}) + "\n" for s, hs in texts.items()
                            for i, h in enumerate(hs)), encoding="utf-8")
    judgments = load_judgments(str(path))
    scores = meta.MetricScores.from_metric(EditDistance(), judgments)
    for row, system in enumerate(judgments.systems):
        assert scores.systems[row] == refscore.edit_distance(texts[system], references).score


def test_command_line_flags(tmp_path, capsys):
    from refscore.cli.main import main

    (tmp_path / "hyp.txt").write_text("the cat sat\nkitten\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat sat down\nsitting\n", encoding="utf-8")
    assert main(["score", "-m", "edit_distance", "--ed-measure", "indel", "--ed-unit", "words", "-r",
                 str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)[0]["scores"]["edit_distance"]
    expected = (Indel.normalized_similarity("the cat sat".split(), "the cat sat down".split()) + 0.0) / 2
    assert record["normalized_similarity"] == expected and record["ratio"] == 100 * expected
    assert "measure:indel|unit:words" in record["signature"]


def test_bad_input_names_the_argument():
    with pytest.raises(InputError, match="measure.*'levenshtein', 'indel'"):
        EditDistance(measure="hamming")
    with pytest.raises(InputTypeError, match="unit"):
        EditDistance(unit=1)
    with pytest.raises(InputTypeError, match=r"hypotheses\[1\]"):
        refscore.edit_distance(["a", None], ["a", "b"])
    with pytest.raises(InputError, match="references"):
        refscore.edit_distance(["a", "b"], ["a"])
    assert refscore.edit_distance(["", ""], ["", "x"]).segments["edit_distance"].tolist() == [1.0, 0.0]
