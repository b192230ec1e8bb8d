"""The documentation site (mkdocs.yml, tools/docs_site): every page is in the navigation and has its examples run,
the generated references cover every public name and command, the changelog names the version being built.

`mkdocs build --strict` itself (broken links, missing references, a docstring Griffe cannot read) runs in .ci/run
with the `docs` extra installed; these tests need neither mkdocs nor Griffe.
"""
from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

from test_docs_examples import PAGES, REPO_ROOT, docs_site_tool

yaml = pytest.importorskip("yaml")

DOCS = REPO_ROOT / "docs"


@pytest.fixture(scope="module")
def hooks():
    return docs_site_tool("hooks")


def _mkdocs_config() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml names a Python function (the slugify of the table of contents); it is not called here
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def _nav_pages(entries) -> list[str]:
    pages: list[str] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages.extend(_nav_pages(value) if isinstance(value, list) else [value])
    return pages


def test_every_page_is_in_the_navigation_and_its_examples_run():
    nav = _nav_pages(_mkdocs_config()["nav"])
    on_disk = sorted(path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md"))
    assert sorted(nav) == on_disk, "mkdocs.yml's nav and the pages under docs/ differ"
    assert len(nav) == len(set(nav)), "a page is listed twice in mkdocs.yml's nav"
    assert {DOCS / page for page in nav} <= set(PAGES), "test_docs_examples.py does not run some pages' examples"


def test_home_page_has_the_two_set_up_commands():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "pip install . && refscore example" in text
    assert "\nbash .ci/run\n" in text


@pytest.mark.parametrize("package", ["refscore", "refscore.testing", "refscore.meta", "refscore.pairs",
                                     "refscore.distributed", "refscore.compat"])
def test_api_reference_documents_every_public_name(hooks, package):
    assert package in hooks.API_PACKAGES
    pages = [path for path in (DOCS / "reference" / "api").glob("*.md")
             if f"<!-- refscore-api: {package} -->" in path.read_text(encoding="utf-8")]
    assert len(pages) == 1, f"one API page must hold <!-- refscore-api: {package} -->, found {pages}"
    markdown = hooks.api_markdown(package)
    blocks = set(re.findall(r"^::: (\S+)$", markdown, re.MULTILINE))
    links = set(re.findall(r"\]\[([\w.]+)\] \(documented with", markdown))
    places = hooks.documented_at()
    for name in importlib.import_module(package).__all__:
        path = hooks.object_path(package, name)
        assert path in blocks | links, f"{package}.{name} ({path}) is missing from its API page"
        assert (path in blocks) == (places[path][0] == package), f"{package}.{name} is documented twice"


def test_api_paths_name_where_objects_live(hooks):
    import refscore
    import refscore.pairs

    assert hooks.object_path("refscore", "mbr") == hooks.object_path("refscore.pairs", "mbr")
    module, _, name = hooks.object_path("refscore", "Statistics").rpartition(".")
    assert getattr(importlib.import_module(module), name) is refscore.Statistics
    assert hooks.object_path("refscore", "__version__") == "refscore.__version__"
    assert hooks.documented_at()[hooks.object_path("refscore.pairs", "mbr")] == ("refscore", "mbr")
    with pytest.raises(ValueError, match="API_PACKAGES"):
        hooks.api_markdown("refscore.io")


def test_cli_reference_shows_every_command(hooks):
    from refscore.cli.main import build_parser

    markdown = hooks.cli_markdown()
    commands = hooks._subcommands(build_parser())
    assert commands, "the parser has no commands: the walk over argparse's sub-parsers found nothing"
    for name, parser in commands.items():
        assert f"## refscore {name}\n" in markdown
        assert f"usage: refscore {name}" in markdown
        for action in parser._actions:
            for flag in action.option_strings:
                assert flag in markdown, f"refscore {name} {flag} is missing from the command-line reference"
    # argparse wraps the help texts to $COLUMNS (it cannot wrap a long list of choices)
    assert max(len(line) for line in markdown.splitlines() if "{" not in line) <= hooks.HELP_COLUMNS
    page = (DOCS / "reference" / "cli-help.md").read_text(encoding="utf-8")
    assert hooks.CLI_MARKER.search(page)


def test_markers_expand_in_a_page(hooks):
    page = "# API\n\n<!-- refscore-api: refscore.compat -->\n\n<!-- refscore-cli -->\n"
    expanded = hooks.on_page_markdown(page)
    assert "<!--" not in expanded
    assert "::: refscore.compat._install.install" in expanded and "## refscore score" in expanded


@pytest.mark.parametrize("tool", ["hooks", "griffe_docstrings"])
def test_docs_site_tools_doctests(tool):
    module = docs_site_tool(tool)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def test_docstrings_become_markdown():
    convert = docs_site_tool("griffe_docstrings").markdown_docstring
    text = ("Scores.\n\n>>> x = 1\n>>> x\n1\n\nIn a module::\n\n    import refscore\n\n"
            ".. code-block:: toml\n\n    [tool.refscore]\n\nSee :func:`~refscore.testing.evaluate` and ``x``.")
    assert convert(text).splitlines() == [
        "Scores.", "", "```pycon", ">>> x = 1", ">>> x", "1", "```", "", "In a module:", "", "```python",
        "import refscore", "```", "", "```toml", "[tool.refscore]", "```", "",
        "See `evaluate` and ``x``."]
    assert convert("```python\n>>> kept\n```") == "```python\n>>> kept\n```"


def test_changelog_names_the_version_being_built():
    meson = (REPO_ROOT / "meson.build").read_text(encoding="utf-8")
    version = re.search(r"version:\s*'([^']+)'", meson)[1]
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.MULTILINE)
    assert released and released[0] == version, \
        f"CHANGELOG.md's newest release {released[:1]} is not meson.build's {version}"
    assert re.search(r"^## \[Unreleased\]$", changelog, re.MULTILINE)
    assert f"[{version}]: " in changelog, "the release heading needs its link line"


def test_site_and_package_name_the_same_addresses():
    try:
        import tomllib
    except ImportError:  # Python 3.10: refscore's own dependency there
        import tomli as tomllib

    urls = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    config = _mkdocs_config()
    assert config["repo_url"] == urls["Source"]
    assert config["site_url"].rstrip("/") == urls["Documentation"].rstrip("/")
