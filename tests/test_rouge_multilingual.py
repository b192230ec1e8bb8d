"""ROUGE in every language: tokenizer="unicode" (frozen Unicode 14.0.0 classes) and sacreBLEU's ja-mecab,
ko-mecab and SentencePiece tokenizers equal rouge-score given the same tokenizer object (rouge-score's
``RougeScorer(tokenizer=...)``); the Unicode tokenizer's rules, its table, the signature, stemming, the warning of
rouge-score's tokenizer on non-Latin text and the command line.
"""
from __future__ import annotations

import json
import pickle
import sys
import unicodedata
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem import porter

import refscore
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import main
from refscore.errors import InputError, RefscoreWarning
from refscore.metrics.rouge import ROUGE
from refscore.metrics.rouge.words import rouge_tokenizer
from test_rouge import assert_same_as_peer, peer_scores
from test_tokenizers_mecab import needs_ja, needs_ko
from test_tokenizers_spm import needs_spm, sacrebleu_home, trained_model  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parent.parent
TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

HINDI = st.characters(min_codepoint=0x0900, max_codepoint=0x097F)
THAI = st.characters(min_codepoint=0x0E00, max_codepoint=0x0E7F)
KANA = st.characters(min_codepoint=0x3041, max_codepoint=0x30FF)
HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
KANJI = st.sampled_from("日本語文字猫犬好学生先東京大会社人時間年月")
OTHER = st.sampled_from("abcXYZ019 ,.!?「」。、・ー()-'\"\t\u3000\xa0\n\u3099\u0301\u200c\u200d\U0002EBF0ΣΟάé")
WORDS = st.sampled_from(["नमस्ते", "दुनिया", "ภาษาไทย", "สวัสดี", "日本語の", "テキスト", "한국어", "문장입니다",
                         "running", "Cristóbal", "ΟΔΟΣ", " ", " ", "\n", ", "])
TEXT = st.text(st.one_of(HINDI, THAI, KANA, HANGUL, KANJI, OTHER), max_size=30) | st.lists(WORDS, max_size=12).map(
    "".join)
CORPUS = st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(TEXT, min_size=n, max_size=n), st.lists(st.lists(TEXT, min_size=1, max_size=2), min_size=n, max_size=n)))


def assert_equals_rouge_score(tokenizer, predictions, references, **options):
    result = refscore.rouge(predictions, refscore.per_segment(references), TYPES, tokenizer=tokenizer, **options)
    peer_tokenizer = rouge_tokenizer(tokenizer, stemmer=options.get("stemmer", False))
    assert_same_as_peer(result, peer_scores(TYPES, predictions, references, tokenizer=peer_tokenizer), TYPES)


# -- the Unicode tokenizer -------------------------------------------------------------------------------------
_SINGLE = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
           (0xFF66, 0xFF9D), (0x20000, 0x3134F))
needs_unicode_14 = pytest.mark.skipif(unicodedata.unidata_version != "14.0.0",
                                      reason="the reference definition reads Python 3.11's Unicode 14.0.0 database")


class PythonUnicodeTokenizer:
    """The documented rules of tokenizer="unicode", written independently on Python 3.11's unicodedata."""

    def __init__(self, stemmer=False):
        self.stemmer = porter.PorterStemmer() if stemmer else None

    def tokenize(self, text):
        tokens, current, single = [], "", False
        for ch in text:
            category = unicodedata.category(ch)
            if category[0] == "M" or ch in "\u200c\u200d":     # marks extend the token before them
                current += ch if current else ""
                continue
            if current and (category[0] not in "LN" or single or any(lo <= ord(ch) <= hi for lo, hi in _SINGLE)):
                tokens.append(current)
                current = ""
            if category[0] in "LN":
                current += ch
                single = any(lo <= ord(ch) <= hi for lo, hi in _SINGLE)
        tokens += [current] if current else []
        tokens = [token.lower() for token in tokens]
        if self.stemmer:
            tokens = [self.stemmer.stem(t) if t.isascii() and len(t) > 3 else t for t in tokens]
        return tokens


@needs_unicode_14
@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), max_size=5))
def test_unicode_tokenizer_follows_its_definition(texts):
    for stemmer in (False, True):
        for text in texts:
            assert rouge_tokenizer("unicode", stemmer=stemmer).tokenize(text) == \
                PythonUnicodeTokenizer(stemmer).tokenize(text), repr(text)


