"""Input validation shared by all metrics: clear errors naming argument, index and fix."""
from __future__ import annotations

import numpy as np
import pytest

import refscore
from refscore.inputs import prepare_batch


def test_per_segment_references_strings_and_lists():
    batch = prepare_batch(["a", "b", "c"], ["x", ["y1", "y2"], ("z",)])
    assert batch.references == ["x", "y1", "y2", "z"]
    assert batch.ref_offsets.tolist() == [0, 1, 3, 4]
    assert batch.nrefs == -1
    assert not batch.is_token_ids


def test_length_mismatch_names_both_counts():
    with pytest.raises(ValueError, match="hypotheses has 2 segments but references has 3"):
        prepare_batch(["a", "b"], ["x", "y", "z"])


def test_streams_passed_as_segments_suggest_from_streams():
    with pytest.raises(ValueError, match=r"reference stream.*from_streams"):
        prepare_batch(["a", "b", "c"], [["x", "y", "z"]])


def test_none_hypothesis_names_index_and_fix():
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is None.*empty string"):
        prepare_batch(["a", None], ["x", "y"])


def test_non_string_reference_names_position():
    with pytest.raises(TypeError, match=r"references\[1\]\[0\] is 3 \(int\)"):
        prepare_batch(["a", "b"], ["x", [3]])


def test_single_string_instead_of_list():
    with pytest.raises(TypeError, match="wrap it in a list"):
        prepare_batch("a cat", ["x"])


def test_empty_corpus_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        prepare_batch([], [])


def test_empty_reference_list_for_a_segment():
    with pytest.raises(ValueError, match=r"references\[0\] is an empty list"):
        prepare_batch(["a"], [[]])


def test_empty_strings_are_valid():
    batch = prepare_batch([""], [""])
    assert batch.hypotheses == [""] and batch.references == [""]


def test_token_ids_lists_and_arrays():
    batch = prepare_batch([[1, 2, 3], np.array([4, 5])], [[1, 2], [[4], [5, 6]]])
    assert batch.is_token_ids
    assert [r.tolist() for r in batch.references] == [[1, 2], [4], [5, 6]]
    assert batch.ref_offsets.tolist() == [0, 1, 3]
    assert all(h.dtype == np.int64 for h in batch.hypotheses)


def test_mixed_token_ids_and_text_is_an_error():
    with pytest.raises(TypeError, match=r"hypotheses\[1\].*token ids"):
        prepare_batch([[1, 2], "text"], [[1], [2]])


def test_token_ids_refused_where_text_only():
    with pytest.raises(TypeError, match="text only"):
        prepare_batch([[1, 2]], [[1]], allow_token_ids=False)


def test_from_streams_transposes_and_drops_none():
    assert refscore.from_streams([["a", "b"], ["c", None]]) == [["a", "c"], ["b"]]


def test_from_streams_checks_lengths_and_types():
    with pytest.raises(ValueError, match="different lengths"):
        refscore.from_streams([["a", "b"], ["c"]])
    with pytest.raises(TypeError, match="is a string"):
        refscore.from_streams(["a b", "c d"])


@pytest.mark.parametrize("hypotheses, references", [
    (["a b", "", "c"], ["x", ["y", "z"], ("w",)]),
    (("a",), ("b",)),
])
def test_compiled_text_layout_equals_python_validation(hypotheses, references):
    from refscore._core._batch import text_batch_layout
    from refscore.inputs import check_hypotheses, check_references

    hyps, refs, ref_offsets = text_batch_layout(hypotheses, references)
    expected_hyps, _ = check_hypotheses(hypotheses)
    expected_refs, expected_offsets = check_references(references, len(expected_hyps), token_ids=False)
    assert hyps == expected_hyps and refs == expected_refs
    np.testing.assert_array_equal(ref_offsets, expected_offsets)


@pytest.mark.parametrize("hypotheses, references", [
    ([], []), (["a"], ["b", "c"]), (["a", None], ["b", "c"]), (["a"], [[]]), (["a"], [["b", 3]]),
    (["a"], [None]), ("ab", ["a", "b"]), ([[1, 2]], [[1, 2]]), (["a"], [{"b"}]),
])
def test_compiled_text_layout_leaves_everything_else_to_python(hypotheses, references):
    from refscore._core._batch import text_batch_layout

    assert text_batch_layout(hypotheses, references) is None
