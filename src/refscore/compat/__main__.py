"""``python -m refscore.compat run script.py [args...]``: run an existing program with the drop-ins switched on
(:func:`refscore.compat.install`), unchanged: ``sys.argv`` and ``__main__`` are as if it had been started with
``python script.py args...``."""
from __future__ import annotations

import os
import runpy
import sys

from refscore.compat._install import install

USAGE = "usage: python -m refscore.compat run SCRIPT.py [ARGS...]"


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "run":
        print(USAGE, file=sys.stderr)
        return 2
    script = argv[1]
    if not os.path.isfile(script):
        print(f"refscore.compat run: {script}: no such file; {USAGE}", file=sys.stderr)
        return 2
    install()
    sys.argv = argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
