"""sacreBLEU's ``tokenizers.tokenizer_spm``: the SentencePiece tokenizers ``TokenizerSPM(key)`` (``spm``, an old
name of ``flores101``), ``Flores101Tokenizer``, ``Flores200Tokenizer``, ``spBLEU1KTokenizer`` (extra ``spm``),
``SPM_MODELS`` and ``SACREBLEU_DIR``.

The model is sacreBLEU's file in ``$SACREBLEU/models`` (``~/.sacrebleu/models``), read when the tokenizer is
created; refscore does not download it (a missing file is a ``MissingModelError`` naming the path and URL).

>>> SPM_MODELS["spm"]["signature"]
'flores101'
"""
from __future__ import annotations

import logging

from refscore.compat.sacrebleu.tokenizers._external import ExternalTokenizer
from refscore.compat.sacrebleu.utils import SACREBLEU_DIR
from refscore.text.external import SPM_MODELS as _MODELS

__all__ = ["SACREBLEU_DIR", "SPM_MODELS", "TokenizerSPM", "Flores101Tokenizer", "Flores200Tokenizer",
           "spBLEU1KTokenizer"]

#: sacreBLEU's table: tokenizer key -> ``{"url": ..., "signature": ...}``.
SPM_MODELS = {key: {"url": model.url, "signature": model.signature} for key, model in _MODELS.items()}
_logger = logging.getLogger("sacrebleu")


class TokenizerSPM(ExternalTokenizer):
    """sacreBLEU's SentencePiece tokenizer ``key``: ``" ".join(pieces)`` of the line; ``name`` and ``signature()``
    are the model's signature (``flores101`` for ``spm``, with sacreBLEU's warning about the old name)."""

    def __init__(self, key: str = "spm") -> None:
        self.name = SPM_MODELS[key]["signature"]
        if key == "spm":
            _logger.warning("Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future.")
        super().__init__(key)


class Flores200Tokenizer(TokenizerSPM):
    """``flores200``."""

    def __init__(self) -> None:
        super().__init__("flores200")


class Flores101Tokenizer(TokenizerSPM):
    """``flores101``."""

    def __init__(self) -> None:
        super().__init__("flores101")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacreBLEU's name)
    """``spBLEU-1K``."""

    def __init__(self) -> None:
        super().__init__("spBLEU-1K")
