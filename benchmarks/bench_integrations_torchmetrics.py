"""torchmetrics' own text metrics against refscore's torchmetrics adapter (refscore.integrations.torchmetrics) on
the same outputs: WMT22 en-de, one system (JDExploreAcademy, 2,037 segments, both references), fed to each
metric's ``update`` in batches of ``--batch`` segments as a training or evaluation loop would, then ``compute()``.

Per metric: the best wall time of ``--repeat`` full passes (update over every batch, compute), both metrics'
scores on sacreBLEU's 0-100 scale, sacreBLEU's corpus score and whether each equals it (to 1e-9), and the ratio.
The pairs: torchmetrics ``BLEUScore`` (its default ``tokenize="13a"``, ``n_gram=4``, no smoothing) and
``SacreBLEUScore`` against refscore BLEU; ``CHRFScore`` (``n_word_order=0`` to be chrF, its default is chrF++
``n_word_order=2``) against refscore chrF; and ``CHRFScore()`` (chrF++) against refscore ``chrf`` ``word_order=2``;
``TranslationEditRate`` against refscore TER.

    python benchmarks/bench_integrations_torchmetrics.py [--batch 64] [--repeat 3] [--threads 1]
"""
from __future__ import annotations

import argparse
import logging

import sacrebleu
import torchmetrics.text as tmt

from _timing import best_time
from bench_bleu import DATA, read_segments  # the sibling script (benchmarks/ is on sys.path)
from refscore.integrations.torchmetrics import metric

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def run(make, hypotheses: list[str], references: list[list[str]], size: int) -> float:
    scorer = make()
    for start in range(0, len(hypotheses), size):
        scorer.update(hypotheses[start:start + size], references[start:start + size])
    return 100 * float(scorer.compute())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    folder = DATA / "en-de"
    hypotheses = read_segments(folder / "sys" / "JDExploreAcademy.txt")
    streams = [read_segments(folder / "ref.txt"), read_segments(folder / "ref2.txt")]
    references = [list(pair) for pair in zip(*streams)]
    t = args.threads
    rows = [
        ("BLEU", sacrebleu.corpus_bleu(hypotheses, streams).score,
         lambda: tmt.BLEUScore(), lambda: metric("bleu", num_threads=t)),
        ("BLEU (SacreBLEUScore)", sacrebleu.corpus_bleu(hypotheses, streams).score,
         lambda: tmt.SacreBLEUScore(), lambda: metric("bleu", num_threads=t)),
        ("chrF", sacrebleu.corpus_chrf(hypotheses, streams).score,
         lambda: tmt.CHRFScore(n_word_order=0), lambda: metric("chrf", num_threads=t)),
        ("chrF++", sacrebleu.corpus_chrf(hypotheses, streams, word_order=2).score,
         lambda: tmt.CHRFScore(), lambda: metric("chrf", word_order=2, num_threads=t)),
        ("TER", sacrebleu.corpus_ter(hypotheses, streams).score,
         lambda: tmt.TranslationEditRate(), lambda: metric("ter", num_threads=t)),
    ]
    print(f"WMT22 en-de, {len(hypotheses)} segments, 2 references, batches of {args.batch}, {t} thread(s)")
    print(f"{'metric':24} {'sacreBLEU':>10} {'torchmetrics':>13} {'agrees':>6} {'refscore':>10} {'agrees':>6} "
          f"{'tm s':>8} {'refscore s':>10} {'ratio':>8}")
    for name, peer, own, adapter in rows:
        own_wall, _, own_score = best_time(lambda: run(own, hypotheses, references, args.batch), args.repeat)
        ref_wall, _, ref_score = best_time(lambda: run(adapter, hypotheses, references, args.batch), args.repeat)
        print(f"{name:24} {peer:10.4f} {own_score:13.4f} {str(abs(own_score - peer) < 1e-9):>6} {ref_score:10.4f} "
              f"{str(abs(ref_score - peer) < 1e-9):>6} {own_wall:8.3f} {ref_wall:10.4f} {own_wall / ref_wall:7.1f}x")


if __name__ == "__main__":
    main()
