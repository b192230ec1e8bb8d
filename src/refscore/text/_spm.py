"""sacreBLEU 2.6's SentencePiece tokenizers: ``flores101`` (and its old name ``spm``), ``flores200``, ``spBLEU-1K``.

sacreBLEU loads ``$SACREBLEU/models/<file>`` (``~/.sacrebleu/models`` when ``SACREBLEU`` is unset), downloading the
file on first use, and tokenizes a line as ``" ".join(sp.EncodeAsPieces(line))``. refscore never downloads: it
loads the same file from the same place (or from a path you give) and says where to get it when it is missing.

>>> sentencepiece_model_file("flores200")
'flores200sacrebleuspm'
>>> SPM_MODELS["spm"].signature          # sacreBLEU's signature of the old name
'flores101'
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refscore.errors import MissingExtraError, MissingModelError


@dataclass(frozen=True)
class SentencePieceModel:
    """Where sacreBLEU downloads a model from and the ``tok`` signature it records."""

    url: str
    signature: str

    @property
    def file_name(self) -> str:
        """The file name sacreBLEU stores the model under (the last part of the URL)."""
        return os.path.basename(self.url)


_FLORES101_URL = "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model"
#: sacreBLEU 2.6's ``SPM_MODELS``: tokenizer name -> model.
SPM_MODELS: dict[str, SentencePieceModel] = {
    "spm": SentencePieceModel(_FLORES101_URL, "flores101"),
    "flores101": SentencePieceModel(_FLORES101_URL, "flores101"),
    "flores200": SentencePieceModel("https://tinyurl.com/flores200sacrebleuspm", "flores200"),
    "spBLEU-1K": SentencePieceModel("https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model", "spBLEU-1K"),
}


def sentencepiece_model_file(name: str) -> str:
    """The file name sacreBLEU caches tokenizer ``name``'s model under."""
    return SPM_MODELS[name].file_name


def sacrebleu_models_dir() -> Path:
    """sacreBLEU's model cache: ``$SACREBLEU/models``, or ``~/.sacrebleu/models`` when ``SACREBLEU`` is unset."""
    return Path(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))) / "models"


def find_sentencepiece_model(name: str, model_path: str | os.PathLike[str] | None = None) -> Path:
    """The model file of tokenizer ``name``: ``model_path`` when given, else sacreBLEU's cached copy.

    Raises :class:`refscore.errors.MissingModelError` naming the file, where it was expected and its URL.
    """
    model = SPM_MODELS[name]
    if model_path is not None:
        path = Path(model_path).expanduser()
        where = "at the given spm_model path"
    else:
        path = sacrebleu_models_dir() / model.file_name
        where = "in sacreBLEU's model cache ($SACREBLEU/models, or ~/.sacrebleu/models when SACREBLEU is unset)"
    if not path.is_file():
        raise MissingModelError(
            f"tokenize={name!r} needs the SentencePiece model {model.file_name!r}, expected {where}: {path} "
            f"does not exist. refscore does not download it; sacreBLEU downloads it from {model.url} on first use "
            f"(e.g. `sacrebleu -tok {name} ...`); or download that URL to {path} yourself, or pass spm_model=PATH "
            f"(CLI: --spm-model PATH)")
    return path


class SentencePieceTokenizer:
    """sacreBLEU's SentencePiece tokenizer ``name`` (``flores101``, ``spm``, ``flores200``, ``spBLEU-1K``) with
    the model found by :func:`find_sentencepiece_model` (extra ``spm``: ``sentencepiece``)."""

    def __init__(self, name: str = "flores200", model_path: str | os.PathLike[str] | None = None) -> None:
        if name not in SPM_MODELS:
            raise KeyError(name)
        try:
            import sentencepiece
        except ImportError:
            raise MissingExtraError(f"tokenize={name!r}", "spm", "sentencepiece") from None
        self.name = name
        self.model_path = find_sentencepiece_model(name, model_path)
        self._processor: Any = sentencepiece.SentencePieceProcessor()
        self._processor.Load(str(self.model_path))

    def __call__(self, line: str) -> str:
        """The space-separated pieces of ``line``, as sacreBLEU's tokenizer returns them."""
        return " ".join(self._processor.EncodeAsPieces(line))

    def tokenize_many(self, lines: Sequence[str], num_threads: int) -> list[str]:
        """:meth:`__call__` of every line, on ``num_threads`` of SentencePiece's own C++ threads."""
        pieces = self._processor.Encode(list(lines), out_type=str, num_threads=num_threads)
        return [" ".join(p) for p in pieces]

    def signature(self) -> str:
        """sacreBLEU's ``tok`` signature field (``flores101`` for ``spm``)."""
        return SPM_MODELS[self.name].signature
