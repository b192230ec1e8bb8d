"""Fuzz targets of the SentencePiece tokenizers (``flores101``/``spm``, ``flores200``, ``spBLEU-1K``) and their
guards (refscore.text._spm), registered in :data:`targets.TARGETS`.

No sacreBLEU model can be downloaded here, so the harness trains a small unigram model once per process
(SentencePiece's trainer on the bundled WMT17 example plus Japanese and Korean lines) and places it where sacreBLEU
looks for every SPM model (``$SACREBLEU/models``), so refscore and sacreBLEU load the same file:

* ``tokenize-spm``: refscore's tokens of fuzzed lines (lowercase drawn, model name drawn) equal sacreBLEU's
  ``TokenizerSPM`` on the same file, with 1 and 3 threads; BLEU's counts equal sacreBLEU's BLEU with that tokenizer.
* ``spm-model``: the trained model with fuzzer-chosen bytes overwritten (or fuzzer bytes alone) as the model file:
  either refscore refuses it with its ``InputError`` naming the file, or it loads and tokenizes exactly as
  SentencePiece itself does with that file. Never another exception (a crash inside SentencePiece on a model it
  accepted would be SentencePiece's, reported as a finding).
"""
from __future__ import annotations

import functools
import io
import os
import tempfile
from importlib import resources
from pathlib import Path

from refscore.errors import InputError

#: Japanese and Korean training lines (the bundled WMT17 example is English and German).
CJK_LINES = ["猫が好きです。", "東京は日本の首都です。", "今日はいい天気ですね。", "안녕하세요, 세계.", "저는 학생입니다."]
NAMES = ("spm", "flores101", "flores200", "spBLEU-1K")


@functools.lru_cache(maxsize=1)
def trained_model() -> bytes:
    """A 400-piece unigram model, trained once per process."""
    import sentencepiece

    data = resources.files("refscore") / "data" / "wmt17_en_de"
    lines = [line for name in ("ref.txt", "uedin-nmt.txt")
             for line in (data / name).read_text(encoding="utf-8").splitlines()[:300]]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter(lines + CJK_LINES * 20), model_writer=model,
                                             vocab_size=400, character_coverage=1.0, minloglevel=2)
    return model.getvalue()


@functools.lru_cache(maxsize=1)
def sacrebleu_home() -> Path:
    """A ``$SACREBLEU`` folder whose ``models/`` holds the trained model under every SPM file name, set for refscore
    (the environment variable) and for sacreBLEU (which read it at import)."""
    import logging

    from sacrebleu.tokenizers import tokenizer_spm

    from refscore.text.external import SPM_MODELS

    home = Path(tempfile.mkdtemp(prefix="refscore-fuzz-spm-"))
    (home / "models").mkdir()
    for model in SPM_MODELS.values():
        (home / "models" / model.file_name).write_bytes(trained_model())
    os.environ["SACREBLEU"] = str(home)
    tokenizer_spm.SACREBLEU_DIR = str(home)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)   # its warning that 'spm' is now 'flores101'
    return home


@functools.lru_cache(maxsize=None)
def _sacrebleu_tokenizer(name: str):
    from sacrebleu.tokenizers.tokenizer_spm import TokenizerSPM

    sacrebleu_home()
    return TokenizerSPM(name)


def tokenize_spm(data: bytes) -> None:
    from targets import _corpus, _sacrebleu_bleu, _source

    import refscore
    from refscore.text.external import tokenize_texts

    sacrebleu_home()
    source = _source(data)
    name, lowercase = source.choice(NAMES), bool(source.integer(0, 1))
    texts = source.texts(4, 60)
    peer = [_sacrebleu_tokenizer(name)((text.lower() if lowercase else text).rstrip()) for text in texts]
    for threads in (1, 3):
        ours = tokenize_texts(name, texts, lowercase=lowercase, num_threads=threads)
        assert ours == peer, (name, lowercase, texts, ours, peer, threads)
    hypotheses, references = _corpus(source, 3, 30)
    totals = refscore.BLEU(tokenize=name).statistics(hypotheses, refscore.from_streams(references)).totals()
    expected = _sacrebleu_bleu(name, False).corpus_score(hypotheses, references)
    assert list(totals[2:6]) == expected.counts and list(totals[6:10]) == expected.totals, (hypotheses, references)


def spm_model(data: bytes) -> None:
    import sentencepiece

    from targets import _source

    from refscore.text.external import SentencePieceTokenizer

    source = _source(data)
    if source.integer(0, 7) == 0:
        content = data
    else:
        content = bytearray(trained_model())
        for _ in range(source.integer(1, 8)):
            content[source.integer(0, len(content) - 1)] = source.integer(0, 255)
        content = bytes(content)
    texts = source.texts(3, 40)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzzed.model")
        with open(path, "wb") as file:
            file.write(content)
        try:
            tokenizer = SentencePieceTokenizer("flores200", path)
        except InputError as error:
            assert path in str(error), error
            return
        processor = sentencepiece.SentencePieceProcessor()
        processor.Load(path)
        expected = [" ".join(processor.EncodeAsPieces(text)) for text in texts]
        assert tokenizer.tokenize_many(texts, 1) == expected, (texts, expected)


SPM_TARGETS = {"tokenize-spm": tokenize_spm, "spm-model": spm_model}
