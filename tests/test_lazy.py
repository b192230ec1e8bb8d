"""The lazy public names of ``refscore`` and ``refscore.testing`` (:mod:`refscore.lazy`): importing a package
loads none of the modules behind them, every name of ``__all__`` resolves, and an unknown name is an
``AttributeError`` naming the package."""
from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

import refscore.lazy

PACKAGES = ["refscore", "refscore.testing"]


def test_doctests() -> None:
    failures, attempted = doctest.testmod(refscore.lazy)
    assert attempted and not failures


@pytest.mark.parametrize("package", PACKAGES)
def test_import_loads_no_lazy_module(package: str) -> None:
    code = f"import sys, {package}; print(*(m for m in sys.modules if m.startswith('refscore')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    # the registry package refscore.metrics lists the metrics' public names (cheap: no metric module is imported)
    lazy_modules = ("refscore.metrics.", "refscore.significance", "refscore.reporting", "refscore.testing.")
    assert "refscore.lazy" in loaded and not [m for m in loaded if m.startswith(lazy_modules)]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_resolves_and_is_listed(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None
        assert name in dir(module)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def test_a_lazy_name_spelled_like_its_submodule_is_the_name():
    code = ("import sys, refscore; refscore.Reward; module = sys.modules['refscore.reward']; "
            "print(refscore.reward is not module and refscore.reward is module.reward)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "True"
