"""refscore's version, read from the installed distribution's metadata (set in meson.build).

The ``Version:`` line of ``refscore-*.dist-info/METADATA`` is read directly where the distribution is found on
``sys.path``: ``importlib.metadata`` (its email parser, zipfile, ...) costs about a third of ``import refscore``'s
CPU time (docs/cli.md, start-up), so it is the fallback only.
"""
import os
import sys


def _installed_version() -> str | None:
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("refscore-") and name.endswith(".dist-info"):
                try:
                    with open(os.path.join(folder or ".", name, "METADATA"), encoding="utf-8") as metadata:
                        for line in metadata:
                            if line.startswith("Version:"):
                                return line.split(":", 1)[1].strip()
                            if not line.strip():
                                break
                except OSError:
                    continue
    return None


def _metadata_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("refscore")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without installing
        return "0.0.0+unknown"


__version__ = _installed_version() or _metadata_version()
