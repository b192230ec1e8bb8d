"""Lazy registries: entries are ``"module:attribute"`` strings, imported only when used.

>>> import_entry("refscore.protocol:Statistics").__name__
'Statistics'
"""
from __future__ import annotations

import importlib
from typing import Any


def import_entry(spec: str) -> Any:
    """The object a ``"module:attribute"`` registry entry names (importing the module on first use)."""
    module_name, attribute = spec.split(":")
    return getattr(importlib.import_module(module_name), attribute)
