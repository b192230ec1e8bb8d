"""mbrs 0.1.8's MBR, pruning MBR and centroid MBR decoders on given utility matrices and embeddings: the peer side
of tests/test_mbr_decoders.py, run by mbrs' own interpreter (numpy, torch and mbrs; no refscore).

    /work/venv-mbrs/bin/python tests/mbrs_decoders_peer.py OUT.json            # the cases below and mbrs' results
    /work/venv-mbrs/bin/python tests/mbrs_decoders_peer.py tests/fixtures/mbrs_decoders.json   # re-record
    /work/venv-mbrs/bin/python tests/mbrs_decoders_peer.py TIMES.json CASES.json 5   # time given cases (benchmark)

The environment: ``python3.11 -m venv /work/venv-mbrs``, the CPU torch 2.13.0 wheel, then ``pip install
mbrs==0.1.8`` (or ``--no-deps`` plus numpy), pinned by .ci/constraints-mbrs.txt (its header has the commands).
``import mbrs.metrics`` imports every metric mbrs has (COMET, BLEURT, MetricX, ...), so the package module is set up
here from ``mbrs.metrics.base`` alone, as benchmarks/_mbrs_runner.py does (its chrF module is imported unchanged
for the text cases). The utilities reach mbrs through two small metrics defined here: a lookup of the case's matrix (the
hypotheses and references are the strings of their indices) for ``mbr`` and ``pruning_mbr``, and the cosine
similarity of embeddings (an aggregatable, cacheable metric, as mbrs' COMET is) for ``centroid_mbr``.
"""
from __future__ import annotations

import enum
import importlib
import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np


