"""References that read two ways (per segment / sacreBLEU streams) are refused, never scored silently; a dict, set
or str in place of the list of hypotheses or references is an error. Every metric's public function is covered."""
from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

import refscore
from refscore.inputs import check_unambiguous, prepare_batch
from refscore.errors import InputError, InputTypeError

HYPS = ["The cat sat on the mat.", "A dog ran in the park today."]
# Two reference streams of two segments each: sacreBLEU's refs[k][i].
STREAMS = [["The cat sat on the mat.", "A dog ran in the park."],
           ["A cat sat on the mat.", "The dog ran in the park today."]]


def _bertscore(hyps, refs):
    from bertscore_helpers import minilm_path

    return refscore.bertscore(hyps, refs, model_type=minilm_path(), num_layers=6)


def _rouge155(hyps, refs):
    return refscore.rouge155(hyps, refs, types=["ROUGE-1"])


#: Every public scoring function, called with its defaults.
SCORERS = {
    "bleu": refscore.bleu, "gleu": refscore.gleu, "chrf": refscore.chrf, "ter": refscore.ter,
    "rouge": refscore.rouge, "rouge155": _rouge155,
    "rouge_flavor_rouge155": lambda h, r: refscore.rouge(h, r, flavor="rouge155"),
    "bertscore": _bertscore,
}
#: Functions that need no model (cheap enough for the type checks below).
TEXT_SCORERS = {name: fn for name, fn in SCORERS.items() if name != "bertscore"}


@pytest.mark.parametrize("name", SCORERS)
def test_square_streams_are_refused_with_both_readings_and_the_fix(name):
    with pytest.raises(InputError) as info:
        SCORERS[name](HYPS, STREAMS)
    message = str(info.value)
    assert "read two ways" in message
    assert "refscore.from_streams(references)" in message and "refscore.per_segment(references)" in message
    # both readings are shown: segment 0 per segment, and segment 0 as streams
    assert "['The cat sat on the mat.', 'A dog ran in the park.']" in message
    assert "['The cat sat on the mat.', 'A cat sat on the mat.']" in message


@pytest.mark.parametrize("metric, peer", [
    (refscore.bleu, lambda h, r: sacrebleu.corpus_bleu(h, r).score),
    (refscore.chrf, lambda h, r: sacrebleu.corpus_chrf(h, r).score),
    (refscore.ter, lambda h, r: sacrebleu.corpus_ter(h, r).score),
])
def test_from_streams_equals_sacrebleu_and_per_segment_is_the_other_reading(metric, peer):
    assert 100 * metric(HYPS, refscore.from_streams(STREAMS)).score == pytest.approx(peer(HYPS, STREAMS), abs=1e-9)
    transposed = [list(row) for row in zip(*STREAMS)]  # the per-segment reading, as sacreBLEU streams
    assert 100 * metric(HYPS, refscore.per_segment(STREAMS)).score == pytest.approx(peer(HYPS, transposed),
                                                                                   abs=1e-9)


@pytest.mark.parametrize("references", [
    [["a"], ["b", "c"], ["d", "e", "f"]],          # varying counts
    [["a", "b"], ["c", "d"], ["e", "f"]],          # a constant count other than the number of segments
    ["a", ["b", "c"]],                              # a string and a list of two
    [["a", "b", "c"], ["d", "e", "f"], "g"],        # two segments square, one a string
    [["x"]],                                        # one segment, one reference: both readings are the same
    [["a", "b"], ["b", "c"]],                       # symmetric square: both readings give the same references
])
def test_unambiguous_per_segment_input_is_never_refused(references):
    hyps = ["h"] * len(references)
    batch = prepare_batch(hyps, references)
    assert len(batch) == len(references)
    refscore.bleu(hyps, references)


def test_square_token_ids_are_refused_and_single_token_sequences_are_not():
    with pytest.raises(InputError, match="read two ways"):
        prepare_batch([[1, 2], [3, 4]], [[[1, 2], [5]], [[3, 4], [6]]])
    prepare_batch([[1, 2], [3, 4]], [[1, 2], [3, 4]])                      # one token-id reference per segment
    prepare_batch([[1, 2], [3, 4]], refscore.per_segment([[[1, 2], [5]], [[3, 4], [6]]]))


def test_marks_survive_slicing_and_the_check_is_o1_for_non_square_offsets():
    marked = refscore.from_streams([["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]])
    prepare_batch(["x", "y"], marked[:2])  # a 2x3 slice of a marked 3x3 layout; marked[1:3][0] is a list
    prepare_batch(["x", "y", "z"], marked)
    check_unambiguous([], np.array([0, 1, 3]))  # counts differ: returns before looking at the references


def test_per_segment_of_a_non_sequence_is_left_to_the_metric():
    with pytest.raises(InputTypeError, match="references must be a list"):
        refscore.bleu(["a"], refscore.per_segment({"a": "b"}))


@pytest.mark.parametrize("name", TEXT_SCORERS)
@pytest.mark.parametrize("argument", ["hypotheses", "references"])
@pytest.mark.parametrize("bad, fix", [({"s1": "a b", "s2": "c d"}, r"\.values\(\)"), ({"a b", "c d"}, "no order"),
                                      ("a b", r"wrap it in a list")])
def test_dict_set_or_str_in_place_of_a_list_is_an_error(name, argument, bad, fix):
    good = ["a b", "c d"]
    hyps, refs = (bad, good) if argument == "hypotheses" else (good, bad)
    with pytest.raises(InputTypeError, match=fix):
        TEXT_SCORERS[name](hyps, refs)


# -- issue 18 item 12: switching the ROUGE flavor works with the defaults ------------------------------------------
SUMMARIES = ["the cat sat on the mat\nit was happy", "a dog barked at night", ""]
MODELS = [["the cat was on the mat\nhappy it was", "a cat sat"], "the dog barked", "nothing here"]


def test_rouge_flavor_rouge155_defaults_equal_rouge155_called_directly():
    result = refscore.rouge(SUMMARIES, MODELS, flavor="rouge155")
    direct = refscore.rouge155(SUMMARIES, MODELS)
    assert list(result) == ["ROUGE-1", "ROUGE-2", "ROUGE-L"] == list(direct)
    for name in direct:
        for component in ("precision", "recall", "fmeasure"):
            np.testing.assert_array_equal(getattr(result[name], component), getattr(direct[name], component))


def test_rouge_default_types_are_the_rouge_score_flavor_defaults():
    assert list(refscore.rouge(SUMMARIES, MODELS)) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def test_rouge_lsum_named_explicitly_for_rouge155_points_to_rouge_l():
    with pytest.raises(InputError, match="ROUGE-L is already summary-level"):
        refscore.rouge(SUMMARIES, MODELS, types=["rougeLsum"], flavor="rouge155")
