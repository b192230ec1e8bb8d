"""Start-up: what a shell user waits for before any text is scored, refscore against sacreBLEU's command line in
the same run, each command in a fresh interpreter.

Rows (CPU seconds of the child process, user + system, from ``resource.getrusage(RUSAGE_CHILDREN)``; best-of and
median of ``--repeat`` runs, the two tools alternating; ratio = refscore / sacreBLEU, so <= 1 is "no slower";
modules = ``len(sys.modules)`` at exit of the same command, run once more with ``-X importtime`` off):

1. ``import refscore`` against ``import sacrebleu``;
2. ``refscore --help`` against ``sacrebleu --help``;
3. ``refscore score --help`` (every metric's flags) against ``sacrebleu --help``;
4. ``refscore score -m bleu -r REF`` on a 1-line input against ``sacrebleu REF`` on the same line; both print
   the same BLEU (checked: "agree").

    python benchmarks/bench_startup.py [--repeat 15] [--importtime]

``--importtime`` prints, for the refscore commands, the 15 slowest imports (cumulative microseconds, from
``python -X importtime``), to see what to make lazy.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence

#: The line scored by row 4 (its own reference: BLEU 100 in both tools).
LINE = "The quick brown fox jumps over the lazy dog ."
#: Run the command line in-process after counting: the module count is taken at exit.
_COUNT = ("import atexit, sys; atexit.register(lambda: print('MODULES', len(sys.modules), file=sys.stderr)); "
          "sys.argv = {argv!r}; {run}")
_RUN = {"refscore": "from refscore.cli.main import main; sys.exit(main())",
        "sacrebleu": "from sacrebleu.sacrebleu import main; sys.exit(main())"}


def child_cpu(command: Sequence[str], stdin: str | None) -> tuple[float, str, str]:
    """CPU seconds (user + system) of one child process running ``command``, with its stdout and stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout, done.stderr


def python_command(code: str, *flags: str) -> list[str]:
    return [sys.executable, *flags, "-c", code]


def tool_command(tool: str, argv: list[str] | None) -> list[str]:
    """``argv is None``: ``import TOOL``; else TOOL's command line with ``argv``."""
    if argv is None:
        return python_command(f"import atexit, sys; atexit.register(lambda: print('MODULES', len(sys.modules), "
                              f"file=sys.stderr)); import {tool}")
    return python_command(_COUNT.format(argv=[tool, *argv], run=_RUN[tool]))


def modules_of(stderr: str) -> int:
    found = re.findall(r"MODULES (\d+)", stderr)
    return int(found[-1]) if found else -1


def bleu_of(tool: str, stdout: str) -> float:
    """The BLEU score each tool prints for row 4 (refscore's table, sacreBLEU's JSON)."""
    if tool == "sacrebleu":
        return float(re.search(r'"score":\s*([\d.]+)', stdout).group(1))
    return float(re.search(r"^<stdin>\s+([\d.]+)", stdout, re.MULTILINE).group(1))


def importtime(command: list[str], stdin: str | None, top: int) -> list[tuple[int, str]]:
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], input=stdin, capture_output=True,
                          text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:top]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each command per tool (default 15)")
    parser.add_argument("--importtime", action="store_true", help="show refscore's slowest imports per row")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        reference = os.path.join(folder, "ref.txt")
        with open(reference, "w", encoding="utf-8") as handle:
            handle.write(LINE + "\n")
        rows = [
            ("import", None, None, None),
            ("--help", ["--help"], ["--help"], None),
            ("score --help", ["score", "--help"], ["--help"], None),
            ("score -m bleu, 1 line", ["score", "-m", "bleu", "-r", reference], [reference], LINE + "\n"),
        ]
        print(f"{'command':<24}{'refscore best/median s':>24}{'sacreBLEU best/median s':>25}{'ratio best/med':>16}"
              f"{'modules':>14}  agree")
        for label, ours, theirs, stdin in rows:
            commands = {"refscore": tool_command("refscore", ours if label != "import" else None),
                        "sacrebleu": tool_command("sacrebleu", theirs if label != "import" else None)}
            times: dict[str, list[float]] = {"refscore": [], "sacrebleu": []}
            outputs: dict[str, tuple[str, str]] = {}
            for _ in range(args.repeat):
                for tool, command in commands.items():   # alternating: both tools see the same host noise
                    cpu, out, err = child_cpu(command, stdin)
                    times[tool].append(cpu)
                    outputs[tool] = (out, err)
            best = {tool: min(values) for tool, values in times.items()}
            median = {tool: statistics.median(values) for tool, values in times.items()}
            modules = {tool: modules_of(outputs[tool][1]) for tool in commands}
            agree = "-"
            if stdin is not None:
                scores = {tool: bleu_of(tool, outputs[tool][0]) for tool in commands}
                agree = f"{'yes' if abs(scores['refscore'] - scores['sacrebleu']) < 1e-9 else 'NO'} " \
                        f"({scores['refscore']:.2f})"
            print(f"{label:<24}{best['refscore']:>12.3f}/{median['refscore']:<11.3f}"
                  f"{best['sacrebleu']:>13.3f}/{median['sacrebleu']:<11.3f}"
                  f"{best['refscore'] / best['sacrebleu']:>8.2f}/{median['refscore'] / median['sacrebleu']:<7.2f}"
                  f"{modules['refscore']:>6}/{modules['sacrebleu']:<7}  {agree}")
            if args.importtime:
                for micros, name in importtime(commands["refscore"], stdin, 15):
                    print(f"    {micros:>8} us  {name}")


if __name__ == "__main__":
    main()