@pytest.mark.parametrize("text, tokens", [
    ("か\u3099a", ["か\u3099", "a"]),            # a mark extends the kana before it, not the Latin after it
    ("a\u3099b 1\u3099", ["a\u3099b", "1\u3099"]),  # ... or the word before it
    ("\u3099a \u0301", ["a"]),                   # a mark with no letter or digit before it is dropped
    ("日\U0002EBF0本 a\U0002EBF0b", ["日", "本", "a", "b"]),  # unassigned in Unicode 14.0.0: separates
    ("ジョン・スミス", ["ジ", "ョ", "ン", "ス", "ミ", "ス"]),  # U+30FB ・ is punctuation (Po): separates
    ("می\u200cخواهم", ["می\u200cخواهم"]),        # ZWNJ joins inside a word
    ("ΟΔΟΣ Cristóbal नमस्ते", ["οδος", "cristóbal", "नमस्ते"]),  # lowercased by token (final sigma)
])
def test_unicode_tokenizer_decided_classes(text, tokens):
    assert rouge_tokenizer("unicode").tokenize(text) == tokens


@needs_unicode_14
def test_frozen_table_is_what_the_script_generates_from_unicode_14():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_rouge_unicode_words as generator
    finally:
        sys.path.pop(0)
    committed = (ROOT / "src/refscore/text/_unicode_words.py").read_text(encoding="utf-8")
    assert generator.render(generator.class_ranges()) == committed


def test_unicode_tokenizer_reads_no_unicode_database(monkeypatch):
    """The classes come from the frozen table, so Python's own unicodedata version cannot change them."""
    from refscore.metrics.rouge import words
    from refscore.text import rouge_words
    rouge_words._token_pattern.cache_clear()
    monkeypatch.setattr(unicodedata, "category", lambda ch: pytest.fail("unicodedata consulted"))
    assert words.rouge_tokenizer("unicode").tokenize("ไทย ok") == ["ไทย", "ok"]


# -- parity with rouge-score given the same tokenizer object ---------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(CORPUS, st.booleans())
def test_unicode_rouge_equals_rouge_score_with_the_same_tokenizer(corpus, stemmer):
    predictions, references = corpus
    assert_equals_rouge_score("unicode", predictions, references, stemmer=stemmer)


@needs_unicode_14
@settings(max_examples=80, deadline=None)
@given(CORPUS, st.booleans())
def test_unicode_rouge_equals_rouge_score_with_the_python_definition(corpus, stemmer):
    predictions, references = corpus
    result = refscore.rouge(predictions, refscore.per_segment(references), TYPES, tokenizer="unicode", stemmer=stemmer)
    peer = peer_scores(TYPES, predictions, references, tokenizer=PythonUnicodeTokenizer(stemmer))
    assert_same_as_peer(result, peer, TYPES)


@needs_ja
@settings(max_examples=40, deadline=None)
@given(CORPUS)
def test_ja_mecab_rouge_equals_rouge_score_with_the_same_tokenizer(corpus):
    assert_equals_rouge_score("ja-mecab", *corpus)


@needs_ko
@settings(max_examples=40, deadline=None)
@given(CORPUS)
def test_ko_mecab_rouge_equals_rouge_score_with_the_same_tokenizer(corpus):
    assert_equals_rouge_score("ko-mecab", *corpus)


@needs_spm
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CORPUS, st.sampled_from(["spm", "flores200", "spBLEU-1K"]))
def test_spm_rouge_equals_rouge_score_with_the_same_tokenizer(sacrebleu_home, corpus, name):
    assert_equals_rouge_score(name, *corpus)


@needs_spm
def test_spm_model_path_and_signature(tmp_path, monkeypatch, trained_model):
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))
    path = tmp_path / "my.model"
    path.write_bytes(trained_model)
    result = refscore.rouge(["猫が好き"], ["猫が好きです"], ("rouge1",), tokenizer="flores200", spm_model=path)
    assert "tok:flores200" in result.signature and result.score > 0


@needs_ja
def test_ja_mecab_signature_and_a_japanese_score():
    metric = ROUGE(types=("rouge1",), tokenizer="ja-mecab")
    result = metric.corpus_score(["猫が好きです。"], ["犬が好きです。"])
    assert "tok:ja-mecab-0.996-IPA" in result.signature
    assert pickle.loads(pickle.dumps(metric)).corpus_score(["猫が好きです。"], ["犬が好きです。"]) == result
    # 猫|が|好き|です|。 vs 犬|が|好き|です|。
    assert result["rouge1"].precision[0] == 4 / 5 and result["rouge1"].recall[0] == 4 / 5


# -- signature, stemming, the warning --------------------------------------------------------------------------
def test_signature_names_the_tokenizer_and_the_unicode_version():
    assert "tok:rouge-score" in refscore.rouge(["a"], ["a"]).signature
    assert "tok:unicode-14.0.0" in refscore.rouge(["a"], ["a"], tokenizer="unicode").signature


