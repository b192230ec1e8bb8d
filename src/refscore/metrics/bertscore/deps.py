"""Lazy access to the ``bertscore`` extra (torch, transformers) with an error that names the extra."""
from __future__ import annotations

from types import ModuleType

from refscore import lazy

__all__ = ["require", "torch_and_transformers"]


def require(module: str, feature: str = "BERTScore", extra: str = "bertscore") -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming ``extra``.

    >>> require("math").__name__
    'math'
    """
    return lazy.require(module, feature, extra)


def torch_and_transformers() -> tuple[ModuleType, ModuleType]:
    """(torch, transformers), both from the ``bertscore`` extra."""
    return require("torch"), require("transformers")
