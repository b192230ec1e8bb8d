"""Run the fuzz targets of fuzz/targets.py: coverage-guided under atheris, one process per target.

    python fuzz/run.py --seconds 60                          # every target, 60 s each, one after another
    python fuzz/run.py --seconds 600 --jobs 16 --summary fuzz-summary.json   # 16 targets at a time
    python fuzz/run.py --seconds 30 --target chrf --target ter
    python fuzz/run.py --list

Each target runs in its own process under libFuzzer (atheris), with its corpus in ``fuzz/corpus/<target>`` (kept
between runs) and crash inputs written to ``--artifacts``; the summary (``--summary``, JSON) lists per target the
executions, the coverage libFuzzer reports (``cov``: edges of the instrumented code, ``ft``: features), the
crashes and their files: docs/reliability.md's table is built from it. Without atheris (``--random``, or atheris
not installed) a target is fed random bytes for the time given and coverage is not measured.

``python fuzz/run.py --reproduce TARGET FILE`` runs one input (a crash file) through a target, with the traceback.
This process never imports refscore: the targets' names come from a child process (``--list`` and the check of
``--target`` included), and every process that does import it imports atheris first, as an instrumented build's
``LD_PRELOAD`` requires (docs/reliability.md, "Coverage of the C++").
A target that cannot run here (an optional dependency or data file missing: MeCab, WordNet) is reported as
unavailable, with the reason, and is no finding. The run ends with one line saying what it found, which targets
were unavailable and whether coverage was measured.
Exit status: 0 when no target found anything (unavailable ones included), 1 when one did or failed to run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The exit status of a worker whose target cannot run here; its reason follows UNAVAILABLE on stderr.
UNAVAILABLE_STATUS = 3
UNAVAILABLE = "REFSCORE-FUZZ-UNAVAILABLE: "
#: libFuzzer's status lines: "#1234\tpulse  cov: 56 ft: 78 corp: ..." (the last one printed holds the totals).
STATUS = re.compile(r"^#(\d+)\s+\w+(?:\s+cov: (\d+) ft: (\d+))?", re.MULTILINE)
#: The modules whose Python code atheris instruments (imported eagerly: refscore's public names load lazily).
INSTRUMENTED = ("refscore", "refscore.inputs", "refscore.metrics.bleu", "refscore.metrics.gleu",
                "refscore.metrics.chrf", "refscore.metrics.ter", "refscore.metrics.rouge",
                "refscore.metrics.rouge.rouge155_text", "refscore.io.record_files", "refscore.io.records",
                "refscore.io.text_files", "refscore.io.statistics", "refscore._column_rules", "refscore.io.limits",
                "refscore.io.tables", "refscore.io.json_lines", "refscore.testing.cases", "refscore.pairs._matrix",
                "refscore.pairs._mbr", "refscore.metrics.meteor.align", "refscore.metrics.meteor.metric",
                "refscore.meta._resample")


def has_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def _warm_up(run, target: str, artifacts: Path) -> bool:
    """The first call (empty input; it imports the peer: sacreBLEU, NLTK...): False, with the reason on stderr,
    when the target cannot run here; an ordinary exception is a finding (its input saved, then raised)."""
    from targets import TargetUnavailable

    try:
        run(b"")
    except (TargetUnavailable, ImportError) as exc:
        # a missing optional package (MeCab) is unavailable; a broken import of refscore itself is a finding
        if not isinstance(exc, ImportError) or (exc.name or "refscore").split(".")[0] != "refscore":
            print(f"{UNAVAILABLE}{type(exc).__name__}: {exc}", file=sys.stderr)
            return False
        raise
    except Exception:
        artifacts.mkdir(parents=True, exist_ok=True)
        (artifacts / f"{target}-crash-empty").write_bytes(b"")
        raise
    return True


def worker(target: str, seconds: float, corpus: Path, artifacts: Path, use_atheris: bool, max_len: int) -> int:
    """The body of one target's process (``--worker``)."""
    if use_atheris:
        import atheris

        import importlib

        with atheris.instrument_imports(include=["refscore"]):
            for module in INSTRUMENTED:
                importlib.import_module(module)
        run = _import_targets()[target]
        if not _warm_up(run, target, artifacts):   # (not counted against libFuzzer's timeout)
            return UNAVAILABLE_STATUS
        corpus.mkdir(parents=True, exist_ok=True)
        artifacts.mkdir(parents=True, exist_ok=True)
        atheris.Setup([sys.argv[0], f"-max_total_time={max(1, int(seconds))}", f"-max_len={max_len}",
                       f"-artifact_prefix={artifacts}/{target}-", "-print_final_stats=1", "-timeout=60",
                       "-rss_limit_mb=4096", str(corpus)], run)
        atheris.Fuzz()
        return 0
    run = _import_targets()[target]
    if not _warm_up(run, target, artifacts):
        return UNAVAILABLE_STATUS
    rng, deadline, executions = random.Random(0), time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        data = rng.randbytes(rng.randint(0, max_len))
        try:
            run(data)
        except Exception:
            artifacts.mkdir(parents=True, exist_ok=True)
            (artifacts / f"{target}-crash-{executions}").write_bytes(data)
            raise
        executions += 1
    print(f"#{executions}\tDONE   cov: 0 ft: 0", file=sys.stderr)
    return 0


