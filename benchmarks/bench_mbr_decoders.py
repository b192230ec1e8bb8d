"""refscore's MBR decoders against mbrs 0.1.8's on the same utility matrices and embeddings: plain MBR with
sample weights, confidence-based pruning MBR, centroid MBR (k-means++ and a cosine utility), and pruning MBR on
texts with each side's own chrF (WMT22 en-de system outputs from the shared data, when present); time per item
(best of several calls, wall and CPU) and whether both chose the same candidate (or, where candidates tie exactly,
one of the tied: torch.topk returns any of equal values, refscore the first) with the same expected utility.

    python benchmarks/bench_mbr_decoders.py --mbrs /work/venv-mbrs/bin/python [--items 8] [--repeat 3]

mbrs runs in its own interpreter (tests/mbrs_decoders_peer.py, which says how to make that environment) on the
same float32 values; its utilities come from a lookup of the matrix (the decoders' own work is what is timed), its
centroid utility is the cosine similarity in torch. Both sides run on one thread (OMP_NUM_THREADS and
OPENBLAS_NUM_THREADS set to 1 here unless already set, before numpy and torch start): on a loaded machine the
thread pools' contention dominated every figure.
"""
from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")   # one thread each side, set before numpy starts (and inherited by mbrs)

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from _timing import best_time

HERE = Path(__file__).resolve().parent
PEER = HERE.parent / "tests" / "mbrs_decoders_peer.py"


def cases(items: int) -> dict[str, list[dict[str, Any]]]:
    """Per setting, ``items`` cases (one per item): 128 x 128 weighted MBR, 256 x 256 pruning MBR with mbrs'
    defaults, 256 candidates x 768-dimensional embeddings for centroid MBR (16 centroids)."""
    rng = np.random.default_rng(0)
    out: dict[str, list[dict[str, Any]]] = {"mbr, 128 x 128, weights": [], "pruning_mbr, 256 x 256": [],
                                            "centroid_mbr, 256 x 768, k = 16": []}
    for _ in range(items):
        quality = rng.random((128, 1)) * 0.5
        out["mbr, 128 x 128, weights"].append({
            "decoder": "mbr", "matrix": np.round(quality + rng.random((128, 128)) * 0.5, 4).tolist(),
            "weights": np.round(rng.random(128) + 0.05, 4).tolist(), "maximize": True})
        quality = rng.random((256, 1)) * 0.5
        out["pruning_mbr, 256 x 256"].append({
            "decoder": "pruning_mbr", "matrix": np.round(quality + rng.random((256, 256)) * 0.5, 4).tolist(),
            "alpha": 0.99, "schedule": [8, 16, 32, 64, 128, 256], "resamples": 500, "seed": 0, "maximize": True})
        centres = rng.normal(size=(12, 768))
        vectors = centres[rng.integers(0, 12, 256)] + rng.normal(size=(256, 768))
        out["centroid_mbr, 256 x 768, k = 16"].append({
            "decoder": "centroid_mbr", "embeddings": np.round(vectors, 3).tolist(), "ncentroids": 16, "niter": 5,
            "kmeanspp": True, "seed": 0, "count_weight": False})
    texts = wmt22_outputs()
    if texts:   # end to end on texts: refscore's chrF against mbrs' (sacreBLEU's) inside the pruning decoder
        name = "pruning_mbr + chrF on WMT22 texts, 64 samples"
        out[name] = []
        for segment in rng.choice(len(texts), items, replace=False):
            out[name].append({"decoder": "pruning_chrf",
                              "hypotheses": [texts[segment][i] for i in rng.integers(0, len(texts[segment]), 64)],
                              "alpha": 0.99, "schedule": [8, 16, 32, 64], "resamples": 500, "seed": 0})
    return out


def wmt22_outputs() -> list[list[str]]:
    """Per segment, the WMT22 en-de systems' outputs (empty when the shared data is not there)."""
    folder = Path(os.environ.get("REFSCORE_SHARED_DATA", HERE.parent.parent / "shared" / "data")) / "wmt22" / "en-de"
    systems = [path.read_text(encoding="utf-8").splitlines() for path in sorted((folder / "sys").glob("*.txt"))]
    return [list(outputs) for outputs in zip(*systems)][:500] if systems else []


def refscore_call(case: dict[str, Any]) -> Any:
    from refscore.pairs import centroid_mbr, mbr, pruning_mbr

    if case["decoder"] == "pruning_chrf":
        return lambda: pruning_mbr([case["hypotheses"]], metric="chrf", alpha=case["alpha"],
                                   sampling_scheduler=case["schedule"], num_bootstrap_samples=case["resamples"],
                                   seed=case["seed"])
    if case["decoder"] == "centroid_mbr":
        vectors = np.asarray(case["embeddings"], dtype=np.float32).astype(np.float64)
        labels = [[str(i) for i in range(len(vectors))]]
        return lambda: centroid_mbr(labels, [vectors], ncentroids=case["ncentroids"], niter=case["niter"],
                                    kmeanspp=case["kmeanspp"], seed=case["seed"])
    matrix = np.asarray(case["matrix"], dtype=np.float32).astype(np.float64)
    labels = [[str(i) for i in range(len(matrix))]]
    if case["decoder"] == "mbr":
        weights = [np.asarray(case["weights"], dtype=np.float32).astype(np.float64)]
        return lambda: mbr(labels, utilities=[matrix], sample_weights=weights)
    return lambda: pruning_mbr(labels, utilities=[matrix], alpha=case["alpha"], sampling_scheduler=case["schedule"],
                               num_bootstrap_samples=case["resamples"], seed=case["seed"])


def agree(result: Any, theirs: dict[str, Any], case: dict[str, Any]) -> bool:
    utilities, chosen = result.utilities[0], int(result.chosen[0])
    if case["decoder"] == "pruning_chrf":   # mbrs' chrF is 0-100
        texts = case["hypotheses"]
        return bool(texts[chosen] == texts[theirs["idx"][0]]
                    and abs(100 * utilities[chosen] - theirs["score"][0]) <= 1e-3)
    same = abs(utilities[theirs["idx"][0]] - utilities[chosen]) <= 2e-6 * max(1.0, abs(utilities[chosen]))
    return bool(same and abs(utilities[chosen] - theirs["score"][0]) <= 1e-5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mbrs", required=True, help="an interpreter with mbrs 0.1.8 and torch")
    parser.add_argument("--items", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}; {args.items} items per "
          f"setting; best of {args.repeat} calls per item")
    print("| setting | refscore per item | mbrs per item | x mbrs (wall) | same choice |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for setting, settings_cases in cases(args.items).items():
            path, out = Path(folder) / "cases.json", Path(folder) / "times.json"
            path.write_text(json.dumps(settings_cases))
            subprocess.run([args.mbrs, str(PEER), str(out), str(path), str(args.repeat)], check=True)
            theirs = json.loads(out.read_text())
            ours_wall, same = 0.0, 0
            for case, peer in zip(settings_cases, theirs):
                wall, _, result = best_time(refscore_call(case), args.repeat)
                ours_wall += wall
                same += agree(result, peer, case)
            mbrs_wall = sum(peer["wall"] for peer in theirs)
            print(f"| {setting} | {1e3 * ours_wall / args.items:.2f} ms | {1e3 * mbrs_wall / args.items:.2f} ms | "
                  f"{mbrs_wall / ours_wall:.1f}x | {same}/{args.items} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
