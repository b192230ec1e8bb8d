"""refscore.text's tokenizer registry: every name sacreBLEU accepts, each giving sacreBLEU's tokens exactly."""
from __future__ import annotations

import importlib

import pytest
from sacrebleu.metrics.bleu import _TOKENIZERS as SACREBLEU_TOKENIZERS

import refscore.text
from refscore.errors import InputError, InputTypeError
from refscore.metrics.word_batch import WORD_TOKENIZERS
from conftest import read_segments, shared_data_path

EDGE_LINES = ["", " ", "a  b ", "Hello, world!", "Mr. Smith's 3.5% (approx.) - \"quoted\" & <b>x</b>",
              "中文，字符。English 12,345.6", "ﬁne ½ – é\u0301 \u00a0nbsp", "tab\tand\nnewline"]


def sacrebleu_tokenizer(name: str):
    module, class_name = SACREBLEU_TOKENIZERS[name].rsplit(".", 1)
    return getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), class_name)()


def test_the_registry_names_every_sacrebleu_tokenizer():
    assert set(refscore.text.tokenizers("sacrebleu")) == set(SACREBLEU_TOKENIZERS)
    assert set(WORD_TOKENIZERS) < set(refscore.text.tokenizers("sacrebleu"))


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_compiled_tokenizers_match_sacrebleu(name):
    lines = EDGE_LINES + read_segments(shared_data_path("wmt22", "en-de", "ref.txt"))[:150] \
        + read_segments(shared_data_path("wmt22", "en-ja", "ref.txt"))[:50]
    ours, theirs = refscore.text.get_tokenizer(name), sacrebleu_tokenizer(name)
    for index, line in enumerate(lines):
        assert ours(line) == theirs(line).split(), (name, index, line)


@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab", "flores101"])
def test_external_tokenizers_match_sacrebleu(name):
    try:
        theirs = sacrebleu_tokenizer(name)
        ours = refscore.text.get_tokenizer(name)
    except Exception as error:   # the extra (MeCab dictionaries, SentencePiece and its model) is not installed
        pytest.skip(f"{name}: {error}")
    lines = ["", "これはペンです。", "안녕하세요, 세계!", "Hello, world!"]
    assert [ours(line) for line in lines] == [theirs(line).split() for line in lines]


def test_bad_names_and_lines_are_clear_errors():
    with pytest.raises(InputError, match="unknown tokenize '13b'.*'13a'"):
        refscore.text.get_tokenizer("13b")
    with pytest.raises(InputTypeError, match="must be a str, got int"):
        refscore.text.get_tokenizer("13a")(3)
