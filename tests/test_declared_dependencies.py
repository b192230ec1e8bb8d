"""Every import of the refscore package is declared in pyproject.toml: a core dependency, or an extra whose absence
is a clear error naming ``pip install 'refscore[EXTRA]'`` (exit 8 on the command line), never a traceback.

Two checks, both fast enough for every CI run (``.ci/run``; well under a minute):

- **statically**, every module-level import of every module of the package (read with ``ast``; imports inside
  functions are lazy) is the standard library, refscore, or a declared core dependency (or a dependency of one);
- **by running** the whole command-line surface once on tiny data (every subcommand) in an interpreter that sees
  only the declared distributions: ``python -I -S`` (no site-packages at all) with a path holding refscore and
  the installed files of each declared core dependency and of their dependencies, linked from this environment
  by their ``RECORD`` (``importlib.metadata``'s ``files``). That is exactly what ``pip install refscore`` puts
  on the path, without building a virtual environment and downloading wheels in a test (minutes, and CI has no
  network); the same run with the ``meta`` and ``report`` extras added proves each extra declares what its
  commands need. A venv with ``--system-site-packages`` would see every package and prove nothing.
"""
from __future__ import annotations

import ast
import importlib.metadata as metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import refscore
from refscore.cli.exit_codes import ExitCode

try:
    import tomllib
except ImportError:  # Python 3.10: the declared tomli
    import tomli as tomllib

PACKAGE = Path(refscore.__file__).resolve().parent
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
#: module -> third-party modules it may import at module level although no core dependency provides them, and why
ALLOWED = {"testing/pytest_plugin.py": {"pytest"}}   # loaded only by pytest itself (the pytest11 entry point)


def project() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]


def closure(requirements: list[str], extras: tuple[str, ...] = ()) -> dict[str, metadata.Distribution]:
    """The installed distributions of ``requirements`` (markers evaluated here) and of everything they require."""
    found: dict[str, metadata.Distribution] = {}
    pending = [(Requirement(text), "") for text in requirements]
    pending += [(Requirement(text), extra) for extra in extras for text in project()["optional-dependencies"][extra]]
    while pending:
        requirement, extra = pending.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        key = re.sub(r"[-_.]+", "-", requirement.name).lower()
        if key in found or key == "refscore":
            continue
        found[key] = distribution = metadata.distribution(requirement.name)
        for wanted in requirement.extras or {""}:
            pending += [(Requirement(text), wanted) for text in distribution.requires or []]
    return found


def import_names(distributions: dict[str, metadata.Distribution]) -> set[str]:
    provided = metadata.packages_distributions()
    keys = set(distributions)
    return {name for name, owners in provided.items()
            if any(re.sub(r"[-_.]+", "-", owner).lower() in keys for owner in owners)}


