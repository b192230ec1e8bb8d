"""A local model directory whose path contains "t5" loads as the model its configuration says (bert-score's rule
would build a T5 encoder from a BERT configuration and fail)."""
from __future__ import annotations

import shutil

import pytest

from bertscore_helpers import CORPUS, build_tiny_bert

pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402


def test_a_bert_directory_named_like_t5_loads_as_bert(tmp_path):
    plain = build_tiny_bert(tmp_path / "tiny_bert")
    named_t5 = tmp_path / "tiny_bert5"
    shutil.copytree(plain, named_t5)
    hyps, refs = CORPUS[:3], CORPUS[3:6]
    expected = refscore.BERTScorer(str(plain), 2, device="cpu").score(hyps, refs)
    got = refscore.BERTScorer(str(named_t5), 2, device="cpu").score(hyps, refs)
    assert [list(map(float, x)) for x in got] == [list(map(float, x)) for x in expected]
