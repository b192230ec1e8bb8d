"""The installed package holds no build sources: no .pyx/.pxd/.hpp/.h/.cpp and no meson.build.

Meaningful only against a regular install (a wheel): an editable install imports from the source tree, where the
sources belong, so the test skips there. To check a wheel::

    pip wheel --no-build-isolation --no-deps -w /tmp/whl . && pip install --target /tmp/whl_target /tmp/whl/*.whl
    PYTHONPATH=/tmp/whl_target python -m pytest tests/test_wheel_contents.py
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from pathlib import Path

import pytest

SOURCE_SUFFIXES = {".pyx", ".pxd", ".hpp", ".h", ".cpp", ".c"}
SOURCE_NAMES = {"meson.build"}


def installed_package_dir() -> Path:
    """The directory ``import refscore`` loads from; skips for an editable install (the source tree)."""
    spec = importlib.util.find_spec("refscore")
    assert spec is not None and spec.origin is not None
    package_dir = Path(spec.origin).parent
    try:
        direct_url = importlib.metadata.distribution("refscore").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        direct_url = None
    editable = bool(direct_url) and json.loads(direct_url).get("dir_info", {}).get("editable", False)
    if editable or (package_dir / "meson.build").exists():
        pytest.skip(f"refscore is an editable install ({package_dir} is the source tree); "
                    "install a wheel to check what it ships")
    return package_dir


def test_installed_package_ships_no_sources() -> None:
    package_dir = installed_package_dir()
    sources = sorted(str(path.relative_to(package_dir)) for path in package_dir.rglob("*")
                     if path.is_file() and (path.suffix in SOURCE_SUFFIXES or path.name in SOURCE_NAMES))
    assert sources == [], f"build sources installed with the package: {sources}"


def test_installed_package_keeps_stubs_and_data() -> None:
    package_dir = installed_package_dir()
    core = package_dir / "_core"
    compiled = {path.name.split(".")[0] for path in core.iterdir() if path.suffix in {".so", ".pyd"}}
    assert compiled, f"no compiled modules in {core}"
    missing_stubs = sorted(name for name in compiled if not (core / f"{name}.pyi").is_file())
    assert missing_stubs == [], f"compiled modules without a .pyi stub: {missing_stubs}"
    assert (package_dir / "py.typed").is_file()
    assert (package_dir / "data" / "rouge155" / "smart_common_words.txt").is_file()
