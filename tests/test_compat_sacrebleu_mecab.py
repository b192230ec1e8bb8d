"""The sacreBLEU drop-in's MeCab tokenizer modules (``tokenizer_ja_mecab``, ``tokenizer_ko_mecab``), built on one
shared base in ``tokenizers._external``: their install hints are sacreBLEU's, naming refscore's extra."""
from __future__ import annotations

import doctest
import importlib

import pytest

from refscore.compat.sacrebleu.tokenizers import _external


def test_doctests() -> None:
    failures, attempted = doctest.testmod(_external)
    assert attempted and not failures


@pytest.mark.parametrize(("module", "extra"), [("tokenizer_ja_mecab", "ja"), ("tokenizer_ko_mecab", "ko")])
def test_fail_message_is_sacrebleus_with_refscores_extra(module: str, extra: str) -> None:
    ours = importlib.import_module(f"refscore.compat.sacrebleu.tokenizers.{module}")
    peer = importlib.import_module(f"sacrebleu.tokenizers.{module}")  # imports without MeCab installed
    assert ours.FAIL_MESSAGE == peer.FAIL_MESSAGE.replace(f"sacrebleu[{extra}]", f"'refscore[{extra}]'")
