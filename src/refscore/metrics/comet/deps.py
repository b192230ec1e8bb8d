"""Lazy access to the ``comet`` extra (torch, transformers, sentencepiece) with an error that names the extra."""
from __future__ import annotations

from types import ModuleType

from refscore import lazy

__all__ = ["require"]


def require(module: str, feature: str = "COMET", extra: str = "comet") -> ModuleType:
    """Import ``module`` or raise :class:`~refscore.errors.MissingExtraError` naming the ``comet`` extra.

    >>> require("math").__name__
    'math'
    """
    return lazy.require(module, feature, extra)
