"""Regenerate ``wmt22_sacrebleu_bleu.json``: sacreBLEU 2.6.0 corpus BLEU of every WMT22 system output.

For each language pair of ``../shared/data/wmt22`` and each system, BLEU with each single reference file and
with all reference files together, using the official tokenizers (``zh`` for Chinese targets, ``char`` for
Japanese, ``13a`` otherwise) and sacreBLEU's defaults otherwise. sacreBLEU's reference cache
(``BLEU(references=...)``) is built once per reference set. Run from the repository root:

    python tests/golden/make_wmt22_sacrebleu.py
"""
from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.metrics.bleu import BLEU

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "wmt22"
OUT = Path(__file__).with_name("wmt22_sacrebleu_bleu.json")


def official_tokenizer(pair: str) -> str:
    target = pair.split("-")[1]
    return {"zh": "zh", "ja": "char"}.get(target, "13a")


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def reference_sets(pair_dir: Path) -> dict[str, list[str]]:
    """Official reference name (A, B, ...) or 'all' -> reference files."""
    names = {}
    for line in (pair_dir / "refs.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        file_name, official = line.split("\t")
        names[official] = [file_name]
    if len(names) > 1:
        names["all"] = sorted(f for files in names.values() for f in files)
    return names


def main() -> int:
    assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
    results = []
    for pair_dir in sorted(p for p in DATA.iterdir() if (p / "refs.tsv").exists()):
        tokenize = official_tokenizer(pair_dir.name)
        systems = {p.stem: read_segments(p) for p in sorted((pair_dir / "sys").glob("*.txt"))}
        for ref_name, files in reference_sets(pair_dir).items():
            streams = [read_segments(pair_dir / f) for f in files]
            metric = BLEU(tokenize=tokenize, references=streams)
            for system, hypotheses in systems.items():
                score = metric.corpus_score(hypotheses, None)
                results.append({"pair": pair_dir.name, "system": system, "refs": ref_name, "files": files,
                                "tokenize": tokenize, "score": score.score, "counts": score.counts,
                                "totals": score.totals, "sys_len": score.sys_len, "ref_len": score.ref_len})
            print(pair_dir.name, ref_name, len(systems), file=sys.stderr)
    # CPython 3.12's sum() of floats is compensated, and sacreBLEU sums its log precisions with it: the scores'
    # last bits depend on which sum wrote them
    float_sum = "compensated" if sys.version_info >= (3, 12) else "plain"
    OUT.write_text(json.dumps({"sacrebleu": sacrebleu.__version__, "python": platform.python_version(),
                               "float_sum": float_sum, "results": results}, indent=0) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
