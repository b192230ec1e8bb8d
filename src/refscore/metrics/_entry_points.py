"""The entry points of one group, read from the installed distributions' ``entry_points.txt`` files directly.

``importlib.metadata.entry_points()`` imports the ``email`` parser, ``zipfile``, ``socket`` and more (about a third
of the command line's start-up, docs/cli.md) to read what is a few short INI files. This reads them the way it does
for distributions installed in folders on ``sys.path`` (``*.dist-info`` and ``*.egg-info``, the first distribution
of a name on the path winning, each path entry's folders in listing order) and hands over to
``importlib.metadata`` when ``sys.path`` holds anything else (a zip file, an egg).

>>> [entry for entry in group_entry_points("refscore.metrics.no-such-group")]
[]
"""
from __future__ import annotations

import os
import re
import sys

#: The distribution folders' suffixes, as importlib.metadata's path finder matches them.
_SUFFIXES = (".dist-info", ".egg-info")


def _normalized(stem: str) -> str:
    """A distribution folder's name part as importlib.metadata compares it (PEP 503, underscores)."""
    return re.sub(r"[-_.]+", "_", stem.partition("-")[0]).lower()


def _package(folder: str) -> str:
    """``"name version"`` from the folder's METADATA (PKG-INFO) headers, as the plug-in warnings print it."""
    fields: dict[str, str] = {}
    for metadata in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, metadata), encoding="utf-8") as handle:
                for line in handle:
                    if not line.strip():
                        break
                    key, _, value = line.partition(":")
                    fields.setdefault(key.strip().lower(), value.strip())
            break
        except OSError:
            continue
    return f"{fields.get('name', 'unknown package')} {fields.get('version', '')}".strip()


def _entries(text: str, group: str) -> list[tuple[str, str]]:
    """``(name, value)`` of the ``[group]`` section of an ``entry_points.txt``."""
    found, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            name, _, value = line.partition("=")
            found.append((name.strip(), value.strip()))
    return found


def group_entry_points(group: str) -> list[tuple[str, str, str]]:
    """``(name, value, "package version")`` of every entry point of ``group`` on ``sys.path``."""
    found: list[tuple[str, str, str]] = []
    if any(os.path.isfile(entry) for entry in sys.path if entry):   # a zip or an egg: importlib.metadata reads it
        from importlib.metadata import entry_points

        for point in entry_points(group=group):
            dist = getattr(point, "dist", None)   # None where the entry point was not read from a distribution
            found.append((point.name, point.value, f"{dist.name} {dist.version}" if dist is not None else
                          "unknown package"))
        return found
    seen: set[str] = set()
    for entry in sys.path:
        try:
            children = os.listdir(entry or ".")
        except OSError:
            continue
        for child in children:
            if not child.lower().endswith(_SUFFIXES):
                continue
            name = _normalized(child.rsplit(".", 1)[0])
            if name in seen:
                continue
            seen.add(name)
            folder = os.path.join(entry or ".", child)
            try:
                with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            entries = _entries(text, group)
            if entries:
                package = _package(folder)
                found.extend((entry_name, value, package) for entry_name, value in entries)
    return found