def module_level_imports(tree: ast.AST) -> list[tuple[str, int]]:
    """Top-level module names imported when the module is imported: not inside functions, not under
    ``if TYPE_CHECKING:``, not in a ``try`` whose ``except ImportError`` handles their absence."""
    found: list[tuple[str, int]] = []

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.Import):
                found.extend((alias.name.split(".")[0], node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((node.module.split(".")[0], node.lineno))
            elif isinstance(node, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                handled = any(handler.type is not None and re.search(r"ImportError|ModuleNotFoundError",
                                                                      ast.unparse(handler.type))
                              for handler in node.handlers)
                if not handled:
                    visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, (ast.ClassDef, ast.With)):
                visit(node.body)
    visit(tree.body)  # type: ignore[attr-defined]
    return found


def test_every_module_level_import_is_a_declared_dependency():
    allowed = import_names(closure(project()["dependencies"])) | set(sys.stdlib_module_names) | {"refscore"}
    undeclared = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for name, line in module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name not in allowed and name not in ALLOWED.get(relative, ()):
                undeclared.append(f"refscore/{relative}:{line}: import {name}")
    assert not undeclared, ("imported when the module is imported, but not a core dependency in pyproject.toml; "
                            "declare it, or import it where it is used through refscore.lazy.require (an extra): "
                            + "; ".join(undeclared))


def test_the_static_check_sees_an_undeclared_import():
    tree = ast.parse("import numpy\nimport scipy.stats\ntry:\n    import regex\nexcept ImportError:\n    regex = None\n"
                     "def f():\n    import torch\n")
    assert [name for name, _ in module_level_imports(tree)] == ["numpy", "scipy"]


def declared_path(tmp_path: Path, extras: tuple[str, ...] = ()) -> Path:
    """A folder with refscore and the installed files of the declared distributions (core, plus ``extras``)."""
    site = tmp_path / ("site-" + "-".join(("core", *extras)))
    site.mkdir()
    (site / "refscore").symlink_to(PACKAGE, target_is_directory=True)
    try:
        own = [metadata.distribution("refscore")]   # its version and entry points, where refscore is installed
    except metadata.PackageNotFoundError:
        own = []
    for distribution in [*closure(project()["dependencies"], extras).values(), *own]:
        assert distribution.files is not None, f"{distribution.metadata['Name']} was installed without a RECORD"
        for top in {file.parts[0] for file in distribution.files if file.parts[0] != ".."}:
            if top not in ("refscore", "__pycache__") and not (site / top).exists():
                (site / top).symlink_to(distribution.locate_file(top))
    return site


def run(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    code = f"import sys; sys.path.insert(0, {str(site)!r}); from refscore.cli.main import main; sys.exit(main())"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return subprocess.run([sys.executable, "-I", "-S", "-c", code, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


HYPOTHESES = ["the cat sat on the mat", "a dog barked", "it rains in the city", "she reads a book"]
REFERENCES = ["the cat sat on the mat", "a dog barked at the mailman", "it is raining in the city",
              "she reads a book every night"]


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("surface")
    (folder / "hyp.txt").write_text("\n".join(HYPOTHESES) + "\n")
    (folder / "other.txt").write_text("\n".join(reversed(HYPOTHESES)) + "\n")
    (folder / "ref.txt").write_text("\n".join(REFERENCES) + "\n")
    (folder / "cases.jsonl").write_text("".join(
        json.dumps({"actual_output": h, "expected_output": r, "label": ["pass", "fail"][i % 2]}) + "\n"
        for i, (h, r) in enumerate(zip(HYPOTHESES, REFERENCES))))
    (folder / "items.jsonl").write_text("".join(json.dumps({"candidates": [h, r], "references": [r]}) + "\n"
                                                for h, r in zip(HYPOTHESES, REFERENCES)))
    with (folder / "ratings.jsonl").open("w") as ratings:
        for s in range(4):
            for i, (h, r) in enumerate(zip(HYPOTHESES, REFERENCES)):
                ratings.write(json.dumps({"system": f"sys{s}", "seg_id": i + 1, "hypothesis": " ".join(h.split()[s:]),
                                          "reference": r, "mqm": -float((s * 3 + i) % 5)}) + "\n")
    return folder


#: the whole command-line surface: every subcommand once, on tiny data
SURFACE = {
    "score": ["score", "-m", "bleu,chrf,ter,gleu,rouge", "-r", "ref.txt", "-i", "hyp.txt", "--segments"],
    "compare": ["compare", "-m", "bleu,chrf", "-r", "ref.txt", "-i", "hyp.txt", "other.txt", "--n", "20"],
    "check": ["check", "cases.jsonl", "-c", "chrf=0.1", "-c", "bleu=0.0"],
    "check --calibrate": ["check", "--calibrate", "cases.jsonl", "--label", "label", "-c", "chrf", "--no-write",
                          "--n-bootstrap", "20"],
    "pairwise": ["pairwise", "-m", "chrf", "-i", "items.jsonl"],
    "mbr": ["mbr", "-m", "chrf", "-i", "items.jsonl"],
    "example": ["example"],
    "bertscore-baseline": ["bertscore-baseline", "--model", "roberta-large", "--corpus", "ref.txt", "-o", "b.tsv"],
    "report": ["report", "-m", "bleu", "-r", "ref.txt", "-i", "hyp.txt", "other.txt", "-o", "report.html"],
    "meta-eval": ["meta-eval", "ratings.jsonl", "-m", "chrf", "--bootstrap", "0", "--k", "0"],
}


def outcome(done: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    if done.returncode == ExitCode.MISSING_EXTRA:
        extra = re.search(r"pip install 'refscore\[([\w-]+)\]'", done.stderr)
        assert extra and extra.group(1) in project()["optional-dependencies"], done.stderr
        return f"needs {extra.group(1)}"
    assert done.returncode in (ExitCode.OK, 1), done.stderr   # 1: a check's gate failed, no error
    return "ok"


def test_the_command_line_runs_with_only_the_declared_dependencies(tmp_path, data):
    """Core dependencies only: each command works, or names the extra it needs (and no other outcome)."""
    site = declared_path(tmp_path)
    assert not (site / "scipy").exists() and (site / "numpy").exists()
    results = {name: outcome(run(site, data, *args)) for name, args in SURFACE.items()}
    needs = {name: result for name, result in results.items() if result != "ok"}
    assert set(needs) <= {"bertscore-baseline", "report", "meta-eval"}, results
    assert needs.get("meta-eval") == "needs meta", results


@pytest.mark.parametrize("extra, command", [("meta", "meta-eval"), ("report", "report")])
def test_an_extra_declares_what_its_commands_need(tmp_path, data, extra, command):
    try:
        site = declared_path(tmp_path, (extra,))
    except metadata.PackageNotFoundError as missing:
        pytest.skip(f"the {extra!r} extra is not installed here ({missing})")
    assert outcome(run(site, data, *SURFACE[command])) == "ok"
