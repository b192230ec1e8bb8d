"""Two builds of refscore in one sitting: the same public calls timed in each build's interpreter, alternately.

A change to the compiled core or the protocol must not slow refscore down. Comparing two benchmark runs made
minutes apart on a shared machine mixes the change with the machine's load; this script runs the calls in the
"before" and "after" interpreters alternately, ``--rounds`` times, and keeps each call's best time per build, so both
builds meet the same load.

    python benchmarks/bench_builds.py --before /path/old/.venv/bin/python --after .venv/bin/python [--rounds 3]
    python benchmarks/bench_builds.py --before-path /tmp/old/src --after-path src     # one interpreter, two trees

``benchmarks/compare_builds.py`` builds two git revisions into such trees and runs this comparison on them.

Each call runs with one thread (CPU seconds measure the work, not the scheduling) on real data from
``../shared/data`` (``REFSCORE_SHARED_DATA``): corpus BLEU, Google-BLEU, chrF, chrF++ and TER on WMT22 en-de (one
system, two references) and BLEU with ``zh`` on zh-en; BLEU ``sentence_scores`` on 20,000 WMT22 pairs; ROUGE
(rouge1, rouge2, rougeL, rougeLsum, stemmed) and ROUGE-1.5.5 (ROUGE-1, 2, L, stemmed) on the 11,490 CNN/DM
pointer-generator summaries. It prints, per call, the best CPU seconds of each build, after / before, and whether
the two builds' scores are equal.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def _calls() -> dict[str, Callable[[], Any]]:
    """Name -> a call returning its score (a float or a list of floats), built on the data once."""
    import refscore

    ende = DATA / "wmt22" / "en-de"
    hyps = _lines(sorted((ende / "sys").glob("*.txt"))[0])
    refs = [_lines(ende / "ref.txt"), _lines(ende / "ref2.txt")]
    zhen = DATA / "wmt22" / "zh-en"
    zh_hyps = _lines(sorted((zhen / "sys").glob("*.txt"))[0])
    zh_refs = [_lines(zhen / "ref.txt")]
    pair_hyps: list[str] = []
    pair_refs: list[str] = []
    for pair in sorted(p for p in (DATA / "wmt22").iterdir() if (p / "sys").is_dir()):
        ref = _lines(pair / "ref.txt")
        for system in sorted((pair / "sys").glob("*.txt"))[:2]:
            pair_hyps += _lines(system)
            pair_refs += ref
    pair_hyps, pair_refs = pair_hyps[:20_000], [[r] for r in pair_refs[:20_000]]
    records = [json.loads(line) for line in
               (DATA / "summ_cnndm_see2017" / "pointer-gen.jsonl").read_text(encoding="utf-8").splitlines()]
    summaries = [r["prediction"] for r in records]
    articles = [r["references"] for r in records]
    streams = refscore.from_streams(refs)
    one = {"num_threads": 1}

    def rouge_means() -> list[float]:
        result = refscore.rouge(summaries, articles, ["rouge1", "rouge2", "rougeL", "rougeLsum"], stemmer=True,
                                **one)
        return [float(result[t].mean.fmeasure) if hasattr(result[t].mean, "fmeasure") else
                float(result[t].fmeasure.mean()) for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")]

    def rouge155_means() -> list[float]:
        result = refscore.rouge155(summaries, articles, types=["ROUGE-1", "ROUGE-2", "ROUGE-L"], stemming=True,
                                   resamples=1, **one)
        return [float(result[t].fmeasure.mean()) for t in ("ROUGE-1", "ROUGE-2", "ROUGE-L")]

    return {
        "BLEU corpus en-de (13a, 2 refs)": lambda: refscore.BLEU().corpus_score(hyps, streams, **one).score,
        "BLEU corpus zh-en (zh)": lambda: refscore.BLEU(tokenize="zh").corpus_score(
            zh_hyps, refscore.from_streams(zh_refs), **one).score,
        "Google-BLEU corpus en-de": lambda: refscore.GLEU().corpus_score(hyps, streams, **one).score,
        "chrF corpus en-de": lambda: refscore.CHRF().corpus_score(hyps, streams, **one).score,
        "chrF++ corpus en-de": lambda: refscore.CHRF(word_order=2).corpus_score(hyps, streams, **one).score,
        "TER corpus en-de": lambda: refscore.TER().corpus_score(hyps, streams, **one).score,
        "BLEU sentence_scores, 20,000 pairs": lambda: [float(x) for x in refscore.BLEU(effective_order=True)
                                                         .sentence_scores(pair_hyps, pair_refs, **one)[:50]],
        "ROUGE 1/2/L/Lsum stemmed, CNN/DM 11,490": rouge_means,
        "ROUGE-1.5.5 1/2/L stemmed, CNN/DM 11,490": rouge155_means,
    }


def _child(repeat: int) -> None:
    """Time every call in this interpreter; print one JSON object: name -> [best CPU s, best wall s, score]."""
    calls = _calls()
    results = {}
    for name, call in calls.items():
        call()   # warm: first-use tables, lazy imports
        cpu, wall = [], []
        for _ in range(repeat):
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            score = call()
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start_wall)
        results[name] = [min(cpu), min(wall), score]
    print(json.dumps(results))


def _environment(path: str | None) -> dict[str, str]:
    """The child's environment: ``path`` (a source tree's ``src`` with its built ``.so`` files) first on
    ``PYTHONPATH``."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([path, *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def compare(builds: dict[str, tuple[str, str | None]], rounds: int, repeat: int) -> dict[str, dict[str, list[Any]]]:
    """Time the calls in each build (label -> (interpreter, source path or None)), the builds alternating,
    ``rounds`` times; print and return, per build and call, ``[best CPU s, best wall s, score]``."""
    best: dict[str, dict[str, list[Any]]] = {label: {} for label in builds}
    for round_index in range(rounds):
        for label, (python, path) in builds.items():
            out = subprocess.run([python, __file__, "--child", "--repeat", str(repeat)], check=True,
                                 capture_output=True, text=True, cwd=Path(__file__).parent,
                                 env=_environment(path)).stdout
            for name, (cpu, wall, score) in json.loads(out.splitlines()[-1]).items():
                kept = best[label].setdefault(name, [cpu, wall, score])
                best[label][name] = [min(kept[0], cpu), min(kept[1], wall), score]
        print(f"round {round_index + 1} of {rounds} done (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
    before, after = list(builds)
    print(f"{'call (1 thread; best CPU s of ' + str(rounds * repeat) + ')':<44} {before:>8} {after:>8}"
          f" {'after/before':>12}  scores equal")
    for name, (cpu_before, _, score_before) in best[before].items():
        cpu_after, _, score_after = best[after][name]
        print(f"{name:<44} {cpu_before:8.4f} {cpu_after:8.4f} {cpu_after / cpu_before:12.2f}  "
              f"{score_before == score_after}")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", help="interpreter of the earlier build")
    parser.add_argument("--after", default=sys.executable, help="interpreter of the later build (default: this one)")
    parser.add_argument("--before-path", help="source folder (src/ with built .so files) of the earlier build, put "
                                              "first on PYTHONPATH (then --before defaults to this interpreter)")
    parser.add_argument("--after-path", help="the same for the later build")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two builds")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per round")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.repeat)
        return
    if not args.before and not args.before_path:
        parser.error("--before PYTHON or --before-path SRC is required (the build to compare with)")
    compare({"before": (args.before or sys.executable, args.before_path),
             "after": (args.after, args.after_path)}, args.rounds, args.repeat)


if __name__ == "__main__":
    main()
