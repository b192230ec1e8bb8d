"""Build a random-weight unbabel-comet checkpoint and record unbabel-comet's own scores (run INSIDE the comet venv).

    python make_checkpoint.py OUT_DIR [CASES_JSON] [--family regression regression-softmax referenceless]
                              [--hidden 32 --layers 2 --heads 4 --estimator 48 16] [--predict-only]

Writes, for each family, ``OUT_DIR/FAMILY/encoder/`` (a tiny XLM-R config and a SentencePiece tokenizer trained here, saved as an
XLMRobertaTokenizerFast folder), ``OUT_DIR/FAMILY/checkpoints/model.ckpt`` and ``OUT_DIR/FAMILY/hparams.yaml`` (the layout
``comet.load_from_checkpoint`` reads: a Lightning checkpoint dict with ``state_dict`` and ``hyper_parameters``,
written with torch.save, no Trainer), then loads the checkpoint back with ``comet.load_from_checkpoint`` and writes
``OUT_DIR/FAMILY/scores.json``: ``{"batch_size": [per-segment scores]}`` of ``model.predict(samples, gpus=0)`` for each
batch size in the cases file. The cases file is ``{"samples": [{"src", "mt", "ref"}...], "batch_sizes": [...]}``.

No network: the encoder is built from its config (``load_pretrained_weights=False``) and the tokenizer is local.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

#: wmt22-comet-da's hparams (Unbabel/wmt22-comet-da hparams.yaml), the pretrained model aside.
WMT22_DA = {
    "activations": "Tanh", "batch_size": 16, "class_identifier": "regression_metric", "dropout": 0.1,
    "encoder_learning_rate": 1.0e-06, "encoder_model": "XLM-RoBERTa", "final_activation": None,
    "hidden_sizes": [3072, 1024], "keep_embeddings_frozen": True, "layer": "mix", "layer_norm": False,
    "layer_transformation": "sparsemax", "layerwise_decay": 0.95, "learning_rate": 1.5e-05, "loss": "mse",
    "nr_frozen_epochs": 0.3, "optimizer": "AdamW", "pool": "avg", "train_data": [], "validation_data": [],
    "warmup_steps": 0, "load_pretrained_weights": False, "local_files_only": True,
}

#: wmt22-cometkiwi-da-like hparams of the unified family (UnifiedMetric's defaults, mt + src + ref inputs).
UNIFIED = {
    "activations": "Tanh", "batch_size": 16, "class_identifier": "unified_metric", "dropout": 0.1,
    "encoder_learning_rate": 1.0e-06, "encoder_model": "XLM-RoBERTa", "final_activation": None,
    "hidden_sizes": [3072, 1024], "input_segments": ["mt", "src", "ref"], "keep_embeddings_frozen": True,
    "layer_norm": True, "layer_transformation": "sparsemax", "layerwise_decay": 0.95, "learning_rate": 1.5e-05,
    "loss": "mse", "loss_lambda": 0.65, "nr_frozen_epochs": 0.3, "optimizer": "AdamW", "sent_layer": "mix",
    "word_layer": 24, "word_level_training": False, "error_labels": ["minor", "major"],
    "cross_entropy_weights": None, "train_data": [], "validation_data": [], "warmup_steps": 0,
    "load_pretrained_weights": False, "local_files_only": True,
}

#: Text for the SentencePiece model: several scripts, so non-Latin test text has pieces of its own.
_CORPUS = [
    "The quick brown fox jumps over the lazy dog.", "Der schnelle braune Fuchs springt über den faulen Hund.",
    "Le renard brun rapide saute par-dessus le chien paresseux.", "Быстрая коричневая лиса прыгает через ленивую собаку.",
    "敏捷的棕色狐狸跳过了懒狗。", "素早い茶色の狐がのろまな犬を飛び越える。", "빠른 갈색 여우가 게으른 개를 뛰어넘는다.",
    "الثعلب البني السريع يقفز فوق الكلب الكسول.", "तेज़ भूरी लोमड़ी आलसी कुत्ते के ऊपर कूदती है।",
    "Η γρήγορη καφέ αλεπού πηδά πάνω από τον τεμπέλη σκύλο.", "A translation quality metric scores hypotheses.",
    "Machine translation systems are evaluated against human references.", "Ein Satz mit Zahlen: 12, 345 und 6789.",
]


def build_tokenizer(folder: Path, vocab_size: int, corpus: Path | None = None) -> object:
    """A SentencePiece unigram model trained here, as an XLM-R fast tokenizer folder (``tokenizer.json``).

    The ``tokenizers`` model is built from the SentencePiece pieces directly, as transformers' XLM-R converter
    lays them out (``<s> <pad> </s> <unk>``, the pieces, ``<mask>``): the converter itself needs a protobuf newer
    than unbabel-comet's pin."""
    import sentencepiece as spm
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import XLMRobertaTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    text = folder / "corpus.txt"
    lines = corpus.read_text(encoding="utf-8").splitlines() if corpus else []
    text.write_text("\n".join(_CORPUS * 3 + lines) + "\n", encoding="utf-8")
    prefix = folder / "sentencepiece.bpe"
    spm.SentencePieceTrainer.train(input=str(text), model_prefix=str(prefix), vocab_size=vocab_size,
                                   model_type="unigram", hard_vocab_limit=False, character_coverage=1.0,
                                   bos_id=0, pad_id=1, eos_id=2, unk_id=3, num_threads=1, minloglevel=2)
    text.unlink()
    processor = spm.SentencePieceProcessor(model_file=str(prefix) + ".model")
    vocab = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    vocab += [(processor.id_to_piece(i), processor.get_score(i)) for i in range(4, processor.get_piece_size())]
    vocab += [("<mask>", 0.0)]
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=3))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    fast = XLMRobertaTokenizerFast(tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>",
                                   sep_token="</s>", cls_token="<s>", unk_token="<unk>", pad_token="<pad>",
                                   mask_token="<mask>", model_max_length=512)
    fast.save_pretrained(folder)
    return fast


