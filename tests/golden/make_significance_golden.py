"""Generate tests/golden/significance_wmt22_en_de.json: sacreBLEU 2.6's own significance results.

Runs sacreBLEU's Python API (``sacrebleu.significance.PairedTest`` as its CLI calls it, and
``Metric.corpus_score(n_bootstrap=...)`` as ``--confidence`` does) on ../shared/data/wmt22/en-de (9 systems,
2037 segments, reference ref.txt) with sacreBLEU's default counts: paired bootstrap 1000 resamples, approximate
randomization 10000 trials (and once with ``n_ar_confidence=1000``), ``--confidence`` 1000 resamples; seed
12345 (the default) and 7. Values are sacreBLEU's, on its 0-100 scale, stored with full float precision.

sacreBLEU adds BLEU's log precisions with ``sum()``, compensated from CPython 3.12 on, so the resampled BLEU scores
(and their means) depend on the interpreter in the last bits: the file is written for this interpreter's kind of
float sum, ``significance_wmt22_en_de_plain.json`` (Python <= 3.11) or ``..._compensated.json`` (>= 3.12), and
records the interpreter; run it under one Python of each kind.

Usage: python tests/golden/make_significance_golden.py [DATA_DIR]   (takes a few minutes, single core)
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent.parent / "shared" / "data" / "wmt22" / "en-de"
FLOAT_SUM = "compensated" if sys.version_info >= (3, 12) else "plain"
OUT = HERE / f"significance_wmt22_en_de_{FLOAT_SUM}.json"


def read(path: Path) -> list[str]:
    return [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")[:-1]]  # as sacreBLEU's CLI


def make_metrics(refs):
    from sacrebleu.metrics import BLEU, CHRF, TER

    return {"BLEU": BLEU(references=refs), "chrF2": CHRF(references=refs), "TER": TER(references=refs)}


def result_dict(result) -> dict:
    return {k: (None if v is None else float(v)) for k, v in vars(result).items()}


def paired(named_systems, refs, test_type, n_samples, seed, n_ar_confidence=-1) -> dict:
    from sacrebleu.significance import PairedTest

    os.environ["SACREBLEU_SEED"] = str(seed)
    test = PairedTest(named_systems, make_metrics(refs), references=None, test_type=test_type,
                      n_samples=n_samples, n_ar_confidence=n_ar_confidence)
    signatures, scores = test()
    return {"test": test_type, "n": n_samples, "seed": seed, "n_ar_confidence": n_ar_confidence,
            "signatures": {k: v.format() for k, v in signatures.items()},
            "systems": scores.pop("System"),
            "results": {metric: [result_dict(r) for r in rows] for metric, rows in scores.items()}}


def confidence(named_systems, refs, n_bootstrap, seed) -> dict:
    os.environ["SACREBLEU_SEED"] = str(seed)
    out = {}
    for name, metric in make_metrics(refs).items():
        rows = []
        for _, hyps in named_systems:
            score = metric.corpus_score(hyps, None, n_bootstrap=n_bootstrap)
            rows.append({"score": float(score.score), "mean": float(score._mean), "ci": float(score._ci)})
        out[name] = {"signature": metric.get_signature().format(), "results": rows}
    return {"n": n_bootstrap, "seed": seed, "metrics": out}


def main() -> None:
    import sacrebleu

    systems = sorted(p.stem for p in (DATA / "sys").glob("*.txt"))
    named_systems = [(name, read(DATA / "sys" / f"{name}.txt")) for name in systems]
    refs = [read(DATA / "ref.txt")]
    runs = {}
    for key, args in {"bs_1000_12345": ("bs", 1000, 12345), "bs_200_7": ("bs", 200, 7),
                      "ar_10000_12345": ("ar", 10000, 12345), "ar_500_7_conf_300": ("ar", 500, 7, 300)}.items():
        start = time.perf_counter()
        runs[key] = paired(named_systems, refs, *args)
        print(f"{key}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    start = time.perf_counter()
    runs["confidence_1000_12345"] = confidence(named_systems, refs, 1000, 12345)
    print(f"confidence: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    payload = {"sacrebleu": sacrebleu.__version__, "python": platform.python_version(), "float_sum": FLOAT_SUM,
               "data": "wmt22/en-de", "reference": "ref.txt",
               "systems": systems, "runs": runs}
    OUT.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
