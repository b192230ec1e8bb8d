"""The settings of :class:`~refscore.metrics.bleu.BLEU`, checked when made (sacreBLEU's ``BLEU`` arguments, and
the ``nltk`` / ``evaluate`` flavors' own).

>>> BLEUConfig(tokenize="intl", lowercase=True).resolved_smooth_value   # exp smoothing takes no value
>>> BLEUConfig(smooth_method="floor").resolved_smooth_value
0.1
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

from refscore.checks import check_bool, check_order
from refscore.errors import InputError, InputTypeError
from refscore.metrics.bleu.flavors import check_flavor_options
from refscore.metrics.bleu.formula import SMOOTH_DEFAULTS, check_smoothing
from refscore.metrics.word_batch import check_tokenizer
from refscore.text.external import EXTERNAL_TOKENIZERS, SPM_MODELS

__all__ = ["BLEUConfig"]


@dataclasses.dataclass(frozen=True)
class BLEUConfig:
    """Settings of :class:`BLEU` (sacreBLEU's ``BLEU`` arguments; ``max_order`` is ``max_ngram_order``).

    ``tokenize`` and ``lowercase`` apply to text input only (token ids are used as given). ``spm_model`` is the
    SentencePiece model file of the ``flores101`` / ``spm`` / ``flores200`` / ``spBLEU-1K`` tokenizers when it is
    not in sacreBLEU's cache (:func:`refscore.text.external.find_sentencepiece_model`).
    """

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = 4
    effective_order: bool = False
    spm_model: str | None = None
    #: whose BLEU (:data:`~refscore.metrics.bleu.flavors.BLEU_FLAVORS`): ``sacrebleu``, ``nltk`` (NLTK's
    #: ``corpus_bleu``: token lists, ``weights``, ``smoothing_function``, ``auto_reweigh``) or ``evaluate`` (HF's
    #: ``bleu`` script: ``max_order``, ``smooth``); :mod:`refscore.metrics.bleu.flavors`
    flavor: str = "sacrebleu"
    weights: tuple[Any, ...] | None = None
    smoothing_function: Callable[..., list[Any]] | None = None
    auto_reweigh: bool = False
    smooth: bool = False

    def __post_init__(self) -> None:
        check_flavor_options(self)
        check_tokenizer("BLEU", self.tokenize, external=EXTERNAL_TOKENIZERS)
        if self.spm_model is not None:
            if not isinstance(self.spm_model, (str, os.PathLike)):
                raise InputTypeError(f"BLEU: spm_model must be a path (str), got {type(self.spm_model).__name__}")
            if self.tokenize not in SPM_MODELS:
                raise InputError(f"BLEU: spm_model applies to the SentencePiece tokenizers {tuple(SPM_MODELS)}, "
                                 f"not tokenize={self.tokenize!r}; drop spm_model or choose one of those")
            object.__setattr__(self, "spm_model", os.fspath(self.spm_model))
        object.__setattr__(self, "lowercase", check_bool(self.lowercase, "lowercase", owner="BLEU"))
        object.__setattr__(self, "effective_order", check_bool(self.effective_order, "effective_order", owner="BLEU"))
        object.__setattr__(self, "max_order", check_order(self.max_order, "max_order", owner="BLEU"))
        check_smoothing(self.smooth_method, self.smooth_value)

    @property
    def resolved_smooth_value(self) -> float | int | None:
        """``smooth_value``, or the method's default when it is None."""
        return SMOOTH_DEFAULTS[self.smooth_method] if self.smooth_value is None else self.smooth_value
