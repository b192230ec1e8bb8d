"""Regenerate ``chrf_wmt22_sacrebleu.json``: sacreBLEU 2.6.0's own chrF / chrF++ scores on every WMT22 system.

Run from the repository root with sacreBLEU installed (about 7 CPU-minutes; ``--jobs`` processes in parallel):

    python tests/golden/make_chrf_wmt22.py --jobs 2

For every ``wmt22/<pair>/sys/<system>.txt`` under ../shared/data it stores sacreBLEU's corpus chrF (defaults,
``CHRF()``) against ``ref.txt`` alone and, where the pair has several references, against all of them together;
and chrF++ (``word_order=2``) against all references for the first system (alphabetical) of each pair. The values
are sacreBLEU's floats (JSON keeps them exactly); nothing here is computed by refscore.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
from multiprocessing import Pool
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF

ROOT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "wmt22"
OUT = Path(__file__).resolve().parent / "chrf_wmt22_sacrebleu.json"


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def score_pair(pair_dir: Path) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    refs = [read_segments(path) for path in sorted(pair_dir.glob("ref*.txt"))]
    chrf: dict[str, dict[str, float]] = {}
    chrf_pp: dict[str, float] = {}
    for index, system in enumerate(sorted((pair_dir / "sys").glob("*.txt"))):
        hyps = read_segments(system)
        key = f"{pair_dir.name}/{system.stem}"
        chrf[key] = {"ref.txt": CHRF().corpus_score(hyps, refs[:1]).score}
        if len(refs) > 1:
            chrf[key]["all"] = CHRF().corpus_score(hyps, refs).score
        if index == 0:
            chrf_pp[key] = CHRF(word_order=2).corpus_score(hyps, refs).score
        print(key, chrf[key], file=sys.stderr, flush=True)
    return chrf, chrf_pp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    pairs = sorted(p for p in ROOT.iterdir() if (p / "sys").is_dir())
    with Pool(args.jobs) as pool:
        results = pool.map(score_pair, pairs, chunksize=1)
    chrf = {key: value for part, _ in results for key, value in part.items()}
    chrf_pp = {key: value for _, part in results for key, value in part.items()}
    # The interpreter is recorded as every golden cache's is; chrF's F-score adds with `+=`, not sum(), so the
    # values are the same under every supported Python (tests/test_chrf_wmt22.py compares them exactly on each)
    OUT.write_text(json.dumps({"sacrebleu": sacrebleu.__version__, "python": platform.python_version(),
                               "chrf": chrf, "chrf++_all_refs": chrf_pp}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
