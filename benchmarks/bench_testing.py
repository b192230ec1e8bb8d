"""Test-case checks: refscore.testing against deepeval 4.x's scorer, and `refscore check` on 20 cases.

    python benchmarks/bench_testing.py                                   # 100,000 cases, BLEU + chrF + ROUGE-L
    python benchmarks/bench_testing.py --peer-cases 20000                # time the per-case peers on 20,000 only
    python benchmarks/bench_testing.py --deepeval-python /path/bin/python   # or DEEPEVAL_PYTHON=/path/bin/python

Cases are WMT22 system outputs into English (``../shared/data/wmt22/*-en``) with their references. refscore scores
each check in one batch (``evaluate(..., explain="none")``, including the pass-rate and bootstrap intervals;
the median of 3 runs after a warm-up on 100 cases).
deepeval's ``Scorer`` runs in its own environment (``--deepeval-python`` or ``$DEEPEVAL_PYTHON``, no default: deepeval
pins pytest plugins that should not enter the shared one; docs/testing.md says how to build it; without it only
refscore is timed) one case at a time, as deepeval does: ``Scorer.rouge_score(..., "rougeL")`` builds a new
``RougeScorer(use_stemmer=True)`` per call, ``Scorer.sentence_bleu_score(..., "bleu4")`` tokenizes with NLTK and
calls ``sentence_bleu`` with weights (0, 0, 0, 1) — 4-gram precision, not BLEU. NLTK's punkt sentence model is
not installable offline here, so ``sent_tokenize`` is replaced by "one sentence per text" (WMT segments are
sentences); that makes deepeval's BLEU calls slightly cheaper than real, so the ratio is conservative. deepeval
has no chrF; its peer is sacreBLEU's ``sentence_chrf`` per case. With ``--peer-cases`` below the case count the
peer times are measured on that many cases and scaled linearly (stated in the output).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO.parent / "shared" / "data"))
#: deepeval's interpreter: --deepeval-python, else this environment variable (no default: it is machine-specific)
DEEPEVAL_PYTHON_VARIABLE = "DEEPEVAL_PYTHON"
#: What deepeval's environment needs besides deepeval: its Scorer imports these on first use.
DEEPEVAL_REQUIREMENTS = "deepeval==4.3.1 rouge-score sacrebleu nltk"

DEEPEVAL_SCRIPT = r"""
import json, sys, time, warnings
warnings.filterwarnings("ignore")   # NLTK warns on every case without 4-gram overlap
import nltk.tokenize
nltk.tokenize.sent_tokenize = lambda text, language="english": [text]   # punkt is not available offline
from deepeval.scorer import Scorer
cases = json.load(open(sys.argv[1]))
start = time.perf_counter()
bleu4 = [Scorer.sentence_bleu_score(refs, pred, "bleu4") for pred, refs in cases]
bleu_seconds = time.perf_counter() - start
start = time.perf_counter()
rouge = [Scorer.rouge_score(refs[0], pred, "rougeL") for pred, refs in cases]
rouge_seconds = time.perf_counter() - start
import deepeval
json.dump({"version": deepeval.__version__, "bleu4": bleu4, "rougeL": rouge, "bleu_seconds": bleu_seconds,
           "rouge_seconds": rouge_seconds}, open(sys.argv[2], "w"))
