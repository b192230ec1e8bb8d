"""Generate tests/golden/rouge155_options.json: ROUGE-1.5.5.pl's own per-document values and printed averages on
random multi-sentence, multi-model documents for option combinations that no stored output covers (-f B, -p,
-l, -b, -s, -m, ROUGE-S4/SU4).

The script is not part of refscore; run this with a copy of it (and its data folder: smart_common_words.txt and
WordNet-2.0.exc.db; XML::DOM is not needed for -z but the script loads it, so a stub module can be put on PERL5LIB):

    python tests/golden/make_rouge155_options_golden.py --perl-script ROUGE-1.5.5.pl --perl-data DATA
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rouge155_perl_output import parse_perl_output  # noqa: E402

WORDS = ("the cat cats sat on mat running ran geese goose of a an U.S. state-of-the-art 3.14 über it's went go "
         "agreement hopping hop is was be -- , . ; the the cat").split()
COMMON = ["-c", "95", "-r", "1000", "-n", "3", "-w", "1.2", "-2", "4", "-U", "-d", "-z", "SPL"]
CONFIGS = {  # name: (extra Perl flags, refscore options)
    "plain": ([], {}),
    "best-model": (["-f", "B"], {"scoring_formula": "B"}),
    "stem-stopwords": (["-m", "-s"], {"stemming": True, "remove_stopwords": True}),
    "words7-best": (["-l", "7", "-f", "B"], {"word_limit": 7, "scoring_formula": "B"}),
    "bytes30-stem": (["-b", "30", "-m"], {"byte_limit": 30, "stemming": True}),
    "alpha0.8-stopwords": (["-p", "0.8", "-s"], {"alpha": 0.8, "remove_stopwords": True}),
    "bytes12-best-stopwords": (["-b", "12", "-f", "B", "-s"],
                               {"byte_limit": 12, "scoring_formula": "B", "remove_stopwords": True}),
}


def random_text(rng: random.Random) -> str:
    lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.2:
        lines.insert(0, "")
    if lines and rng.random() < 0.2:
        lines[0] = " " + lines[0]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perl-script", type=Path, required=True)
    parser.add_argument("--perl-data", type=Path, required=True)
    parser.add_argument("--documents", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1551)
    # models start with a content word: the script dies on an empty model with -w (division by zero)
    docs = [(random_text(rng), ["cat " + random_text(rng) for _ in range(rng.randint(1, 3))])
            for _ in range(args.documents)]
    golden = {"documents": [{"peer": p, "models": m} for p, m in docs], "configs": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lines = []
        for i, (peer, models) in enumerate(docs):
            (folder / f"p{i}.spl").write_text(peer + "\n", encoding="utf-8")
            names = []
            for k, model in enumerate(models):
                (folder / f"m{i}_{k}.spl").write_text(model + "\n", encoding="utf-8")
                names.append(str(folder / f"m{i}_{k}.spl"))
            lines.append(" ".join([str(folder / f"p{i}.spl"), *names]))
        (folder / "list.lst").write_text("\n".join(lines) + "\n")
        for name, (flags, options) in CONFIGS.items():
            done = subprocess.run(["perl", str(args.perl_script), "-e", str(args.perl_data), *COMMON, *flags,
                                   str(folder / "list.lst"), "X"], capture_output=True, text=True, check=True)
            (folder / "out.txt").write_text(done.stdout)
            parsed = parse_perl_output(folder / "out.txt")
            golden["configs"][name] = {"flags": flags, "options": options, "evals": parsed.evals["X"],
                                       "averages": parsed.averages["X"]}
    out = Path(__file__).with_name("rouge155_options.json")
    out.write_text(json.dumps(golden, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
