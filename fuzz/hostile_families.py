"""Generators of hostile-input families (issue 40 items 3, 10, 12, 13 and 15): each family draws variants of one
kind of hostile input, runs each the way a user meets it, and says whether the outcome was clean. The counts of a
run are docs/reliability.md's "tried / clean" rows.

    python fuzz/hostile_families.py --variants 40 --markdown        # every family, 40 variants each
    python fuzz/hostile_families.py --variants 5 --family baseline-values

Families and what "clean" means:

- ``baseline-values``: a saved ``refscore check`` baseline with scores replaced by NaN, null, strings, booleans,
  infinities, 400-digit integers, lists, out-of-range and 0-100 numbers; the run's cases are a clear regression.
  Clean: a value no run writes is refused in one line (exit 7); with NaN/null only, the gate still fails the
  regression (exit 1) and says how many cases it left out, or fails saying it cannot compare.
- ``numeric-extremes``: Pearson of vectors with values near the largest and smallest doubles, or scaled by them.
  Clean: ``refscore.meta.pearson`` equals Pearson's r computed in 60-digit decimal arithmetic (1e-9), and system
  means of such ratings stay finite.
- ``report-metadata``: ``refscore.report`` with a metadata field of version-like, numeric-looking and odd values.
  Clean: the page is built; a field with a value that is not a number (or a percentage, or a bucket label such as
  ``≥ 3``) is categories in first-seen order.
- ``extreme-options``: ``refscore score`` / ``meta-eval`` with huge, negative or overflowing n-gram orders and
  resample counts, and ``REFSCORE_HASH_KEY`` values that are not keys, each in its own process (4 GiB address space,
  60 s). Clean: exit 0, 2 or 7, no traceback, and a refusal is one line naming the option.
- ``terminal-escapes``: ``refscore score`` of records whose ``system`` holds escape sequences, C1 controls,
  bidirectional overrides, CR, BS, BEL, NUL, tabs and line breaks. Clean: no such character reaches the table or the
  ``--segments`` rows raw.
- ``statistics-files``: saved statistics files permuted, renamed, with negative counts, matches above totals, int64
  overflow, NaN or a broken ``.npy`` header (``fuzz/statistics_family.py``, which says what is clean for each).

Exit status: 0 when every variant was clean, 1 otherwise.
"""
from __future__ import annotations

import argparse
import contextlib
import decimal
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

from statistics_family import statistics_files  # noqa: E402  (this folder: run as a script or with it on sys.path)

REFERENCES = [f"the report number {i} says that sales rose by {i} percent in the north region" for i in range(30)]
WORSE = ["sales went up"] * 15 + REFERENCES[15:]


def _cli(args: list[str]) -> tuple[int, str, str]:
    """``refscore`` in this process: exit status, stdout, stderr (a raised exception is status -1)."""
    from refscore.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:  # noqa: BLE001 - an escaping exception is what the family looks for
            err.write(f"Traceback (escaped): {type(exc).__name__}: {exc}\n")
            code = -1
    return int(code), out.getvalue(), err.getvalue()