def test_stemming_with_a_sacrebleu_tokenizer_is_refused():
    with pytest.raises(InputError, match=r"stemmer=True.*tokenizer='ko-mecab'.*English-only"):
        ROUGE(tokenizer="ko-mecab", stemmer=True)
    with pytest.raises(InputError, match="tokenizer must be one of"):
        ROUGE(tokenizer="13a")
    with pytest.raises(InputError, match="spm_model"):
        ROUGE(tokenizer="unicode", spm_model="x.model")


def test_identical_hindi_and_thai_score_1_with_unicode_and_warn_once_with_the_default():
    texts = ["नमस्ते दुनिया यह एक परीक्षण है", "สวัสดีชาวโลก นี่คือการทดสอบ"]
    with pytest.warns(RefscoreWarning, match=r"other scripts, 100% of .*tokenizer='unicode'") as caught:
        default = refscore.rouge(texts, texts, ("rouge1", "rougeL"))
    assert len(caught) == 1 and caught[0].filename == __file__
    assert list(default["rouge1"].fmeasure) == [0.0, 0.0]
    assert list(refscore.rouge(texts, texts, ("rouge1",), tokenizer="unicode")["rouge1"].fmeasure) == [1.0, 1.0]


def test_warning_threshold_is_half_the_non_space_characters():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        refscore.rouge(["abcd日本"], ["..."], ("rouge1",))        # 2 of 6 non-space characters dropped
        refscore.rouge(["Cristóbal Colón"], ["x"], ("rouge1",))   # accents: a few letters, no warning
        refscore.rouge(["abc日本語"], ["abc"], ("rouge1",))        # 3 of 6 + 3: one third
    with pytest.warns(RefscoreWarning, match="other scripts, 57% of"):
        refscore.rouge(["abc日本語"], ["日"], ("rouge1",))         # 4 of 7


# -- command line ----------------------------------------------------------------------------------------------
def test_command_line_tokenize_reaches_rouge_and_keeps_bleu(tmp_path, capsys):
    (tmp_path / "hyp.txt").write_text("नमस्ते दुनिया\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("नमस्ते दुनिया\n", encoding="utf-8")

    def run(*args):
        code = main(["score", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--format", "json",
                     *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    code, out, _ = run("-m", "rouge", "--tokenize", "unicode", "--rouge-types", "rouge1")
    rouge = json.loads(out)[0]["scores"]["rouge"]
    assert code == ExitCode.OK and rouge["fmeasure"]["rouge1"] == 100.0 and "tok:unicode-14.0.0" in rouge["signature"]
    code, _, err = run("-m", "rouge,bleu", "--tokenize", "unicode")     # one flag for both: BLEU refuses
    assert code == ExitCode.BAD_INPUT and "bleu" in err and "--tokenize" in err
    code, out, _ = run("-m", "rouge,bleu", "--tokenize", "intl", "--rouge-tokenizer", "unicode")
    scores = json.loads(out)[0]["scores"]
    assert code == ExitCode.OK and "tok:intl" in scores["bleu"]["signature"]
    assert "tok:unicode-14.0.0" in scores["rouge"]["signature"]
    code, _, err = run("-m", "rouge", "--tokenize", "ja-mecab", "--stemmer")
    assert code == ExitCode.BAD_INPUT and "English-only" in err


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab \t\n\x1c\x85\xa0\u3000домé\u0301\u2028日本x1.,", max_size=12), max_size=6))
def test_dropped_share_is_the_share_of_non_ascii_letters_digits_and_marks_among_non_space_characters(texts):
    from refscore.metrics.rouge.words import dropped_share

    def kept_by_unicode(ch):
        return not ch.isascii() and unicodedata.category(ch)[0] in "LNM"

    non_space = sum(not ch.isspace() for text in texts for ch in text)
    dropped = sum(kept_by_unicode(ch) for text in texts for ch in text)
    assert dropped_share(texts) == pytest.approx(dropped / non_space if non_space else 0.0, abs=0, rel=1e-15)


@pytest.mark.parametrize("cyrillic_every, warned", [(1, True), (2, True), (3, False), (50, False)])
def test_large_batches_warn_exactly_when_most_text_is_dropped(cyrillic_every, warned):
    """Batches above the sampling size: periodic orders of two scripts, the sample decides only 'surely not'."""
    from refscore.metrics.rouge.words import DROPPED_SAMPLE, dropped_share, share_if_mostly_dropped

    texts = ["красная площадь в москве" if k % cyrillic_every == 0 else "the red square" for k in
             range(5 * DROPPED_SAMPLE)]
    share = dropped_share(texts)
    assert (share > 0.5) == warned
    assert share_if_mostly_dropped(texts) == (share if warned else None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ROUGE(types=["rouge1"]).corpus_score(texts, texts)
    assert any(issubclass(w.category, RefscoreWarning) for w in caught) == warned
