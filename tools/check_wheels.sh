#!/usr/bin/env bash
# Install without a compiler: for each CPython 3.10-3.13 found (or each VERSION named), a new virtual environment
# where no compiler can run (CC, CXX and every cc/gcc/g++/c++/clang on PATH are a program that fails), the wheel
# that tools/build_wheels.sh put in WHEELDIR installed with `--only-binary=:all:` (timed), README's example command
# (`refscore example`), then the `parity` extra's peers and the parity tests (`pytest -m parity`: BLEU/chrF/TER
# against sacreBLEU, ROUGE against rouge-score, METEOR against NLTK, on ../shared/data) under that interpreter.
# See README.md (Set up and run).
#
#   bash tools/check_wheels.sh WHEELDIR [VERSION...]       e.g. bash tools/check_wheels.sh dist 3.12 3.13
#
# Environment: TIME_SDIST=1 also times `pip install SDIST` (the compiled build, with the real compiler) in a new
# environment of the first version checked; CI=true makes a supported version that is not on this machine a
# failure (elsewhere it is skipped with a line saying so); REFSCORE_SHARED_DATA as for the tests.
# Exit status: 0 when every version checked installed, ran the example and passed the parity tests; 1 otherwise.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
wheels="$(cd "${1:?usage: bash tools/check_wheels.sh WHEELDIR [VERSION...]}" && pwd)"
shift
# shellcheck source=tools/find_python.sh
source "$repo/tools/find_python.sh"
versions=("$@")
[ "${#versions[@]}" -gt 0 ] || versions=("${SUPPORTED_PYTHONS[@]}")

export PIP_CONSTRAINT="$repo/.ci/constraints.txt" PIP_BUILD_CONSTRAINT="$repo/.ci/constraints.txt"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
unset PYTHONPATH PYTHONHOME

work="$(mktemp -d "${TMPDIR:-/tmp}/refscore-check-wheels.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# No compiler reachable: every name a build could call is this program, and it fails saying why.
mkdir -p "$work/no-compiler"
printf '#!/bin/sh\necho "check_wheels: no compiler here ($0 $*): the wheel must install without one" >&2\nexit 1\n' \
    >"$work/no-compiler/fail"
chmod +x "$work/no-compiler/fail"
for name in cc gcc g++ c++ clang clang++ cpp ld; do ln -s fail "$work/no-compiler/$name"; done

# Runs a command of the environment being checked ($venv) with no compiler reachable.
run() { env CC="$work/no-compiler/cc" CXX="$work/no-compiler/c++" PATH="$work/no-compiler:$venv/bin:$PATH" "$@"; }
seconds() { python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.1f}")' "$1"; }

# The parity tests: the modules marked `pytestmark = pytest.mark.parity` (only those are collected, so the others'
# imports of extras such as torch or scipy are not needed).
mapfile -t parity_modules < <(cd "$repo/tests" && grep -l '^pytestmark = pytest.mark.parity' test_*.py)
status=0
summary=()
for version in "${versions[@]}"; do
    if ! python="$(find_python "$version")"; then
        if [ "${CI:-}" = "true" ]; then
            echo "check_wheels: FAILED: no CPython $version on this machine (CI=true needs every supported one;" \
                 "install it with pyenv, or name the versions to check)" >&2
            status=1
        else
            echo "check_wheels: no CPython $version on this machine; skipped"
        fi
        summary+=("CPython $version: not found")
        continue
    fi
    tag="cp${version/./}"
    wheel="$(ls -t "$wheels"/refscore-*-"$tag"-"$tag"-*.whl 2>/dev/null | head -1 || true)"
    if [ -z "$wheel" ]; then
        echo "check_wheels: FAILED: no $tag wheel in $wheels (run: bash tools/build_wheels.sh $wheels)" >&2
        status=1
        summary+=("CPython $version: no wheel")
        continue
    fi
    venv="$work/py$version"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    # From here on nothing can compile: the wheel, the example and the peers install and run without a compiler.
    if [ "$(run sh -c 'command -v g++')" != "$work/no-compiler/g++" ]; then
        echo "check_wheels: FAILED: g++ is not the failing stand-in on PATH" >&2
        exit 1
    fi
    started="$(date +%s.%N)"
    if ! run "$venv/bin/python" -m pip install --quiet --only-binary=:all: "$wheel"; then
        echo "check_wheels: FAILED: CPython $version: pip install $(basename "$wheel") without a compiler" >&2
        status=1
        summary+=("CPython $version: install failed")
        continue
    fi
    install_seconds="$(seconds "$started")"
    echo "check_wheels: CPython $version: pip install $(basename "$wheel") took $install_seconds s (no compiler)"
    if ! (cd "$work" && run refscore example >"$work/example$version.txt"); then
        echo "check_wheels: FAILED: CPython $version: refscore example" >&2
        status=1
        summary+=("CPython $version: refscore example failed")
        continue
    fi
    echo "check_wheels: CPython $version: refscore example: $(grep -c . "$work/example$version.txt") lines"
    # The peers the checkout's parity tests compare with (its pyproject's `parity` extra; tomli is refscore's own
    # dependency on 3.10): pure Python or binary wheels, except rouge-score, an sdist that needs no compiler.
    mapfile -t peers < <("$venv/bin/python" -c '
import sys
try:
    import tomllib
except ImportError:
    import tomli as tomllib
with open(sys.argv[1], "rb") as file:
    print("\n".join(tomllib.load(file)["project"]["optional-dependencies"]["parity"]))' "$repo/pyproject.toml")
    if ! run "$venv/bin/python" -m pip install --quiet "${peers[@]}"; then
        echo "check_wheels: FAILED: CPython $version: the parity extra's peers did not install" >&2
        status=1
        summary+=("CPython $version: peers failed to install")
        continue
    fi
    started="$(date +%s.%N)"
    # From tests/, so the installed wheel is imported, not the source tree.
    if (cd "$repo/tests" \
            && run "$venv/bin/python" -m pytest -q -n 2 -p no:cacheprovider -m parity "${parity_modules[@]}"); then
        result="parity tests passed"
    else
        echo "check_wheels: FAILED: CPython $version: parity tests" >&2
        status=1
        result="parity tests FAILED"
    fi
    summary+=("CPython $version: install $install_seconds s, example ok, $result ($(seconds "$started") s)")
done

if [ "${TIME_SDIST:-}" = "1" ] && python="$(find_python "${versions[0]}")"; then
    sdist="$(ls -t "$wheels"/refscore-*.tar.gz | head -1)"
    "$python" -m venv "$work/sdist"
    "$work/sdist/bin/python" -m pip install --quiet --upgrade pip
    started="$(date +%s.%N)"
    "$work/sdist/bin/python" -m pip install --quiet "$sdist"
    summary+=("CPython ${versions[0]}: pip install $(basename "$sdist") (builds the compiled core)"\
" took $(seconds "$started") s")
fi

printf 'check_wheels: %s\n' "${summary[@]}"
exit "$status"
