"""refscore.text's one tokenizer registry: ROUGE's, METEOR's and Hugging Face's tokenizers are there beside
sacreBLEU's (tests/test_text_tokenizers.py checks those against sacreBLEU), each giving exactly its peer's tokens,
and the metrics take their tokenizer from it."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import word_tokenize as nltk_word_tokenize
from rouge_score.tokenizers import DefaultTokenizer
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore.text
from refscore.errors import InputError, InputTypeError
from refscore.text import tokenizer_registry
from conftest import read_segments, shared_data_path

EDGE_LINES = ["", " ", "a  b ", "Hello, world!", "Mr. Smith's 3.5% (approx.) - \"quoted\" & <b>x</b>",
              "中文，字符。English 12,345.6", "ﬁne ½ – é\u0301 \u00a0nbsp", "tab\tand\nnewline",
              "end of line-\n", "They'll pay $3.88 (roughly), won't they?", "Running RUNS generalizations"]


def lines() -> list[str]:
    return EDGE_LINES + read_segments(shared_data_path("wmt22", "en-de", "ref.txt"))[:100]


def test_families_partition_the_registry():
    names = refscore.text.tokenizers()
    assert names[:5] == ("13a", "intl", "zh", "char", "none")
    assert sum((refscore.text.tokenizers(family) for family in tokenizer_registry.FAMILIES), ()) == names
    assert refscore.text.tokenizers("rouge") == ("rouge-score", "unicode")
    assert refscore.text.tokenizers("nltk") == ("whitespace", "word_tokenize")
    assert refscore.text.tokenizers("huggingface") == ("13a-unstripped",)


@pytest.mark.parametrize("stemmer", [False, True])
def test_rouge_score_is_rouge_scores_default_tokenizer(stemmer):
    ours, theirs = refscore.text.get_tokenizer("rouge-score", stemmer=stemmer), DefaultTokenizer(stemmer)
    assert [ours(line) for line in lines()] == [theirs.tokenize(line) for line in lines()]


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=40), st.booleans())
def test_rouge_score_on_any_text(text, stemmer):
    assert refscore.text.get_tokenizer("rouge-score", stemmer=stemmer)(text) == DefaultTokenizer(stemmer).tokenize(text)


@pytest.mark.parametrize("stemmer", [False, True])
def test_unicode_is_what_rouge_counts(stemmer):
    from refscore.metrics.rouge.words import rouge_tokenizer

    ours = refscore.text.get_tokenizer("unicode", stemmer=stemmer)
    rouges = rouge_tokenizer("unicode", stemmer=stemmer)
    assert [ours(line) for line in lines()] == [rouges.tokenize(line) for line in lines()]
    assert ours("Grüße, 世界 running") == ["grüße", "世", "界", "run" if stemmer else "running"]


def test_nltk_family_is_what_meteor_gets():
    whitespace, word_tokenize = (refscore.text.get_tokenizer(name) for name in ("whitespace", "word_tokenize"))
    assert [whitespace(line) for line in lines()] == [line.split() for line in lines()]
    assert [word_tokenize(line) for line in lines()] == [nltk_word_tokenize(line, preserve_line=True)
                                                         for line in lines()]


def test_13a_unstripped_is_the_13a_class_on_the_line_as_given():
    """Hugging Face's bleu/google_bleu scripts copy sacreBLEU's Tokenizer13a and call it on the line as given;
    sacreBLEU's BLEU strips trailing whitespace first ("13a"), which joins "line-\\n" differently."""
    ours, theirs = refscore.text.get_tokenizer("13a-unstripped"), Tokenizer13a()
    assert [ours(line) for line in lines()] == [theirs(line).split() for line in lines()]
    assert ours("end of line-\n") != refscore.text.get_tokenizer("13a")("end of line-\n")


def test_metrics_take_their_tokenizer_from_the_registry(monkeypatch):
    from refscore.metrics.meteor.metric import METEORConfig
    from refscore.metrics.rouge.config import TOKENIZERS as ROUGE_TOKENIZERS
    from refscore.metrics.rouge.words import rouge_tokenizer

    assert ROUGE_TOKENIZERS[:2] == refscore.text.tokenizers("rouge")
    assert METEORConfig(tokenize="word_tokenize").tokenize == "word_tokenize"
    shouting = tokenizer_registry.TokenizerEntry("rouge", True, lambda stemmer, spm_model: "shouting")
    monkeypatch.setitem(tokenizer_registry._REGISTRY, "unicode", shouting)
    assert rouge_tokenizer("unicode") == "shouting"


def test_meteor_scores_the_registrys_tokens(monkeypatch):
    pytest.importorskip("nltk")
    from refscore.metrics.meteor import METEOR
    from refscore.errors import MissingModelError

    try:
        before = METEOR().sentence_score("a b", ["c d"]).score
    except MissingModelError as error:   # WordNet's Debian packages are not installed
        pytest.skip(str(error))
    same = tokenizer_registry.TokenizerEntry("nltk", False, lambda stemmer, spm_model: lambda text: ["same"])
    monkeypatch.setitem(tokenizer_registry._REGISTRY, "whitespace", same)
    assert before == 0.0 and METEOR().sentence_score("a b", ["c d"]).score > 0.0


def test_unknown_names_and_bad_options_are_clear_errors():
    with pytest.raises(InputError, match="unknown tokenize 'rouge'.*'rouge-score', 'unicode', 'whitespace'"):
        refscore.text.get_tokenizer("rouge")
    with pytest.raises(InputError, match="unknown family 'bleu'.*'sacrebleu', 'huggingface', 'rouge', 'nltk'"):
        refscore.text.tokenizers("bleu")
    with pytest.raises(InputError, match="stemmer=True cannot be used with 'word_tokenize'.*'rouge-score', 'unicode'"):
        refscore.text.get_tokenizer("word_tokenize", stemmer=True)
    with pytest.raises(InputError, match="unknown tokenizer 'unicode'.*'13a'"):
        refscore.text.interned_words(["a"], "unicode")
    for name in ("13a-unstripped", "rouge-score", "whitespace", "word_tokenize"):
        with pytest.raises(InputTypeError, match=f"tokenizer '{name}': the line to tokenize must be a str, got int"):
            refscore.text.get_tokenizer(name)(3)


def test_interned_words_are_the_registrys_words():
    texts = lines()[:40]
    for tokenizer, lowercase in (("13a", False), ("intl", True), ("char", False)):
        ids, offsets, vocabulary = refscore.text.interned_words(texts, tokenizer, lowercase=lowercase)
        words = [vocabulary[k] for k in ids.tolist()]
        tokenize = refscore.text.get_tokenizer(tokenizer)
        assert [words[offsets[i]:offsets[i + 1]] for i in range(len(texts))] == \
            [tokenize(text.lower() if lowercase else text) for text in texts]


@pytest.mark.parametrize("module", ["refscore.text", "refscore.text.tokenizer_registry", "refscore.text.rouge_words",
                                    "refscore.text.word_tokenize", "refscore.metrics.rouge.words",
                                    "refscore.metrics.rouge.tokenize", "refscore.metrics.word_batch"])
def test_docstring_examples(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted > 0 and failures == 0