def _one_error_line(err: str, notes: int = 0) -> bool:
    """One ``refscore: error:`` line, last, after at most ``notes`` lines (meta-eval's "FILE: 4 systems x 6
    segments"), and no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    return (1 <= len(lines) <= 1 + notes and lines[-1].startswith("refscore: error: ")
            and sum(line.startswith("refscore: error: ") for line in lines) == 1 and "Traceback" not in err)


# -- baseline gate values ----------------------------------------------------------------------------------------
_BAD_VALUES = ["0.5", True, False, float("inf"), float("-inf"), 10 ** 400, [0.5], {"score": 1}, 55.0, -0.5, 1.5,
               "NaN", ""]
_MISSING = [float("nan"), None]


def _cases(path: Path, outputs: list[str]) -> None:
    path.write_text("".join(json.dumps({"id": f"q{i}", "actual_output": o, "expected_output": r}) + "\n"
                            for i, (o, r) in enumerate(zip(outputs, REFERENCES))), encoding="utf-8")


def baseline_values(rng: random.Random, folder: Path) -> tuple[bool, str]:
    base = folder / "base.json"
    if not base.exists():
        _cases(folder / "good.jsonl", REFERENCES)
        _cases(folder / "worse.jsonl", WORSE)
        code, _, err = _cli(["check", str(folder / "good.jsonl"), "--check", "rougeL=0.0", "--save", str(base)])
        assert code == 0, err
    data = json.loads(base.read_text(encoding="utf-8"))
    scores = data["checks"][0]["scores"]
    kind = rng.choice(["missing", "bad", "mixed", "all-missing"])
    positions = rng.sample(range(30), 30 if kind == "all-missing" else rng.randint(1, 5))
    for position in positions:
        scores[position] = (rng.choice(_MISSING) if kind in ("missing", "all-missing") else
                            rng.choice(_BAD_VALUES) if kind == "bad" else rng.choice(_MISSING + _BAD_VALUES))
    bad = any(not (value is None or isinstance(value, float) and (math.isnan(value) or 0 <= value <= 1))
              or isinstance(value, bool) for value in scores)
    path = folder / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _cli(["check", str(folder / "worse.jsonl"), "--check", "rougeL=0.0", "--baseline", str(path)])
    detail = f"{kind} at {sorted(positions)[:5]}: exit {code}: {(err or out).strip().splitlines()[-1:]}"
    if bad:
        return code == 7 and _one_error_line(err), detail
    if kind == "all-missing" or all(s is None or s != s for s in scores):
        return code == 1 and "cannot compare" in out, detail
    return code == 1 and "significantly worse" in out and "left out" in out, detail


# -- numeric extremes ---------------------------------------------------------------------------------------------
_EXTREMES = [1e154, 1e200, 1e300, 1e308, 1.7976931348623157e308, 1e-200, 1e-300, 5e-324, 2.2250738585072014e-308]


def _exact_pearson(x: list[float], y: list[float]) -> float:
    with decimal.localcontext() as context:
        context.prec = 60
        dx, dy = [decimal.Decimal(v) for v in x], [decimal.Decimal(v) for v in y]
        mx, my = sum(dx) / len(dx), sum(dy) / len(dy)
        cx, cy = [v - mx for v in dx], [v - my for v in dy]
        sxy = sum(a * b for a, b in zip(cx, cy))
        sxx, syy = sum(a * a for a in cx), sum(b * b for b in cy)
        return float(sxy / (sxx.sqrt() * syy.sqrt()))


def numeric_extremes(rng: random.Random, folder: Path) -> tuple[bool, str]:
    import numpy as np

    from refscore import meta
    from refscore.meta.evaluate import human_system_scores

    size = rng.randint(4, 30)
    x = [rng.gauss(0, 1) for _ in range(size)]
    y = [a + rng.gauss(0, 1) for a in x]
    how = rng.choice(["one", "several", "scaled", "both-scaled"])
    if how in ("one", "several"):
        for index in rng.sample(range(size), 1 if how == "one" else rng.randint(2, 3)):
            x[index] = rng.choice(_EXTREMES) * rng.choice([1, -1])
    else:
        scales = [value / 10 for value in _EXTREMES if value >= 1e-300]   # 5e-324 / 10 is 0: no scale
        x = [v * rng.choice(scales) for v in x] if how == "scaled" else [v * scales[0] for v in x]
        if how == "both-scaled":
            scale = rng.choice(scales)
            y = [v * scale for v in y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ours = meta.pearson(x, y)
        except Exception as exc:  # noqa: BLE001
            return False, f"{how}: {type(exc).__name__}: {exc}"
        expected = _exact_pearson(x, y)
        means = human_system_scores(np.array([x, x[::-1]]), np.ones((2, size)) * 2)
    detail = f"{how} ({size} values, max |x| {max(abs(v) for v in x):.3g}): {ours!r} vs {expected!r}"
    return abs(ours - expected) <= 1e-9 and bool(np.isfinite(means).all()), detail


# -- report metadata ----------------------------------------------------------------------------------------------
_METADATA = ["1.2.3", "1.10.0", "2.0", "v2", "1..", "3rd", "", "1e5", "-1", "7", "10", "NaN", "inf", "≥ 3", "< 2",
             "10–20", "22%", "٣", ".5", "1.", "+4", "0x10", "1_000", "news", "sport", " 5 "]


def report_metadata(rng: random.Random, folder: Path) -> tuple[bool, str]:
    import refscore

    count = rng.randint(4, 10)
    references = [f"the cat number {i} sat on the mat" for i in range(count)]
    systems = {"A": [r[: 5 + 2 * i] for i, r in enumerate(references)], "B": references}
    pool = rng.sample(_METADATA, rng.randint(2, min(6, count)))
    values = [pool[i % len(pool)] for i in range(count)]
    rng.shuffle(values)
    try:
        page = refscore.report(systems, references, "bleu", metadata={"field": values}, n=10, progress=False)
    except Exception as exc:  # noqa: BLE001
        return False, f"{pool}: {type(exc).__name__}: {exc}"
    match = re.search(r'<script type="application/json" id="refscore-data">(.*?)</script>', page, re.S)
    labels = json.loads(match.group(1))["segments"]["buckets"].get("field", {}).get("labels")
    seen = list(dict.fromkeys(values))
    # a number, a percentage, or a bucket label of the same form (``< 2``, ``≥ 3``, ``10–20``) may sort as a number;
    # a field with any other value is categories in first-seen order
    number = re.compile(r"(?:< |≥ )?[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?(?:–\S+)?")
    numeric = all(number.fullmatch(value) for value in seen)
    fine = labels is None or (sorted(labels) == sorted(seen) if numeric else labels == seen)
    return fine, f"{pool}: labels {labels}"


# -- extreme options ----------------------------------------------------------------------------------------------
_HUGE = [0, -1, 10 ** 4 + 1, 10 ** 6, 10 ** 9, 2 ** 31, 2 ** 63 - 1, 2 ** 63, 2 ** 64, 10 ** 30]
_OPTIONS = [("score", "--max-order", "max_order"), ("score", "--chrf-char-order", "char_order"),
            ("score", "--chrf-word-order", "word_order"), ("score", "--rouge-types", "rouge"),
            ("meta-eval", "--k", "k="), ("meta-eval", "--bootstrap", "n_bootstrap="), ("env", "REFSCORE_HASH_KEY", "")]
#: How long a variant may run: one that is still running must have said its estimated time by then.
_SECONDS = 30
_KEYS = ["abc", "-1", "1.5", "18446744073709551616", " 1", "1e3", "٣", "0x10", "9" * 100]


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def extreme_options(rng: random.Random, folder: Path) -> tuple[bool, str]:
    ratings = folder / "ratings.jsonl"
    if not ratings.exists():
        (folder / "r.txt").write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
        (folder / "h.txt").write_text("the cat sat on a mat\nthe dog ran\n", encoding="utf-8")
        ratings.write_text("".join(json.dumps({"system": f"s{i}", "seg_id": j, "prediction": REFERENCES[j][:9 + i + j],
                                               "references": [REFERENCES[j]], "mqm": -float(i + j % 3)}) + "\n"
                                   for i in range(4) for j in range(6)), encoding="utf-8")
    command, flag, name = rng.choice(_OPTIONS)
    value = str(rng.choice(_HUGE))
    env = {**os.environ}
    base = [sys.executable, "-m", "refscore.cli"]
    if command == "env":
        value = rng.choice(_KEYS)
        env[flag] = value
        args = base + ["score", "-r", "r.txt", "-i", "h.txt"]
    elif command == "meta-eval":
        args = base + ["meta-eval", "ratings.jsonl", "-m", "chrf,bleu", "--bootstrap", "10", "--k", "10", flag, value]
    else:
        metric = {"--max-order": "bleu", "--rouge-types": "rouge"}.get(flag, "chrf")
        args = base + ["score", "-r", "r.txt", "-i", "h.txt", "-m", metric, flag,
                       f"rouge{value}" if flag == "--rouge-types" else value]
    try:
        done = subprocess.run(args, capture_output=True, text=True, cwd=folder, env=env, timeout=_SECONDS,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired as exc:   # a count that fits but runs long: it must have said so
        partial = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
        return "estimated from the first" in partial, f"{flag} {value}: still running after {_SECONDS} s: {partial!r}"
    err = done.stderr
    detail = f"{flag} {value}: exit {done.returncode}: {err.strip().splitlines()[-1:]}"
    if done.returncode == 0:
        return "Traceback" not in err, detail
    if done.returncode == 2:   # argparse: a usage line and the error line
        last = err.strip().splitlines()[-1] if err.strip() else ""
        return "Traceback" not in err and (name in last or flag in last), detail
    notes = 1 if command == "meta-eval" else 0
    return done.returncode == 7 and _one_error_line(err, notes) and (name in err or flag in err), detail


# -- terminal escapes ---------------------------------------------------------------------------------------------
_FRAGMENTS = ["\x1b[31m", "\x1b[0m", "\x1b]0;title\x07", "\x1b]52;c;cHduZWQ=\x07", "\x1b[2J", "\x1b[1A", "\x9b2J",
              "\u202e", "\u2066", "\u200f", "\r", "\b", "\x07", "\x00", "\x7f", "\t", "\n", "\x85", "ok", "sys", "é"]
_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_escapes(rng: random.Random, folder: Path) -> tuple[bool, str]:
    names = ["".join(rng.choice(_FRAGMENTS) for _ in range(rng.randint(1, 5))) + str(i) for i in range(3)]
    path = folder / "systems.jsonl"
    path.write_text("".join(json.dumps({"system": name, "prediction": "the cat sat", "references": ["the cat"]})
                            + "\n" for name in names), encoding="utf-8")
    segments = rng.random() < 0.5
    code, out, err = _cli(["score", "-i", str(path), "-m", "bleu", *(["--segments"] if segments else [])])
    # the text's own layout: line breaks, and tabs between --segments columns
    raw = _RAW.findall(out.replace("\t", "") if segments else out)
    # every name on its own line: the table's header, rule, rows, blank line and signature; or header, rows, signature
    breaks = out.count("\n") == (len(names) + 2 if segments else len(names) + 4)
    return code == 0 and not raw and breaks, f"{[n.encode('unicode_escape').decode() for n in names]}: raw {raw[:3]}"


FAMILIES: dict[str, Callable[[random.Random, Path], tuple[bool, str]]] = {
    "baseline-values": baseline_values, "numeric-extremes": numeric_extremes, "report-metadata": report_metadata,
    "extreme-options": extreme_options, "terminal-escapes": terminal_escapes,
    "statistics-files": statistics_files,   # fuzz/statistics_family.py (issue 40 item 5)
}


def run_family(name: str, variants: int, seed: int) -> dict:
    """``variants`` variants of one family: tried, clean and the first few unclean ones."""
    rng = random.Random(f"{name}-{seed}")
    unclean = []
    with tempfile.TemporaryDirectory(prefix=f"refscore-{name}-") as folder:
        for _ in range(variants):
            clean, detail = FAMILIES[name](rng, Path(folder))
            if not clean:
                unclean.append(detail)
    return {"family": name, "tried": variants, "clean": variants - len(unclean), "unclean": unclean[:5]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", type=int, default=40, help="variants per family (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="a family (default: all)")
    parser.add_argument("--markdown", action="store_true", help="print docs/reliability.md's rows")
    args = parser.parse_args()
    results = [run_family(name, args.variants, args.seed) for name in args.family or FAMILIES]
    for result in results:
        if args.markdown:
            print(f"| {result['family']} | {result['tried']} | {result['clean']} |")
        else:
            print(f"{result['family']:18} tried {result['tried']:4}  clean {result['clean']:4}")
        for detail in result["unclean"]:
            print(f"    unclean: {detail[:300]}")
    return 0 if all(r["tried"] == r["clean"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