def target_names() -> list[str]:
    """The targets' names, read by a child process: this process never imports refscore. Under an instrumented
    build's ``LD_PRELOAD`` refscore's kernels need libFuzzer's symbols (``__sancov_lowest_stack``), which atheris
    brings when it is imported first, as the workers do; a parent that imported refscore failed there."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker-names"], capture_output=True,
                          text=True, cwd=HERE, timeout=600, env=_worker_environment())
    if done.returncode != 0:
        sys.exit(f"fuzz/run.py: the targets could not be imported:\n{done.stderr.strip()}")
    return json.loads(done.stdout.splitlines()[-1])


def _import_targets() -> dict:
    """fuzz/targets.py's TARGETS, in a worker: atheris (when installed) is imported first, so that an
    instrumented build's kernels find libFuzzer's symbols."""
    if has_atheris():
        import atheris  # noqa: F401
    from targets import TARGETS
    return TARGETS


def _worker_environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}


def run_target(target: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", target, "--seconds", str(args.seconds),
               "--artifacts", str(args.artifacts), "--max-len", str(args.max_len)]
    if args.random:
        command.append("--random")
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=HERE, timeout=args.seconds * 3 + 300,
                          env=_worker_environment())
    statuses = STATUS.findall(done.stderr)
    executions, cov, ft = (int(v or 0) for v in statuses[-1]) if statuses else (0, 0, 0)
    crash_files = sorted(str(p) for p in Path(args.artifacts).glob(f"{target}-*"))
    if done.returncode == UNAVAILABLE_STATUS and UNAVAILABLE in done.stderr:
        reason = done.stderr.split(UNAVAILABLE, 1)[1].splitlines()[0]
        return {"target": target, "seconds": round(time.monotonic() - started, 1), "executions": 0, "coverage": 0,
                "features": 0, "crashes": 0, "crash_files": [], "atheris": not args.random, "returncode": 0,
                "unavailable": reason}
    finding = done.returncode != 0
    summary = {"target": target, "seconds": round(time.monotonic() - started, 1), "executions": executions,
               "coverage": cov, "features": ft, "crashes": len(crash_files) if finding else 0,
               "crash_files": crash_files if finding else [], "atheris": not args.random, "returncode": done.returncode}
    if finding:
        summary["error"] = _error_of(done.stdout + "\n" + done.stderr)
    return summary


def _error_of(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        if "Uncaught Python exception" in line or line.startswith("Traceback"):
            return "\n".join(lines[index:index + 30])
    return "\n".join(lines[-30:])


def markdown_table(results: list[dict]) -> str:
    """docs/reliability.md's table of a run: target, seconds, executions, coverage, crashes (and the finding)."""
    lines = ["| Target | Seconds | Executions | Coverage (cov / ft) | Findings |", "| --- | --- | --- | --- | --- |"]
    for r in results:
        raised = [line.strip() for line in r.get("error", "").splitlines()
                  if re.match(r"\s*\w+(Error|Exception)\b", line)]
        finding = (raised[-1:] or ["see --reproduce"]) if r["crashes"] else []
        outcome = f"{r['crashes']}{': ' + finding[0][:80] if finding else ''}"
        if r.get("returncode") and not r["crashes"]:  # the worker failed without a crash input: it did not run
            outcome = f"did not run: {(raised[-1:] or ['exit status ' + str(r['returncode'])])[0][:80]}"
        if r.get("unavailable"):
            outcome = f"unavailable here: {r['unavailable'][:80]}"
        lines.append(f"| `{r['target']}` | {r['seconds']:.0f} | {r['executions']:,} | {r['coverage']} / "
                     f"{r['features']} | {outcome} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60, help="time per target (default 60)")
    parser.add_argument("--target", action="append", help="a target (repeatable; default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="targets run at the same time (default 1)")
    parser.add_argument("--summary", help="write the JSON summary here")
    parser.add_argument("--artifacts", default=str(HERE / "artifacts"), help="where crash inputs go")
    parser.add_argument("--max-len", type=int, default=2048, help="largest input, bytes (default 2048)")
    parser.add_argument("--random", action="store_true", help="random bytes instead of atheris")
    parser.add_argument("--list", action="store_true", help="list the targets")
    parser.add_argument("--markdown", metavar="SUMMARY", help="print a summary file as docs/reliability.md's table")
    parser.add_argument("--reproduce", nargs=2, metavar=("TARGET", "FILE"), help="run one input through a target")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-names", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    if args.worker:
        return worker(args.worker, args.seconds, HERE / "corpus" / args.worker, Path(args.artifacts),
                      not args.random, args.max_len)
    if args.worker_names:
        print(json.dumps(list(_import_targets())))
        return 0
    if args.markdown:
        print(markdown_table(json.loads(Path(args.markdown).read_text(encoding="utf-8"))))
        return 0
    if args.reproduce:  # one input in this process, imported as a worker imports it
        _import_targets()[args.reproduce[0]](Path(args.reproduce[1]).read_bytes())
        print("no finding")
        return 0
    names = target_names()
    if args.list:
        print("\n".join(names))
        return 0
    unknown = sorted(set(args.target or ()) - set(names))
    if unknown:
        parser.error(f"unknown target(s) {unknown}; --list shows them")
    if not args.random and not has_atheris():
        print("atheris is not installed (pip install atheris): feeding random bytes instead", file=sys.stderr)
        args.random = True
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda name: run_target(name, args), args.target or names))
    for result in results:
        print(f"{result['target']:20} {result['executions']:>9} execs  cov {result['coverage']:>6}  "
              f"ft {result['features']:>6}  crashes {result['crashes']}"
              + (f"  unavailable: {result['unavailable']}" if result.get("unavailable") else ""))
        if result.get("error"):
            print("    " + result["error"].replace("\n", "\n    "))
    if args.summary:
        Path(args.summary).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(verdict(results, measured=not args.random))
    return 1 if any(r["returncode"] for r in results) else 0


def verdict(results: list[dict], measured: bool) -> str:
    """The run's last line: findings (or none), the targets that could not run here, whether coverage counted.

    >>> verdict([{"target": "a", "returncode": 0}, {"target": "m", "returncode": 0, "unavailable": "no WordNet"}],
    ...         measured=False)
    'fuzz/run.py: no finding in 1 target; 1 unavailable here (m: no WordNet); random bytes, coverage not measured (atheris is not installed or --random)'
    """
    failed = [r["target"] for r in results if r["returncode"]]
    unavailable = [r for r in results if r.get("unavailable")]
    ran = len(results) - len(unavailable)
    text = (f"fuzz/run.py: {len(failed)} target(s) found something or failed: {', '.join(failed)}" if failed else
            f"fuzz/run.py: no finding in {ran} target{'s' if ran != 1 else ''}")
    if unavailable:
        text += (f"; {len(unavailable)} unavailable here ("
                 + "; ".join(f"{r['target']}: {r['unavailable'][:100]}" for r in unavailable) + ")")
    if not measured:
        text += "; random bytes, coverage not measured (atheris is not installed or --random)"
    return text


if __name__ == "__main__":
    sys.exit(main())
