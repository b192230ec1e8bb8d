"""The one-line switch: :func:`install` makes ``import sacrebleu``, ``import rouge_score``, ``import bert_score``,
``import rouge``, ``import jiwer``, ``from nltk.translate import bleu_score, gleu_score, chrf_score`` and ``evaluate.load(name)`` (for
the metrics :mod:`refscore.compat.evaluate` has) resolve to refscore's drop-ins in this process;
:func:`uninstall` puts the real packages back.

How: a meta-path finder, first on ``sys.meta_path``, answers the peers' module names (submodules too) with the
already imported ``refscore.compat`` modules (``sys.modules`` aliasing, no copies); peer modules imported before
``install()`` are taken out of ``sys.modules`` and restored by ``uninstall()``. NLTK and ``evaluate`` stay the
real packages: only ``nltk.translate``'s three metric modules are aliased, and ``evaluate``'s ``load`` is wrapped
(now, or when ``evaluate`` is first imported) wherever the package binds it (``evaluate.load``,
``evaluate.loading.load`` behind ``evaluate.combine``, the evaluators' ``load``), so that the names refscore has go to
refscore and every other name to HF.
References kept from before the switch (``from sacrebleu import BLEU`` run earlier) keep pointing at the peer.

>>> install()
>>> from sacrebleu.metrics.bleu import BLEU
>>> BLEU.__module__
'refscore.compat._sacrebleu_bleu'
>>> uninstall()
>>> from sacrebleu.metrics.bleu import BLEU
>>> BLEU.__module__
'sacrebleu.metrics.bleu'
"""
from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["install", "installed", "uninstall"]

#: peer package -> the drop-in package that replaces it with every submodule.
PACKAGES = {"sacrebleu": "refscore.compat.sacrebleu", "rouge_score": "refscore.compat.rouge_score",
            "bert_score": "refscore.compat.bert_score", "rouge": "refscore.compat.rouge",
            "jiwer": "refscore.compat.jiwer"}
#: single peer modules replaced inside a package that stays the peer's.
MODULES = {f"nltk.translate.{name}": f"refscore.compat.nltk.translate.{name}"
           for name in ("bleu_score", "gleu_score", "chrf_score")}
#: ``nltk.translate``'s own names for the sentence-level functions of those modules.
_NLTK_SHORT_NAMES = {"bleu": ("bleu_score", "sentence_bleu"), "gleu": ("gleu_score", "sentence_gleu"),
                     "chrf": ("chrf_score", "sentence_chrf")}


def drop_in_name(fullname: str) -> str | None:
    """The refscore module standing in for the peer module ``fullname`` (None: not replaced).

    >>> drop_in_name("sacrebleu.metrics"), drop_in_name("nltk.translate.bleu_score"), drop_in_name("nltk")
    ('refscore.compat.sacrebleu.metrics', 'refscore.compat.nltk.translate.bleu_score', None)
    """
    if fullname in MODULES:
        return MODULES[fullname]
    root = fullname.partition(".")[0]
    if root in PACKAGES:
        return PACKAGES[root] + fullname[len(root):]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads a peer name as the (imported) refscore module, the same object under two names."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the refscore module is initialised); the import system has just replaced its
        ``__spec__`` with the alias's: give it back its own."""
        module.__spec__ = self._own_spec


class _PatchAfterLoader(importlib.abc.Loader):
    """The real ``evaluate`` loader, then :func:`_patch_evaluate` on the fresh module."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        _patch_evaluate(module)


class _DropInFinder(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path`` while installed."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == "evaluate":
            return self._evaluate_spec(path, target)
        name = drop_in_name(fullname)
        if name is None or importlib.util.find_spec(name) is None:
            return None   # not a module the drop-in has: the import fails as it would for a missing submodule
        return importlib.util.spec_from_loader(fullname, _AliasLoader(name),
                                               is_package=hasattr(importlib.import_module(name), "__path__"))

    def _evaluate_spec(self, path: Sequence[str] | None,
                       target: ModuleType | None) -> importlib.machinery.ModuleSpec | None:
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec("evaluate", path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchAfterLoader(spec.loader)
                return spec
        return None


_FINDER = _DropInFinder()
#: what install() took out of sys.modules / replaced, for uninstall().
_saved_modules: dict[str, ModuleType] = {}
_saved_attributes: list[tuple[ModuleType, str, Any]] = []


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return _FINDER in sys.meta_path


def _replaced(name: str) -> bool:
    return drop_in_name(name) is not None


def install() -> None:
    """Route the peers' imports to refscore in this process (idempotent); see the module docstring."""
    if installed():
        return
    for name in [name for name in sys.modules if _replaced(name)]:
        _saved_modules[name] = sys.modules.pop(name)
    sys.meta_path.insert(0, _FINDER)
    translate = sys.modules.get("nltk.translate")
    if translate is not None:
        for module_name, target in MODULES.items():
            _set_attribute(translate, module_name.rpartition(".")[2], importlib.import_module(target))
        for short, (module_name, function) in _NLTK_SHORT_NAMES.items():
            module = importlib.import_module(MODULES[f"nltk.translate.{module_name}"])
            _set_attribute(translate, short, getattr(module, function))
    if "evaluate" in sys.modules:
        _patch_evaluate(sys.modules["evaluate"])


