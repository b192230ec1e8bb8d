"""SentencePiece tokenizers (``flores101``/``spm``, ``flores200``, ``spBLEU-1K``): token for token and BLEU equal
to sacreBLEU 2.6, both loading one model trained here on bundled text and placed where sacreBLEU looks for it;
model lookup and the error when the model is missing. Skipped, naming the extra, without sentencepiece.
"""
from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers import tokenizer_spm as sacrebleu_spm

import refscore
from refscore.errors import MissingExtraError, MissingModelError
from refscore.text.external import SPM_MODELS, SentencePieceTokenizer, get_tokenizer, tokenize_texts
from _tokenizer_peer import MIXED_TEXT, assert_bleu_equal, sacrebleu_tokens

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
needs_spm = pytest.mark.skipif(importlib.util.find_spec("sentencepiece") is None,
                               reason="needs the 'spm' extra: pip install 'refscore[spm]' (sentencepiece)")

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"


@pytest.fixture(scope="module")
def trained_model() -> bytes:
    """The small SentencePiece model the fuzz targets train (bundled WMT17 example plus Japanese and Korean lines):
    one trainer for both."""
    pytest.importorskip("sentencepiece", reason="needs the 'spm' extra: pip install 'refscore[spm]'")
    sys.path.insert(0, str(FUZZ))
    try:
        from spm_targets import trained_model as train
    finally:
        sys.path.remove(str(FUZZ))
    return train()


@pytest.fixture
def sacrebleu_home(tmp_path, monkeypatch, trained_model):
    """``$SACREBLEU`` pointing at a fresh directory whose ``models/`` holds the trained model under every file
    name sacreBLEU uses (sacreBLEU read ``$SACREBLEU`` when it was imported, so its copy is pointed there too)."""
    models = tmp_path / "models"
    models.mkdir()
    for model in SPM_MODELS.values():
        (models / model.file_name).write_bytes(trained_model)
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.setattr(sacrebleu_spm, "SACREBLEU_DIR", str(tmp_path))
    return tmp_path


@needs_spm
@pytest.mark.parametrize("name", sorted(SPM_MODELS))
def test_signature_and_tokens_of_every_model_name(sacrebleu_home, name):
    texts = ["Der Hund ist sehr schön.  ", "猫が好きです。", "", "안녕하세요 세계"]
    assert tokenize_texts(name, texts, lowercase=True) == sacrebleu_tokens(name, texts, lowercase=True)
    assert_bleu_equal(texts, [texts[::-1]], tokenize=name)     # the signature: tok:flores101 for spm
    assert get_tokenizer(name).signature() == SPM_MODELS[name].signature


# The fixture is function scoped but its files never change between examples.
@needs_spm
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(MIXED_TEXT, min_size=1, max_size=6), st.booleans(), st.integers(1, 3))
def test_flores200_tokens_and_bleu_equal_sacrebleu_on_random_text(sacrebleu_home, texts, lowercase, num_threads):
    assert (tokenize_texts("flores200", texts, lowercase=lowercase, num_threads=num_threads)
            == sacrebleu_tokens("flores200", texts, lowercase))
    assert_bleu_equal(texts, [texts[::-1]], tokenize="flores200", lowercase=lowercase)


@needs_spm
def test_model_at_a_given_path(tmp_path, monkeypatch, trained_model):
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))
    path = tmp_path / "my.model"
    path.write_bytes(trained_model)
    ours = refscore.bleu(["猫が好きです。"], ["猫が好き。"], tokenize="flores200", spm_model=str(path))
    assert "tok:flores200" in ours.signature
    assert SentencePieceTokenizer("flores200", path)("猫が好きです。") == \
        tokenize_texts("flores200", ["猫が好きです。"], spm_model=path)[0]


@needs_spm
def test_missing_model_names_file_place_and_url(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    expected = tmp_path / "models" / "flores200sacrebleuspm"
    with pytest.raises(MissingModelError) as info:
        refscore.bleu(["a"], ["a"], tokenize="flores200")
    message = str(info.value)
    assert str(expected) in message and "https://tinyurl.com/flores200sacrebleuspm" in message
    assert "'flores200sacrebleuspm'" in message and isinstance(info.value, FileNotFoundError)
    with pytest.raises(MissingModelError, match="given spm_model path"):
        refscore.bleu(["a"], ["a"], tokenize="spBLEU-1K", spm_model=str(tmp_path / "nothing.model"))


def test_spm_model_only_with_a_sentencepiece_tokenizer():
    with pytest.raises(refscore.errors.InputError, match="spm_model applies to the SentencePiece tokenizers"):
        refscore.BLEU(tokenize="13a", spm_model="x.model")


def test_missing_sentencepiece_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'refscore\[spm\]'"):
        SentencePieceTokenizer("flores101", tmp_path / "unused.model")


@needs_spm
def test_cli_tokenize_and_spm_model(tmp_path, trained_model):
    from refscore.cli.main import main
    model, hyp, ref = tmp_path / "m.model", tmp_path / "hyp.txt", tmp_path / "ref.txt"
    model.write_bytes(trained_model)
    hyp.write_text("猫が好きです。\n", encoding="utf-8")
    ref.write_text("猫が好き。\n", encoding="utf-8")
    assert main(["score", "-m", "bleu", "-i", str(hyp), "-r", str(ref), "--tokenize", "flores200",
                 "--spm-model", str(model)]) == 0


@needs_spm
@pytest.mark.parametrize("class_name, args", [("TokenizerSPM", ()), ("TokenizerSPM", ("flores200",)),
                                              ("Flores101Tokenizer", ()), ("Flores200Tokenizer", ()),
                                              ("spBLEU1KTokenizer", ())])
def test_sacrebleu_drop_in_classes_give_sacrebleus_pieces_and_signature(sacrebleu_home, class_name, args):
    """``refscore.compat.sacrebleu.tokenizers.tokenizer_spm``: sacreBLEU's classes, line by line, with ``name``,
    ``signature()``, ``SPM_MODELS`` and, for ``spm``, sacreBLEU's warning about the old name."""
    from refscore.compat.sacrebleu.tokenizers import tokenizer_spm as compat_spm
    ours, peer = getattr(compat_spm, class_name)(*args), getattr(sacrebleu_spm, class_name)(*args)
    lines = ["Der Hund ist sehr schön.  ", " 猫が好きです。", "", "안녕하세요 세계\n"]
    assert [ours(line) for line in lines] == [peer(line) for line in lines]
    assert (ours.name, ours.signature()) == (peer.name, peer.signature())
    assert compat_spm.SPM_MODELS == sacrebleu_spm.SPM_MODELS


@needs_spm
def test_sacrebleu_drop_in_spm_warns_about_the_old_name(sacrebleu_home, caplog):
    from refscore.compat import sacrebleu as compat
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        metric = compat.BLEU(tokenize="spm")
    assert "Tokenizer 'spm' has been changed to 'flores101'" in caplog.text
    assert metric.tokenizer.signature() == "flores101"


@needs_spm
def test_sacrebleu_drop_in_class_names_the_missing_model(tmp_path, monkeypatch):
    from refscore.compat.sacrebleu.tokenizers.tokenizer_spm import Flores200Tokenizer
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(MissingModelError, match="flores200sacrebleuspm"):
        Flores200Tokenizer()