def build(out: Path, family: str, args: argparse.Namespace) -> None:
    """One random-weight checkpoint of ``family`` in ``out`` (its encoder folder in ``out/encoder``)."""
    import pytorch_lightning
    import torch
    import yaml
    from comet.models import ReferencelessRegression, RegressionMetric, UnifiedMetric
    from transformers import XLMRobertaConfig

    encoder = out / "encoder"
    tokenizer = build_tokenizer(encoder, args.vocab, Path(args.corpus) if args.corpus else None)
    config = XLMRobertaConfig(vocab_size=len(tokenizer), hidden_size=args.hidden, num_hidden_layers=args.layers,
                              num_attention_heads=args.heads, intermediate_size=args.hidden * 4,
                              max_position_embeddings=514, pad_token_id=tokenizer.pad_token_id,
                              bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    config.save_pretrained(encoder)
    base = UNIFIED if family.startswith("unified") else WMT22_DA
    hparams = dict(base, pretrained_model=str(encoder), hidden_sizes=list(args.estimator))
    if family == "unified-kiwi":   # wmt22-cometkiwi-da's inputs: hypothesis and source only
        hparams.update(input_segments=["mt", "src"], layer_norm=False, final_activation="Sigmoid")
    if family == "regression-softmax":   # wmt20-comet-da style: softmax mix with layer norm
        hparams.update(layer_transformation="softmax", layer_norm=True)
    if family == "referenceless":   # wmt20-comet-qe-da style: source and hypothesis only
        hparams.update(class_identifier="referenceless_regression_metric")
    torch.manual_seed(args.seed)
    init = {k: v for k, v in hparams.items() if k != "class_identifier"}
    classes = {"referenceless": ReferencelessRegression, "unified": UnifiedMetric, "unified-kiwi": UnifiedMetric}
    model = classes.get(family, RegressionMetric)(**init)
    with torch.no_grad():   # random layer weights rising with depth (sparsemax keeps several), and gamma
        weights = model.layerwise_attention.scalar_parameters
        for index, parameter in enumerate(weights):
            parameter.copy_(0.3 * index / len(weights) + 0.05 * torch.randn(1))
        model.layerwise_attention.gamma.copy_(torch.rand(1) + 0.5)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams, "epoch": 0, "global_step": 0,
                "pytorch-lightning_version": pytorch_lightning.__version__}, out / "checkpoints" / "model.ckpt")
    (out / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")


def predict(out: Path, cases_path: Path) -> None:
    """``out/scores.json``: unbabel-comet's ``model.predict`` per batch size of the cases (and its seconds)."""
    import time

    from comet.models import load_from_checkpoint

    cases = json.loads(cases_path.read_text(encoding="utf-8"))
    loaded = load_from_checkpoint(str(out / "checkpoints" / "model.ckpt"), local_files_only=True)
    samples = cases["samples"]
    if loaded.hparams.class_identifier == "referenceless_regression_metric":   # it reads no "ref" key
        samples = [{"src": sample["src"], "mt": sample["mt"]} for sample in samples]
    scores: dict[str, list[float]] = {}
    seconds: dict[str, float] = {}
    for batch_size in cases["batch_sizes"]:
        started = time.perf_counter()
        prediction = loaded.predict(samples, batch_size=batch_size, gpus=0, progress_bar=False)
        seconds[str(batch_size)] = time.perf_counter() - started
        scores[str(batch_size)] = [float(s) for s in prediction.scores]
    (out / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    (out / "seconds.json").write_text(json.dumps(seconds), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", help="the models go to OUT/FAMILY/")
    parser.add_argument("cases", nargs="?", help="samples and batch sizes to predict (JSON); none: build only")
    parser.add_argument("--family", nargs="+", default=["regression"],
                        choices=("regression", "regression-softmax", "referenceless", "unified", "unified-kiwi"))
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--vocab", type=int, default=400)
    parser.add_argument("--estimator", type=int, nargs="+", default=[48, 16])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", default=None, help="more text for the SentencePiece model (one per line)")
    parser.add_argument("--predict-only", action="store_true", help="the models exist: only predict")
    args = parser.parse_args()
    for family in args.family:
        out = Path(args.out) / family
        if not args.predict_only:
            build(out, family, args)
        if args.cases:
            predict(out, Path(args.cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