def _set_attribute(owner: ModuleType, name: str, value: Any) -> None:
    _saved_attributes.append((owner, name, getattr(owner, name, _MISSING)))
    setattr(owner, name, value)


_MISSING = object()


def _patch_evaluate(package: ModuleType) -> None:
    """Send every way ``evaluate`` loads a metric through one wrapper of ``evaluate.loading.load``: refscore's
    metrics by name, anything else (and local script paths) to HF. The wrapper replaces ``load`` in
    ``evaluate.loading`` (which ``evaluate.combine`` reads when called, and modules imported later bind) and in
    every loaded module of the package that bound it by name (``evaluate.load``, ``evaluate.evaluator.base.load``
    behind the task evaluators and evaluation suites)."""
    loading = importlib.import_module(f"{package.__name__}.loading")
    original = loading.load
    if getattr(original, "__refscore_original__", None) is not None:
        return
    from refscore.compat import evaluate as drop_in

    @functools.wraps(original)
    def load(path: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(path, str) and not os.path.exists(path):
            name = path.rstrip("/").split("/")[-1].lower()
            if name in drop_in.list_metrics():
                return drop_in.load(path, *args, **kwargs)
        return original(path, *args, **kwargs)

    load.__refscore_original__ = original  # type: ignore[attr-defined]  # the original
    for module in _evaluate_modules(package.__name__):
        if getattr(module, "load", None) is original:
            _set_attribute(module, "load", load)


def _evaluate_modules(root: str = "evaluate") -> list[ModuleType]:
    """The loaded modules of the ``evaluate`` package (the package itself first)."""
    return [module for name, module in list(sys.modules.items())
            if (name == root or name.startswith(root + ".")) and isinstance(module, ModuleType)]


def uninstall() -> None:
    """Undo :func:`install`: the peers' imports and ``evaluate.load`` are the real ones again."""
    if installed():
        sys.meta_path.remove(_FINDER)
    for name in [name for name in sys.modules if _replaced(name)]:
        if sys.modules[name].__name__ != name:   # an alias of a refscore module
            del sys.modules[name]
    sys.modules.update(_saved_modules)
    _saved_modules.clear()
    while _saved_attributes:
        owner, name, value = _saved_attributes.pop()
        if value is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, value)
    _restore_nltk_translate()
    for module in _evaluate_modules():   # imported while installed, they bound the wrapper: the real load again
        original = getattr(getattr(module, "load", None), "__refscore_original__", None)
        if original is not None:
            module.load = original  # type: ignore[attr-defined]  # evaluate's load


def _restore_nltk_translate() -> None:
    """``nltk.translate`` imported while installed bound refscore's modules and functions as its attributes:
    bind the real ones again (attributes that do not point at refscore are left alone)."""
    translate = sys.modules.get("nltk.translate")
    if translate is None:
        return
    for module_name in MODULES:
        child = module_name.rpartition(".")[2]
        current = getattr(translate, child, None)
        if isinstance(current, ModuleType) and current.__name__ != module_name:
            setattr(translate, child, importlib.import_module(module_name))
    for short, (child, function) in _NLTK_SHORT_NAMES.items():
        current = getattr(translate, short, None)
        if getattr(current, "__module__", "").startswith("refscore."):
            setattr(translate, short, getattr(importlib.import_module(f"nltk.translate.{child}"), function))
