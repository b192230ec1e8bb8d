"""BLEU and Google-BLEU: refscore against sacreBLEU 2.6 and HF-style NLTK Google-BLEU on WMT22 data.

Timed in the same run on the same data, each row says whether the scores agree:

1. corpus BLEU (one system per pair: en-de with 1 and with 2 references, zh-en with 2, en-zh with ``zh``, en-ja
   with ``char``): ``sacrebleu.metrics.BLEU(tokenize=...).corpus_score`` vs ``refscore.BLEU(...).corpus_score``, 1 and
   2 threads; ``MB/s`` is the input's UTF-8 bytes (hypotheses and references) per CPU second of refscore's
   single-thread run, to set against a core's memory bandwidth; a ``kernel alone`` line under each BLEU row times
   the compiled call by itself (``bleu_text_statistics`` on the validated batch, 1 thread: tokenizing, interning,
   counting and clipping), so that the Python around it is the difference (``--no-kernel`` leaves it out);
   refscore's runs (1 and 2 threads, the kernel alone) and the peer's are taken in turns (in every row of 1-3), so
   that a busy machine's slow and quiet moments fall on both alike;
2. Hugging Face-style Google-BLEU (``Tokenizer13a`` + ``nltk corpus_gleu``, what ``evaluate``'s ``google_bleu``
   runs) vs ``refscore.gleu`` on the same four corpora;
3. sentence BLEU on ``--sentence-pairs`` (hypothesis, reference) pairs drawn from every WMT22 system:
   a loop over sacreBLEU's ``sentence_score`` (``effective_order=True``) vs one ``BLEU.sentence_scores`` call;
   each system's pairs share the reference str objects (sacreBLEU's tokenizer cache and refscore both notice a
   repeated text; refscore also scores the segments sharing a reference against one count of it), a second row
   gives every reference its own (equal) object, and a third takes one system per WMT22 pair, so that no
   reference text repeats (all of them, or ``--sentence-pairs`` if fewer);
4. a ``--stream-segments`` corpus (default 1,000,000 segments) scored in chunks with
   ``BLEU.corpus_score_chunks`` (memory: one chunk + the column sums) and with per-chunk statistics merged by
   ``Statistics.concatenate`` (memory: the statistics, 10 int64 per segment).

Peak memory is Python-side allocation (tracemalloc, numpy arrays included) per step and the process's max RSS.

    python benchmarks/bench_bleu.py                  # full run (a few minutes on 2 busy cores)
    python benchmarks/bench_bleu.py --quick          # small sizes, to check the script
    python benchmarks/bench_bleu.py --peer-repeat 3  # best of 3 for the peers too (a busy or shared machine)
    python benchmarks/bench_bleu.py --skip sentence stream --pairs en-de --peer-repeat 5  # en-de, 1 and 2 refs
"""
from __future__ import annotations

import argparse
import logging
import resource
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import numpy as np
from nltk.translate.gleu_score import corpus_gleu
from sacrebleu.metrics.bleu import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore
from refscore import BLEU, GLEU, Statistics

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22"
#: (pair, tokenizer, number of reference streams: None for all of them)
CORPORA = [("en-de", "13a", 1), ("en-de", "13a", None), ("zh-en", "13a", None), ("en-zh", "zh", None),
           ("en-ja", "char", None)]
logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def one_system(description: str, repeat: int = 3) -> tuple[argparse.Namespace, list[str], list[str]]:
    """What the framework benchmarks score: ``--segments`` (2,000) and ``--repeat`` parsed, and the first WMT22
    en-de system's outputs (JDExploreAcademy) with their references, cut to ``--segments``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=repeat)
    args = parser.parse_args()
    folder = DATA / "en-de"
    outputs = read_segments(sorted((folder / "sys").glob("*.txt"))[0])[:args.segments]
    return args, outputs, read_segments(folder / "ref.txt")[:args.segments]


def load_pair(pair: str) -> tuple[list[str], list[list[str]], str]:
    """The first system (alphabetically) of a pair and all its reference streams."""
    root = DATA / pair
    ref_files = sorted(p.name for p in root.glob("ref*.txt"))
    streams = [read_segments(root / name) for name in ref_files]
    system = sorted((root / "sys").glob("*.txt"))[0]
    return read_segments(system), streams, system.stem


class Timing:
    """Best wall-clock and best process CPU seconds over the repeats (CPU time is robust to a busy machine for
    single-threaded runs; wall time is what a multi-threaded run gains)."""

    def __init__(self, wall: float = float("inf"), cpu: float = float("inf")) -> None:
        self.wall, self.cpu = wall, cpu

    def best_with(self, other: Timing) -> Timing:
        return Timing(min(self.wall, other.wall), min(self.cpu, other.cpu))


#: refscore's timings run for at least this long in all (and at least --repeat times), as timeit's autorange
#: does: one run of a tenth of a second is easily caught by another job on a shared machine, while the peer's
#: runs last seconds each.
OURS_MIN_SECONDS = 2.0


def timed(function: Callable[[], Any], repeat: int = 1, min_seconds: float = 0.0) -> tuple[Timing, Any]:
    """Best times over `repeat` runs, more while less than `min_seconds` have passed (at most 100 runs)."""
    wall = cpu = float("inf")
    result = None
    runs, began = 0, time.perf_counter()
    while runs < repeat or (time.perf_counter() - began < min_seconds and runs < 100):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
        runs += 1
    return Timing(wall, cpu), result


def timed_in_turns(peer: Callable[[], Any], ours: list[Callable[[], Any]], peer_repeat: int, repeat: int,
                   min_seconds: float) -> tuple[Timing, Any, list[Timing], list[Any]]:
    """Best times of the peer (``peer_repeat`` runs) and of each of ``ours`` (at least ``repeat`` runs and
    ``min_seconds`` each), taken in turns: before each peer run every one of ours runs for its share. A busy machine
    slows everything for seconds at a time; in turns, its quiet moments fall on both sides alike."""
    turns = max(1, peer_repeat)
    best, results = [Timing() for _ in ours], [None] * len(ours)
    peer_best, peer_result = Timing(), None
    for _ in range(turns):
        for k, function in enumerate(ours):
            timing, results[k] = timed(function, -(-repeat // turns), min_seconds / turns)
            best[k] = best[k].best_with(timing)
        timing, peer_result = timed(peer, 1)
        peer_best = peer_best.best_with(timing)
    return peer_best, peer_result, best, results


def peak_memory(function: Callable[[], Any]) -> float:
    """Peak Python-side allocation (MiB) while running ``function``."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def utf8_megabytes(*texts: list[str]) -> float:
    """The UTF-8 size of every text given (MB, 10**6 bytes)."""
    return sum(len(text.encode("utf-8")) for group in texts for text in group) / 1e6


def row(label: str, peer: Timing, one: Timing, two: Timing, agree: bool, memory: float, megabytes: float) -> str:
    return (f"{label:<36} {peer.cpu:8.3f} {one.cpu:8.4f} {peer.cpu / one.cpu:7.1f}x {megabytes / one.cpu:6.0f} | "
            f"{peer.wall:8.3f} {one.wall:8.4f} {two.wall:8.4f} {peer.wall / one.wall:7.1f}x "
            f"{peer.wall / two.wall:7.1f}x | {'yes' if agree else 'NO':>5} {memory:8.1f}")


HEADER = (f"{'':<36} {'CPU s: peer':>11} {'1 thr':>8} {'ratio':>8} {'MB/s':>6} | {'wall s: peer':>12} "
          f"{'1 thr':>8} {'2 thr':>8} {'ratio1':>8} {'ratio2':>7} | {'agree':>5} {'peak MiB':>8}")


def text_kernel(hyps: list[str], refs: list[list[str]], tokenize: str) -> Callable[[], Any]:
    """The compiled BLEU call alone on the validated batch (1 thread): tokenizing, interning, counting, clipping."""
    from refscore._core._ngrams import bleu_text_statistics
    from refscore.inputs import prepare_batch

    batch = prepare_batch(hyps, refs)
    return lambda: bleu_text_statistics(batch.hypotheses, batch.references, batch.ref_offsets, tokenize, False, 4,
                                        num_threads=1)


def kernel_line(timing: Timing, megabytes: float, corpus_cpu: float) -> str:
    """The kernel's time alone, and its share of ``corpus_score``."""
    return (f"  kernel alone (bleu_text_statistics): {timing.cpu * 1e3:.2f} ms CPU, {megabytes / timing.cpu:.0f} "
            f"MB/s; the Python around it: {(corpus_cpu - timing.cpu) * 1e3:.2f} ms of corpus_score's "
            f"{corpus_cpu * 1e3:.2f}")


