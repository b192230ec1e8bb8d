"""Names imported on first use, so that importing a package stays cheap: a package's public names
(:class:`LazyNames`), registry entries written as ``"module:attribute"`` strings (:func:`import_entry`) and the
modules of an optional extra (:func:`require`: a missing one is an error naming ``pip install 'refscore[EXTRA]'``).

A package lists its names per module and hands the module's ``__getattr__`` and ``__dir__`` to one
:class:`LazyNames`:

>>> import types
>>> package = types.ModuleType("example")
>>> lazy = LazyNames("example", vars(package), {"json": ("dumps",)})
>>> lazy.names
['dumps']
>>> lazy.getattr("dumps")({"a": 1})
'{"a": 1}'
>>> "dumps" in vars(package)  # kept: the next look-up does not come back here
True
>>> lazy.getattr("loads")
Traceback (most recent call last):
...
AttributeError: module 'example' has no attribute 'loads'
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from refscore.errors import MissingExtraError

__all__ = ["LazyNames", "import_entry", "require"]


class LazyNames:
    """The lazy names of the package ``package`` whose globals are ``namespace``; ``modules`` maps each module to
    the names it provides. Use ``__getattr__ = lazy.getattr``, ``__dir__ = lazy.dir`` and ``lazy.names`` in
    ``__all__``."""

    def __init__(self, package: str, namespace: dict[str, Any], modules: Mapping[str, tuple[str, ...]]) -> None:
        self._package = package
        self._namespace = namespace
        self._module_of = {name: module for module, names in modules.items() for name in names}

    @property
    def names(self) -> list[str]:
        """The lazy names, in the order they were listed."""
        return list(self._module_of)

    def module_of(self, name: str) -> str:
        """The module that provides the lazy name ``name`` (the API reference documents it from there).

        >>> LazyNames("example", {}, {"json": ("dumps",)}).module_of("dumps")
        'json'
        """
        if name not in self._module_of:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        return self._module_of[name]

    def getattr(self, name: str) -> Any:
        """The module-level ``__getattr__``: imports ``name`` from its module and keeps it in the package."""
        module = self._module_of.get(name)
        if module is None:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        imported = importlib.import_module(module)
        # Every name of that module at once: importing a submodule binds it in the package under its own name
        # (``refscore.reward`` the module), which would hide a lazy name spelled the same (the function ``reward``).
        for other, source in self._module_of.items():
            if source == module:
                self._namespace[other] = getattr(imported, other)
        return self._namespace[name]

    def dir(self) -> list[str]:
        """The module-level ``__dir__``: the package's globals and its lazy names, sorted."""
        return sorted(set(self._namespace) | set(self._module_of))


def import_entry(spec: str) -> Any:
    """The object a ``"module:attribute"`` registry entry names (importing the module on first use).

    >>> import_entry("refscore.protocol:Statistics").__name__
    'Statistics'
    """
    module_name, attribute = spec.split(":")
    return getattr(importlib.import_module(module_name), attribute)


def require(module: str, feature: str, extra: str) -> ModuleType:
    """Import ``module`` of the optional ``extra`` (pyproject.toml's ``[project.optional-dependencies]``) or raise
    :class:`~refscore.errors.MissingExtraError` saying that ``feature`` needs it and how to install it.

    >>> require("math", "a demo", "meta").__name__
    'math'
    >>> require("no_such_module_here", "a demo", "meta")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.MissingExtraError: a demo needs ... 'meta' extra ...: pip install 'refscore[meta]'
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(feature, extra, module.split(".")[0]) from None
