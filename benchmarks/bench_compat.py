"""Drop-in timings: refscore.compat against the peers it replaces, on WMT22 en-de (2 references), same run, same data.

Rows (each prints peer time, refscore time, the ratio and whether the outputs are identical):

1. NLTK ``corpus_bleu`` on 13a-tokenized token lists (default smoothing and ``method1``) vs
   ``refscore.compat.nltk.corpus_bleu``; NLTK ``corpus_gleu`` vs ``compat.nltk.corpus_gleu``;
2. a loop of NLTK ``sentence_bleu`` (``method1``) vs the same loop over ``compat.nltk.sentence_bleu``;
3. HF-evaluate style ``google_bleu`` (sacreBLEU's ``Tokenizer13a`` + NLTK ``corpus_gleu``, what the HF script runs)
   vs ``compat.evaluate.load("google_bleu").compute``; HF ``sacrebleu`` (``sacrebleu.corpus_bleu``) vs
   ``compat.evaluate.load("sacrebleu").compute``;
4. ``sacrebleu.corpus_bleu`` vs ``compat.sacrebleu.corpus_bleu``, and with ``n_bootstrap=1000``;
5. adapter overhead: each corpus-level drop-in against refscore's native API on the same data and options
   (``refscore.bleu`` / ``chrf`` / ``ter`` / ``rouge``, and HF rouge's default bootstrap against
   ``rouge(...).bootstrap``), 1 thread, in **CPU time** of this process (robust on a
   shared machine; the native call does the same compiled work, so the difference is the adapter's).

refscore runs with 1 and 2 threads (``REFSCORE_NUM_THREADS``); times are the best of ``--repeat`` wall-clock runs.

    python benchmarks/bench_compat.py [--repeat 3] [--sentences 5000]
"""
from __future__ import annotations

import argparse
import logging
import os
import resource
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from nltk.translate import gleu_score as nltk_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bench_bleu import peak_memory, read_segments  # the sibling script (benchmarks/ is on sys.path)
import refscore
from refscore.compat import evaluate as compat_evaluate
from refscore.compat import nltk as compat_nltk
from refscore.compat import sacrebleu as compat_sacrebleu

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22" / "en-de"
logging.getLogger("sacrebleu").setLevel(logging.ERROR)
warnings.simplefilter("ignore")   # NLTK's method0 warnings


