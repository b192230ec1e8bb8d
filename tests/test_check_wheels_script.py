"""tools/check_wheels.sh's answers when there is nothing to check: a supported Python missing from the machine is a
failure under CI (``CI=true``) and a skip, said so, elsewhere; a Python without its wheel fails naming the command
that builds it. (The check itself, minutes per Python, runs in ``.ci/run``'s Python matrix.)
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "tools" / "check_wheels.sh"


def check(wheels, *versions: str, ci: bool) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"} | ({"CI": "true"} if ci else {})
    return subprocess.run(["bash", str(SCRIPT), str(wheels), *versions], capture_output=True, text=True, env=env,
                          timeout=120)


def test_a_missing_python_fails_under_ci_and_is_skipped_elsewhere(tmp_path):
    failed = check(tmp_path, "3.99", ci=True)
    assert failed.returncode == 1
    assert "no CPython 3.99 on this machine (CI=true needs every supported one" in failed.stderr
    skipped = check(tmp_path, "3.99", ci=False)
    assert skipped.returncode == 0, skipped.stderr
    assert "no CPython 3.99 on this machine; skipped" in skipped.stdout


def test_a_python_without_its_wheel_fails_naming_the_build_command(tmp_path):
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = subprocess.run(["bash", "-c", f"source {REPO_ROOT}/tools/find_python.sh && find_python {version}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        pytest.skip(f"tools/find_python.sh finds no CPython {version} here")
    done = check(tmp_path, version, ci=False)
    assert done.returncode == 1
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"no {tag} wheel in {tmp_path} (run: bash tools/build_wheels.sh {tmp_path})" in done.stderr
