"""Two git revisions of refscore, built and benchmarked against each other in one sitting.

"Same speed within noise, measured build against build in one sitting": this script exports each revision's tree
(``git archive``, nothing checked out in the repository), builds its compiled core with meson (release, as the
wheel is built) and copies the ``.so`` files into the tree's ``src/refscore/_core/``, then runs
``bench_builds.py``'s calls in both trees alternately with this interpreter (each tree first on ``PYTHONPATH``) and
prints, per call, the best CPU seconds of each build, their ratio and whether the two builds' scores are equal.

    python benchmarks/compare_builds.py 0450668 HEAD [--rounds 3 --repeat 3] [--work /tmp/refscore-builds]

``.`` as a revision is this checkout as it is (uncommitted changes included, its ``.so`` files as built). Built
trees are kept under ``--work`` and reused by the next run (a build takes minutes: meson and Cython on every
``.pyx``). ``--so-from REV=DIR`` takes a revision's ``.so`` files from a build folder made elsewhere (e.g.
``ninja -C DIR``) instead of building. Figures: docs/architecture.md, "Speed before and after".
"""
from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_builds import compare  # noqa: E402  (beside this script)

CORE = Path("src") / "refscore" / "_core"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def _meson() -> list[str]:
    """meson from this interpreter's environment (the build requirements), else from PATH."""
    beside = Path(sys.executable).with_name("meson")
    return [str(beside)] if beside.exists() else ["meson"]


def _built(tree: Path) -> bool:
    sources = {path.stem for path in (tree / CORE).glob("*.pyx")}
    built = {path.name.split(".")[0] for path in (tree / CORE).glob("*.so")}
    return bool(sources) and sources <= built


def _copy_modules(build: Path, tree: Path) -> None:
    modules = sorted((build / CORE).glob("*.so"))
    if not modules:
        raise SystemExit(f"no .so files under {build / CORE}; build the revision there first (ninja -C {build})")
    for module in modules:
        shutil.copy2(module, tree / CORE / module.name)


def prepare(repo: Path, revision: str, work: Path, so_from: Path | None) -> Path:
    """The ``src`` folder of ``revision``'s tree, exported and built under ``work`` (reused when already built)."""
    if revision == ".":
        if not _built(repo):
            raise SystemExit(f"{repo / CORE} lacks built .so files; copy or build them first")
        return repo / "src"
    commit = _git(repo, "rev-parse", "--verify", f"{revision}^{{commit}}")
    tree, build = work / commit[:12], work / f"{commit[:12]}-build"
    if not (tree / "pyproject.toml").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(repo), "archive", commit], check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
    if not _built(tree):
        if so_from is not None:
            _copy_modules(so_from, tree)
        else:
            print(f"building {revision} ({commit[:12]}) in {build} (minutes)", file=sys.stderr)
            if not (build / "build.ninja").exists():
                subprocess.run([*_meson(), "setup", str(build), "-Dbuildtype=release"], cwd=tree, check=True,
                               stdout=subprocess.DEVNULL)
            subprocess.run(["ninja", "-C", str(build)], check=True, stdout=subprocess.DEVNULL)
            _copy_modules(build, tree)
    return tree / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", help="the earlier revision (a commit, branch or tag; '.': this checkout)")
    parser.add_argument("after", nargs="?", default=".", help="the later revision (default '.': this checkout)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/refscore-builds"),
                        help="where the trees and builds are kept (reused)")
    parser.add_argument("--so-from", action="append", default=[], metavar="REV=DIR",
                        help="take REV's .so files from the build folder DIR instead of building it")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two builds")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per round")
    args = parser.parse_args()
    repo = Path(_git(HERE, "rev-parse", "--show-toplevel"))
    given = dict(item.split("=", 1) for item in args.so_from)
    paths = {label: prepare(repo, revision, args.work, Path(given[revision]) if revision in given else None)
             for label, revision in (("before", args.before), ("after", args.after))}
    print(f"before: {args.before} ({paths['before']}); after: {args.after} ({paths['after']})")
    compare({label: (sys.executable, str(path)) for label, path in paths.items()}, args.rounds, args.repeat)


if __name__ == "__main__":
    main()
