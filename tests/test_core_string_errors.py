"""Every compiled binding that reads Python strings names the argument and the index of an item that is not a str,
in one message shape (``_strings.pxd``'s ``point_at_named_strings``), never reading it as text."""
from __future__ import annotations

import numpy as np
import pytest

from refscore._core import _levenshtein, _rouge, _rouge155_text, _ter


@pytest.mark.parametrize("call, message", [
    (lambda: _ter.ter_text(["a", 3], ["a", "b"], np.array([0, 1, 2]), 0, False),
     "ter_text: hypotheses[1] is int, expected str"),
    (lambda: _ter.ter_text(["a", "b"], ["a", b"b"], np.array([0, 1, 2]), 0, False),
     "ter_text: references[1] is bytes, expected str"),
    (lambda: _levenshtein.distance_text(["a", 2.0], ["a", "b"]), "distance_text: references[1] is float, expected str"),
    (lambda: _levenshtein.distance_text(["a", "b"], [None, "b"]),
     "distance_text: hypotheses[0] is NoneType, expected str"),
    (lambda: _rouge.tokenize_texts(["a", 5], False), "texts[1] is int, expected str"),
])
def test_an_item_that_is_not_a_str_is_named(call, message):
    with pytest.raises(TypeError) as error:
        call()
    assert str(error.value) == message


def test_rouge155_texts_name_the_item():
    with pytest.raises(TypeError) as error:
        _rouge155_text.ScriptText([], {}).tokenize(["a", 1], False, False, False)
    assert str(error.value) == "texts[1] is int, expected str"
