"""Display names of the systems of ``compare`` and ``report``: ``--name`` (alias ``--sys-names``), or short names
made from the inputs.

The default rule: a plain-text file or a record file without a ``system`` field is named by its file name without
directories and extension (``out/sysA.en.txt`` -> ``sysA.en``; a ``.gz``/``.bz2``/``.xz``/``.zst`` ending is dropped
with the extension before it); a system of a record file that names its systems is named by the records' ``system``
value (``runs.jsonl:bart`` -> ``bart``). Where two short names would be the same, the record systems among them are
named ``stem:system``, and any still equal keep their full names (path, or ``path:system``).

>>> short_names(["/data/a.txt", "runs.jsonl:bart", "runs.jsonl:t5"], ["/data/a.txt", "runs.jsonl"])
['a', 'bart', 't5']
>>> short_names(["x/sys.txt", "y/sys.txt"], ["x/sys.txt", "y/sys.txt"])
['x/sys.txt', 'y/sys.txt']
"""
from __future__ import annotations

import argparse
import os
from collections import Counter

from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import CliError, source_name

#: Compression endings dropped together with the extension before them.
_COMPRESSION = (".gz", ".bz2", ".xz", ".zst")


def add_names_argument(parser: argparse.ArgumentParser) -> None:
    """``--name NAME ...`` (alias ``--sys-names``): one display name per system, in input order."""
    parser.add_argument("--name", "--sys-names", dest="names", nargs="+", default=None, metavar="NAME",
                        help="display names of the systems, one per system in input order (default: file names "
                        "without directories and extension, or the records' 'system' values)")


def _stem(path: str) -> str:
    name = os.path.basename(path) or path
    for ending in _COMPRESSION:
        if name.lower().endswith(ending):
            name = name[:-len(ending)]
    stem = os.path.splitext(name)[0]
    return stem or name


def _split(system: str, paths: list[str]) -> tuple[str, str | None]:
    """The input path of a system name (``path`` or ``path:system``) and the record system, if any."""
    for path in sorted({source_name(p) for p in paths}, key=len, reverse=True):
        if system == path:
            return path, None
        if system.startswith(path + ":"):
            return path, system[len(path) + 1:]
    return system, None


def short_names(systems: list[str], paths: list[str]) -> list[str]:
    """The default display names of ``systems`` (named ``path`` or ``path:system``, as the readers name them) read
    from the input ``paths`` (see the module's rule)."""
    parts = [_split(system, paths) for system in systems]
    names = [record if record is not None else (path if path.startswith("<") else _stem(path))
             for path, record in parts]
    repeated = {name for name, count in Counter(names).items() if count > 1}
    names = [f"{_stem(path)}:{record}" if name in repeated and record is not None else name
             for name, (path, record) in zip(names, parts)]
    repeated = {name for name, count in Counter(names).items() if count > 1}
    return [full if name in repeated else name for name, full in zip(names, systems)]


def display_names(systems: list[str], args: argparse.Namespace) -> dict[str, str]:
    """Each system's display name: ``args.names`` (``--name``) in input order, or :func:`short_names`."""
    given = getattr(args, "names", None)
    if given is None:
        return dict(zip(systems, short_names(systems, args.input)))
    if len(given) != len(systems):
        raise CliError(f"--name gives {len(given)} name{'s' if len(given) != 1 else ''} but there are "
                       f"{len(systems)} systems ({', '.join(systems)}); give one name per system, in input order",
                       ExitCode.USAGE)
    for position, name in enumerate(given, 1):
        if not name.strip():
            raise CliError(f"--name: name {position} is empty; give each system a non-empty name", ExitCode.USAGE)
        if given.index(name) != position - 1:
            raise CliError(f"--name: {name!r} is given twice (names {given.index(name) + 1} and {position}); give "
                           f"each system its own name", ExitCode.USAGE)
    return dict(zip(systems, given))


def renamed(systems: dict[str, list[str]], args: argparse.Namespace) -> dict[str, list[str]]:
    """``systems`` (name -> hypotheses) under their display names, in the same order."""
    names = display_names(list(systems), args)
    return {names[system]: hypotheses for system, hypotheses in systems.items()}


__all__ = ["add_names_argument", "display_names", "renamed", "short_names"]
