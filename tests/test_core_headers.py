"""Every C++ header of the compiled core compiles on its own (it includes what it uses), so a kernel can be read,
reused and tested without the Cython binding that happens to include something before it."""
from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "src" / "refscore" / "_core"
HEADERS = sorted(path.name for path in CORE.glob("*.hpp"))
COMPILER = shutil.which("g++") or shutil.which("c++")


@pytest.mark.skipif(COMPILER is None, reason="no C++ compiler (g++ or c++) on PATH")
@pytest.mark.skipif(not HEADERS, reason=f"no headers under {CORE} (tests run outside the source tree)")
@pytest.mark.parametrize("header", HEADERS)
def test_header_compiles_alone(header: str, tmp_path: Path) -> None:
    source = tmp_path / "only.cpp"
    source.write_text(f'#include "{header}"\n', encoding="ascii")
    result = subprocess.run([COMPILER, "-std=c++17", "-fsyntax-only", "-fopenmp", f"-I{CORE}",
                             f"-I{sysconfig.get_paths()['include']}", str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
