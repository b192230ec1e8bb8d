"""Corpus BLEU with sacreBLEU's MeCab and SentencePiece tokenizers: refscore against sacreBLEU 2.6 on WMT22 en-ja.

For ``ja-mecab`` and ``flores200``, on one en-ja system (the first alphabetically, 2037 segments, 1 reference) and on
all 13 en-ja systems scored one after the other against the same reference:

- sacreBLEU: ``sacrebleu.metrics.BLEU(tokenize=...).corpus_score`` (a fresh metric per run, so its per-tokenizer
  ``lru_cache`` starts cold, as in a first run), and the CPU time of its tokenizer alone on the same lines;
- refscore: ``refscore.BLEU(tokenize=...).corpus_score`` with 1 and 2 threads (process CPU time too, the robust
  measure on a busy machine for one thread), and the CPU time of
  ``refscore.text.external.tokenize_texts`` alone (the MeCab / SentencePiece calls on the distinct texts).

The real flores200 model is used when it is in sacreBLEU's cache (``$SACREBLEU/models/flores200sacrebleuspm``);
otherwise a stand-in SentencePiece model (unigram, 8000 pieces) is trained on the en-ja reference and systems, and
the output says so (the timings then describe that model, not FLORES-200's 256k-piece one).

    python benchmarks/bench_tokenizers.py              # best of 3 runs for refscore, 1 for sacreBLEU
    python benchmarks/bench_tokenizers.py --peer-repeat 3
"""
from __future__ import annotations

import argparse
import io
import logging
import os
import tempfile
from pathlib import Path

from sacrebleu.metrics.bleu import BLEU as SacreBLEU
from sacrebleu.tokenizers import tokenizer_spm as sacrebleu_spm

import refscore
from refscore import BLEU
from refscore.text.external import sacrebleu_models_dir, sentencepiece_model_file, tokenize_texts

from _timing import best_time

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt22" / "en-ja"
logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def use_flores200_model(systems: dict[str, list[str]], reference: list[str]) -> str:
    """Point both libraries at the real flores200 model, or at a stand-in trained here; describes which."""
    cache = sacrebleu_models_dir()
    if (cache / sentencepiece_model_file("flores200")).is_file():
        return f"the real flores200 model ({cache})"
    import sentencepiece
    home = Path(tempfile.mkdtemp(prefix="refscore-bench-spm-"))
    (home / "models").mkdir()
    model = io.BytesIO()
    lines = reference + [line for hyps in systems.values() for line in hyps]
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=model, vocab_size=8000,
                                             character_coverage=0.9995, minloglevel=2)
    (home / "models" / sentencepiece_model_file("flores200")).write_bytes(model.getvalue())
    os.environ["SACREBLEU"] = str(home)
    sacrebleu_spm.SACREBLEU_DIR = str(home)      # sacreBLEU read $SACREBLEU when it was imported
    return ("a STAND-IN model (8000-piece unigram trained on the en-ja data; the real flores200 model is not in "
            f"{cache})")


def benchmark(tokenize: str, label: str, systems: dict[str, list[str]], reference: list[str], repeat: int,
              peer_repeat: int) -> None:
    print(f"{tokenize}: {label}")
    print(f"  {'':<24} {'sacreBLEU s':>11} {'CPU':>6} {'tok CPU':>9} | {'refscore 1 thr':>14} {'CPU':>6} {'2 thr':>7} "
          f"{'tok CPU':>9} | {'ratio 1':>7} {'CPU':>6} {'ratio 2':>7} | agree")
    names = sorted(systems)
    for title, chosen in ((f"{names[0]} ({len(reference)} seg)", names[:1]), (f"all {len(names)} systems", names)):
        def peer_run() -> list[float]:
            return [SacreBLEU(tokenize=tokenize).corpus_score(systems[n], [reference]).score for n in chosen]

        def peer_tokens() -> None:
            for name in chosen:     # what sacreBLEU's corpus_score tokenizes: the system and the reference
                tokenizer = SacreBLEU(tokenize=tokenize).tokenizer
                for line in systems[name] + reference:
                    tokenizer(line.rstrip())

        def ours_run(threads: int) -> list[float]:
            metric = BLEU(tokenize=tokenize)
            return [100 * metric.corpus_score(systems[n], reference, num_threads=threads).score for n in chosen]

        def ours_tokens() -> None:
            for name in chosen:
                tokenize_texts(tokenize, systems[name] + reference, num_threads=1)

        ours_run(1)     # load the tagger / model once, as any later call finds it loaded
        peer_wall, peer_cpu, expected = best_time(peer_run, peer_repeat)
        _, peer_tok, _ = best_time(peer_tokens, peer_repeat)
        one, one_cpu, ours = best_time(lambda: ours_run(1), repeat)
        two, _, _ = best_time(lambda: ours_run(2), repeat)
        _, ours_tok, _ = best_time(ours_tokens, repeat)
        agree = all(abs(a - b) <= 1e-9 for a, b in zip(ours, expected))
        print(f"  {title:<24} {peer_wall:11.3f} {peer_cpu:6.3f} {peer_tok:9.3f} | {one:14.3f} {one_cpu:6.3f} "
              f"{two:7.3f} {ours_tok:9.3f} | {peer_wall / one:6.2f}x {peer_cpu / one_cpu:5.2f}x "
              f"{peer_wall / two:6.2f}x | {'yes' if agree else 'NO'}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="refscore timings: best of this many runs")
    parser.add_argument("--peer-repeat", type=int, default=1, help="sacreBLEU timings: best of this many runs")
    parser.add_argument("--skip", nargs="*", default=[], choices=["ja-mecab", "flores200"])
    args = parser.parse_args()
    reference = read_segments(DATA / "ref.txt")
    systems = {path.stem: read_segments(path) for path in sorted((DATA / "sys").glob("*.txt"))}
    print(f"refscore {refscore.__version__}, {refscore.show_config()}\n")
    if "ja-mecab" not in args.skip:
        benchmark("ja-mecab", "MeCab + ipadic (mecab-python3)", systems, reference, args.repeat, args.peer_repeat)
    if "flores200" not in args.skip:
        label = use_flores200_model(systems, reference)
        benchmark("flores200", label, systems, reference, args.repeat, args.peer_repeat)


if __name__ == "__main__":
    main()