def best_time(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def same(a: Any, b: Any) -> bool:
    if hasattr(a, "score"):
        return str(a) == str(b) and abs(a.score - b.score) <= 1e-9 and (a._mean, a._ci) == (b._mean, b._ci)
    return a == b


def row(name: str, peer: Callable[[], Any], ours: Callable[[], Any], repeat: int) -> None:
    peer_time, peer_result = best_time(peer, repeat)
    cells = []
    agree = True
    for threads in ("1", "2"):
        os.environ["REFSCORE_NUM_THREADS"] = threads
        our_time, our_result = best_time(ours, repeat)
        agree &= same(our_result, peer_result)
        cells.append(f"{our_time * 1000:9.1f} ms ({peer_time / our_time:6.1f}x)")
    os.environ["REFSCORE_NUM_THREADS"] = "1"
    print(f"{name:<44} {peer_time * 1000:10.1f} ms | {' | '.join(cells)} | {peak_memory(ours):6.1f} MiB | "
          f"{'yes' if agree else 'NO'}")


def best_cpu_time(function: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def overhead_rows(hyps: list[str], streams: list[list[str]], per_segment: list[list[str]], repeat: int) -> None:
    """Drop-in vs native refscore, same data and options, 1 thread, CPU time (best of ``5 * repeat``)."""
    os.environ["REFSCORE_NUM_THREADS"] = "1"
    bleu_hf, chrf_hf, ter_hf = (compat_evaluate.load(name) for name in ("bleu", "chrf", "ter"))
    rouge_hf = compat_evaluate.load("rouge")
    first_refs = [refs[0] for refs in per_segment]
    rows = [
        ("HF bleu drop-in vs refscore.bleu", lambda: bleu_hf.compute(predictions=hyps, references=per_segment),
         lambda: refscore.bleu(hyps, per_segment)),
        ("compat sacrebleu.corpus_bleu vs refscore.bleu", lambda: compat_sacrebleu.corpus_bleu(hyps, streams),
         lambda: refscore.bleu(hyps, per_segment)),
        ("HF chrf drop-in vs refscore.chrf", lambda: chrf_hf.compute(predictions=hyps, references=per_segment),
         lambda: refscore.chrf(hyps, per_segment)),
        ("compat sacrebleu.corpus_chrf vs refscore.chrf", lambda: compat_sacrebleu.corpus_chrf(hyps, streams),
         lambda: refscore.chrf(hyps, per_segment)),
        ("HF ter drop-in vs refscore.ter", lambda: ter_hf.compute(predictions=hyps, references=per_segment),
         lambda: refscore.ter(hyps, per_segment)),
        ("HF rouge (no aggregator) vs refscore.rouge",
         lambda: rouge_hf.compute(predictions=hyps, references=first_refs, use_aggregator=False),
         lambda: refscore.rouge(hyps, first_refs)),
        ("HF rouge (bootstrap aggregator) vs rouge().bootstrap",
         lambda: rouge_hf.compute(predictions=hyps, references=first_refs),
         lambda: refscore.rouge(hyps, first_refs).bootstrap(seed=0)),
    ]
    print(f"\nadapter overhead, 1 thread, CPU time, best of {5 * repeat}")
    print(f"{'drop-in vs native':<48} {'drop-in':>10} | {'native':>10} | overhead")
    for name, drop_in, native in rows:
        drop_in(), native()   # warm caches and lazy imports
        ours, theirs = best_cpu_time(drop_in, 5 * repeat), best_cpu_time(native, 5 * repeat)
        print(f"{name:<48} {ours * 1000:7.2f} ms | {theirs * 1000:7.2f} ms | {100 * (ours / theirs - 1):+6.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=5000, help="sentence_bleu loop length")
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"WMT22 data not found at {DATA}")
    system = sorted((DATA / "sys").glob("*.txt"))[0]
    hyps = read_segments(system)
    streams = [read_segments(DATA / "ref.txt"), read_segments(DATA / "ref2.txt")]
    per_segment = [list(refs) for refs in zip(*streams)]
    tokenizer = Tokenizer13a()
    hyp_tokens = [tokenizer(h).split() for h in hyps]
    ref_tokens = [[tokenizer(r).split() for r in refs] for refs in per_segment]
    method1_nltk, method1_ours = nltk_bleu.SmoothingFunction().method1, compat_nltk.SmoothingFunction().method1
    n = min(args.sentences, len(hyps))
    pairs = [(ref_tokens[i % len(hyps)], hyp_tokens[i % len(hyps)]) for i in range(n)]

    print(f"WMT22 en-de, system {system.stem}: {len(hyps)} segments, 2 references; best of {args.repeat}")
    print(f"{'task':<44} {'peer':>13} | {'refscore 1 thread':^27} | {'refscore 2 threads':^27} | {'peak':>10} | same")
    row("NLTK corpus_bleu (method0)", lambda: nltk_bleu.corpus_bleu(ref_tokens, hyp_tokens),
        lambda: compat_nltk.corpus_bleu(ref_tokens, hyp_tokens), args.repeat)
    row("NLTK corpus_bleu (method1, 3 weight tuples)",
        lambda: nltk_bleu.corpus_bleu(ref_tokens, hyp_tokens, [(0.25,) * 4, (0.5, 0.5), (1.0,)], method1_nltk),
        lambda: compat_nltk.corpus_bleu(ref_tokens, hyp_tokens, [(0.25,) * 4, (0.5, 0.5), (1.0,)], method1_ours),
        args.repeat)
    row("NLTK corpus_gleu", lambda: nltk_gleu.corpus_gleu(ref_tokens, hyp_tokens),
        lambda: compat_nltk.corpus_gleu(ref_tokens, hyp_tokens), args.repeat)
    row(f"NLTK sentence_bleu loop ({n}, method1)",
        lambda: [nltk_bleu.sentence_bleu(r, h, smoothing_function=method1_nltk) for r, h in pairs],
        lambda: [compat_nltk.sentence_bleu(r, h, smoothing_function=method1_ours) for r, h in pairs], 1)
    row("HF google_bleu (13a + NLTK corpus_gleu)",
        lambda: {"google_bleu": nltk_gleu.corpus_gleu([[tokenizer(r).split() for r in refs] for refs in per_segment],
                                                      [tokenizer(h).split() for h in hyps])},
        lambda: compat_evaluate.load("google_bleu").compute(predictions=hyps, references=per_segment), args.repeat)
    row("HF sacrebleu (sacrebleu.corpus_bleu)",
        lambda: sacrebleu.corpus_bleu(hyps, streams).score,
        lambda: compat_evaluate.load("sacrebleu").compute(predictions=hyps, references=per_segment)["score"],
        args.repeat)
    row("sacrebleu.corpus_bleu", lambda: sacrebleu.corpus_bleu(hyps, streams),
        lambda: compat_sacrebleu.corpus_bleu(hyps, streams), args.repeat)
    row("sacrebleu BLEU().corpus_score n_bootstrap=1000",
        lambda: sacrebleu.BLEU().corpus_score(hyps, streams, n_bootstrap=1000),
        lambda: compat_sacrebleu.BLEU().corpus_score(hyps, streams, n_bootstrap=1000), 1)
    overhead_rows(hyps, streams, per_segment, args.repeat)
    print(f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