def corpus_benchmarks(repeat: int, peer_repeat: int, pairs: list[str], kernel: bool = True) -> None:
    print("Corpus BLEU (sacreBLEU corpus_score) and HF-style Google-BLEU (Tokenizer13a + nltk corpus_gleu)")
    print(HEADER)
    for pair, tokenize, n_streams in CORPORA:
        if pair not in pairs:
            continue
        hyps, streams, system = load_pair(pair)
        streams = streams[:n_streams]
        refs = refscore.from_streams(streams)
        megabytes = utf8_megabytes(hyps, *streams)
        label = f"{pair} {system} {len(streams)} ref {tokenize}"

        metric = BLEU(tokenize=tokenize)
        ours = [lambda: metric.corpus_score(hyps, refs, num_threads=1),
                lambda: metric.corpus_score(hyps, refs, num_threads=2)] + ([text_kernel(hyps, refs, tokenize)]
                                                                           if kernel else [])
        peer_t, peer, timings, results = timed_in_turns(
            lambda: SacreBLEU(tokenize=tokenize).corpus_score(hyps, streams), ours, peer_repeat, repeat,
            OURS_MIN_SECONDS)
        memory = peak_memory(lambda: metric.corpus_score(hyps, refs, num_threads=1))
        print(row("BLEU " + label, peer_t, timings[0], timings[1], abs(100 * results[0].score - peer.score) <= 1e-9,
                  memory, megabytes))
        if kernel:
            print(kernel_line(timings[2], megabytes, timings[0].cpu))

        def hf_google_bleu() -> float:
            tokenizer = Tokenizer13a()   # a fresh one per run: its lru_cache would make repeated runs unrealistic
            return corpus_gleu([[tokenizer(r).split() for r in group] for group in refs],
                               [tokenizer(h).split() for h in hyps])

        gleu = GLEU()
        peer_t, expected, (one_t, two_t), (ours, _) = timed_in_turns(
            hf_google_bleu, [lambda: gleu.corpus_score(hyps, refs, num_threads=1),
                             lambda: gleu.corpus_score(hyps, refs, num_threads=2)], peer_repeat, repeat, OURS_MIN_SECONDS)
        memory = peak_memory(lambda: gleu.corpus_score(hyps, refs, num_threads=1))
        print(row("GLEU " + label, peer_t, one_t, two_t, ours.score == expected, memory, megabytes))
    print()