"""


def load_cases(count: int) -> tuple[list[str], list[list[str]]]:
    """``count`` (output, [reference]) pairs from the WMT22 into-English systems, in a fixed order."""
    predictions: list[str] = []
    references: list[list[str]] = []
    for pair in sorted(p for p in (DATA / "wmt22").iterdir() if p.name.endswith("-en")):
        refs = (pair / "ref.txt").read_text(encoding="utf-8").split("\n")[:-1]
        for system in sorted((pair / "sys").iterdir()):
            lines = system.read_text(encoding="utf-8").split("\n")[:-1]
            predictions += lines
            references += [[r] for r in refs]
            if len(predictions) >= count:
                return predictions[:count], references[:count]
    raise SystemExit(f"only {len(predictions)} cases in {DATA / 'wmt22'}")


def time_refscore(predictions, references, repeats: int = 3):
    """Median seconds over ``repeats`` runs of evaluate() (load, score, pass/fail, bands), of the summaries and
    gates it computes on first use (Wilson intervals, a 1,000-resample bootstrap of the means), and of the three
    batch scoring calls alone."""
    from refscore.testing import Check, evaluate

    checks = [Check("bleu"), Check("chrf"), Check("rougeL", stemmer=True)]
    cases = [{"actual_output": p, "expected_output": r} for p, r in zip(predictions, references)]
    evaluate(cases[:100], checks, explain="none")   # first-use costs (lazy imports, tables) stay out of the timing
    times: list[tuple[float, float, float]] = []
    for _ in range(repeats):
        start = time.perf_counter()
        run = evaluate(cases, checks, explain="none")
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        run.gates
        summary_seconds = time.perf_counter() - start
        start = time.perf_counter()
        for check in checks:
            check.scores(predictions, references)
        times.append((seconds, summary_seconds, time.perf_counter() - start))
    scores = {name: outcome.scores for name, outcome in run.outcomes.items()}
    return (*(statistics.median(column) for column in zip(*times)), scores, run)


def time_deepeval(python, predictions, references):
    with tempfile.TemporaryDirectory() as folder:
        cases, out, script = (Path(folder) / name for name in ("cases.json", "out.json", "run.py"))
        cases.write_text(json.dumps(list(zip(predictions, references))), encoding="utf-8")
        script.write_text(DEEPEVAL_SCRIPT, encoding="utf-8")
        subprocess.run([python, str(script), str(cases), str(out)], check=True)
        return json.loads(out.read_text(encoding="utf-8"))


def time_chrf_peer(predictions, references):
    import sacrebleu

    start = time.perf_counter()
    scores = [sacrebleu.sentence_chrf(p, r).score / 100 for p, r in zip(predictions, references)]
    return time.perf_counter() - start, np.asarray(scores)


def time_cli(repeats: int = 7) -> tuple[float, float, float]:
    """`refscore check` on 20 cases (BLEU, chrF, ROUGE-L): median wall and CPU (user + system) seconds, and the
    median wall time of a bare interpreter start. Bytecode is cached (in a temporary PYTHONPYCACHEPREFIX) as in
    an installed package, even where PYTHONDONTWRITEBYTECODE is set."""
    predictions, references = load_cases(20)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cases.jsonl"
        path.write_text("".join(json.dumps({"actual_output": p, "expected_output": r}) + "\n"
                                for p, r in zip(predictions, references)), encoding="utf-8")
        command = [sys.executable, "-m", "refscore.cli", "check", str(path), "--check", "bleu=0.3", "--check",
                   "chrf=0.5", "--check", "rougeL=0.5"]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")

        def timed(argv):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

        timed(command)   # compiles and caches the bytecode, warms the file cache
        runs = [timed(command) for _ in range(repeats)]
        bare = statistics.median(timed([sys.executable, "-c", "pass"])[0] for _ in range(repeats))
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs), bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--peer-cases", type=int, default=None, help="cases timed for the per-case peers "
                        "(default: all)")
    parser.add_argument("--deepeval-python", metavar="PYTHON", default=os.environ.get(DEEPEVAL_PYTHON_VARIABLE),
                        help=f"the python of an environment with {DEEPEVAL_REQUIREMENTS} (default: "
                             f"${DEEPEVAL_PYTHON_VARIABLE}; without either, deepeval is not timed)")
    args = parser.parse_args()
    if args.deepeval_python is not None and not Path(args.deepeval_python).is_file():
        parser.error(f"--deepeval-python {args.deepeval_python}: no such interpreter; build the environment with "
                     f"python -m venv DIR && DIR/bin/pip install {DEEPEVAL_REQUIREMENTS} (docs/testing.md, Speed)")
    predictions, references = load_cases(args.cases)
    print(f"{len(predictions)} cases (WMT22 into English), checks BLEU + chrF + ROUGE-L")

    seconds, summary_seconds, scoring, scores, run = time_refscore(predictions, references)
    print(f"refscore evaluate (load, score, pass/fail, bands; median of 3): {seconds:.2f} s; summaries and gates "
          f"(Wilson intervals, bootstrap of the means, 1,000 resamples): {summary_seconds:.2f} s more; the three "
          f"batch scoring calls alone: {scoring:.2f} s")

    peer_n = min(args.peer_cases or len(predictions), len(predictions))
    scale = len(predictions) / peer_n
    note = f" (measured on {peer_n} cases, scaled x{scale:.1f})" if scale != 1 else ""
    deepeval_seconds = None
    if args.deepeval_python is None:
        print(f"deepeval not timed: give --deepeval-python PYTHON or set ${DEEPEVAL_PYTHON_VARIABLE} (an environment "
              f"with {DEEPEVAL_REQUIREMENTS}; see docs/testing.md, Speed)")
    else:
        peer = time_deepeval(args.deepeval_python, predictions[:peer_n], references[:peer_n])
        chrf_seconds, chrf_scores = time_chrf_peer(predictions[:peer_n], references[:peer_n])
        deepeval_seconds = (peer["bleu_seconds"] + peer["rouge_seconds"] + chrf_seconds) * scale
        print(f"deepeval {peer['version']} Scorer per case: bleu4 {peer['bleu_seconds'] * scale:.1f} s, rougeL "
              f"{peer['rouge_seconds'] * scale:.1f} s; sacreBLEU sentence_chrf per case {chrf_seconds * scale:.1f} s"
              f"{note}")
        print(f"total {deepeval_seconds:.1f} s vs refscore evaluate {seconds:.2f} s: {deepeval_seconds / seconds:.0f}x "
              f"faster; with the summaries and gates {deepeval_seconds / (seconds + summary_seconds):.0f}x")
        rouge_diff = np.max(np.abs(np.asarray(peer["rougeL"]) - scores["rougeL"][:peer_n]))
        chrf_diff = np.max(np.abs(chrf_scores - scores["chrf"][:peer_n]))
        bleu4_diff = np.abs(np.asarray(peer["bleu4"]) - scores["bleu"][:peer_n])
        print(f"agreement: ROUGE-L (stemmed) max |diff| vs deepeval {rouge_diff:.2e}; chrF max |diff| vs sacreBLEU "
              f"{chrf_diff:.2e}; deepeval's bleu4 is 4-gram precision, not BLEU: mean |diff| "
              f"{bleu4_diff.mean():.3f}, max {bleu4_diff.max():.3f}")
    import sacrebleu

    sample = min(peer_n, 10_000)
    bleu_diff = max(abs(sacrebleu.sentence_bleu(p, r).score / 100 - s)
                    for p, r, s in zip(predictions[:sample], references[:sample], scores["bleu"]))
    print(f"agreement: BLEU max |diff| vs sacreBLEU sentence_bleu on {sample} cases {bleu_diff:.2e}")
    print("pass rates: " + ", ".join(f"{name} {s.pass_rate:.1%}" for name, s in run.summary.items()))

    wall, cpu, bare = time_cli()
    print(f"refscore check, 20 cases x 3 checks: {wall:.3f} s wall, {cpu:.3f} s CPU (medians of 7; a bare "
          f"`python -c pass` takes {bare:.3f} s wall here; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
