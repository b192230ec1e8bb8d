"""The package's shape, checked from its imports: no import circles, layers point down only, modules stay small.

The import graph is read with :mod:`ast` from every ``.py`` file under ``src/refscore``: module-level imports
*and* imports inside functions (a function-level import hides a circle from Python's import machinery, not from
the design), plus ``importlib.import_module("literal")``. Imports under ``if TYPE_CHECKING:`` count too: they
never run, but a type that needs a module above or beside in a circle is a design circle all the same (move the
type below both). An edge goes to the module named (``from a.b import c`` names ``a.b.c`` when that is a module,
else ``a.b``); importing a module does not count as importing its parent packages, and lazy registry entries
(``"module:attribute"`` strings, :mod:`refscore._registry`) are names, not imports.

The layers are listed in :data:`LAYERS`, bottom first, and documented in docs/architecture.md. A module may
import modules of its own layer and of the layers below, never above: the library never imports the command
line, metric internals never import metrics, metrics never import significance tests.

Run as a script (``python tests/test_architecture.py``) to print the graph's circles and upward imports.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "refscore"

#: Bottom first: (name, module patterns). Patterns are :func:`fnmatch.fnmatchcase` patterns over dotted names
#: (``"a.b"`` is the module ``a.b`` only, ``"a.b.*"`` everything below the package ``a.b``, ``"a.b._*"`` every
#: private module or package directly below ``a.b`` with everything inside it); a module belongs to the layer of
#: its most specific (longest) matching pattern, so new private bottom modules (``refscore._x``) land in the
#: foundation and a module in no layer fails :func:`test_every_module_is_in_a_layer`.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation: errors, argument checks, the protocol, the compiled core", (
        "refscore._*", "refscore.errors", "refscore.protocol")),
    ("metric internals: algorithms and helpers behind the metrics", (
        "refscore._bertscore", "refscore._bertscore.*", "refscore.metrics._*", "refscore.tokenizers",
        "refscore.tokenizers.*")),
    ("metrics: one Metric subclass per metric, its config, score and functions", (
        "refscore.metrics", "refscore.metrics.*")),
    ("significance: bootstrap intervals and paired tests over any metric's statistics", (
        "refscore.significance", "refscore.significance.*")),
    ("applications: drop-in layers, test cases, reports, distributed runs, the package facade", (
        "refscore", "refscore.compat", "refscore.compat.*", "refscore.testing", "refscore.testing.*",
        "refscore.example", "refscore.reporting", "refscore.reporting.*", "refscore.distributed",
        "refscore.distributed.*")),
    ("command line", ("refscore.cli", "refscore.cli.*")),
)

MAX_LINES = 400
#: Python and Cython modules are held to MAX_LINES (C++ headers are not modules).
MODULE_SUFFIXES = (".py", ".pyx")
#: Modules allowed over MAX_LINES, with the reason (generated tables only).
LONG_MODULE_EXCEPTIONS: dict[str, str] = {}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool

    def __str__(self) -> str:
        where = "inside a function" if self.in_function else "at module level"
        return f"{self.importer} imports {self.imported} (line {self.line}, {where})"


def module_files(root: Path, package: str, suffixes: tuple[str, ...] = (".py",)) -> dict[str, Path]:
    """Dotted module name -> file, for every file of ``package`` under ``root`` ending in one of ``suffixes``."""
    modules = {}
    for path in sorted(path for path in (root / package.replace(".", "/")).rglob("*") if path.suffix in suffixes):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


class _ImportCollector(ast.NodeVisitor):
    """Every import statement of one module with its line and whether it runs inside a function."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.is_package = is_package
        self.found: list[tuple[str, tuple[str, ...], int, bool]] = []  # (base, names, line, in_function)
        self.depth = 0

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append((alias.name, (), node.lineno, self.depth > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            parts = self.module.split(".")
            anchor = parts if self.is_package else parts[:-1]
            anchor = anchor[:len(anchor) - node.level + 1]
            base = ".".join(anchor + ([base] if base else []))
        self.found.append((base, tuple(alias.name for alias in node.names), node.lineno, self.depth > 0))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "import_module" and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            self.found.append((node.args[0].value, (), node.lineno, self.depth > 0))
        self.generic_visit(node)


def import_graph(root: Path, package: str) -> list[Import]:
    """Every import from one module of ``package`` to another (external imports are left out)."""
    modules = module_files(root, package)
    edges = []
    for module, path in modules.items():
        collector = _ImportCollector(module, path.name == "__init__.py")
        collector.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        for base, names, line, in_function in collector.found:
            targets = [f"{base}.{name}" if f"{base}.{name}" in modules else base for name in names] or [base]
            for target in dict.fromkeys(targets):
                if target in modules and target != module:
                    edges.append(Import(module, target, line, in_function))
    return edges


def import_circles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, largest first."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.importer, set()).add(edge.imported)
        graph.setdefault(edge.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:  # recursion depth is bounded by the number of modules (~150)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components, key=lambda c: (-len(c), c))


def layer_of(module: str, layers=LAYERS) -> int | None:
    """Index in ``layers`` of the layer whose most specific pattern matches ``module`` (``None``: in no layer)."""
    matches = [(len(pattern), number) for number, (_, patterns) in enumerate(layers)
               for pattern in patterns if fnmatchcase(module, pattern)]
    return max(matches)[1] if matches else None


def upward_imports(edges: list[Import], layers=LAYERS) -> list[str]:
    """Every import from a lower layer into a higher one, as readable lines."""
    problems = []
    for edge in edges:
        low, high = layer_of(edge.importer, layers), layer_of(edge.imported, layers)
        if low is not None and high is not None and high > low:
            problems.append(f"{edge} — layer {low} ({layers[low][0].split(':')[0]}) must not import layer "
                            f"{high} ({layers[high][0].split(':')[0]})")
    return problems


def long_modules(root: Path, package: str, limit: int = MAX_LINES,
                 exceptions: dict[str, str] | None = None) -> list[str]:
    exceptions = LONG_MODULE_EXCEPTIONS if exceptions is None else exceptions
    found = []
    for module, path in module_files(root, package, MODULE_SUFFIXES).items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit and module not in exceptions:
            found.append(f"{module}: {lines} lines (split it by job; at most {limit})")
    return found


# -- the package ------------------------------------------------------------------------------------------------
def test_no_import_circles():
    circles = import_circles(import_graph(SOURCE_ROOT, PACKAGE))
    assert not circles, "import circles (module-level and function-level imports):\n" + "\n".join(
        " <-> ".join(circle) for circle in circles)


def test_every_module_is_in_a_layer():
    unplaced = [module for module in module_files(SOURCE_ROOT, PACKAGE) if layer_of(module) is None]
    assert not unplaced, f"modules in no layer: {unplaced}; add them to LAYERS (and docs/architecture.md)"


def test_layers_point_down_only():
    problems = upward_imports(import_graph(SOURCE_ROOT, PACKAGE))
    assert not problems, "imports from a lower layer into a higher one:\n" + "\n".join(problems)


def test_modules_are_at_most_400_lines():
    found = long_modules(SOURCE_ROOT, PACKAGE)
    assert not found, "\n".join(found)


def test_long_module_exceptions_exist_and_are_long():
    modules = module_files(SOURCE_ROOT, PACKAGE, MODULE_SUFFIXES)
    for module, reason in LONG_MODULE_EXCEPTIONS.items():
        assert module in modules and reason, module
        assert len(modules[module].read_text(encoding="utf-8").splitlines()) > MAX_LINES, \
            f"{module} is no longer over {MAX_LINES} lines: remove its exception"


def test_every_registered_metric_follows_the_protocol():
    import dataclasses

    from refscore.metrics import REGISTRY, get_metric_class
    from refscore.protocol import Metric

    for name in REGISTRY:
        cls = get_metric_class(name)
        assert issubclass(cls, Metric) and cls.name == name, name
        config = cls.config_class
        assert dataclasses.is_dataclass(config) and config.__dataclass_params__.frozen, \
            f"{name}: config_class {config.__name__} must be a frozen dataclass (a metric is its config)"


#: Packages where metric names are written as values: the metrics themselves and the drop-in layers (which mirror
#: the peers' own names).
METRIC_NAME_HOMES = ("refscore.metrics", "refscore._bertscore", "refscore.compat", "refscore.tokenizers")
#: Other modules allowed to name metrics, with the reason.
METRIC_NAME_EXCEPTIONS: dict[str, str] = {
    "refscore.reporting": "DEFAULT_METRICS: the report's default selection of metrics, not a fact about them",
    # still to move onto the metric classes (issue 30, later):
    "refscore": "_LAZY: the public functions refscore.rouge, refscore.rouge155 (names, not yet from the registry)",
    "refscore.cli.scale": "SACREBLEU_NAMES: sacreBLEU's JSON name of BLEU and TER (a peer fact)",
    "refscore.example": "SUMMARIZATION_METRICS: metrics scored on the English example (a language fact)",
}


def _metric_names_in(node: ast.AST, names: set[str]) -> list[str]:
    def named(item: ast.AST | None) -> str | None:
        return item.value if isinstance(item, ast.Constant) and item.value in names else None

    if isinstance(node, ast.Compare):   # metric.name == "bertscore", name in ("bleu", "chrf")
        sides = [node.left, *node.comparators]
        items = [e for side in sides for e in (side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set))
                                                else [side])]
        return [name for item in items if (name := named(item))]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        found = [name for item in node.elts if (name := named(item))]
        return found if len(found) >= 2 else []
    if isinstance(node, ast.Dict):
        found = [name for item in node.keys if (name := named(item))]
        return found if len(found) >= 2 else []
    return []


def metric_name_lists(root: Path, package: str, names: set[str], homes: tuple[str, ...] = METRIC_NAME_HOMES,
                      exceptions: dict[str, str] = METRIC_NAME_EXCEPTIONS) -> list[str]:
    """Comparisons with a metric's name and lists of metric names outside the metric classes: each is a fact
    about a metric kept in a second place (it belongs on the class, docs/architecture.md "What a metric
    declares"). Docstrings and messages are text, not found here (only comparisons, tuples, lists, sets, dicts)."""
    problems = []
    for module, path in module_files(root, package).items():
        if module in exceptions or any(module == home or module.startswith(home + ".") for home in homes):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found = _metric_names_in(node, names)
            if found:
                problems.append(f"{module} line {node.lineno}: names metrics {found} — declare the fact on the "
                                f"metric class instead")
    return problems


def test_no_metric_names_outside_the_metric_classes():
    from refscore.metrics import REGISTRY

    assert metric_name_lists(SOURCE_ROOT, PACKAGE, set(REGISTRY)) == []


# -- the checks themselves catch violations (a small fake package) ------------------------------------------------
def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


FAKE_LAYERS = (("bottom", ("fake.base", "fake._*")),
               ("internals", ("fake.metrics._*",)),
               ("metrics", ("fake.metrics", "fake.metrics.*")),
               ("cli", ("fake.cli", "fake.cli.*")))


def test_checks_find_a_circle_hidden_in_a_function(tmp_path):
    _write(tmp_path, {
        "fake/__init__.py": "",
        "fake/cli/__init__.py": "",
        "fake/cli/main.py": "def run():\n    from fake.cli.compare import compare\n    return compare()\n",
        "fake/cli/compare.py": "from . import main\n\ndef compare():\n    return main\n",
        "fake/base.py": "import fake.cli\n",  # fake.cli does not import fake.base: no circle
    })
    circles = import_circles(import_graph(tmp_path, "fake"))
    assert circles == [["fake.cli.compare", "fake.cli.main"]]


def test_checks_find_upward_imports(tmp_path):
    _write(tmp_path, {
        "fake/__init__.py": "",
        "fake/base.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fake.metrics import bleu\n",
        "fake/_core/__init__.py": "",
        "fake/_core/kernel.py": "import importlib\nimportlib.import_module('fake.base')\n",
        "fake/metrics/__init__.py": "",
        "fake/metrics/bleu.py": "from fake._core import kernel\nfrom fake.metrics import _helper\n",
        "fake/metrics/_helper.py": "def f():\n    from .bleu import x\n",
        "fake/cli/__init__.py": "",
        "fake/cli/io.py": "from fake.metrics.bleu import BLEU\n",
        "fake/metrics/chrf.py": "from fake.cli.io import read\n",
    })
    problems = upward_imports(import_graph(tmp_path, "fake"), FAKE_LAYERS)
    assert [p.split(" — ")[0] for p in problems] == [
        "fake.base imports fake.metrics.bleu (line 3, at module level)",   # under TYPE_CHECKING: counted too
        "fake.metrics._helper imports fake.metrics.bleu (line 2, inside a function)",
        "fake.metrics.chrf imports fake.cli.io (line 1, at module level)",
    ]
    assert layer_of("fake.metrics._helper", FAKE_LAYERS) == 1 and layer_of("fake.other", FAKE_LAYERS) is None


def test_checks_find_metric_names_outside_the_metrics(tmp_path):
    _write(tmp_path, {
        "fake/__init__.py": "",
        "fake/metrics/__init__.py": "SPECS = {'bleu': 1, 'ter': 2}\n",          # a metric's home: allowed
        "fake/cli/heat.py": "def f(m):\n    return m.name == 'bertscore'\n",
        "fake/cli/checks.py": "SPECS = {'bleu': 1, 'ter': 2}\nHELP = 'bleu or ter'\nONE = ('bleu',)\n",
    })
    problems = metric_name_lists(tmp_path, "fake", {"bleu", "ter", "bertscore"}, homes=("fake.metrics",),
                                 exceptions={})
    assert [p.split(": names")[0] for p in problems] == ["fake.cli.checks line 1", "fake.cli.heat line 2"]


def test_checks_find_long_modules(tmp_path):
    _write(tmp_path, {"fake/__init__.py": "", "fake/big.py": "x = 1\n" * 401, "fake/table.py": "x = 1\n" * 500,
                      "fake/small.py": "x = 1\n" * 400, "fake/_core/kernel.pyx": "x = 1\n" * 401,
                      "fake/_core/kernel.hpp": "int x;\n" * 900})
    assert long_modules(tmp_path, "fake", exceptions={"fake.table": "generated"}) == [
        "fake._core.kernel: 401 lines (split it by job; at most 400)",
        "fake.big: 401 lines (split it by job; at most 400)"]


if __name__ == "__main__":
    graph = import_graph(SOURCE_ROOT, PACKAGE)
    print(f"{len(graph)} imports between {len(module_files(SOURCE_ROOT, PACKAGE))} modules")
    for circle in import_circles(graph):
        print("circle:", " <-> ".join(circle))
        members = set(circle)
        for edge in graph:
            if edge.importer in members and edge.imported in members:
                print("    ", edge)
    for problem in upward_imports(graph):
        print("upward:", problem)
    for module in module_files(SOURCE_ROOT, PACKAGE):
        if layer_of(module) is None:
            print("no layer:", module)
    for line in long_modules(SOURCE_ROOT, PACKAGE):
        print("long:", line)
    sys.exit(0)
