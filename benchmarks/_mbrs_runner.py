"""mbrs's BLEU, chrF and TER n x n matrices, timed, for bench_pairwise.py: run by mbrs's own interpreter (mbrs is
installed with ``--no-deps`` in its own environment, so that its dependencies cannot replace refscore's torch).

    /work/venv-mbrs/bin/python benchmarks/_mbrs_runner.py ITEMS.json OUT.npz --metrics chrf bleu ter --workers 1

The environment (CPU torch from its wheel; nothing else mbrs lists is needed for these three metrics):

    python -m venv /work/venv-mbrs
    /work/venv-mbrs/bin/pip install --no-deps mbrs==0.1.8 sacrebleu==2.6.0 numpy portalocker regex tabulate \
        colorama lxml fastchrf torch==2.13.0+cpu typing_extensions sympy mpmath networkx jinja2 markupsafe \
        filelock fsspec

ITEMS.json holds ``{"items": [[candidate, ...], ...], "rows": R}``: every item's first R candidates are scored
against all its candidates with ``Metric.pairwise_scores`` (mbrs's n x n matrix: sacreBLEU's sentence score of
each pair through a process pool of ``--workers`` processes, returned as a float32 tensor), mbrs's default
configuration of each metric. OUT.npz gets one ``(items, R, n)`` array per metric; standard output one JSON line
of best CPU seconds (this process and its finished worker processes) and best wall seconds per metric.

``import mbrs.metrics`` imports every metric mbrs has (COMET, BLEURT, MetricX, BERTScore), whose dependencies
this environment leaves out; the package module is therefore set up here from ``mbrs.metrics.base`` alone, and the
three metric modules are imported unchanged.
"""
from __future__ import annotations

import argparse
import importlib
import json
import resource
import sys
import time
import types
from pathlib import Path

import numpy as np


def metric_classes() -> dict[str, type]:
    import mbrs

    package = types.ModuleType("mbrs.metrics")
    package.__path__ = [str(Path(mbrs.__file__).parent / "metrics")]
    sys.modules["mbrs.metrics"] = package
    base = importlib.import_module("mbrs.metrics.base")
    for name in dir(base):
        if not name.startswith("_"):
            setattr(package, name, getattr(base, name))
    return {"bleu": importlib.import_module("mbrs.metrics.bleu").MetricBLEU,
            "chrf": importlib.import_module("mbrs.metrics.chrf").MetricChrF,
            "ter": importlib.import_module("mbrs.metrics.ter").MetricTER}


def cpu_seconds() -> float:
    """CPU time of this process and of its worker processes that have ended (mbrs's pools end with each call)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("items")
    parser.add_argument("output")
    parser.add_argument("--metrics", nargs="+", default=["chrf", "bleu", "ter"])
    parser.add_argument("--workers", type=int, default=1, help="mbrs's num_workers (processes per call)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    spec = json.loads(Path(args.items).read_text(encoding="utf-8"))
    items, rows = spec["items"], spec["rows"]
    classes = metric_classes()
    timings, matrices = {}, {}
    for name in args.metrics:
        metric = classes[name](classes[name].Config(num_workers=args.workers))
        best_cpu = best_wall = float("inf")
        for _ in range(args.repeat):
            cpu, wall = cpu_seconds(), time.perf_counter()
            result = [metric.pairwise_scores(candidates[:rows], candidates).numpy() for candidates in items]
            best_cpu, best_wall = min(best_cpu, cpu_seconds() - cpu), min(best_wall, time.perf_counter() - wall)
        matrices[name] = np.stack(result)
        timings[name] = {"cpu": best_cpu, "wall": best_wall}
    np.savez(args.output, **matrices)
    print(json.dumps(timings))


if __name__ == "__main__":
    main()
