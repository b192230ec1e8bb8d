# Sourced by tools/build_wheels.sh and tools/check_wheels.sh: locate each supported CPython on this machine.
# find_python 3.12 prints the interpreter's path (python3.12 on PATH, else pyenv's newest 3.12.x) or fails.
SUPPORTED_PYTHONS=(3.10 3.11 3.12 3.13)

find_python() {
    local version="$1" candidate
    # pyenv's shims answer only for the selected versions; its install folders hold every installed one.
    for candidate in "$(command -v "python$version" 2>/dev/null || true)" \
            $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/"python$version" 2>/dev/null | sort -V -r); do
        if [ -n "$candidate" ] && "$candidate" -c 'import sys, venv' >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}
