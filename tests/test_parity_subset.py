"""The parity subset that tools/check_wheels.sh runs next to a wheel on every supported Python: the test modules
marked ``pytestmark = pytest.mark.parity``, collected in an environment holding only the wheel, its core
dependencies and the ``parity`` extra. Each such module (and each local helper it imports) must import nothing
else at module level, or its collection there fails; and the ``test`` extra must include the ``parity`` one.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from test_declared_dependencies import closure, import_names, module_level_imports, project

TESTS = Path(__file__).resolve().parent
MARK = "pytestmark = pytest.mark.parity"


def parity_modules() -> list[Path]:
    """The modules tools/check_wheels.sh selects (its ``grep -l '^pytestmark = pytest.mark.parity'``)."""
    return sorted(path for path in TESTS.glob("test_*.py")
                  if any(line.startswith(MARK) for line in path.read_text(encoding="utf-8").splitlines()))


def foreign_imports(path: Path, allowed: set[str], seen: set[str] | None = None) -> list[str]:
    """``module:line: import name`` for each module-level import of ``path``, and of the local test modules it
    imports (followed), that ``allowed`` does not provide."""
    seen = set() if seen is None else seen
    out = []
    for name, line in module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
        local = TESTS / f"{name}.py"
        if local.is_file():
            if name not in seen:
                seen.add(name)
                out += foreign_imports(local, allowed, seen)
        elif name not in allowed:
            out.append(f"{path.name}:{line}: import {name}")
    return out


def test_parity_modules_cover_every_peer():
    names = {path.name for path in parity_modules()}
    for module in ("test_bleu.py", "test_chrf.py", "test_ter.py", "test_rouge.py", "test_meteor.py",
                   "test_bleu_python_sum.py"):
        assert module in names, f"{module} is not marked {MARK!r}"


def test_parity_modules_import_only_the_parity_extra():
    optional = project()["optional-dependencies"]
    assert "refscore[parity]" in optional["test"], "the test extra must include the parity extra"
    allowed = (import_names(closure(project()["dependencies"], ("parity",))) | set(sys.stdlib_module_names)
               | {"refscore"})
    foreign = [entry for path in parity_modules() for entry in foreign_imports(path, allowed)]
    assert not foreign, ("a parity module imports, when collected, a package the parity extra does not provide "
                         "(tools/check_wheels.sh installs only that extra): add it to the extra in "
                         "pyproject.toml or import it inside the test: " + "; ".join(foreign))


def test_the_check_sees_a_foreign_import(tmp_path):
    module = tmp_path / "test_x.py"
    module.write_text("import numpy\nimport scipy.stats\nfrom conftest import shared_data_path\n", encoding="utf-8")
    assert foreign_imports(module, {"numpy", "pytest"} | set(sys.stdlib_module_names)) == ["test_x.py:2: import scipy"]
