"""mkdocs hooks (mkdocs.yml ``hooks:``) that generate the site's reference pages when it is built.

A page holding the line ``<!-- refscore-api: PACKAGE -->`` gets, in its place, one mkdocstrings ``:::`` block per
name of ``PACKAGE.__all__`` (:func:`api_markdown`); ``<!-- refscore-cli -->`` becomes the ``--help`` text of
``refscore`` and of each of its commands, taken from the argparse parser the command line runs
(:func:`cli_markdown`). The pages therefore list exactly the public names and options of the refscore that is
importable where ``mkdocs build`` runs (the CI environment installs this checkout).

Each object is documented once, under the first package of :data:`API_PACKAGES` that exports it; the other
packages link to it (``refscore.pairs.mbr`` is ``refscore.mbr``):

>>> [line for line in api_markdown("refscore.pairs").splitlines() if "`refscore.mbr`" in line]
['[`refscore.mbr`][refscore.pairs._mbr.mbr] (documented with the `refscore` names).']
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import os
import re
from typing import Any

#: The packages whose ``__all__`` the API reference documents, in the order of its pages.
API_PACKAGES = ("refscore", "refscore.testing", "refscore.meta", "refscore.pairs", "refscore.distributed",
                "refscore.compat")
API_MARKER = re.compile(r"^<!-- refscore-api: (?P<package>[\w.]+) -->$", re.MULTILINE)
CLI_MARKER = re.compile(r"^<!-- refscore-cli -->$", re.MULTILINE)
#: Width of the generated ``--help`` text (argparse wraps to $COLUMNS).
HELP_COLUMNS = 100


def object_path(package: str, name: str) -> str:
    """The dotted path mkdocstrings finds ``package.name`` under: where a class or function is defined, else (a
    constant) the module that provides it, from which Griffe follows the imports.

    >>> object_path("refscore", "bleu"), object_path("refscore.testing", "BLEU_BANDS")
    ('refscore.metrics.bleu.metric.bleu', 'refscore.testing.checks.BLEU_BANDS')
    """
    module = importlib.import_module(package)
    obj = getattr(module, name)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return f"{obj.__module__}.{obj.__qualname__}"
    lazy = getattr(module.__getattr__, "__self__", None) if hasattr(module, "__getattr__") else None
    provider = lazy.module_of(name) if lazy is not None and name in lazy.names else package
    return f"{provider}.{name}"


def documented_at() -> dict[str, tuple[str, str]]:
    """``object path -> (package, name)`` of the one place each public object is documented."""
    places: dict[str, tuple[str, str]] = {}
    for package in API_PACKAGES:
        for name in importlib.import_module(package).__all__:
            places.setdefault(object_path(package, name), (package, name))
    return places


def api_markdown(package: str) -> str:
    """The Markdown of the API reference of ``package``: its docstring, then each name of its ``__all__``."""
    if package not in API_PACKAGES:
        raise ValueError(f"<!-- refscore-api: {package} -->: not one of API_PACKAGES {API_PACKAGES}; add it there "
                         f"(tools/docs_site/hooks.py) to document it")
    places = documented_at()
    parts = [f"::: {package}\n    options:\n      show_root_heading: false\n      members: false\n"]
    for name in importlib.import_module(package).__all__:
        path = object_path(package, name)
        home, public = places[path]
        if home == package:
            parts.append(f"::: {path}\n    options:\n      show_root_heading: true\n      show_root_full_path: false\n"
                         f"      heading_level: 2\n")
        else:
            parts.append(f"## {name}\n\n[`{home}.{public}`][{path}] (documented with the `{home}` names).\n")
    return "\n".join(parts)


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its sub-parsers only there
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_markdown() -> str:
    """``refscore --help`` and ``refscore COMMAND --help`` for every command (and sub-command), as text blocks."""
    from refscore.cli.main import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        parser = build_parser()
        sections = [f"## refscore\n\n```text\n{parser.format_help().rstrip()}\n```\n"]
        pending = [(f"refscore {name}", sub) for name, sub in _subcommands(parser).items()]
        while pending:
            title, sub = pending.pop(0)
            sections.append(f"## {title}\n\n```text\n{sub.format_help().rstrip()}\n```\n")
            pending[:0] = [(f"{title} {name}", nested) for name, nested in _subcommands(sub).items()]
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return "\n".join(sections)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """mkdocs event: expand the markers of a page before it is converted."""
    markdown = API_MARKER.sub(lambda match: api_markdown(match["package"]), markdown)
    return CLI_MARKER.sub(lambda match: cli_markdown(), markdown)
