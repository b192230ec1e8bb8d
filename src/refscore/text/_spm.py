"""sacreBLEU 2.6's SentencePiece tokenizers: ``flores101`` (and its old name ``spm``), ``flores200``, ``spBLEU-1K``.

sacreBLEU loads ``$SACREBLEU/models/<file>`` (``~/.sacrebleu/models`` when ``SACREBLEU`` is unset), downloading the
file on first use, and tokenizes a line as ``" ".join(sp.EncodeAsPieces(line))``. refscore never downloads: it
loads the same file from the same place (or from a path you give) and says where to get it when it is missing.

SentencePiece is called behind guards, never patched: a file it cannot load (damaged, truncated, not a model) is
an :class:`~refscore.errors.InputError` naming the file; a line longer than :data:`SPM_MAX_LINE_BYTES` (its piece
offsets are 32-bit) is refused naming the segment, and so is a batch whose encoder memory (about
:data:`SPM_BYTES_PER_INPUT_BYTE` bytes per UTF-8 byte of a line, per thread) exceeds the memory budget
(``REFSCORE_MEMORY_BUDGET``, :mod:`refscore._memory`).

>>> sentencepiece_model_file("flores200")
'flores200sacrebleuspm'
>>> SPM_MODELS["spm"].signature          # sacreBLEU's signature of the old name
'flores101'
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from refscore._memory import check_segments_within_budget, memory_budget
from refscore.errors import InputError, MissingExtraError, MissingModelError


@dataclass(frozen=True)
class SentencePieceModel:
    """Where sacreBLEU downloads a model from and the ``tok`` signature it records."""

    url: str
    signature: str

    @property
    def file_name(self) -> str:
        """The file name sacreBLEU stores the model under (the last part of the URL)."""
        return os.path.basename(self.url)


#: The longest line (UTF-8 bytes) given to SentencePiece: it keeps piece offsets in 32-bit fields
#: (``SentencePieceText.begin``/``end``) and lattice positions in ``int``.
SPM_MAX_LINE_BYTES = 2 ** 31 - 1
#: About the bytes SentencePiece's encoder holds per UTF-8 byte of a line (lattice, normalized text, pieces):
#: 45-55 measured on one-million-character lines of words, of one letter and of combining marks; rounded up.
SPM_BYTES_PER_INPUT_BYTE = 64

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
        try:
            self._processor.Load(str(self.model_path))
        except (RuntimeError, OSError) as error:   # SentencePiece validates the file and raises; never a crash
            raise InputError(f"tokenize={name!r}: {self.model_path} is not a SentencePiece model SentencePiece can "
                             f"load ({str(error).strip()}); the file may be damaged or truncated: download it again "
                             f"from {SPM_MODELS[name].url}, or pass spm_model=PATH (CLI: --spm-model PATH)") from None

    def __call__(self, line: str) -> str:
        """The space-separated pieces of ``line``, as sacreBLEU's tokenizer returns them."""
        self.check_lines([line], 1, lambda _: "a line")
        return " ".join(self._processor.EncodeAsPieces(line))

    def check_lines(self, lines: Sequence[str], num_threads: int, label: Callable[[str], str]) -> None:
        """Refuse, naming the line (``label(line)``), a line over :data:`SPM_MAX_LINE_BYTES` or lines whose encoder
        memory exceeds the memory budget (``num_threads`` encoded at once). The bound from character counts (4
        bytes each at most) clears ordinary batches without encoding them."""
        longest = 4 * max(map(len, lines), default=0)
        threads = max(min(num_threads, len(lines)), 1)
        if longest <= SPM_MAX_LINE_BYTES and longest * SPM_BYTES_PER_INPUT_BYTE * threads <= memory_budget():
            return
        sizes = np.array([len(line.encode("utf-8", "surrogatepass")) for line in lines], dtype=np.int64)
        largest = int(np.argmax(sizes))
        if sizes[largest] > SPM_MAX_LINE_BYTES:
            raise InputError(f"{label(lines[largest])}: tokenize={self.name!r}: a line of {sizes[largest]:,} bytes is "
                             f"longer than SentencePiece reads ({SPM_MAX_LINE_BYTES:,} bytes: its offsets are "
                             f"32-bit); split it into sentences")
        check_segments_within_budget(sizes * SPM_BYTES_PER_INPUT_BYTE,
                                     lambda k: f"tokenize={self.name!r} of {label(lines[k])} ({sizes[k]:,} bytes)",
                                     concurrent=threads, hint="or split it into sentences")

    def tokenize_many(self, lines: Sequence[str], num_threads: int,
                      label: Callable[[str], str] = lambda _: "a line") -> list[str]:
        """:meth:`__call__` of every line, on ``num_threads`` of SentencePiece's own C++ threads; ``label(line)``
        names a refused line."""
        self.check_lines(lines, num_threads, label)
        pieces = self._processor.Encode(list(lines), out_type=str, num_threads=num_threads)
        return [" ".join(p) for p in pieces]

    def signature(self) -> str:
        """sacreBLEU's ``tok`` signature field (``flores101`` for ``spm``)."""
        return SPM_MODELS[self.name].signature
