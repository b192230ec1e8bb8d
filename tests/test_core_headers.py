"""The compiled core's C++ headers, laid out like RapidFuzz's: each compiles on its own (it includes what it uses,
so a kernel can be read, reused and tested without the Cython binding that happens to include something before
it), everything lives in the one namespace ``refscore`` (a nested ``refscore::<family>`` per kernel family), each
header family is declared to Cython once, in its own ``.pxd`` (never inline in a ``.pyx``), and every header is
formatted by the repository's ``.clang-format``. docs/architecture.md ("The compiled core") describes the layout;
tests/test_architecture.py holds the headers to their size limit."""
from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "refscore" / "_core"
HEADERS = sorted(path.name for path in CORE.glob("*.hpp"))
#: Written by tools/gen_unicode_tables.py, which owns its layout (no namespace: plain C tables).
GENERATED = {"_unicode_tables.h"}
COMPILER = shutil.which("g++") or shutil.which("c++")
CLANG_FORMAT = shutil.which("clang-format")
EXTERN = re.compile(r'^cdef extern from "(_\w+\.(?:hpp|h))"', re.MULTILINE)  # the core's own headers

needs_sources = pytest.mark.skipif(not HEADERS, reason=f"no headers under {CORE} (tests run outside the source tree)")


@pytest.mark.skipif(COMPILER is None, reason="no C++ compiler (g++ or c++) on PATH")
@needs_sources
@pytest.mark.parametrize("header", HEADERS)
def test_header_compiles_alone(header: str, tmp_path: Path) -> None:
    source = tmp_path / "only.cpp"
    source.write_text(f'#include "{header}"\n', encoding="ascii")
    result = subprocess.run([COMPILER, "-std=c++17", "-fsyntax-only", "-fopenmp", f"-I{CORE}",
                             f"-I{sysconfig.get_paths()['include']}", str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def namespaces_outside_refscore(text: str) -> list[str]:
    """The outermost namespaces of a header that are not ``refscore`` or nested in it (``namespace a::b {`` opens,
    ``}  // namespace a::b`` closes, as clang-format writes them).

    >>> namespaces_outside_refscore("namespace refscore::ter {\\n}  // namespace refscore::ter\\nnamespace x {\\n")
    ['x']
    """
    outside, depth = [], 0
    for line in text.splitlines():
        opened = re.match(r"namespace\s+([\w:]+)\s*\{", line)
        if opened:
            name = opened.group(1)
            if depth == 0 and name != "refscore" and not name.startswith("refscore::"):
                outside.append(name)
            depth += 1
        elif re.match(r"\}\s*// namespace", line):
            depth -= 1
    return outside


@needs_sources
@pytest.mark.parametrize("header", HEADERS)
def test_header_code_lives_in_namespace_refscore(header: str) -> None:
    text = (CORE / header).read_text(encoding="utf-8")
    assert re.search(r"^namespace refscore(::\w+)* \{", text, re.MULTILINE), f"{header} opens no namespace refscore"
    assert namespaces_outside_refscore(text) == [], f"{header}: code outside namespace refscore"


def test_checks_find_a_namespace_outside_refscore() -> None:
    assert namespaces_outside_refscore("namespace refscore_ter {\n}\n") == ["refscore_ter"]
    nested = "namespace refscore {\nnamespace porter {\n}  // namespace porter\n}  // namespace refscore\n"
    assert namespaces_outside_refscore(nested) == []
    assert namespaces_outside_refscore(nested + "namespace detail {\n}  // namespace detail\n") == ["detail"]


def declared_headers(files: list[Path]) -> dict[str, list[str]]:
    """Header -> the Cython files (``.pyx``/``.pxd``) that declare it in a ``cdef extern from`` block."""
    found: dict[str, list[str]] = {}
    for path in files:
        for header in EXTERN.findall(path.read_text(encoding="utf-8")):
            found.setdefault(header, []).append(path.name)
    return found


@needs_sources
def test_headers_are_declared_once_in_a_pxd() -> None:
    declared = declared_headers(sorted(CORE.glob("*.pyx")) + sorted(CORE.glob("*.pxd")))
    in_pyx = {header: files for header, files in declared.items() if any(f.endswith(".pyx") for f in files)}
    assert not in_pyx, f"declare headers in their family's .pxd, not inline in a .pyx: {in_pyx}"
    twice = {header: files for header, files in declared.items() if len(files) > 1}
    assert not twice, f"headers declared in several .pxd files (one .pxd per header family): {twice}"
    unknown = sorted(set(declared) - set(HEADERS) - GENERATED)
    assert not unknown, f"declared headers that do not exist: {unknown}"


def test_checks_find_a_header_declared_twice(tmp_path: Path) -> None:
    (tmp_path / "a.pyx").write_text('cdef extern from "_k.hpp" namespace "refscore::k":\n    int f()\n')
    (tmp_path / "b.pxd").write_text('cdef extern from "_k.hpp" namespace "refscore::k" nogil:\n    int g()\n'
                                    'cdef extern from "<string_view>" namespace "std":\n    pass\n')
    assert declared_headers([tmp_path / "a.pyx", tmp_path / "b.pxd"]) == {"_k.hpp": ["a.pyx", "b.pxd"]}


@pytest.mark.skipif(CLANG_FORMAT is None, reason="clang-format is not on PATH (Debian: apt-get install clang-format)")
@needs_sources
@pytest.mark.parametrize("header", HEADERS)
def test_header_is_clang_formatted(header: str) -> None:
    # --style=file finds the repository's .clang-format above the header.
    result = subprocess.run([CLANG_FORMAT, "--style=file", "--dry-run", "--Werror", str(CORE / header)],
                            capture_output=True, text=True)
    assert result.returncode == 0, (f"{header} is not formatted: run `clang-format -i src/refscore/_core/{header}`\n"
                                    + result.stderr[-2000:])


@pytest.mark.skipif(CLANG_FORMAT is None, reason="clang-format is not on PATH (Debian: apt-get install clang-format)")
def test_format_check_fails_on_an_unformatted_header(tmp_path: Path) -> None:
    shutil.copy(ROOT / ".clang-format", tmp_path / ".clang-format")
    header = tmp_path / "bad.hpp"
    header.write_text("namespace refscore {\ninline int f(){return 1;}\n}  // namespace refscore\n")
    result = subprocess.run([CLANG_FORMAT, "--style=file", "--dry-run", "--Werror", str(header)],
                            capture_output=True, text=True)
    assert result.returncode != 0