def sentence_pairs(count: int) -> tuple[list[str], list[str]]:
    """``count`` (hypothesis, first reference) pairs cycling over every WMT22 system output."""
    hyps: list[str] = []
    refs: list[str] = []
    for pair_dir in sorted(p for p in DATA.iterdir() if (p / "ref.txt").exists()):
        reference = read_segments(pair_dir / "ref.txt")
        for system in sorted((pair_dir / "sys").glob("*.txt")):
            hyps.extend(read_segments(system))
            refs.extend(reference)
    repeats = -(-count // len(hyps))
    return (hyps * repeats)[:count], (refs * repeats)[:count]


def distinct_reference_pairs(count: int) -> tuple[list[str], list[str]]:
    """Up to ``count`` (hypothesis, reference) pairs, one system per WMT22 pair, whose references never repeat."""
    hyps: list[str] = []
    refs: list[str] = []
    seen: set[str] = set()
    for pair_dir in sorted(p for p in DATA.iterdir() if (p / "ref.txt").exists()):
        system = sorted((pair_dir / "sys").glob("*.txt"))[0]
        for hypothesis, reference in zip(read_segments(system), read_segments(pair_dir / "ref.txt")):
            if reference not in seen:
                seen.add(reference)
                hyps.append(hypothesis)
                refs.append(reference)
    return hyps[:count], refs[:count]


def sentence_benchmark(count: int, repeat: int, peer_repeat: int) -> None:
    hyps, refs = sentence_pairs(count)
    print(f"Sentence BLEU on {count:,} pairs (effective_order=True): loop over sacreBLEU sentence_score vs one "
          f"BLEU.sentence_scores call")
    print(HEADER)

    metric = BLEU(effective_order=True)

    def peer_loop(hypotheses: list[str], references: list[str]) -> list[float]:
        peer = SacreBLEU(effective_order=True)  # per run: a cold tokenizer cache each time, as in a first run
        return [peer.sentence_score(h, [r]).score for h, r in zip(hypotheses, references)]

    def compare(label: str, hypotheses: list[str], references: list[str]) -> None:
        peer_t, expected, (one_t, two_t), (ours, _) = timed_in_turns(
            lambda: peer_loop(hypotheses, references),
            [lambda: metric.sentence_scores(hypotheses, references, num_threads=1),
             lambda: metric.sentence_scores(hypotheses, references, num_threads=2)], peer_repeat, repeat,
            OURS_MIN_SECONDS)
        memory = peak_memory(lambda: metric.sentence_scores(hypotheses, references, num_threads=1))
        agree = bool(np.allclose(100 * ours, expected, atol=1e-9, rtol=0))
        print(row(label, peer_t, one_t, two_t, agree, memory, utf8_megabytes(hypotheses, references)))

    compare(f"sentence BLEU x {count:,}", hyps, refs)
    # Each system's references are the same str objects (as when several systems are scored against one reference
    # list); the second row gives every reference its own (equal) object, the third takes one system per pair, so
    # that no reference text repeats.
    distinct = len({id(reference) for reference in refs})
    compare(f"  references as {count:,} objects", hyps, [(reference + "\n")[:-1] for reference in refs])
    own_hyps, unique = distinct_reference_pairs(count)
    compare(f"  {len(own_hyps):,} pairs, no ref repeated", own_hyps, unique)
    print(f"(first row: {distinct:,} distinct reference objects among the {count:,} pairs)")
    print()


def stream_benchmark(segments: int, chunk: int) -> None:
    hyps, streams, _ = load_pair("en-de")
    refs = refscore.from_streams(streams)
    base = len(hyps)

    def chunks():
        for start in range(0, segments, chunk):
            indices = [i % base for i in range(start, min(start + chunk, segments))]
            yield [hyps[i] for i in indices], [refs[i] for i in indices]

    metric = BLEU()
    print(f"Streaming a {segments:,}-segment corpus (wmt22 en-de, 2 refs, cycled) in chunks of {chunk:,}, 2 threads")
    tracemalloc.start()
    timing, summed = timed(lambda: metric.corpus_score_chunks(chunks(), num_threads=2))
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"  corpus_score_chunks (running sums):            wall {timing.wall:6.2f} s, CPU {timing.cpu:6.2f} s, "
          f"peak {peak:7.1f} MiB, BLEU {100 * summed.score:.4f}")

    tracemalloc.start()
    timing, merged = timed(lambda: Statistics.concatenate(metric.statistics(h, r, num_threads=2)
                                                          for h, r in chunks()))
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    merged_score = metric.score_from_statistics(merged)
    print(f"  per-chunk statistics + Statistics.concatenate: wall {timing.wall:6.2f} s, CPU {timing.cpu:6.2f} s, "
          f"peak {peak:7.1f} MiB "
          f"(statistics alone {merged.data.nbytes / 2**20:.1f} MiB), BLEU {100 * merged_score.score:.4f}")
    one_pass = SacreBLEU().corpus_score(hyps, streams).score
    print(f"  same score as the merged statistics: {summed.score == merged_score.score}; "
          f"sacreBLEU on the {base} base segments: {one_pass:.4f} (the cycled corpus repeats them)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (check the script)")
    parser.add_argument("--sentence-pairs", type=int, default=100_000)
    parser.add_argument("--stream-segments", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3, help="refscore timings: best of this many runs")
    parser.add_argument("--peer-repeat", type=int, default=1,
                        help="peer timings: best of this many runs (use 3 on a machine shared with other jobs)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["corpus", "sentence", "stream"])
    parser.add_argument("--kernel", action=argparse.BooleanOptionalAction, default=True,
                        help="time the compiled BLEU call alone under each corpus BLEU row (default: on)")
    parser.add_argument("--pairs", nargs="*", default=sorted({pair for pair, _, _ in CORPORA}),
                        help="the corpus rows' WMT22 pairs (default: all)")
    args = parser.parse_args()
    if args.quick:
        args.sentence_pairs, args.stream_segments, args.chunk, args.repeat = 5_000, 50_000, 10_000, 1
    print(f"refscore {refscore.__version__}, {refscore.show_config()}\n")
    if "corpus" not in args.skip:
        corpus_benchmarks(args.repeat, args.peer_repeat, args.pairs, args.kernel)
    if "sentence" not in args.skip:
        sentence_benchmark(args.sentence_pairs, args.repeat, args.peer_repeat)
    if "stream" not in args.skip:
        stream_benchmark(args.stream_segments, args.chunk)
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
