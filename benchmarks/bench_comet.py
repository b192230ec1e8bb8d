"""COMET: refscore against unbabel-comet 2.2.7's ``model.predict`` on CPU, 8 systems x N WMT22 de-en segments.

The model is an XLM-R-base-sized random one (12 layers, hidden 768, 12 heads, wmt22-comet-da's estimator 3072-1024
and sparsemax layer mix; a SentencePiece vocabulary trained on the benchmark's text), built by
tests/comet_peer/make_checkpoint.py in unbabel-comet's own venv (``REFSCORE_COMET_PYTHON``, default
``../venv-comet/bin/python``). unbabel-comet scores the 8 x N (source, hypothesis, reference) triples in one
``model.predict(batch_size=16, gpus=0)`` call, as ``comet-score -s src -t sys1 ... sys8 -r ref`` does; refscore
scores the 8 systems one call each (``refscore score -i sys1 ... sys8``: the sources and references are embedded
in the first call and kept for the others). Model loading is timed apart. Both use the same torch thread count.

    python bench_comet.py [--segments 32] [--threads 2] [--bfloat16]

Prints both times, the ratio and the largest per-segment difference (the scores agree when it is <= 1e-6).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE.parent / "tests" / "comet_peer" / "make_checkpoint.py"
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", HERE.parent.parent / "shared" / "data")) / "wmt22" / "de-en"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=32)
    parser.add_argument("--systems", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=768)
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--bfloat16", action="store_true", help="also time dtype=bfloat16 and its deviation")
    args = parser.parse_args()
    python = os.environ.get("REFSCORE_COMET_PYTHON", str(HERE.parent.parent / "venv-comet" / "bin" / "python"))
    if not Path(python).is_file() or not DATA.is_dir():
        print(f"skipped: needs unbabel-comet's venv ({python}) and the WMT22 data ({DATA})")
        return 0
    read = lambda path: path.read_text(encoding="utf-8").split("\n")[:args.segments]  # noqa: E731
    sources, references = read(DATA / "src.txt"), read(DATA / "ref.txt")
    systems = {path.stem: read(path) for path in sorted((DATA / "sys").glob("*.txt"))[:args.systems]}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        corpus = root / "corpus.txt"
        corpus.write_text("\n".join(sources + references + [t for s in systems.values() for t in s]), encoding="utf-8")
        samples = [{"src": s, "mt": h, "ref": r} for hyps in systems.values()
                   for s, h, r in zip(sources, hyps, references)]
        cases = root / "cases.json"
        cases.write_text(json.dumps({"samples": samples, "batch_sizes": [16]}), encoding="utf-8")
        env = {**os.environ, "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": str(args.threads),
               "TOKENIZERS_PARALLELISM": "false"}
        build = [python, str(SCRIPT), str(root), "--family", "regression", "--hidden", str(args.hidden), "--layers",
                 str(args.layers), "--heads", "12", "--estimator", "3072", "1024", "--vocab", "8000",
                 "--corpus", str(corpus)]
        subprocess.run(build, check=True, env=env, capture_output=True)
        peer = subprocess.run([*build[:3], str(cases), *build[3:], "--predict-only"], env=env, capture_output=True,
                              text=True)
        if peer.returncode != 0:
            print(peer.stderr[-2000:])
            return 1
        folder = root / "regression"
        theirs = json.loads((folder / "scores.json").read_text(encoding="utf-8"))["16"]
        peer_seconds = json.loads((folder / "seconds.json").read_text(encoding="utf-8"))["16"]

        import numpy as np
        import torch

        from refscore.metrics.comet import COMET

        torch.set_num_threads(args.threads)
        started = time.perf_counter()
        metric = COMET(model=str(folder), sources=sources)
        metric.warm_up()
        load_seconds = time.perf_counter() - started
        started = time.perf_counter()
        ours = [metric.sentence_scores(hyps, references, num_threads=args.threads) for hyps in systems.values()]
        seconds = time.perf_counter() - started
        bf16_line = ""
        if args.bfloat16:   # the opt-in precision: its time and its deviation from unbabel-comet's float32
            fast = COMET(model=str(folder), sources=sources, dtype="bfloat16")
            fast.warm_up()
            started = time.perf_counter()
            rough = [fast.sentence_scores(hyps, references, num_threads=args.threads) for hyps in systems.values()]
            bf16_seconds = time.perf_counter() - started
            deviation = np.abs(np.concatenate(rough) - np.array(theirs))
            bf16_line = (f"  refscore COMET dtype=bfloat16:                    {bf16_seconds:8.2f} s   deviation "
                         f"from float32: max {deviation.max():.2e}, mean {deviation.mean():.2e}")
    difference = float(np.abs(np.concatenate(ours) - np.array(theirs)).max())
    n = len(samples)
    print(f"COMET, {len(systems)} systems x {args.segments} WMT22 de-en segments ({n} triples), XLM-R "
          f"{args.layers} layers x {args.hidden}, {args.threads} threads, CPU")
    print(f"  unbabel-comet {'2.2.7'} model.predict(batch_size=16): {peer_seconds:8.2f} s")
    print(f"  refscore COMET (8 calls, one per system):        {seconds:8.2f} s   (model load {load_seconds:.2f} s)")
    print(f"  ratio {peer_seconds / seconds:.2f}x; largest per-segment difference {difference:.2e} "
          f"({'agree' if difference <= 1e-6 else 'DIFFER'} within 1e-6)")
    if bf16_line:
        print(bf16_line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
