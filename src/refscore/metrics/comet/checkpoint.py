"""Reading an unbabel-comet checkpoint from a local path, as ``comet.load_from_checkpoint`` (unbabel-comet 2.2.7) does.

The layout is unbabel-comet's: ``MODEL/checkpoints/model.ckpt`` (a PyTorch Lightning checkpoint: a dict with the
``state_dict`` and, as Lightning saves it, the ``hyper_parameters`` the model was built with) and
``MODEL/hparams.yaml`` two folders up from the checkpoint file, whose ``class_identifier`` names the family. As
in unbabel-comet, the model is built from the checkpoint's own hyper-parameters; ``hparams.yaml`` supplies the
family (and the hyper-parameters when the checkpoint has none). The encoder's config and tokenizer come from a
local folder: ``encoder=`` when given, else the hparams' ``pretrained_model`` when it is a folder, else
``MODEL/encoder`` — never the network.

>>> find_checkpoint("/nonexistent/wmt22-comet-da")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
refscore.errors.MissingModelError: COMET: no checkpoint at '/nonexistent/wmt22-comet-da'; ...
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refscore.errors import InputError, MissingModelError

__all__ = ["CometCheckpoint", "FAMILIES", "find_checkpoint", "load_checkpoint", "SUPPORTED_FAMILIES"]

#: unbabel-comet's ``class_identifier`` values (comet.models.str2model) -> what refscore calls the family.
FAMILIES = {"regression_metric": "regression", "referenceless_regression_metric": "referenceless",
            "unified_metric": "unified", "xcomet_metric": "xcomet", "ranking_metric": "ranking"}
#: The families refscore computes (the others are recognised and refused with a clear error).
SUPPORTED_FAMILIES = ("regression_metric", "referenceless_regression_metric", "unified_metric")
#: Files a tokenizer folder needs (one of them): the fast tokenizer's JSON or the SentencePiece model.
TOKENIZER_FILES = ("tokenizer.json", "sentencepiece.bpe.model")


@dataclass(frozen=True)
class CometCheckpoint:
    """A located and read checkpoint: the file, its family, hyper-parameters, weights and encoder folder."""

    path: Path
    family: str
    hparams: dict[str, Any]
    state_dict: dict[str, Any]
    encoder_dir: Path


def find_checkpoint(model: str | Path) -> tuple[Path, Path]:
    """``(model.ckpt, hparams.yaml)`` of ``model``: a model folder (``checkpoints/model.ckpt`` inside) or the
    ``.ckpt`` file itself; anything else is a :class:`~refscore.errors.MissingModelError` naming what is expected."""
    path = Path(model).expanduser()
    expected = ("expected an unbabel-comet model folder (checkpoints/model.ckpt and hparams.yaml, as "
                "`comet-download` or huggingface_hub's snapshot_download leave it) or the path of its model.ckpt")
    if path.is_dir():
        checkpoint = path / "checkpoints" / "model.ckpt"
        if not checkpoint.is_file():
            raise MissingModelError(f"COMET: {str(path)!r} is a folder without checkpoints/model.ckpt; {expected}")
    elif path.is_file():
        checkpoint = path
    else:
        raise MissingModelError(f"COMET: no checkpoint at {str(path)!r}; {expected}")
    hparams = checkpoint.resolve().parents[1] / "hparams.yaml"
    if not hparams.is_file():
        raise MissingModelError(f"COMET: {str(hparams)!r} is missing; unbabel-comet reads the family "
                                f"(class_identifier) from hparams.yaml two folders above {checkpoint.name}")
    return checkpoint, hparams


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml   # transformers' own dependency (the comet extra installs it)

    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise InputError(f"COMET: {str(path)!r} is not a YAML hparams file ({exc})") from None
    if not isinstance(loaded, dict):
        raise InputError(f"COMET: {str(path)!r} is not a YAML mapping of hyper-parameters")
    return loaded


def _read_torch(path: Path) -> dict[str, Any]:
    from refscore.metrics.comet.deps import require

    torch = require("torch")
    try:   # weights only: a checkpoint is data, never code to run
        loaded = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:   # torch raises several kinds (pickle, zip, unpickling errors)
        raise InputError(f"COMET: {str(path)!r} is not a PyTorch Lightning checkpoint that torch.load reads with "
                         f"weights_only=True ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
                         ) from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("state_dict"), dict):
        raise InputError(f"COMET: {str(path)!r} is not a Lightning checkpoint: expected a dict with a "
                         f"'state_dict' entry, as unbabel-comet's checkpoints are")
    return loaded


def _encoder_dir(model_dir: Path, hparams: dict[str, Any], encoder: str | Path | None) -> Path:
    pretrained = str(hparams.get("pretrained_model", ""))
    candidates = [Path(encoder).expanduser()] if encoder is not None else \
        [Path(pretrained).expanduser(), model_dir / "encoder"]
    for folder in candidates:
        if folder.is_dir() and (folder / "config.json").is_file():
            present = [name for name in TOKENIZER_FILES if (folder / name).is_file()]
            if not present:
                raise MissingModelError(f"COMET: the encoder folder {str(folder)!r} has no tokenizer file; expected "
                                        f"{' or '.join(TOKENIZER_FILES)} beside config.json (save the tokenizer "
                                        f"of {pretrained or 'the encoder'} there with save_pretrained)")
            return folder
    if encoder is not None:
        raise MissingModelError(f"COMET: encoder={str(encoder)!r} is not a folder with config.json; expected the "
                                f"local folder of {pretrained or 'the encoder'} (config.json and tokenizer files)")
    raise MissingModelError(
        f"COMET: the checkpoint's encoder {pretrained!r} is not a local folder and {str(model_dir / 'encoder')!r} "
        f"does not exist; refscore never downloads: save {pretrained!r}'s config and tokenizer (transformers "
        f"AutoConfig/AutoTokenizer .save_pretrained) to a folder and pass encoder=FOLDER (--comet-encoder)")


def load_checkpoint(model: str | Path, encoder: str | Path | None = None) -> CometCheckpoint:
    """Locate and read ``model``'s checkpoint: its family must be one refscore computes, its encoder local."""
    checkpoint, hparams_file = find_checkpoint(model)
    family_hparams = _read_yaml(hparams_file)
    identifier = family_hparams.get("class_identifier")
    if identifier not in FAMILIES:
        raise InputError(f"COMET: {str(hparams_file)!r} has class_identifier {identifier!r}, not a model family "
                         f"unbabel-comet 2.2 loads (expected one of {', '.join(FAMILIES)})")
    if identifier not in SUPPORTED_FAMILIES:
        raise InputError(f"COMET: {str(hparams_file)!r} is a {identifier!r} checkpoint; refscore computes "
                         f"{', '.join(SUPPORTED_FAMILIES)} checkpoints (wmt20/wmt22-comet-da, their "
                         f"reference-free kin, wmt22-cometkiwi-da) so far")
    loaded = _read_torch(checkpoint)
    saved = loaded.get("hyper_parameters")
    hparams = dict(saved) if isinstance(saved, dict) and saved else dict(family_hparams)
    if hparams.get("layer_transformation") == "sparsemax_patch":   # unbabel-comet >= 2.2.4's fix of its #244
        hparams["layer_transformation"] = "softmax"
    model_dir = checkpoint.resolve().parents[1]
    return CometCheckpoint(checkpoint, identifier, hparams, loaded["state_dict"],
                           _encoder_dir(model_dir, hparams, encoder))