def _matrix(rng: np.random.Generator, rows: int, columns: int, kind: str) -> np.ndarray:
    if kind == "uniform":
        matrix = rng.random((rows, columns))
    elif kind == "signal":   # candidates of different quality: pruning prunes
        matrix = rng.random((rows, 1)) * 0.6 + rng.random((rows, columns)) * 0.4
    else:   # "ties": discrete values and duplicated candidates, as BLEU on sampled outputs gives
        base = np.round(rng.random((max(rows // 3, 1), columns)) * 20) / 20
        matrix = base[rng.integers(0, len(base), rows)]
    return _decimals(matrix)


def _decimals(values: np.ndarray, places: int = 4) -> np.ndarray:
    """Rounded to ``places`` decimals: the JSON stays short, and both sides read the same float32 values."""
    return np.round(values, places)


def build_cases() -> list[dict[str, Any]]:
    """The cases: plain, pruning and centroid MBR; utilities as float32 values (what mbrs holds)."""
    rng = np.random.default_rng(20240601)
    cases: list[dict[str, Any]] = []
    specs = [  # rows, columns, kind, weights, alpha, schedule, resamples, seed
        (32, 64, "uniform", None, 0.99, [8, 16, 32, 64], 500, 0),
        (40, 40, "ties", None, 0.99, [8, 16, 32, 64, 128, 256], 500, 0),
        (40, 96, "signal", None, 0.99, [8, 16, 32, 64, 128, 256], 500, 7),
        (32, 96, "signal", "weights", 0.9, [8, 16, 32, 64, 128], 200, 12345),
        (24, 96, "signal", "log_probs", 0.95, [4, 8, 16, 48, 96], 300, 3),
        (30, 30, "ties", "weights", 0.99, [2, 4, 8, 16, 32], 100, 1),
        (1, 3, "uniform", None, 0.99, [8, 16], 500, 0),
        (5, 6, "uniform", None, 0.5, [2, 4, 8], 50, 2),
        (16, 40, "signal", None, 0.99, [8, 16, 32], 500, 4294967295),
    ]
    for rows, columns, kind, weighting, alpha, schedule, resamples, seed in specs:
        matrix = _matrix(rng, rows, columns, kind)
        case: dict[str, Any] = {"matrix": matrix.tolist(), "alpha": alpha, "schedule": schedule,
                                "resamples": resamples, "seed": seed, "maximize": True}
        if weighting == "weights":
            case["weights"] = _decimals(rng.random(columns) + 0.05).tolist()
        elif weighting == "log_probs":
            case["log_probs"] = _decimals(-rng.random(columns) * 40 - 5, 3).tolist()
        cases.append({"decoder": "pruning_mbr", **case})   # and plain MBR on the same matrix
    loss = _matrix(rng, 32, 64, "signal")
    cases.append({"decoder": "pruning_mbr", "matrix": loss.tolist(), "alpha": 0.99, "schedule": [8, 16, 32, 64],
                  "resamples": 500, "seed": 5, "maximize": False})   # a loss (lower is better), as TER
    centroid_specs = [  # candidates, pseudo-references (None: the candidates), dim, clusters, ncentroids, kmeans++,
        (32, None, 16, 4, 8, True, 0, False),    # seed, count_weight
        (64, None, 24, 6, 8, True, 11, True),
        (40, 64, 16, 5, 4, True, 2, False),
        (50, None, 8, 3, 6, False, 9, False),
        (20, 30, 12, 4, 1, True, 0, False),
        (6, None, 8, 2, 8, True, 0, True),
        (96, None, 24, 10, 16, True, 3, True),
    ]
    for count, references, dim, clusters, ncentroids, kmeanspp, seed, count_weight in centroid_specs:
        centres = rng.normal(size=(clusters, dim)) * 2
        hypotheses = centres[rng.integers(0, clusters, count)] + rng.normal(size=(count, dim))
        case = {"decoder": "centroid_mbr", "embeddings": _decimals(hypotheses, 3).tolist(),
                "ncentroids": ncentroids, "niter": 5, "kmeanspp": kmeanspp, "seed": seed,
                "count_weight": count_weight}
        if references is not None:
            refs = centres[rng.integers(0, clusters, references)] + rng.normal(size=(references, dim))
            case["reference_embeddings"] = _decimals(refs, 3).tolist()
        cases.append(case)
    return cases


def _mbrs() -> dict[str, Any]:
    """mbrs' decoders and the two metrics, with ``mbrs.metrics`` set up from its base module only."""
    import mbrs

    package = types.ModuleType("mbrs.metrics")
    package.__path__ = [str(Path(mbrs.__file__).parent / "metrics")]
    sys.modules["mbrs.metrics"] = package
    base = importlib.import_module("mbrs.metrics.base")
    for name in dir(base):
        if not name.startswith("_"):
            setattr(package, name, getattr(base, name))
    package.Metrics = enum.Enum("Metrics", ["bleu"])   # what mbrs.selectors.diverse imports; unused here
    import torch
    from mbrs.decoders import DecoderCentroidMBR, DecoderMBR, DecoderPruningMBR
    from mbrs.modules.kmeans import Kmeans

    class MatrixMetric(base.Metric):
        """The case's utility matrix: hypothesis "i" against reference "j" is matrix[i, j]."""

        def __init__(self, matrix: np.ndarray, maximize: bool) -> None:
            super().__init__(base.Metric.Config())
            self.matrix = torch.from_numpy(matrix)
            self.HIGHER_IS_BETTER = maximize

        def score(self, hypothesis: str, reference: str, source: Any = None) -> float:
            return float(self.matrix[int(hypothesis), int(reference)])

        def pairwise_scores(self, hypotheses: list[str], references: list[str], source: Any = None) -> Any:
            rows = torch.tensor([int(h) for h in hypotheses], dtype=torch.long)
            columns = torch.tensor([int(r) for r in references], dtype=torch.long)
            return self.matrix[rows][:, columns]

    class CosineMetric(base.MetricAggregatableCache):
        """Cosine similarity of sentence embeddings; "h3" / "r5" name rows of the case's arrays."""

        def __init__(self, hypotheses: np.ndarray, references: np.ndarray) -> None:
            super().__init__(base.MetricAggregatableCache.Config())
            self.rows = {"h": torch.from_numpy(hypotheses), "r": torch.from_numpy(references)}

        class Cache(base.MetricAggregatableCache.Cache):
            def __init__(self, embeddings: Any) -> None:
                self.embeddings = embeddings

            def __len__(self) -> int:
                return len(self.embeddings)

            def __getitem__(self, key: Any) -> Any:
                return type(self)(self.embeddings[key])

            def repeat(self, n: int) -> Any:
                return type(self)(self.embeddings.repeat((n, 1)))

            def aggregate(self, reference_lprobs: Any = None) -> Any:
                return type(self)(self.embeddings.mean(dim=0, keepdim=True))

            def cluster(self, kmeans: Any) -> Any:
                centroids, assigns = kmeans.train(self.embeddings)
                return type(self)(centroids), assigns

        @property
        def embed_dim(self) -> int:
            return int(self.rows["h"].shape[1])

        def encode(self, sentences: list[str]) -> Any:
            return self.Cache(torch.stack([self.rows[s[0]][int(s[1:])] for s in sentences]))

        def out_proj(self, hypotheses_ir: Any, references_ir: Any, sources_ir: Any = None) -> Any:
            return torch.nn.functional.cosine_similarity(hypotheses_ir.embeddings, references_ir.embeddings, dim=-1)

        def score(self, hypothesis: str, reference: str, source: Any = None) -> float:
            return float(self.out_proj(self.encode([hypothesis]), self.encode([reference])))

    return {"torch": torch, "mbr": DecoderMBR, "pruning": DecoderPruningMBR, "centroid": DecoderCentroidMBR,
            "kmeans": Kmeans, "matrix_metric": MatrixMetric, "cosine_metric": CosineMetric}


def run_case(case: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    torch = peer["torch"]
    if case["decoder"] == "centroid_mbr":
        hyps = np.array(case["embeddings"], dtype=np.float32)
        refs = np.array(case.get("reference_embeddings", case["embeddings"]), dtype=np.float32)
        kmeans_cfg = peer["kmeans"].Config(ncentroids=case["ncentroids"], niter=case["niter"],
                                           kmeanspp=case["kmeanspp"], seed=case["seed"])
        decoder = peer["centroid"](peer["centroid"].Config(kmeans=kmeans_cfg, count_weight=case["count_weight"]),
                                   peer["cosine_metric"](hyps, refs))
        hypotheses = [f"h{i}" for i in range(len(hyps))]
        references = hypotheses if "reference_embeddings" not in case else [f"r{j}" for j in range(len(refs))]
        output = decoder.decode(hypotheses, references, nbest=1)
        centroids, assigns = peer["kmeans"](kmeans_cfg).train(torch.from_numpy(refs))
        return {"idx": output.idx, "score": output.score, "centroids": centroids.tolist(),
                "assigns": assigns.tolist(), "expected": _cosine_expected(decoder, hypotheses, references)}
    matrix = np.array(case["matrix"], dtype=np.float32)
    metric = peer["matrix_metric"](matrix, case["maximize"])
    lprobs = None
    if "weights" in case:
        lprobs = torch.tensor(case["weights"], dtype=torch.float32).log()
    elif "log_probs" in case:
        lprobs = torch.tensor(case["log_probs"], dtype=torch.float32)
    hypotheses = [str(i) for i in range(matrix.shape[0])]
    references = [str(j) for j in range(matrix.shape[1])]
    plain = peer["mbr"](peer["mbr"].Config(), metric).decode(hypotheses, references, nbest=1,
                                                             reference_lprobs=lprobs)
    expected = metric.expected_scores(hypotheses, references, reference_lprobs=lprobs)
    config = peer["pruning"].Config(alpha=case["alpha"], sampling_scheduler=case["schedule"],
                                    num_bootstrap_samples=case["resamples"], seed=case["seed"])
    module = sys.modules[peer["pruning"].__module__]
    calls: list[Any] = []
    expectation = module.functional.expectation
    module.functional = types.SimpleNamespace(expectation=lambda *a, **k: calls.append(expectation(*a, **k)) or
                                              calls[-1])   # the last call: the survivors' expected utilities
    try:
        output = peer["pruning"](config, metric).decode(hypotheses, references, nbest=1, reference_lprobs=lprobs)
    finally:
        module.functional = sys.modules["mbrs.functional"]
    return {"idx": output.idx, "score": output.score, "kept": calls[-1].tolist(), "mbr_idx": plain.idx,
            "mbr_score": plain.score, "expected": expected.tolist()}


def _cosine_expected(decoder: Any, hypotheses: list[str], references: list[str]) -> list[float]:
    """The expected utility of every candidate against the decoder's centroids (mbrs returns the best one's)."""
    metric = decoder.metric
    refs = metric.encode(references)
    centroids, assigns = refs.cluster(decoder.kmeans)
    scores = metric.pairwise_scores_from_ir(metric.encode(hypotheses), centroids)
    if decoder.cfg.count_weight:
        counts = assigns.new_zeros(len(centroids)).scatter_add(0, assigns, assigns.new_ones(len(assigns)))
        return ((scores * (counts / counts.sum())[None, :]).sum(-1)).tolist()
    return scores.mean(-1).tolist()


def decode(case: dict[str, Any], peer: dict[str, Any]) -> Any:
    """Only the decoder's call on the case (for timing: benchmarks/bench_mbr_decoders.py)."""
    torch = peer["torch"]
    if case["decoder"] == "centroid_mbr":
        hyps = np.array(case["embeddings"], dtype=np.float32)
        kmeans_cfg = peer["kmeans"].Config(ncentroids=case["ncentroids"], niter=case["niter"],
                                           kmeanspp=case["kmeanspp"], seed=case["seed"])
        decoder = peer["centroid"](peer["centroid"].Config(kmeans=kmeans_cfg, count_weight=case["count_weight"]),
                                   peer["cosine_metric"](hyps, hyps))
        hypotheses = [f"h{i}" for i in range(len(hyps))]
        return lambda: decoder.decode(hypotheses, hypotheses, nbest=1)
    if case["decoder"] == "pruning_chrf":   # texts, mbrs' own chrF (sacreBLEU's sentence chrF, 0-100)
        chrf = importlib.import_module("mbrs.metrics.chrf").MetricChrF
        decoder = peer["pruning"](peer["pruning"].Config(
            alpha=case["alpha"], sampling_scheduler=case["schedule"], num_bootstrap_samples=case["resamples"],
            seed=case["seed"]), chrf(chrf.Config(num_workers=1)))
        return lambda: decoder.decode(case["hypotheses"], case["hypotheses"], nbest=1)
    matrix = np.array(case["matrix"], dtype=np.float32)
    metric = peer["matrix_metric"](matrix, case["maximize"])
    lprobs = torch.tensor(case["weights"], dtype=torch.float32).log() if "weights" in case else None
    hypotheses = [str(i) for i in range(matrix.shape[0])]
    references = [str(j) for j in range(matrix.shape[1])]
    if case["decoder"] == "mbr":
        decoder = peer["mbr"](peer["mbr"].Config(), metric)
    else:
        decoder = peer["pruning"](peer["pruning"].Config(
            alpha=case["alpha"], sampling_scheduler=case["schedule"], num_bootstrap_samples=case["resamples"],
            seed=case["seed"]), metric)
    return lambda: decoder.decode(hypotheses, references, nbest=1, reference_lprobs=lprobs)


def time_cases(cases: list[dict[str, Any]], peer: dict[str, Any], repeat: int) -> list[dict[str, Any]]:
    """Per case: mbrs' chosen index and best wall and CPU seconds of ``repeat`` decoder calls."""
    import time

    out = []
    for case in cases:
        call = decode(case, peer)
        best_wall = best_cpu = float("inf")
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            output = call()
            best_wall, best_cpu = min(best_wall, time.perf_counter() - wall), min(best_cpu, time.process_time() - cpu)
        out.append({"idx": output.idx, "score": output.score, "wall": best_wall, "cpu": best_cpu})
    return out


def main() -> None:
    """``OUT.json``: record the cases above; ``OUT.json CASES.json REPEAT``: time the given cases."""
    import mbrs
    import torch

    peer = _mbrs()
    if len(sys.argv) > 2:
        cases = json.loads(Path(sys.argv[2]).read_text())
        Path(sys.argv[1]).write_text(json.dumps(time_cases(cases, peer, int(sys.argv[3]))) + "\n")
        return
    cases = build_cases()
    results = [run_case(case, peer) for case in cases]
    record = {"mbrs": getattr(mbrs, "__version__", "0.1.8"), "torch": torch.__version__, "cases": cases,
              "results": results}
    Path(sys.argv[1]).write_text(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
