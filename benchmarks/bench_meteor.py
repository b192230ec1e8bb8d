"""METEOR: refscore vs NLTK 3.10.4's ``meteor_score`` on WMT22 de-en (two references), same data, same run.

    python benchmarks/bench_meteor.py [--data ../shared/data/wmt22] [--system Online-A] [--segments 2000] [--repeat 3]

Prints the time to read WordNet (refscore's reader; NLTK's ``wordnet.ensure_loaded()`` on the same Debian files in
an ``nltk_data`` layout), the scoring time of both on warm readers (best of ``--repeat``; refscore's synonym
cache cleared before each run, so both look every word up again), the speed-up, whether every segment score
is identical, and where refscore's time goes: tokenizing, the exact stage, Porter stems, WordNet lookups (cold),
the rest (alignment loops and the formula). Needs Debian's wordnet-base and wordnet-sense-index packages.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _meteor_peer import build_nltk_data  # noqa: E402
from _timing import best_time  # noqa: E402

import refscore  # noqa: E402
from refscore.metrics.meteor.align import match_enums, stem  # noqa: E402
from refscore.metrics.meteor.wordnet import load_wordnet  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def stage_times(hypotheses: list[str], references: list[list[str]]) -> dict[str, float]:
    """Seconds of each piece of refscore's work, on every (hypothesis, reference) pair, caches cold."""
    wordnet = load_wordnet()
    pairs = [(h.split(), r.split()) for h, refs in zip(hypotheses, references) for r in refs]
    started = time.perf_counter()
    for h, r in pairs:
        match_enums(list(enumerate(w.lower() for w in h)), list(enumerate(w.lower() for w in r)))
    exact = time.perf_counter() - started
    words = {w.lower() for h, r in pairs for w in h + r}
    started = time.perf_counter()
    for w in words:
        stem(w)
    stems = time.perf_counter() - started
    wordnet._synonyms.clear()
    started = time.perf_counter()
    for w in {w.lower() for h, _ in pairs for w in h}:
        wordnet.synonyms(w)
    lookups = time.perf_counter() - started
    return {"exact stage": exact, "Porter stems (distinct words)": stems, "WordNet synonyms (distinct words)": lookups}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--system", default="Online-A")
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pair = args.data / "de-en"
    hypotheses = read_segments(pair / "sys" / f"{args.system}.txt")[:args.segments]
    references = [list(refs) for refs in zip(read_segments(pair / "ref.txt"),
                                             read_segments(pair / "ref2.txt"))][:args.segments]

    started = time.perf_counter()
    wordnet = load_wordnet()
    ours_load = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as root:
        Path(root).chmod(0o700)
        import nltk
        nltk.data.path.insert(0, str(build_nltk_data(Path(root))))
        from nltk.corpus import wordnet as nltk_wordnet
        from nltk.translate.meteor_score import meteor_score
        started = time.perf_counter()
        nltk_wordnet.ensure_loaded()
        nltk_load = time.perf_counter() - started

        def ours():
            wordnet._synonyms.clear()
            return refscore.meteor(hypotheses, references).segments["meteor"].tolist()

        def theirs():
            return [meteor_score([r.split() for r in refs], h.split()) for h, refs in zip(hypotheses, references)]

        ours_wall, ours_cpu, ours_scores = best_time(ours, args.repeat)
        theirs_wall, theirs_cpu, theirs_scores = best_time(theirs, args.repeat)
    print(f"WMT22 de-en {args.system}: {len(hypotheses)} segments x 2 references")
    print(f"read WordNet: refscore {ours_load:.2f} s, NLTK {nltk_load:.2f} s")
    print(f"score: NLTK {theirs_wall:.2f} s (cpu {theirs_cpu:.2f}), refscore {ours_wall:.2f} s (cpu {ours_cpu:.2f}), "
          f"speed-up x{theirs_wall / ours_wall:.1f} (cpu x{theirs_cpu / ours_cpu:.1f})")
    print(f"identical segment scores: {ours_scores == theirs_scores}")
    stages = stage_times(hypotheses, references)
    for name, seconds in stages.items():
        print(f"  refscore {name}: {seconds:.3f} s ({100 * seconds / ours_wall:.0f}% of scoring)")


if __name__ == "__main__":
    main()
