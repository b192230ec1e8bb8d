"""A Griffe extension (mkdocs.yml, mkdocstrings' ``extensions``) that shows refscore's docstrings as Markdown and
reads the ``__all__`` of its lazy packages.

A package whose names are imported on first use (``refscore``, ``refscore.testing``: :mod:`refscore.lazy`) builds
its ``__all__`` at import time, which Griffe, reading the source, cannot evaluate; the extension takes that
``__all__`` from the imported package instead.

refscore's docstrings are written for ``help()`` and doctest: reStructuredText roles (``:class:`BLEU```), ``::``
literal blocks, ``.. code-block::`` directives and bare ``>>>`` examples. Markdown would render a bare ``>>>`` as
nested block quotes, so each doctest run becomes a ```` ```pycon ```` fence, each role its code span, each literal
block a fence:

>>> markdown_docstring("Uses :class:`~refscore.BLEU`::\\n\\n    x = 1\\n\\n>>> 1 + 1\\n2").splitlines()
['Uses `BLEU`:', '', '```python', 'x = 1', '```', '', '```pycon', '>>> 1 + 1', '2', '```']
"""
from __future__ import annotations

import importlib
import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|obj|exc|const):`(~?)([^`]+)`")
DIRECTIVE = re.compile(r"^(\s*)\.\. code-block::\s*(\S+)\s*$")


def _role(match: re.Match[str]) -> str:
    target = match[2].split(".")[-1] if match[1] else match[2]
    return f"`{target}`"


def _indented_block(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines from ``start`` indented deeper than ``indent`` (blank lines inside kept), dedented, and the end."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    end = start
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    body = lines[start:end]
    depth = min((len(line) - len(line.lstrip()) for line in body if line.strip()), default=0)
    return [line[depth:] for line in body], end


def markdown_docstring(text: str) -> str:
    """``text`` (a docstring as ``help()`` shows it) with doctests, literal blocks and roles in Markdown."""
    lines = ROLE.sub(_role, text).splitlines()
    out: list[str] = []
    position = 0
    while position < len(lines):
        line = lines[position]
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if stripped.startswith("```"):  # already Markdown: copy the fence through untouched
            end = position + 1
            while end < len(lines) and not lines[end].lstrip().startswith("```"):
                end += 1
            out.extend(lines[position:end + 1])
            position = end + 1
            continue
        if stripped.startswith(">>>"):
            end = position
            while end < len(lines) and lines[end].strip():  # a doctest ends at its first blank line
                end += 1
            out.extend(["```pycon", *(entry[indent:] for entry in lines[position:end]), "```"])
            position = end
            continue
        directive = DIRECTIVE.match(line)
        if directive or (stripped.endswith("::") and not stripped.startswith("..")):
            body, end = _indented_block(lines, position + 1, indent)
            if body and any(entry.strip() for entry in body):
                if directive:  # the directive line becomes the fence
                    out.extend([f"```{directive[2]}", *body, "```"])
                else:  # "In a test module::" reads "In a test module:", the block follows
                    out.extend([line[:-1], "", "```python", *body, "```"])
                position = end
                continue
        out.append(line)
        position += 1
    return "\n".join(out)


try:  # the extension class needs Griffe; the conversion above (and its doctest) does not
    import griffe
except ImportError:  # pragma: no cover - only the docs build imports this module with Griffe installed
    griffe = None

if griffe is not None:
    class MarkdownDocstrings(griffe.Extension):
        """Rewrites every docstring with :func:`markdown_docstring` as Griffe loads it, and gives each module whose
        ``__all__`` is computed (not a list of strings) the ``__all__`` it has once imported."""

        def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
            if obj.docstring is not None:
                obj.docstring.value = markdown_docstring(obj.docstring.value)

        def on_module_members(self, *, mod: griffe.Module, **kwargs: Any) -> None:
            if mod.exports is not None and not all(isinstance(name, str) for name in mod.exports):
                mod.exports = list(importlib.import_module(mod.path).__all__)
