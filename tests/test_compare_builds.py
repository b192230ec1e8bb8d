"""benchmarks/compare_builds.py prepares each revision's tree the way its docstring says: exported with
``git archive`` (nothing checked out in the repository), its compiled modules taken from a build folder, reused
when already built; and the children of bench_builds.py import refscore from the tree they are given."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import compare_builds  # noqa: E402
from bench_builds import _environment  # noqa: E402

CORE = ROOT / "src" / "refscore" / "_core"


def test_a_tree_is_built_when_every_pyx_has_its_module(tmp_path):
    core = tmp_path / compare_builds.CORE
    core.mkdir(parents=True)
    (core / "_a.pyx").write_text("")
    (core / "_b.pyx").write_text("")
    (core / "_a.cpython-311-x86_64-linux-gnu.so").write_text("")
    assert not compare_builds._built(tmp_path)
    (core / "_b.cpython-311-x86_64-linux-gnu.so").write_text("")
    assert compare_builds._built(tmp_path)


GIT = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0


@pytest.mark.skipif(not list(CORE.glob("*.so")) or not GIT, reason="needs a git checkout with the core built")
def test_a_revision_is_exported_and_takes_a_build_folders_modules(tmp_path):
    build = tmp_path / "build"
    (build / compare_builds.CORE).mkdir(parents=True)
    for module in CORE.glob("*.so"):
        shutil.copy2(module, build / compare_builds.CORE / module.name)
    status = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    src = compare_builds.prepare(ROOT, "HEAD", tmp_path / "work", build)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert src == tmp_path / "work" / commit[:12] / "src" and (src / "refscore" / "__init__.py").exists()
    assert compare_builds._built(src.parent)
    assert compare_builds.prepare(ROOT, "HEAD", tmp_path / "work", None) == src   # built: reused, not rebuilt
    assert subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == status   # the repository is untouched
    found = subprocess.run([sys.executable, "-c", "import refscore; print(refscore.__file__)"], capture_output=True,
                           text=True, check=True, env=_environment(str(src))).stdout.strip()
    assert Path(found).resolve() == (src / "refscore" / "__init__.py").resolve()


def test_this_checkout_is_used_as_it_is(tmp_path):
    if not compare_builds._built(ROOT):
        with pytest.raises(SystemExit, match="lacks built .so files"):
            compare_builds.prepare(ROOT, ".", tmp_path, None)
    else:
        assert compare_builds.prepare(ROOT, ".", tmp_path, None) == ROOT / "src"
